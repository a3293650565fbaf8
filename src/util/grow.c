// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Array growth by doubling, refusing sizes that overflow size_t. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/grow.h"

int grow(void *pp, size_t *cap, size_t need, size_t size, size_t min_cap)
{
	size_t n = *cap ? *cap : (min_cap ? min_cap : 1);
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -ENOMEM;
		n *= 2;
	}
	if (size && n > SIZE_MAX / size)
		return -ENOMEM;
	memcpy(&p, pp, sizeof(p));
	p = realloc(p, n * size);
	if (!p)
		return -ENOMEM;
	memcpy(pp, &p, sizeof(p));
	*cap = n;
	return 0;
}
