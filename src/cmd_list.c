// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tdtop --list and --list-events: what this machine can count, without loading anything. */
#include <stdio.h>
#include "commands.h"
#include "pmu/discover.h"
#include "pmu/events.h"

int cmd_list(const struct options *o, const char *sysfs, char *err, size_t errlen)
{
	struct td_discovery d;

	if (td_discover(sysfs, o->level, &d, err, errlen))
		return EXIT_RUNTIME;
	td_discovery__print(&d, stdout);
	return EXIT_OK;
}

int cmd_list_events(const struct options *o, const char *sysfs, char *err, size_t errlen)
{
	events_print_list(sysfs, stdout);
	return EXIT_OK;
}
