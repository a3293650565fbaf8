/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The command line: parsing and validation of every option value. */
#ifndef __TDTOP_OPTIONS_H
#define __TDTOP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "rows/aggregate.h"
#include "output/output.h"

#define MAX_PIDS 1024
/* Without TopDown and without -e: cycles and instructions where they can
 * be counted, else these software events. */
#define FALLBACK_HW_EVENTS "cycles,instructions"
#define DEFAULT_EVENTS "cpu-clock,context-switches,page-faults"
#define DEFAULT_MAX_TASKS 32768

/* Exit codes, documented in --help and the README. */
enum {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
};

enum command {
	CMD_TOP,		/* live view or batch output */
	CMD_RECORD,		/* tdtop record -o FILE */
	CMD_REPORT,		/* tdtop report FILE | --diff A B */
	CMD_EXPORTER,		/* tdtop exporter */
};

struct options {
	enum command cmd;
	const char *record_path;	/* record: -o FILE ("-": stdout) */
	double duration_s;	/* record: stop after this long; 0: no limit */
	bool force;		/* record: overwrite an existing FILE */
	const char *files[2];	/* report: the recording(s) */
	bool diff;		/* report --diff A B */
	const char *listen;	/* exporter --listen ADDR:PORT; NULL: default */
	const char *web_config;	/* exporter --web-config FILE; NULL: none */
	const char *events;	/* -e; NULL for the default */
	int pids[MAX_PIDS];
	size_t nr_pids;
	enum group_by by;	/* --by; -H is --by thread */
	bool by_comm;		/* exporter --by comm: BY_PROCESS rows summed per name */
	const char *cgroup;	/* -c: only this cgroup and below */
	int cgroup_depth;	/* 0: any */
	double delay_s;
	bool delay_given;	/* -d: the interactive view's saved delay does not apply */
	long iterations;	/* 0: until interrupted */
	bool batch;
	enum output_format format;
	const char *sort;	/* NULL: by CPU time */
	size_t top;		/* 0: all rows */
	size_t max_tasks;
	bool helper_reads;	/* no reads from memory on the switch path */
	bool list_events;
	bool list;		/* --list: TopDown discovery report */
	int level;		/* TopDown level asked for: 1 or 2 */
	bool level_given;	/* -l: the interactive view's saved level does not apply */
	bool strict;		/* no fallback when TopDown is unavailable */
	bool allow_smt;		/* per-task TopDown although SMT shares counters */
	bool verbose;
	bool help;
	bool version;
};

/*
 * Fill *o* from argv; a first word record, report or exporter picks the
 * command. Returns 0, or -EINVAL with a one-line message in *err*: a usage
 * error.
 */
int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen);

/* The screen when a person is looking; batch output for pipes and files. */
bool options_interactive(const struct options *o);

/* The help of *cmd*. */
void options_usage(FILE *f, enum command cmd);

#endif /* __TDTOP_OPTIONS_H */
