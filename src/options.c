// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"

/* The kernel's PID_MAX_LIMIT: no PID can be larger. */
#define PID_MAX 4194304

enum {
	OPT_TOP = 0x100,
	OPT_LIST_EVENTS,
	OPT_MAX_TASKS,
	OPT_LIST,
	OPT_STRICT,
	OPT_ALLOW_SMT,
	OPT_BY,
	OPT_CGROUP_DEPTH,
	OPT_DURATION,
	OPT_DIFF,
	OPT_LISTEN,
	OPT_HELPER_READS,
	OPT_WEB_CONFIG,
};

static const struct option long_opts[] = {
	{ "events", required_argument, NULL, 'e' },
	{ "pid", required_argument, NULL, 'p' },
	{ "threads", no_argument, NULL, 'H' },
	{ "by", required_argument, NULL, OPT_BY },
	{ "cgroup", required_argument, NULL, 'c' },
	{ "cgroup-depth", required_argument, NULL, OPT_CGROUP_DEPTH },
	{ "delay", required_argument, NULL, 'd' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "batch", no_argument, NULL, 'b' },
	{ "output", required_argument, NULL, 'o' },
	{ "sort", required_argument, NULL, 's' },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "max-tasks", required_argument, NULL, OPT_MAX_TASKS },
	{ "helper-reads", no_argument, NULL, OPT_HELPER_READS },
	{ "list-events", no_argument, NULL, OPT_LIST_EVENTS },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "level", required_argument, NULL, 'l' },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "allow-smt", no_argument, NULL, OPT_ALLOW_SMT },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "web-config", required_argument, NULL, OPT_WEB_CONFIG },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{},
};

static const char usage_topdown[] =
"TopDown (the default):\n"
"  -l, --level 1|2        TopDown level (2 where the CPU has it; default 1)\n"
"      --list             show the CPU, its PMUs, the TopDown method and events, and exit\n"
"      --strict           exit with status 1 if TopDown is unavailable instead of\n"
"                         falling back to " FALLBACK_HW_EVENTS ", else software events\n"
"      --allow-smt        per-task TopDown on pre-Ice Lake CPUs with SMT on, where the\n"
"                         counters are shared by a core's threads (values are approximate)\n"
"\n";

static const char usage_events[] =
"  -e, --events LIST      count these events instead of TopDown, comma-separated\n"
"                         software: cpu-clock task-clock context-switches (cs)\n"
"                           cpu-migrations page-faults (faults) minor-faults major-faults\n"
"                         hardware: cycles instructions branches branch-misses\n"
"                           cache-references cache-misses ref-cycles ...\n"
"                         sysfs PMU events: pmu/name/ or pmu/event=0x3c,umask=0x1/\n"
"                         raw: rNNNN (hex)\n"
"      --list-events      list the events this machine offers and exit\n";

static const char usage_rows[] =
"  -p, --pid PID[,PID...] only these processes (and their threads)\n"
"  -H, --threads          one row per thread instead of per process (--by thread)\n"
"      --by WHAT          rows per process (default), thread or cgroup; cgroup rows\n"
"                         include their descendants\n";

static const char usage_cgroup[] =
"  -c, --cgroup PATH      only tasks in this cgroup v2 and below; PATH is relative to\n"
"                         the cgroup root (e.g. system.slice/nginx.service) or absolute\n"
"      --cgroup-depth N   cgroup rows at most N levels below the root (or -c PATH)\n";

static const char usage_output[] =
"  -o, --output FMT       text, json (JSON Lines) or csv (default text)\n"
"  -s, --sort KEY         cpu (default), pid, comm, a TopDown field (retiring, bad-spec,\n"
"                         frontend, backend, memory-bound, ..., slots, ipc) or an event\n"
"      --top N            at most N rows per interval\n"
"  -b, --batch            plain text without terminal control\n";

#define USAGE_HELP \
"  -h, --help             show this help and exit\n" \
"  -V, --version          show the version and exit\n"

static const char usage_help[] = USAGE_HELP "\n";

