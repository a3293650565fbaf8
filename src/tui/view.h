/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the interactive view is given: where its intervals come from and
 * the command line's choices. Every part of tui/ reads these; tui.h, the
 * entry point above them, only adds tui_run().
 */
#ifndef __TDTOP_TUI_VIEW_H
#define __TDTOP_TUI_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include "rows/aggregate.h"
#include "rows/model.h"
#include "rows/pipeline.h"
#include "rows/sample.h"

/* Return values of tui_source.fetch */
enum {
	TUI_FETCH_OK = 0,	/* *out* holds the next interval */
	TUI_FETCH_END = 1,	/* no more data (end of a recording) */
	TUI_FETCH_BASELINE = 2,	/* only a baseline was taken: call again later */
	TUI_FETCH_ERROR = -1,	/* message in *err* */
};

struct tui_source {
	/*
	 * Fill *out* from scratch with the next interval (its tasks array may
	 * be reused). Live: takes a snapshot at once, the TUI decides when to
	 * call. Replay: returns the next recorded interval without waiting.
	 * The TUI alternates between two samples it owns and frees.
	 */
	int (*fetch)(void *arg, struct sample *out, char *err, size_t errlen);
	/* Turns a fetched sample into display rows: aggregate, metrics, sort, top. */
	const struct pipeline *pipe;
	/*
	 * Optional: tdtop's own CPU% (of one CPU) over the interval fetched last,
	 * and its BPF cost per context switch in ns (NAN when unknown). When
	 * NULL, the interval's self_cpu_pct and bpf_ns_per_switch are shown.
	 */
	double (*self_cost)(void *arg, double *bpf_ns_per_switch);
	void *arg;
	bool live;		/* false: a recording, paused means no fetching at all */
};

struct tui_opts {
	double delay_s;		/* between intervals */
	long iterations;	/* exit after this many intervals; 0: until q */
	struct view view;	/* initial grouping, filters, sort, top and cgroup filter;
				 * pids are copied, the rest is borrowed */
	bool reverse;		/* sort the other way round */
	bool tree;		/* processes with their threads, cgroups as a tree */
	unsigned int hidden;	/* columns turned off: TUI_HIDE() bits of tui/draw.h */
	int level;		/* TopDown level: 1 or 2 */
	bool level2_available;
	const char *level2_why;	/* why not, told on the 2 key; NULL: "not available on
				 * this CPU" */
	bool cgroups_available;	/* tasks carry their cgroup and view.cg is the tree:
				 * the c key shows one row per cgroup */
	const char *cgroups_why; /* why not, told on the c key; NULL: "start tdtop
				  * with --by cgroup or -c PATH for the cgroup view" */
	const char *title;	/* e.g. "Intel Ice Lake (perf_metrics)" */
	const char *const *names; /* the nr_events event names */
	int nr_events;
	bool topdown;		/* TopDown columns, else event count and rate columns */
	bool color;		/* false for NO_COLOR (also read here) or --no-color */
	unsigned int cmdline;	/* TUI_RC_* bits of tui/rc.h: what the command line chose,
				 * which the saved settings do not override */
	const char *note;	/* a warning for the status line at start (a -s without
				 * values here), or NULL */
};

#endif /* __TDTOP_TUI_VIEW_H */
