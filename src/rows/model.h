/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One interval's result as every output sees it: the collector (live) and
 * the recording reader fill it, outputs only read it.
 */
#ifndef __TDTOP_MODEL_H
#define __TDTOP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "tdtop_abi.h"
#include "pmu/topdown.h"
#include "util/usernames.h"

enum row_kind {
	ROW_PROCESS,
	ROW_THREAD,
	ROW_CGROUP,
};

/* Deltas of one counter over the interval. */
struct delta {
	__u64 count;	/* raw, as read */
	__u64 enabled;	/* ns the event was enabled */
	__u64 running;	/* ns it was on the PMU */
};

struct row {
	enum row_kind kind;
	int pid;
	int tid;		/* thread rows only; == pid for process rows */
	char comm[TASK_COMM_LEN];
	char user[USER_NAME_LEN]; /* the owner as recorded, "" when unknown */
	__u32 uid;		/* its uid, when user[0] */
	bool exited;		/* last report: the task (or process) is gone */
	int nr_threads;		/* process rows: threads charged this interval;
				 * cgroup rows: tasks, descendants' included */
	__u64 cgroup_id;	/* cgroup mode: the row's (a process's: its first thread's) */
	char *cgroup;		/* its path below the cgroup root, or NULL; owned by the row */
	int depth;		/* cgroup rows: below the root (0) */
	__u64 cpu_ns;
	struct delta ev[MAX_EVENTS];
	struct td_result td;	/* valid only when the interval is TopDown */
	double ipc;		/* NAN when cycles/instructions are not counted */
};

struct interval {
	double ts;		/* unix seconds at the end of the interval */
	double interval_s;	/* measured length */
	int ncpus;
	int nr_events;
	const char *const *event_names; /* nr_events canonical names */
	struct delta totals[MAX_EVENTS];
	struct delta idle[MAX_EVENTS];
	struct delta lost[MAX_EVENTS];
	__u64 total_cpu_ns;
	__u64 idle_cpu_ns;
	__u64 lost_cpu_ns;
	__u64 dropped;		/* slices charged to no task: map full */
	__u64 read_errors;	/* counter reads that failed */
	__u64 switches;
	enum row_kind row_kind;	/* what the view makes rows of, also when there are none */
	bool topdown;		/* rows carry a TopDown breakdown */
	bool cgroups;		/* rows carry their cgroup */
	int level;		/* TopDown level shown: 1 or 2 */
	bool smt_contention;	/* the method measures SMT contention (AMD) */
	const char *method;	/* td_method_name(), or "none" */
	struct td_result td;	/* all tasks together, idle excluded */
	double ipc;
	const char *notice;	/* why TopDown is not shown, or NULL */
	double bpf_ns_per_switch; /* tdtop's kernel-side cost; NAN when unknown */
	double self_cpu_pct;	/* tdtop's own CPU use, % of one CPU; NAN when unknown */
	size_t nr_rows;
	struct row *rows;
};

/*
 * The count scaled for multiplexing: count * enabled / running.
 * NAN when the event never ran although it was enabled.
 */
double delta__scaled(const struct delta *d);

/* Share of the enabled time the event was counted, 1.0 when not enabled. */
double delta__running_share(const struct delta *d);

/*
 * The multiplexing-scaled count of *d* rounded to an integer: the exact
 * raw count when the event was never multiplexed. "" when NaN (the event
 * never ran). Returns the length written.
 */
int delta__format(const struct delta *d, char *buf, size_t size);

/* "process", "thread" or "cgroup": the row's type as the outputs name it. */
const char *row__type(const struct row *r);

/*
 * Only the rows *keep* says yes to, in their order; returns how many. The
 * cgroup paths of the rows left out are freed.
 */
size_t rows__filter(struct row *rows, size_t nr, bool (*keep)(void *arg, const struct row *r),
		    void *arg);

/* At most *top* rows (0: all), the paths of the others freed; returns how many. */
size_t rows__top(struct row *rows, size_t nr, size_t top);

/* Number of events of *iv* clamped to 0..MAX_EVENTS. */
int interval__nr_events(const struct interval *iv);

/* Name of event *i*: iv->event_names[i], or "event<i>" written to *buf*. */
const char *interval__event_name(const struct interval *iv, int i, char *buf, size_t size);

/* *cpu_ns* as a percentage of one CPU over the interval; NaN if it has no length. */
double interval__cpu_pct(const struct interval *iv, __u64 cpu_ns);

/* Busy (not idle) time as a percentage of all CPUs; NaN if unknown. */
double interval__busy_pct(const struct interval *iv);

/* Share of the time the least counted event ran (1.0: none multiplexed). */
double interval__min_running_share(const struct interval *iv);

#endif /* __TDTOP_MODEL_H */
