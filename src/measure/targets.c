// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The -p processes as /proc shows them: PID/stat gives the name and the
 * state, a zombie counting as gone (it runs no more); a process once gone
 * stays gone, whoever gets its PID next.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "measure/targets.h"
#include "util/fileio.h"

/* "PID (comm) S ...": the name may hold spaces and parentheses. */
static void look_at(const struct targets *ts, struct target *t)
{
	char path[96], buf[512];
	const char *open, *close;

	snprintf(path, sizeof(path), "%s/%d/stat", ts->proc, t->pid);
	if (read_small_file(path, buf, sizeof(buf)) < 0 || !(open = strchr(buf, '(')) ||
	    !(close = strrchr(buf, ')')) || close < open || close[1] != ' ' ||
	    close[2] == 'Z' || close[2] == 'X' || close[2] == 'x') {
		t->alive = false;
		return;
	}
	snprintf(t->comm, sizeof(t->comm), "%.*s", (int)(close - open - 1), open + 1);
}

static const char *living_comm(void *ctx, int pid)
{
	const struct targets *ts = ctx;

	for (size_t i = 0; i < ts->nr; i++)
		if (ts->t[i].pid == pid)
			return ts->t[i].alive ? ts->t[i].comm : NULL;
	return NULL;
}

int targets__init(struct targets *ts, const char *proc, const int *pids, size_t nr)
{
	memset(ts, 0, sizeof(*ts));
	snprintf(ts->proc, sizeof(ts->proc), "%s", proc);
	ts->t = calloc(nr ? nr : 1, sizeof(*ts->t));
	if (!ts->t)
		return -ENOMEM;
	ts->nr = nr;
	for (size_t i = 0; i < nr; i++) {
		ts->t[i].pid = pids[i];
		ts->t[i].alive = true;
	}
	ts->absent.comm = living_comm;
	ts->absent.ctx = ts;
	targets__refresh(ts);
	return 0;
}

void targets__refresh(struct targets *ts)
{
	for (size_t i = 0; i < ts->nr; i++)
		if (ts->t[i].alive)
			look_at(ts, &ts->t[i]);
}

bool targets__all_gone(const struct targets *ts)
{
	for (size_t i = 0; i < ts->nr; i++)
		if (ts->t[i].alive)
			return false;
	return ts->nr > 0;
}

void targets__free(struct targets *ts)
{
	free(ts->t);
	memset(ts, 0, sizeof(*ts));
}
