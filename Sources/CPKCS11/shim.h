#ifndef ANCHORAGE_CPKCS11_SHIM_H
#define ANCHORAGE_CPKCS11_SHIM_H

// The PKCS#11 (OASIS) interface as Debian's libp11-kit-dev declares it
// (p11-kit-1.pc). Nothing is linked: the node loads the module a token's
// vendor ships (SoftHSM2, a cloud HSM's client library…) with dlopen.
#include <p11-kit/pkcs11.h>
#include <dlfcn.h>

#endif
