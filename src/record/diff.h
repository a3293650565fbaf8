/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * tdtop report --diff BEFORE AFTER: each recording summed over its whole
 * length per command name (or cgroup path: PIDs differ between runs),
 * then the change of on-CPU time and slots per second (recordings of
 * different lengths compare) and of every TopDown category.
 */
#ifndef __TDTOP_DIFF_H
#define __TDTOP_DIFF_H

#include <stddef.h>
#include <stdio.h>
#include "rows/model.h"
#include "output/output.h"
#include "rows/pipeline.h"
#include "util/keyindex.h"

/* One key's sums over a whole recording. */
struct diff_side {
	bool seen;
	__u64 cpu_ns;
	struct delta ev[MAX_EVENTS];
	struct td_result td;
	double ipc;
};

struct diff_entry {
	char key[256];		/* command name or cgroup path */
	struct diff_side side[2];
};

/* One recording as a whole. */
struct diff_run {
	double duration_s;	/* its intervals' lengths, summed */
	char method[32];	/* its TopDown method, "none" without */
	int sort_event;		/* the -s event's index in its events, -1 for none */
};

struct diff_table {
	size_t nr;
	size_t cap;
	struct diff_entry *e;
	struct key_index index;	/* of e[] by key */
	bool topdown;		/* both sides have TopDown */
	struct diff_run run[2];
	struct sort_key sort;	/* cpu by default; an event is run[].sort_event */
};

/* Add a row's deltas to *key*'s sums of side *which* (0 or 1). -ENOMEM. */
int diff_table__add(struct diff_table *t, const char *key, int which, const struct row *r);

/*
 * Side *which* is complete: its TopDown and IPC computed with the
 * pipeline it was recorded with; its rates are per second of
 * *duration_s*, the recording's length.
 */
void diff_table__finish(struct diff_table *t, int which, const struct pipeline *p,
			double duration_s);

/*
 * Print the comparison ordered by t->sort: the largest change first (of
 * CPU, an event's rate, a TopDown fraction, slots per second or IPC), or
 * by name for comm. -1 on a write error.
 */
int diff_table__print(struct diff_table *t, enum output_format fmt, int level, FILE *f);

void diff_table__free(struct diff_table *t);

#endif /* __TDTOP_DIFF_H */
