// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The command line: the first word picks the command, getopt reads the
 * options, each value is checked against its documented range. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/macros.h"
#include "options.h"
#include "util/errmsg.h"

/* The kernel's PID_MAX_LIMIT: no PID can be larger, nor more tasks. */
#define PID_MAX 4194304
#define MAX_TASKS PID_MAX
/* -n and --top: far more than anyone waits for or reads */
#define MAX_COUNT 1000000000L

#define STR_(x) #x
#define STR(x) STR_(x)

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
	OPT_FORCE,
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
	{ "force", no_argument, NULL, OPT_FORCE },
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
"                         vendor (libpfm4's tables for this CPU): inst_retired.any,\n"
"                           mem_load_retired.l3_miss, or as pmu/name/\n"
"                         modifiers as perf's: cycles:u, cs:k, cpu/cycles/uk\n"
"                           (u user, k kernel, h hypervisor, G guest, H host)\n"
"      --list-events      list the events this machine offers and exit\n";

#define USAGE_PID "  -p, --pid PID[,PID...] only these processes (and their threads)"

static const char usage_pid[] = USAGE_PID "\n";

/* What -p does live: what top and perf stat -p do. */
static const char usage_pid_live[] = USAGE_PID "; one that did not\n"
"                         run shows with zeros; once every one has exited, tdtop says\n"
"                         so and exits 0 (the interactive view keeps showing)\n";

static const char usage_rows[] =
"  -H, --threads          one row per thread instead of per process (--by thread)\n"
"      --by WHAT          rows per process (default), thread or cgroup; cgroup rows\n"
"                         include their descendants\n";

static const char usage_cgroup[] =
"  -c, --cgroup PATH      only tasks in this cgroup v2 and below; PATH is relative to\n"
"                         the cgroup root (e.g. system.slice/nginx.service) or absolute\n"
"      --cgroup-depth N   cgroup rows at most N levels below the root (or -c PATH)\n";

static const char usage_output[] =
"  -o, --output FMT       text, json (JSON Lines) or csv (default text)\n"
"  -s, --sort KEY         cpu (default), pid, comm, a TopDown field as JSON names it\n"
"                         (retiring, bad_speculation, frontend_bound, backend_bound,\n"
"                         memory_bound, ..., slots, ipc; short forms such as bad-spec\n"
"                         too) or an event\n"
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

/* -n for the commands that stop: the exporter serves until it is stopped. */
static void usage_measure(FILE *f, bool iterations)
{
	fputs("  -d, --delay SECS       interval between updates, fractional (default 1)\n", f);
	if (iterations)
		fputs("  -n, --iterations N     stop after N intervals (default: until interrupted)\n",
		      f);
	fprintf(f,
"      --max-tasks N      capacity of the kernel task table (default %d); when full,\n"
"                         charges are counted as dropped, never lost silently\n"
"      --helper-reads     read every counter through the BPF helper, also those\n"
"                         otherwise read from memory (faults, switches, migrations,\n"
"                         the PERF_METRICS TopDown metrics; see --list)\n",
		DEFAULT_MAX_TASKS);
}

/* What to measure: the same for every command that measures. */
static void usage_selection(FILE *f)
{
	fputs(usage_topdown, f);
	fputs("Selection:\n", f);
	fputs(usage_events, f);
	fputs(usage_pid_live, f);
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
		      "at any moment stays readable up to its last complete interval. FILE is\n"
		      "created before anything is loaded; an existing FILE is kept unless\n"
		      "--force. On a terminal, the intervals recorded so far are shown.\n\n"
		      "  -o, --output FILE      where to write (- for stdout)\n"
		      "      --force            overwrite FILE if it exists\n"
		      "      --duration SECS    stop after this long\n",
		      f);
		usage_measure(f, true);
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
		fputs(usage_pid, f);
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
		usage_measure(f, false);
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
	usage_measure(f, true);
	fputs(usage_output, f);
	fputs(usage_common, f);
	fputs(usage_exit, f);
	fputs("\nExamples:\n"
	      "  sudo tdtop                              the interactive view\n"
	      "  sudo tdtop -b -n 5                      five one-second intervals as text\n"
	      "  sudo tdtop -l 2 -s backend_bound        level 2, most backend-bound first\n"
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
		return -EINVAL;
	*out = v;
	return 0;
}

/* "invalid WHAT 'ARG' (want WANT)": how every bad value is reported. */
static int invalid(const char *what, const char *arg, const char *want, char *err, size_t errlen)
{
	return errmsg(err, errlen, -EINVAL, "invalid %s '%s' (want %s)", what, arg, want);
}

