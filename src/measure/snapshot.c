// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Room in a snapshot's task arrays, which every read of the maps reuses. */
#include <errno.h>
#include <stdlib.h>
#include "measure/snapshot.h"
#include "util/grow.h"

int snapshot__reserve(struct snapshot *s, size_t n)
{
	/* keys and vals share s->cap: it moves once both have grown */
	size_t keys_cap = s->cap;

	if (GROW(s->keys, keys_cap, n, 256))
		return -ENOMEM;
	return GROW(s->vals, s->cap, n, 256);
}

void snapshot__free(struct snapshot *s)
{
	free(s->keys);
	free(s->vals);
	s->keys = NULL;
	s->vals = NULL;
	s->nr = s->cap = 0;
}
