// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The per-task list of one measured interval. */
#include <stdlib.h>
#include <string.h>
#include "rows/sample.h"
#include "util/grow.h"

struct task_delta *sample__add(struct sample *s)
{
	if (GROW(s->tasks, s->cap, s->nr + 1, 256))
		return NULL;
	memset(&s->tasks[s->nr], 0, sizeof(s->tasks[0]));
	return &s->tasks[s->nr++];
}

void sample__free(struct sample *s)
{
	free(s->tasks);
	s->tasks = NULL;
	s->nr = s->cap = 0;
}
