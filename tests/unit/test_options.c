// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Command-line parsing: values, defaults and every usage error. */
#include <errno.h>
#include <stdlib.h>
#include "options.h"
#include "test.h"

#define PARSE(o, ...) parse(o, (const char *[]){ "tdtop", __VA_ARGS__, NULL })

static char err[256];

/*
 * getopt wants writable strings: parse copies of the literals, kept until
 * the next call because the options point into them.
 */
static int parse(struct options *o, const char **args)
{
	static char *argv[64];
	int argc = 0;

	for (int i = 0; argv[i]; i++) {
		free(argv[i]);
		argv[i] = NULL;
	}
	while (args[argc] && argc < 63) {
		argv[argc] = strdup(args[argc]);
		argc++;
	}
	return options_parse(argc, argv, o, err, sizeof(err));
}

TEST(options_defaults)
{
	struct options o;

	CHECK_INT(parse(&o, (const char *[]){ "tdtop", NULL }), 0);
	CHECK_NEAR(o.delay_s, 1.0, 0);
	CHECK_INT(o.iterations, 0);
	CHECK_INT(o.format, OUTPUT_TEXT);
	CHECK_INT(o.max_tasks, DEFAULT_MAX_TASKS);
	CHECK(o.events == NULL && o.by == BY_PROCESS && !o.batch && o.nr_pids == 0);
}

TEST(options_values)
{
	struct options o;

	CHECK_INT(PARSE(&o, "-e", "cs,faults", "-p", "12,34", "-H", "-d", "0.25", "-n", "3", "-b",
			"-o", "json", "-s", "cs", "--top", "5", "--max-tasks", "100"),
		  0);
	CHECK_STR(o.events, "cs,faults");
	CHECK_INT(o.nr_pids, 2);
	CHECK_INT(o.pids[1], 34);
	CHECK(o.by == BY_THREAD && o.batch);
	CHECK_NEAR(o.delay_s, 0.25, 1e-12);
	CHECK_INT(o.iterations, 3);
	CHECK_INT(o.format, OUTPUT_JSON);
	CHECK_STR(o.sort, "cs");
	CHECK_INT(o.top, 5);
	CHECK_INT(o.max_tasks, 100);
	CHECK_INT(PARSE(&o, "--output=csv", "--delay=2", "--threads"), 0);
	CHECK_INT(o.format, OUTPUT_CSV);
	CHECK_INT(PARSE(&o, "--by", "cgroup", "-c", "system.slice", "--cgroup-depth", "2"), 0);
	CHECK_INT(o.by, BY_CGROUP);
	CHECK_STR(o.cgroup, "system.slice");
	CHECK_INT(o.cgroup_depth, 2);
	CHECK_INT(PARSE(&o, "record", "-o", "./csv", "--force"), 0);
	CHECK_STR(o.record_path, "./csv");
	CHECK(o.force);
}

TEST(options_usage_errors)
{
	struct options o;

	CHECK_INT(PARSE(&o, "-d", "-1"), -EINVAL);
	CHECK(strstr(err, "invalid delay") != NULL);
	CHECK_INT(PARSE(&o, "-d", "abc"), -EINVAL);
	CHECK_INT(PARSE(&o, "-d", "nan"), -EINVAL);
	CHECK_INT(PARSE(&o, "-d", "inf"), -EINVAL);
	CHECK_INT(PARSE(&o, "-d", "1e400"), -EINVAL);
	CHECK_INT(PARSE(&o, "-d", "0"), -EINVAL);
	CHECK_INT(PARSE(&o, "-n", "0"), -EINVAL);
	CHECK_INT(PARSE(&o, "-n", "-3"), -EINVAL);
	CHECK_INT(PARSE(&o, "-n", "5x"), -EINVAL);
	CHECK_INT(PARSE(&o, "-n", "99999999999999999999"), -EINVAL);
	CHECK_INT(PARSE(&o, "-p", "0"), -EINVAL);
	CHECK_INT(PARSE(&o, "-p", "-5"), -EINVAL);
	CHECK_INT(PARSE(&o, "-p", "1,,2"), -EINVAL);
	CHECK_INT(PARSE(&o, "-p", "1,"), -EINVAL);
	CHECK_INT(PARSE(&o, "-p", "99999999"), -EINVAL);
	CHECK_INT(PARSE(&o, "-o", "xml"), -EINVAL);
	CHECK(strstr(err, "xml") != NULL);
	CHECK_INT(PARSE(&o, "--top", "0"), -EINVAL);
	CHECK_INT(PARSE(&o, "--max-tasks", "3"), -EINVAL);
	CHECK_INT(PARSE(&o, "--by", "container"), -EINVAL);
	CHECK_INT(PARSE(&o, "-c", ""), -EINVAL);
	CHECK_INT(PARSE(&o, "--cgroup-depth", "0"), -EINVAL);
	CHECK_INT(PARSE(&o, "--cgroup-depth", "65"), -EINVAL);
	CHECK_INT(PARSE(&o, "--bogus"), -EINVAL);
	CHECK(strstr(err, "unknown option") != NULL);
	CHECK_INT(PARSE(&o, "-x"), -EINVAL);
	CHECK_INT(PARSE(&o, "-e"), -EINVAL);
	CHECK(strstr(err, "needs a value") != NULL);
	CHECK_INT(PARSE(&o, "stray"), -EINVAL);
	CHECK(strstr(err, "unexpected argument") != NULL);
}