/* For the commands that load the BPF program. */
static const char usage_common[] =
"  -v, --verbose          show libbpf's messages\n"
USAGE_HELP
"\n"
"Needs root, or CAP_BPF and CAP_PERFMON. Nothing stays loaded after exit.\n";

static const char usage_exit[] = "Exit status: 0 success, 1 runtime failure, 2 usage error.\n";

static void usage_measure(FILE *f)
{
	fprintf(f,
"  -d, --delay SECS       interval between updates, fractional (default 1)\n"
"  -n, --iterations N     stop after N intervals (default: until interrupted)\n"
"      --max-tasks N      capacity of the kernel task table (default %d); when full,\n"
"                         charges are counted as dropped, never lost silently\n"
"      --helper-reads     read every counter through the BPF helper, also those\n"
"                         (faults, switches, migrations) otherwise read from memory\n",
		DEFAULT_MAX_TASKS);
}

/* What to measure: the same for every command that measures. */
static void usage_selection(FILE *f)
{
	fputs(usage_topdown, f);
	fputs("Selection:\n", f);
	fputs(usage_events, f);
	fputs(usage_rows, f);
	fputs(usage_cgroup, f);
}

void options_usage(FILE *f, enum command cmd)
{
	switch (cmd) {
	case CMD_RECORD:
		fputs("Usage: tdtop record -o FILE [OPTIONS]\n"
		      "Record what tdtop measures, per interval and per task, for a later\n"
		      "`tdtop report`. FILE ending in .gz is compressed. Stops on SIGINT or\n"
		      "SIGTERM, after -n intervals or after --duration; a recording cut short\n"
		      "at any moment stays readable up to its last complete interval.\n\n"
		      "  -o, --output FILE      where to write (- for stdout)\n"
		      "      --duration SECS    stop after this long\n",
		      f);
		usage_measure(f);
		fputs("\n", f);
		usage_selection(f);
		fputs("\n", f);
		fputs(usage_common, f);
		fputs(usage_exit, f);
		return;
	case CMD_REPORT:
		fputs("Usage: tdtop report [OPTIONS] FILE\n"
		      "       tdtop report --diff [OPTIONS] BEFORE AFTER\n"
		      "Replay a recording through the same rows, TopDown math and outputs as\n"
		      "live mode; on a terminal, browse it in the interactive view (n steps,\n"
		      "space pauses). --diff compares two recordings per command name (or\n"
		      "cgroup): the change of each category and of the slots.\n\n"
		      "  -l, --level 1|2        TopDown level\n"
		      "  -d, --delay SECS       interactive view: seconds per interval (default 1)\n",
		      f);
		fputs(usage_rows, f);
		fputs(usage_output, f);
		fputs(usage_help, f);
		fputs(usage_exit, f);
		return;
	case CMD_EXPORTER:
		fputs("Usage: tdtop exporter [--listen ADDR:PORT] [OPTIONS]\n"
		      "Serve per-cgroup (or per-process) counters at /metrics in the Prometheus\n"
		      "text format, or OpenMetrics when asked. Counters only grow: query them\n"
		      "with rate(). Listens on loopback unless told otherwise.\n\n"
		      "      --listen ADDR:PORT address to serve on (default 127.0.0.1:9717; other\n"
		      "                         addresses only when given, e.g. 0.0.0.0:9717, [::1]:9717)\n"
		      "      --web-config FILE  TLS and basic authentication, in the YAML web\n"
		      "                         configuration of Prometheus exporters\n"
		      "Series are per cgroup by default (--by cgroup); --by process gives per-process\n"
		      "series, --by comm one per command name (process rows summed, fewer series);\n"
		      "--top N keeps the N busiest.\n",
		      f);
		usage_measure(f);
		fputs("\n", f);
		usage_selection(f);
		fputs("      --top N            at most N series of rows (the busiest)\n\n", f);
		fputs(usage_common, f);
		fputs(usage_exit, f);
		return;
	case CMD_TOP:
		break;
	}
	fputs("Usage: tdtop [OPTIONS]\n"
	      "       tdtop record -o FILE [OPTIONS]    record intervals to a file\n"
	      "       tdtop report FILE [OPTIONS]       replay a recording (--diff A B compares two)\n"
	      "       tdtop exporter [OPTIONS]          serve Prometheus metrics\n"
	      "Show which processes and threads stall the CPU pipeline, and on what: the\n"
	      "TopDown breakdown (Retiring, Bad Speculation, Frontend Bound, Backend Bound)\n"
	      "of every task on the machine at once. Counters are read at each context\n"
	      "switch by a BPF program and charged to the task leaving the CPU.\n"
	      "`tdtop COMMAND --help` explains each command.\n\n",
	      f);
	usage_selection(f);
	fputs("\nOutput:\n", f);
	usage_measure(f);
	fputs(usage_output, f);
	fputs(usage_common, f);
	fputs(usage_exit, f);
	fputs("\nExamples:\n"
	      "  sudo tdtop                              the interactive view\n"
	      "  sudo tdtop -b -n 5                      five one-second intervals as text\n"
	      "  sudo tdtop -l 2 -s backend              level 2, most backend-bound first\n"
	      "  sudo tdtop -o json -d 0.5 -p 1234       one process, twice a second, JSON Lines\n"
	      "  sudo tdtop -H -e cpu-clock,cs -s cs     threads sorted by context switches\n"
	      "  sudo tdtop --by cgroup -c system.slice  services, with their TopDown breakdown\n"
	      "  sudo tdtop record -o run.jsonl.gz --duration 60 && tdtop report run.jsonl.gz\n",
	      f);
}

