// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tdtop: per-task counter attribution for every task on the machine.
 * main() reads the command line and hands it to the command it names;
 * each command is in a file of its own (cmd_*.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include "commands.h"
#include "options.h"

/* Which command runs: the first word, then --list*, then where stdout goes. */
static cmd_fn command_for(const struct options *o)
{
	if (o->list_events)
		return cmd_list_events;
	if (o->list)
		return cmd_list;
	switch (o->cmd) {
	case CMD_RECORD:
		return cmd_record;
	case CMD_REPORT:
		return cmd_report;
	case CMD_EXPORTER:
		return cmd_exporter;
	case CMD_TOP:
		break;
	}
	return options_interactive(o) ? cmd_tui : cmd_batch;
}

int main(int argc, char **argv)
{
	const char *sysfs = getenv("TDTOP_SYSFS") ? getenv("TDTOP_SYSFS") : "/sys";
	struct options o;
	char err[512] = "";
	int ret;

	if (options_parse(argc, argv, &o, err, sizeof(err))) {
		ret = EXIT_USAGE;
	} else if (o.help) {
		options_usage(stdout, o.cmd);
		ret = EXIT_OK;
	} else if (o.version) {
		printf("tdtop %s\n", TDTOP_VERSION);
		ret = EXIT_OK;
	} else {
		ret = command_for(&o)(&o, sysfs, err, sizeof(err));
	}
	if (ret != EXIT_OK && err[0])
		fprintf(stderr, "tdtop: %s\n", err);
	return ret;
}
