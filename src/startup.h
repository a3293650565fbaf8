/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Deciding what to count and starting to count it: the user's -e events,
 * or TopDown when the CPU has it and it opens, else the best fallback,
 * with the reason kept for the user.
 */
#ifndef __TDTOP_STARTUP_H
#define __TDTOP_STARTUP_H

#include "cgroup/cgroupfs.h"
#include "pmu/discover.h"
#include "measure/live.h"
#include "options.h"
#include "rows/pipeline.h"

/* The cgroup tree as aggregation sees it, when rows involve cgroups. */
struct cgroups {
	bool on;
	struct cgroup_cache cache;
	struct cgroup_tree tree;
	__u64 selected;			/* -c PATH, or 0 */
};

/*
 * Find the cgroup2 mount and resolve -c when cgroups matter for *o*.
 * Returns an exit code with a message in *err*: a -c path that is not a
 * cgroup is a usage error, no cgroup v2 a runtime one.
 */
int cgroups_open(struct cgroups *cg, const struct options *o, char *err, size_t errlen);

void cgroups_close(struct cgroups *cg);

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

/*
 * Parse -e or discover TopDown, then open the live collector with the
 * first choice that works. Returns an exit code: EXIT_OK, EXIT_USAGE (bad
 * -e) or EXIT_RUNTIME, with a one-line message in *err*.
 */
int startup_open(struct startup *st, const struct options *o, const char *sysfs,
		 bool by_cgroup, struct live *live, char *err, size_t errlen);

#endif /* __TDTOP_STARTUP_H */
