#ifndef ANCHORAGE_CMALLOC_SHIM_H
#define ANCHORAGE_CMALLOC_SHIM_H

// glibc's malloc tuning and trimming (mallopt, malloc_trim), which Swift's
// Glibc module leaves out. Nothing else belongs in this module.
#include <malloc.h>

#endif
