/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* One-line error messages into a caller's buffer. */
#ifndef __TDTOP_ERRMSG_H
#define __TDTOP_ERRMSG_H

#include <stddef.h>

/* Format into *err* (when it is not NULL) and return *ret*, so a failing
 * parser can `return errmsg(err, errlen, -EINVAL, "...")`. */
int errmsg(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif /* __TDTOP_ERRMSG_H */
