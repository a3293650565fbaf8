/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The commands main() dispatches to, one file each. Every one returns an
 * exit code (EXIT_* of options.h), with a one-line message in *err* when
 * it is not EXIT_OK; *sysfs* is where the PMUs are described.
 */
#ifndef __TDTOP_COMMANDS_H
#define __TDTOP_COMMANDS_H

#include <stddef.h>
#include "options.h"

typedef int (*cmd_fn)(const struct options *o, const char *sysfs, char *err, size_t errlen);

/* tdtop -b, or output to a pipe or a file: every interval to stdout. */
int cmd_batch(const struct options *o, const char *sysfs, char *err, size_t errlen);

/* tdtop on a terminal: the interactive view. */
int cmd_tui(const struct options *o, const char *sysfs, char *err, size_t errlen);

struct tui_source;
struct tui_opts;

/*
 * tui_run() for the commands that show the screen (live, a recording):
 * its note on the settings file goes to stderr. tui_run()'s result.
 */
int cmd_tui_run(const struct tui_source *src, const struct tui_opts *t, char *err,
		size_t errlen);

/* The interactive view's saved settings the command line overrides (TUI_RC_* of tui/rc.h). */
unsigned int cmd_tui_overrides(const struct options *o);

/* tdtop record -o FILE */
int cmd_record(const struct options *o, const char *sysfs, char *err, size_t errlen);

/* tdtop exporter: Prometheus metrics over HTTP. */
int cmd_exporter(const struct options *o, const char *sysfs, char *err, size_t errlen);

/* tdtop report FILE, tdtop report --diff BEFORE AFTER */
int cmd_report(const struct options *o, const char *sysfs, char *err, size_t errlen);

/* tdtop --list: the CPU, its PMUs and the TopDown method and events. */
int cmd_list(const struct options *o, const char *sysfs, char *err, size_t errlen);

/* tdtop --list-events */
int cmd_list_events(const struct options *o, const char *sysfs, char *err, size_t errlen);

#endif /* __TDTOP_COMMANDS_H */
