/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Deciding what to count and starting to count it: the user's -e events,
 * or TopDown when the CPU has it and it opens, else the best fallback,
 * with the reason kept for the user.
 */
#ifndef __TDTOP_STARTUP_H
#define __TDTOP_STARTUP_H

#include "discover.h"
#include "live.h"
#include "options.h"
#include "pipeline.h"

struct startup {
	struct event_list events;
	struct td_discovery disc;
	struct pipeline pipe;
	int level;			/* TopDown level actually shown */
	char method[64];		/* "perf_metrics", "perf_metrics+intel_atom", "none" */
	char notice[TD_REASON_LEN + 128]; /* fallback or caveat, "" when none */
	char title[192];		/* CPU model and method, for headers */
};

/*
 * Parse -e or discover TopDown, then open the live collector with the
 * first choice that works. Returns an exit code: EXIT_OK, EXIT_USAGE (bad
 * -e) or EXIT_RUNTIME, with a one-line message in *err*.
 */
int startup_open(struct startup *st, const struct options *o, const char *sysfs,
		 struct live *live, char *err, size_t errlen);

#endif /* __TDTOP_STARTUP_H */