static int parse_pids(const char *arg, struct options *o, char *err, size_t errlen)
{
	const char *p = arg;

	o->nr_pids = 0;
	for (;;) {
		char buf[16];
		size_t len = strcspn(p, ",");
		long pid;

		if (len == 0 || len >= sizeof(buf))
			return errmsg(err, errlen, -EINVAL, "invalid PID list '%s'", arg);
		memcpy(buf, p, len);
		buf[len] = '\0';
		if (parse_long(buf, 1, PID_MAX, &pid))
			return invalid("PID", buf, "1.." STR(PID_MAX), err, errlen);
		if (o->nr_pids == MAX_PIDS)
			return errmsg(err, errlen, -EINVAL, "too many PIDs (at most %d)", MAX_PIDS);
		o->pids[o->nr_pids++] = (int)pid;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* Seconds, fractional: -d and --duration. */
static int parse_seconds(const char *arg, const char *what, double *out, char *err, size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	/* 10 ms floor: shorter intervals measure mostly tdtop itself */
	if (errno || end == arg || *end || !isfinite(v) || v < 0.01 || v > 86400)
		return invalid(what, arg, "seconds from 0.01 to 86400", err, errlen);
	*out = v;
	return 0;
}

static int parse_by(const char *arg, enum group_by *by, char *err, size_t errlen)
{
	static const char *const names[] = { [BY_PROCESS] = "process", [BY_THREAD] = "thread",
					     [BY_CGROUP] = "cgroup" };

	for (int i = 0; i < (int)ARRAY_SIZE(names); i++) {
		if (!strcmp(arg, names[i])) {
			*by = (enum group_by)i;
			return 0;
		}
	}
	return invalid("--by", arg, "process, thread or cgroup", err, errlen);
}

/* The integer options: their range and how a message names them. */
static const struct number_option {
	int opt;
	long min, max;
	const char *what, *want;
} number_options[] = {
	{ 'n', 1, MAX_COUNT, "iteration count", ">= 1" },
	{ OPT_TOP, 1, MAX_COUNT, "--top", ">= 1" },
	{ OPT_MAX_TASKS, 16, MAX_TASKS, "--max-tasks", "16.." STR(MAX_TASKS) },
	{ OPT_CGROUP_DEPTH, 1, MAX_CGROUP_DEPTH, "--cgroup-depth", "1.." STR(MAX_CGROUP_DEPTH) },
	{ 'l', 1, 2, "level", "1 or 2" },
};

static const struct number_option *number_option(int opt)
{
	for (size_t i = 0; i < ARRAY_SIZE(number_options); i++)
		if (number_options[i].opt == opt)
			return &number_options[i];
	return NULL;
}

static int set_number(struct options *o, const struct number_option *n, const char *arg,
		      char *err, size_t errlen)
{
	long v;

	if (parse_long(arg, n->min, n->max, &v))
		return invalid(n->what, arg, n->want, err, errlen);
	switch (n->opt) {
	case 'n': o->iterations = v; break;
	case OPT_TOP: o->top = (size_t)v; break;
	case OPT_MAX_TASKS: o->max_tasks = (size_t)v; break;
	case OPT_CGROUP_DEPTH: o->cgroup_depth = (int)v; break;
	case 'l': o->level = (int)v; o->level_given = true; break;
	}
	return 0;
}

/* Options without a value; false when *opt* takes one. */
static bool set_flag(struct options *o, int opt)
{
	switch (opt) {
	case 'H': o->by = BY_THREAD; break;
	case 'b': o->batch = true; break;
	case OPT_HELPER_READS: o->helper_reads = true; break;
	case OPT_LIST_EVENTS: o->list_events = true; break;
	case OPT_LIST: o->list = true; break;
	case OPT_DIFF: o->diff = true; break;
	case OPT_FORCE: o->force = true; break;
	case OPT_STRICT: o->strict = true; break;
	case OPT_ALLOW_SMT: o->allow_smt = true; break;
	case 'v': o->verbose = true; break;
	case 'h': o->help = true; break;
	case 'V': o->version = true; break;
	default: return false;
	}
	return true;
}

/* Options whose value is not an integer. */
static int set_value(struct options *o, int opt, const char *arg, char *err, size_t errlen)
{
	switch (opt) {
	case 'e':
		o->events = arg;
		break;
	case 'p':
		return parse_pids(arg, o, err, errlen);
	case OPT_BY:
		/* the exporter's series per command name: process rows summed */
		o->by_comm = o->cmd == CMD_EXPORTER && !strcmp(arg, "comm");
		if (o->by_comm) {
			o->by = BY_PROCESS;
			return 0;
		}
		return parse_by(arg, &o->by, err, errlen);
	case 'c':
		if (!*arg)
			return errmsg(err, errlen, -EINVAL, "empty cgroup path");
		o->cgroup = arg;
		break;
	case 'd':
		o->delay_given = true;
		return parse_seconds(arg, "delay", &o->delay_s, err, errlen);
	case OPT_DURATION:
		return parse_seconds(arg, "duration", &o->duration_s, err, errlen);
	case 'o':
		if (o->cmd == CMD_RECORD)
			o->record_path = arg;
		else if (output_format_parse(arg, &o->format))
			return invalid("output format", arg, "text, json or csv", err, errlen);
		break;
	case 's':
		o->sort = arg;
		break;
	case OPT_LISTEN:
		o->listen = arg;
		break;
	case OPT_WEB_CONFIG:
		o->web_config = arg;
		break;
	}
	return 0;
}

static int set_option(struct options *o, int opt, const char *arg, char *err, size_t errlen)
{
	const struct number_option *n = number_option(opt);

	if (set_flag(o, opt))
		return 0;
	return n ? set_number(o, n, arg, err, errlen) : set_value(o, opt, arg, err, errlen);
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
	case OPT_DURATION: case OPT_FORCE:
		return ON_RECORD;
	case OPT_DIFF:
		return ON_REPORT;
	case OPT_LISTEN: case OPT_WEB_CONFIG:
		return ON_EXPORTER;
	default:
		return ON_ALL;
	}
}

static const char *const command_names[] = {
	[CMD_TOP] = "tdtop", [CMD_RECORD] = "record", [CMD_REPORT] = "report",
	[CMD_EXPORTER] = "exporter",
};

/* An option given to a command it means nothing to; *li* indexes long_opts or is -1. */
static int check_applies(enum command cmd, int opt, int li, char *err, size_t errlen)
{
	if (option_commands(opt) & (1u << cmd))
		return 0;
	if (li >= 0)
		return errmsg(err, errlen, -EINVAL, "option '--%s' does not apply to %s",
			      long_opts[li].name, command_names[cmd]);
	return errmsg(err, errlen, -EINVAL, "option '-%c' does not apply to %s", opt,
		      command_names[cmd]);
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

/* What getopt refused: ':' for a missing value, '?' for an unknown option. */
static int getopt_error(int c, int argc, char **argv, char *err, size_t errlen)
{
	const char *word;

	if (c == ':')
		return errmsg(err, errlen, -EINVAL, "option '%s' needs a value", argv[optind - 1]);
	word = short_cluster(argc, argv, optopt);
	if (word && optopt > ' ' && optopt <= '~')
		return errmsg(err, errlen, -EINVAL, "unknown option '-%c' (see tdtop --help)",
			      optopt);
	return errmsg(err, errlen, -EINVAL, "unknown option '%s' (see tdtop --help)",
		      word ? word : argv[optind - 1]);
}

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

/* record -o FILE: a file name, not a format name given as if to tdtop -o. */
static int check_record_path(const struct options *o, char *err, size_t errlen)
{
	enum output_format fmt;

	if (!o->record_path)
		return errmsg(err, errlen, -EINVAL,
			      "record needs -o FILE (see tdtop record --help)");
	if (!output_format_parse(o->record_path, &fmt))
		return errmsg(err, errlen, -EINVAL,
			      "record -o takes a file name: '%s' is an output format (tdtop -o %s "
			      "prints it; -o ./%s records to a file of that name)",
			      o->record_path, o->record_path, o->record_path);
	return 0;
}

/* What each command needs once every option is read: its file arguments. */
static int check_command(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	int left = argc - optind;

	if (o->help || o->version)
		return 0;
	switch (o->cmd) {
	case CMD_RECORD:
		if (check_record_path(o, err, errlen))
			return -EINVAL;
		break;
	case CMD_REPORT:
		if (left != (o->diff ? 2 : 1))
			return errmsg(err, errlen, -EINVAL, "%s",
				      o->diff ? "report --diff needs two recordings"
					      : "report needs one recording (see tdtop report --help)");
		o->files[0] = argv[optind];
		o->files[1] = o->diff ? argv[optind + 1] : NULL;
		return 0;
	default:
		break;
	}
	if (left)
		return errmsg(err, errlen, -EINVAL, "unexpected argument '%s' (see tdtop --help)",
			      argv[optind]);
	return 0;
}

static void set_defaults(struct options *o, enum command cmd)
{
	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	o->delay_s = 1.0;
	o->format = OUTPUT_TEXT;
	o->max_tasks = DEFAULT_MAX_TASKS;
	o->level = 1;
	/* per cgroup by default: bounded cardinality for a fleet's Prometheus */
	if (cmd == CMD_EXPORTER)
		o->by = BY_CGROUP;
}

int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	enum command cmd;
	int shift = parse_command(argc, argv, &cmd);

	set_defaults(o, cmd);
	argc -= shift;
	argv += shift;
	/* 0, not 1: glibc then also resets its scan state (tests parse repeatedly) */
	optind = 0;
	opterr = 0;
	for (;;) {
		int li = -1, ret;
		int c = getopt_long(argc, argv, ":e:p:Hc:d:n:bo:s:l:vhV", long_opts, &li);

		if (c == -1)
			break;
		if (c == ':' || c == '?')
			ret = getopt_error(c, argc, argv, err, errlen);
		else if (!(ret = check_applies(cmd, c, li, err, errlen)))
			ret = set_option(o, c, optarg, err, errlen);
		if (ret)
			return ret;
	}
	return check_command(argc, argv, o, err, errlen);
}

bool options_interactive(const struct options *o)
{
	return !o->batch && o->format == OUTPUT_TEXT && isatty(STDOUT_FILENO) &&
	       isatty(STDIN_FILENO);
}
