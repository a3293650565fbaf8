// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Small string tests. */
#include <string.h>
#include "util/strutil.h"

bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && !memcmp(s + n - k, suffix, k);
}
