// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Room in a snapshot's task arrays, which every read of the maps reuses. */
#include <errno.h>
#include <stdlib.h>
#include "measure/snapshot.h"

int snapshot__reserve(struct snapshot *s, size_t n)
{
	size_t cap = s->cap ? s->cap : 256;
	struct task_key *k;
	struct task_val *v;

	if (n <= s->cap)
		return 0;
	while (cap < n)
		cap *= 2;
	k = realloc(s->keys, cap * sizeof(*k));
	if (!k)
		return -ENOMEM;
	s->keys = k;
	v = realloc(s->vals, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->vals = v;
	s->cap = cap;
	return 0;
}

void snapshot__free(struct snapshot *s)
{
	free(s->keys);
	free(s->vals);
	s->keys = NULL;
	s->vals = NULL;
	s->nr = s->cap = 0;
}
