/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Small string tests shared by parsers and option handling. */
#ifndef __TDTOP_STRUTIL_H
#define __TDTOP_STRUTIL_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the *n* bytes at *s* end in *suffix* (a C string). */
bool ends_with(const char *s, size_t n, const char *suffix);

#endif /* __TDTOP_STRUTIL_H */