/* Strict whole-string decimal integer in [min, max]. */
static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_pids(const char *arg, struct options *o, char *err, size_t errlen)
{
	const char *p = arg;

	o->nr_pids = 0;
	for (;;) {
		char buf[16];
		size_t len = strcspn(p, ",");
		long pid;

		if (len == 0 || len >= sizeof(buf)) {
			snprintf(err, errlen, "invalid PID list '%s'", arg);
			return -1;
		}
		memcpy(buf, p, len);
		buf[len] = '\0';
		if (parse_long(buf, 1, PID_MAX, &pid)) {
			snprintf(err, errlen, "invalid PID '%s' (want 1..%d)", buf, PID_MAX);
			return -1;
		}
		if (o->nr_pids == MAX_PIDS) {
			snprintf(err, errlen, "too many PIDs (at most %d)", MAX_PIDS);
			return -1;
		}
		o->pids[o->nr_pids++] = (int)pid;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

static int parse_delay(const char *arg, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	/* 10 ms floor: shorter intervals measure mostly tdtop itself */
	if (errno || end == arg || *end || !isfinite(v) || v < 0.01 || v > 86400)
		return -1;
	*out = v;
	return 0;
}

static int parse_by(const char *s, enum group_by *by)
{
	static const char *const names[] = { [BY_PROCESS] = "process", [BY_THREAD] = "thread",
					     [BY_CGROUP] = "cgroup" };

	for (int i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++) {
		if (!strcmp(s, names[i])) {
			*by = (enum group_by)i;
			return 0;
		}
	}
	return -1;
}

#define ON_TOP (1u << CMD_TOP)
#define ON_RECORD (1u << CMD_RECORD)
#define ON_REPORT (1u << CMD_REPORT)
#define ON_EXPORTER (1u << CMD_EXPORTER)
#define ON_LIVE (ON_TOP | ON_RECORD | ON_EXPORTER)
#define ON_ALL (ON_LIVE | ON_REPORT)

/* Which commands each option means something to. */
static unsigned int option_commands(int opt)
{
	switch (opt) {
	case 'e': case 'c': case OPT_CGROUP_DEPTH: case OPT_LIST_EVENTS: case OPT_LIST:
	case OPT_STRICT: case OPT_ALLOW_SMT: case OPT_MAX_TASKS: case OPT_HELPER_READS: case 'v':
		return ON_LIVE;
	case 'n':
		return ON_TOP | ON_RECORD;
	case 'o': case 's': case 'b':
		return ON_TOP | ON_RECORD | ON_REPORT;
	case OPT_TOP:
		return ON_TOP | ON_REPORT | ON_EXPORTER;
	case OPT_DURATION:
		return ON_RECORD;
	case OPT_DIFF:
		return ON_REPORT;
	case OPT_LISTEN: case OPT_WEB_CONFIG:
		return ON_EXPORTER;
	default:
		return ON_ALL;
	}
}

/*
 * The word of short options (-xb) holding the letter getopt complains
 * about, or NULL: then it was a long option, named by the word itself.
 */
static const char *short_cluster(int argc, char **argv, int opt)
{
	/* getopt hands bytes over 0x7f back as negative chars */
	if (opt < 0 && opt >= -128)
		opt &= 0xff;
	if (opt <= 0 || opt > 0xff)
		return NULL;
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1] != '-' && strchr(argv[i] + 1, opt))
			return argv[i];
	return NULL;
}

