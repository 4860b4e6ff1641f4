#ifndef ANCHORAGE_CLMDB_SHIM_H
#define ANCHORAGE_CLMDB_SHIM_H

// Debian's liblmdb-dev (apt-get install liblmdb-dev) provides lmdb.h and
// lmdb.pc. Nothing else belongs in this module.
#include <lmdb.h>

#endif
