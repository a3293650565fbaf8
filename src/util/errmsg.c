// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* errmsg(): the one way library code reports a failure with its reason. */
#include <stdarg.h>
#include <stdio.h>
#include "util/errmsg.h"

int errmsg(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return ret;
}