static const char *const command_names[] = {
	[CMD_TOP] = "tdtop", [CMD_RECORD] = "record", [CMD_REPORT] = "report",
	[CMD_EXPORTER] = "exporter",
};

/* A first word naming a command; returns how many words it took. */
static int parse_command(int argc, char **argv, enum command *cmd)
{
	*cmd = CMD_TOP;
	if (argc < 2)
		return 0;
	for (int c = CMD_RECORD; c <= CMD_EXPORTER; c++) {
		if (!strcmp(argv[1], command_names[c])) {
			*cmd = (enum command)c;
			return 1;
		}
	}
	return 0;
}

/* What each command needs once every option is read. */
static int check_command(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	int left = argc - optind;

	if (o->help || o->version)
		return 0;
	switch (o->cmd) {
	case CMD_RECORD:
		if (!o->record_path) {
			snprintf(err, errlen, "record needs -o FILE (see tdtop record --help)");
			return -1;
		}
		break;
	case CMD_REPORT:
		if (left != (o->diff ? 2 : 1)) {
			snprintf(err, errlen, o->diff ? "report --diff needs two recordings"
						      : "report needs one recording (see tdtop report --help)");
			return -1;
		}
		o->files[0] = argv[optind];
		o->files[1] = o->diff ? argv[optind + 1] : NULL;
		return 0;
	default:
		break;
	}
	if (left) {
		snprintf(err, errlen, "unexpected argument '%s' (see tdtop --help)", argv[optind]);
		return -1;
	}
	return 0;
}

static void set_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->delay_s = 1.0;
	o->format = OUTPUT_TEXT;
	o->max_tasks = DEFAULT_MAX_TASKS;
	o->level = 1;
}

