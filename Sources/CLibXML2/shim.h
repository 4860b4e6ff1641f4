#ifndef ANCHORAGE_CLIBXML2_SHIM_H
#define ANCHORAGE_CLIBXML2_SHIM_H

// Debian's libxml2-dev (apt-get install libxml2-dev) provides these headers
// and libxml-2.0.pc. Only the SAX2 push parser and its errors are used.
#include <libxml/xmlversion.h>

// Debian builds libxml2 with ICU, whose headers would clash with the copy
// of ICU inside Foundation. ICU only appears in the encoding handler's
// private fields, which Swift never reads by value (it holds the handler by
// pointer), so the headers are read without it.
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#endif
