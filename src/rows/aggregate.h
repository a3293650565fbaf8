/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * From one interval's per-task deltas to the rows shown: grouping by
 * process, thread or cgroup, the filters, sorting and --top.
 */
#ifndef __TDTOP_AGGREGATE_H
#define __TDTOP_AGGREGATE_H

#include <stdbool.h>
#include <stddef.h>
#include "rows/model.h"
#include "rows/sample.h"

enum group_by {
	BY_PROCESS,
	BY_THREAD,
	BY_CGROUP,
};

/* What aggregation needs to know of the cgroup tree (live: the cgroup
 * cache; tests: a table). */
struct cgroup_tree {
	/* ancestors of id, nearest first, the root last; -1 when unknown */
	int (*ancestors)(void *ctx, __u64 id, __u64 *out, int max);
	/* path below the cgroup root ("/a/b"), NULL when unknown */
	const char *(*path)(void *ctx, __u64 id);
	void *ctx;
};

#define MAX_CGROUP_DEPTH 64

enum sort_kind {
	SORT_CPU,	/* on-CPU time, descending */
	SORT_PID,	/* ascending */
	SORT_COMM,	/* ascending */
	SORT_EVENT,	/* an event's scaled count, descending */
	SORT_TD,	/* a TopDown fraction (or slots, IPC), descending */
};

struct sort_key {
	enum sort_kind kind;
	int event;	/* SORT_EVENT: index into the event list */
	int field;	/* SORT_TD: index into td_fields[], or TD_SORT_SLOTS/IPC */
};

#define TD_SORT_SLOTS (-1)
#define TD_SORT_IPC (-2)

/*
 * The -p processes that did not run in an interval get a row of zeros
 * (as top shows an idle process), named by comm() while they live.
 */
struct absent_rows {
	/* the name of process *pid*, NULL once it is gone */
	const char *(*comm)(void *ctx, int pid);
	void *ctx;
};

struct view {
	enum group_by by;
	const int *pids;	/* only these processes; none means all */
	size_t nr_pids;
	const struct absent_rows *absent; /* zero rows for pids that did not run; NULL: none */
	const char *comm;	/* only rows whose name contains this; NULL: all */
	const struct cgroup_tree *cg;	/* cgroup mode; NULL otherwise */
	__u64 within;		/* only tasks in this cgroup or below; 0: all */
	int cgroup_depth;	/* cgroup rows at most this far below *within* (or the
				 * root); 0: any depth */
	struct sort_key sort;
	size_t top;		/* at most this many rows; 0 = all */
};

/*
 * Parse a --sort value: "cpu" (or its JSON name "cpu_pct"), "pid",
 * "comm", a TopDown field by its JSON name or its short alias
 * (td_fields[]), "slots", "ipc" or one of the event *names*. Returns -1
 * when it is none of them.
 */
int sort_key__parse(const char *s, const char *const *names, int nr_names, struct sort_key *key);

/* "cpu", "pid", "comm", a TopDown field or the event's name ("?" if out of range). */
const char *sort_key__name(const struct sort_key *k, const char *const *names, int nr_names);

/*
 * Build *iv* from *s*: grouped and filtered rows, unsorted. iv->rows is
 * allocated (free with interval__free_rows); the event names are borrowed.
 * -ENOMEM on allocation failure.
 */
int interval__aggregate(const struct sample *s, const struct view *v, int nr_events,
	      const char *const *names, struct interval *iv);

/* Order the rows by v->sort and keep the first v->top. */
void interval__sort(struct interval *iv, const struct view *v);

void interval__free_rows(struct interval *iv);

#endif /* __TDTOP_AGGREGATE_H */