int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	enum command cmd;
	int shift = parse_command(argc, argv, &cmd);
	long v;
	int c;

	set_defaults(o);
	o->cmd = cmd;
	/* per cgroup by default: bounded cardinality for a fleet's Prometheus */
	if (cmd == CMD_EXPORTER)
		o->by = BY_CGROUP;
	argc -= shift;
	argv += shift;
	/* 0, not 1: glibc then also resets its scan state (tests parse repeatedly) */
	optind = 0;
	opterr = 0;
	for (;;) {
		int li = -1;

		c = getopt_long(argc, argv, ":e:p:Hc:d:n:bo:s:l:vhV", long_opts, &li);
		if (c == -1)
			break;
		if (c != ':' && c != '?' && !(option_commands(c) & (1u << cmd))) {
			if (li >= 0)
				snprintf(err, errlen, "option '--%s' does not apply to %s",
					 long_opts[li].name, command_names[cmd]);
			else
				snprintf(err, errlen, "option '-%c' does not apply to %s", c,
					 command_names[cmd]);
			return -1;
		}
		switch (c) {
		case 'e':
			o->events = optarg;
			break;
		case 'p':
			if (parse_pids(optarg, o, err, errlen))
				return -1;
			break;
		case 'H':
			o->by = BY_THREAD;
			break;
		case OPT_BY:
			/* the exporter's series per command name: process rows summed */
			o->by_comm = cmd == CMD_EXPORTER && !strcmp(optarg, "comm");
			if (!o->by_comm && parse_by(optarg, &o->by)) {
				snprintf(err, errlen,
					 "invalid --by '%s' (want process, thread or cgroup)", optarg);
				return -1;
			}
			if (o->by_comm)
				o->by = BY_PROCESS;
			break;
		case 'c':
			if (!*optarg) {
				snprintf(err, errlen, "empty cgroup path");
				return -1;
			}
			o->cgroup = optarg;
			break;
		case OPT_CGROUP_DEPTH:
			if (parse_long(optarg, 1, MAX_CGROUP_DEPTH, &v)) {
				snprintf(err, errlen, "invalid --cgroup-depth '%s' (want 1..%d)",
					 optarg, MAX_CGROUP_DEPTH);
				return -1;
			}
			o->cgroup_depth = (int)v;
			break;
		case 'd':
			if (parse_delay(optarg, &o->delay_s)) {
				snprintf(err, errlen,
					 "invalid delay '%s' (want seconds from 0.01 to 86400)",
					 optarg);
				return -1;
			}
			break;
		case 'n':
			if (parse_long(optarg, 1, 1000000000L, &o->iterations)) {
				snprintf(err, errlen, "invalid iteration count '%s' (want >= 1)",
					 optarg);
				return -1;
			}
			break;
		case 'b':
			o->batch = true;
			break;
		case 'o':
			if (cmd == CMD_RECORD) {
				o->record_path = optarg;
				break;
			}
			if (output_format_parse(optarg, &o->format)) {
				snprintf(err, errlen, "invalid output format '%s' (want text, json or csv)",
					 optarg);
				return -1;
			}
			break;
		case 's':
			o->sort = optarg;
			break;
		case OPT_TOP:
			if (parse_long(optarg, 1, 1000000000L, &v)) {
				snprintf(err, errlen, "invalid --top '%s' (want >= 1)", optarg);
				return -1;
			}
			o->top = v;
			break;
		case OPT_MAX_TASKS:
			if (parse_long(optarg, 16, 4194304, &v)) {
				snprintf(err, errlen, "invalid --max-tasks '%s' (want 16..4194304)",
					 optarg);
				return -1;
			}
			o->max_tasks = v;
			break;
		case OPT_HELPER_READS:
			o->helper_reads = true;
			break;
		case OPT_LIST_EVENTS:
			o->list_events = true;
			break;
		case OPT_DURATION:
			if (parse_delay(optarg, &o->duration_s)) {
				snprintf(err, errlen,
					 "invalid duration '%s' (want seconds from 0.01 to 86400)",
					 optarg);
				return -1;
			}
			break;
		case OPT_DIFF:
			o->diff = true;
			break;
		case OPT_LISTEN:
			o->listen = optarg;
			break;
		case OPT_WEB_CONFIG:
			o->web_config = optarg;
			break;
		case OPT_LIST:
			o->list = true;
			break;
		case 'l':
			if (parse_long(optarg, 1, 2, &v)) {
				snprintf(err, errlen, "invalid level '%s' (want 1 or 2)", optarg);
				return -1;
			}
			o->level = (int)v;
			break;
		case OPT_STRICT:
			o->strict = true;
			break;
		case OPT_ALLOW_SMT:
			o->allow_smt = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			o->help = true;
			break;
		case 'V':
			o->version = true;
			break;
		case ':':
			snprintf(err, errlen, "option '%s' needs a value", argv[optind - 1]);
			return -1;
		default: {
			const char *word = short_cluster(argc, argv, optopt);

			if (word && optopt > ' ' && optopt <= '~')
				snprintf(err, errlen, "unknown option '-%c' (see tdtop --help)",
					 optopt);
			else
				snprintf(err, errlen, "unknown option '%s' (see tdtop --help)",
					 word ? word : argv[optind - 1]);
			return -1;
		}
		}
	}
	return check_command(argc, argv, o, err, errlen);
}
