// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tdtop --list and --list-events: what this machine can count, without
 * loading anything; for a person, or as JSON with -o json.
 */
#include <stdio.h>
#include "commands.h"
#include "pmu/discover.h"
#include "pmu/events.h"
#include "pmu/readplan.h"
#include "util/errmsg.h"

/* Text, or JSON: a list has no CSV form. */
static int check_format(const struct options *o, const char *what, char *err, size_t errlen)
{
	if (o->format == OUTPUT_TEXT || o->format == OUTPUT_JSON)
		return 0;
	return errmsg(err, errlen, EXIT_USAGE, "%s is written as text or json, not csv", what);
}

static int json_result(int ret, const char *what, char *err, size_t errlen)
{
	if (ret)
		return errmsg(err, errlen, EXIT_RUNTIME, "%s: cannot write the JSON (out of memory?)",
			      what);
	return EXIT_OK;
}

int cmd_list(const struct options *o, const char *sysfs, char *err, size_t errlen)
{
	struct read_plan plan;
	struct td_discovery d;
	int ret = check_format(o, "--list", err, errlen);

	if (ret)
		return ret;
	if (td_discover(sysfs, o->level, &d, err, errlen))
		return EXIT_RUNTIME;
	read_plan__build(&plan, &d.events, &d.cfg, !o->helper_reads);
	if (o->format == OUTPUT_JSON)
		return json_result(td_discovery__print_json(&d, &plan, stdout), "--list", err,
				   errlen);
	td_discovery__print(&d, stdout);
	if (d.cfg.nr_parts)
		read_plan__print(&plan, &d.events, &d.cfg, stdout);
	return EXIT_OK;
}

int cmd_list_events(const struct options *o, const char *sysfs, char *err, size_t errlen)
{
	int ret = check_format(o, "--list-events", err, errlen);

	if (ret)
		return ret;
	if (o->format == OUTPUT_JSON)
		return json_result(events_print_list_json(sysfs, stdout), "--list-events", err, errlen);
	events_print_list(sysfs, stdout);
	return EXIT_OK;
}
