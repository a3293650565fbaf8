// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The per-task list of one measured interval. */
#include <stdlib.h>
#include <string.h>
#include "rows/sample.h"

struct task_delta *sample__add(struct sample *s)
{
	if (s->nr == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		struct task_delta *t = realloc(s->tasks, cap * sizeof(*t));

		if (!t)
			return NULL;
		s->tasks = t;
		s->cap = cap;
	}
	memset(&s->tasks[s->nr], 0, sizeof(s->tasks[0]));
	return &s->tasks[s->nr++];
}

void sample__free(struct sample *s)
{
	free(s->tasks);
	s->tasks = NULL;
	s->nr = s->cap = 0;
}
