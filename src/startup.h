/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The live session every measuring command shares (batch, the screen,
 * record, the exporter): the checks made before privileges matter, the
 * cgroup tree, privileges and signals; deciding what to count and
 * starting to count it (the user's -e events, or TopDown when the CPU has
 * it and it opens, else the best fallback, with the reason kept for the
 * user); and the interval clock.
 */
#ifndef __TDTOP_STARTUP_H
#define __TDTOP_STARTUP_H

#include "cgroup/cgroupfs.h"
#include "pmu/discover.h"
#include "measure/live.h"
#include "measure/targets.h"
#include "options.h"
#include "rows/pipeline.h"

/* The cgroup tree as aggregation sees it, when rows involve cgroups. */
struct cgroups {
	bool on;
	struct cgroup_cache cache;
	struct cgroup_tree tree;
	__u64 selected;			/* -c PATH, or 0 */
	const char *user_path;		/* -c as given, for messages */
	char *abs;			/* -c as a directory path, to follow it */
	bool missing;			/* -c's directory was gone at the last look */
};

/* What is counted, and how the user is told about it. */
struct startup {
	struct event_list events;
	struct td_discovery disc;
	struct pipeline pipe;
	int level;			/* TopDown level actually shown */
	char method[64];		/* "perf_metrics", "perf_metrics+intel_atom", "none" */
	char notice[TD_REASON_LEN + 128]; /* fallback or caveat, "" when none */
	char title[256];		/* CPU model and method, for headers */
	bool by_cgroup;			/* tasks are charged per cgroup */
	const char *sysfs;		/* the sysfs root, for the collector too */
};

struct session {
	struct cgroups cg;
	struct startup st;
	struct live live;
	struct sample sample;		/* the last interval's deltas */
	struct view view;		/* rows as the command line asks */
	struct targets targets;		/* the -p processes; the view's absent rows */
	bool targets_gone;		/* every one had exited at the last interval */
	bool last;			/* session__run(): this interval ends the run (-p) */
	char sort_note[160];		/* the screen's word on a -s without values, or "" */
};

/*
 * What can be checked before privileges matter (-e, -p, -c), the cgroup
 * tree when rows involve cgroups, and the view of the command line.
 * Returns an exit code with a message in *err*: a mistake on the command
 * line is a usage error, no cgroup v2 a runtime one. Close *s* either way.
 */
int session__open(struct session *s, const struct options *o, const char *sysfs, char *err,
		  size_t errlen);

/*
 * Check the privileges, install the signal handlers, and open the live
 * collector with the first choice of events that works; then resolve -s
 * against the events counted. Returns an exit code with a message in
 * *err*: EXIT_USAGE for a bad -e or -s, else EXIT_RUNTIME. A -s that has
 * no values here (-s backend without TopDown) is a usage error too, but
 * for the screen, which sorts by CPU and says why in s->sort_note.
 */
int session__start(struct session *s, const struct options *o, const char *sysfs, char *err,
		   size_t errlen);

void session__close(struct session *s);

/* The fallback or caveat, to stderr, for the commands without a screen. */
void session__print_notice(const struct session *s);

/* Removed cgroups have had their last report: forget them. */
void session__drop_gone_cgroups(struct session *s);

/*
 * -c names a path: when its directory was removed and made again (a
 * service restart) the view follows the new cgroup from the interval at
 * hand. Returns true with a one-line message in *msg* (no newline) when
 * the cgroup was found gone or made again; each is said once.
 */
bool session__follow_cgroup(struct session *s, char *msg, size_t len);

/*
 * Called with each interval's sample in s->sample: 0 to go on, 1 to stop
 * (the reader went away, the work is done), -errno with a message.
 */
typedef int (*session_each_fn)(struct session *s, void *arg, char *err, size_t errlen);

/*
 * Drop privileges, take the baseline, then every o->delay_s hand a sample
 * to *each* until a signal, o->iterations intervals or *each* stops it,
 * or one interval after every -p process has exited (said on stderr).
 * An interrupted interval is still handed over. Returns an exit code.
 */
int session__run(struct session *s, const struct options *o, session_each_fn each, void *arg,
		 char *err, size_t errlen);

/* As session_each_fn, with the interval's rows in the command line's view. */
typedef int (*session_emit_fn)(void *arg, const struct interval *iv, char *err, size_t errlen);

/* session__run() for the commands that show rows: batch and the exporter. */
int session__run_rows(struct session *s, const struct options *o, session_emit_fn emit,
		      void *arg, char *err, size_t errlen);

/*
 * Loaded, counting, and the output opened: what is left to do needs far
 * less than what got here. A failure is only told with *verbose*.
 */
void session_drop_privileges(bool verbose);

#endif /* __TDTOP_STARTUP_H */