/* Each refusal names the value and what would be accepted, word for word. */
TEST(options_usage_messages)
{
	static const struct {
		const char *args[4];
		const char *msg;
	} cases[] = {
		{ { "-d", "0" }, "invalid delay '0' (want seconds from 0.01 to 86400)" },
		{ { "record", "-o", "f", "--duration=x" },
		  "invalid duration 'x' (want seconds from 0.01 to 86400)" },
		{ { "-n", "0" }, "invalid iteration count '0' (want >= 1)" },
		{ { "--top", "x" }, "invalid --top 'x' (want >= 1)" },
		{ { "--max-tasks", "3" }, "invalid --max-tasks '3' (want 16..4194304)" },
		{ { "--cgroup-depth", "65" }, "invalid --cgroup-depth '65' (want 1..64)" },
		{ { "-l", "3" }, "invalid level '3' (want 1 or 2)" },
		{ { "-p", "1,0" }, "invalid PID '0' (want 1..4194304)" },
		{ { "-p", "1,,2" }, "invalid PID list '1,,2'" },
		{ { "--by", "pod" }, "invalid --by 'pod' (want process, thread or cgroup)" },
		{ { "-o", "xml" }, "invalid output format 'xml' (want text, json or csv)" },
		{ { "-c", "" }, "empty cgroup path" },
		{ { "report", "--listen", "x" }, "option '--listen' does not apply to report" },
		{ { "exporter", "-n", "1" }, "option '-n' does not apply to exporter" },
		{ { "-d" }, "option '-d' needs a value" },
		{ { "-xb" }, "unknown option '-x' (see tdtop --help)" },
		{ { "--bogus" }, "unknown option '--bogus' (see tdtop --help)" },
		{ { "record" }, "record needs -o FILE (see tdtop record --help)" },
		{ { "record", "-o", "csv" },
		  "record -o takes a file name: 'csv' is an output format (tdtop -o csv prints it; "
		  "-o ./csv records to a file of that name)" },
		{ { "--force" }, "option '--force' does not apply to tdtop" },
		{ { "report", "--diff", "a" }, "report --diff needs two recordings" },
		{ { "report" }, "report needs one recording (see tdtop report --help)" },
		{ { "-b", "stray" }, "unexpected argument 'stray' (see tdtop --help)" },
	};
	struct options o;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *argv[6] = { "tdtop" };

		memcpy(argv + 1, cases[i].args, sizeof(cases[i].args));
		err[0] = '\0';
		CHECK_INT(parse(&o, argv), -EINVAL);
		CHECK_STR(err, cases[i].msg);
	}
}

TEST(options_usage_text_mentions_exit_codes)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	options_usage(f, CMD_TOP);
	fclose(f);
	CHECK(strstr(buf, "Exit status: 0 success, 1 runtime failure, 2 usage error") != NULL);
	CHECK(strstr(buf, "--events") && strstr(buf, "--list-events") && strstr(buf, "--max-tasks"));
	free(buf);
}

/* The exporter serves until stopped: its help offers no -n, which it refuses. */
TEST(options_usage_exporter_has_no_iterations)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct options o;

	options_usage(f, CMD_EXPORTER);
	fclose(f);
	CHECK(buf && !strstr(buf, "--iterations") && strstr(buf, "--max-tasks"));
	free(buf);
	CHECK_INT(parse(&o, (const char *[]){ "tdtop", "exporter", "-n", "1", NULL }), -EINVAL);
}
