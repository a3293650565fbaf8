// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tdtop --list and --list-events: what this machine can count, without loading anything. */
#include <stdio.h>
#include "commands.h"
#include "pmu/discover.h"
#include "pmu/events.h"
#include "pmu/readplan.h"

int cmd_list(const struct options *o, const char *sysfs, char *err, size_t errlen)
{
	struct read_plan plan;
	struct td_discovery d;

	if (td_discover(sysfs, o->level, &d, err, errlen))
		return EXIT_RUNTIME;
	td_discovery__print(&d, stdout);
	if (d.cfg.nr_parts) {
		read_plan__build(&plan, &d.events, &d.cfg, !o->helper_reads);
		read_plan__print(&plan, &d.events, &d.cfg, stdout);
	}
	return EXIT_OK;
}

int cmd_list_events(const struct options *o, const char *sysfs, char *err, size_t errlen)
{
	events_print_list(sysfs, stdout);
	return EXIT_OK;
}
