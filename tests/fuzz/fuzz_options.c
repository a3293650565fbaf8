// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target: the command line. The input split on NUL bytes is
 * argv (after "tdtop"). An accepted command line must hold values within
 * the documented limits and parse the same way twice; a refused one must
 * come with a lower-case message, and one about an unknown or incomplete
 * option must name an option the user typed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_options: broken promise: %s\n", what);
		abort();
	}
}

/* argv[1..] from the input split on NUL; argv[0] is "tdtop". */
static int split_args(char *buf, size_t size, char **argv)
{
	static char name[] = "tdtop";
	int argc = 1;
	size_t start = 0;

	argv[0] = name;
	for (size_t i = 0; i <= size && argc < MAX_ARGS; i++) {
		if (i == size || buf[i] == '\0') {
			if (i > start || i < size)
				argv[argc++] = buf + start;
			start = i + 1;
		}
	}
	argv[argc] = NULL;
	return argc;
}

/* The X of "unknown option 'X' (see tdtop --help)" or "option 'X' needs a
 * value" is an option, one of the words the user typed. */
static void check_named_option(const char *err, char **argv, int argc)
{
	static const char *const forms[][2] = {
		{ "unknown option '", "' (see tdtop --help)" },
		{ "option '", "' needs a value" },
	};
	size_t len = strlen(err);

	for (size_t f = 0; f < 2; f++) {
		size_t a = strlen(forms[f][0]), b = strlen(forms[f][1]), n;

		if (len < a + b || strncmp(err, forms[f][0], a) ||
		    strcmp(err + len - b, forms[f][1]))
			continue;
		n = len - a - b;
		require(n > 0 && err[a] == '-', "the option named starts with '-'");
		for (int i = 1; i < argc; i++) {
			if (strlen(argv[i]) == n && !strncmp(argv[i], err + a, n))
				return;
			/* or one letter of a word of short options: -x of -xb */
			if (n == 2 && argv[i][0] == '-' && argv[i][1] != '-' &&
			    strchr(argv[i] + 1, err[a + 1]))
				return;
		}
		require(false, "the option named is one the user typed");
	}
}

static void check_accepted(const struct options *o)
{
	require(o->cmd >= CMD_TOP && o->cmd <= CMD_EXPORTER, "command");
	require(o->delay_s >= 0.01 && o->delay_s <= 86400, "delay");
	require(o->duration_s == 0 || (o->duration_s >= 0.01 && o->duration_s <= 86400),
		"duration");
	require(o->iterations >= 0, "iterations");
	require(o->nr_pids <= MAX_PIDS, "pid count");
	for (size_t i = 0; i < o->nr_pids; i++)
		require(o->pids[i] >= 1 && o->pids[i] <= 4194304, "pid range");
	require(o->by >= BY_PROCESS && o->by <= BY_CGROUP, "grouping");
	require(o->cgroup_depth >= 0 && o->cgroup_depth <= MAX_CGROUP_DEPTH, "cgroup depth");
	require(!o->cgroup || o->cgroup[0], "cgroup path");
	require(o->format >= OUTPUT_TEXT && o->format <= OUTPUT_CSV, "output format");
	require(o->max_tasks >= 16 && o->max_tasks <= 4194304, "max tasks");
	require(o->level == 1 || o->level == 2, "level");
	if (o->help || o->version)
		return;
	if (o->cmd == CMD_RECORD)
		require(o->record_path != NULL, "record has a file");
	if (o->cmd == CMD_REPORT)
		require(o->files[0] && (!o->diff || o->files[1]), "report has its files");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *copy = malloc(size + 1);
	char *argv[MAX_ARGS + 1], *argv2[MAX_ARGS + 1];
	struct options o, o2;
	char err[512] = "", err2[512] = "";
	int argc, ret, ret2;

	if (!buf || !copy)
		goto out;
	memcpy(buf, data, size);
	buf[size] = '\0';
	memcpy(copy, data, size);
	copy[size] = '\0';
	argc = split_args(buf, size, argv);
	split_args(copy, size, argv2);

	ret = options_parse(argc, argv, &o, err, sizeof(err));
	if (ret) {
		require(ret == -EINVAL, "usage error is -EINVAL");
		require(err[0] >= 'a' && err[0] <= 'z', "lower-case message");
		check_named_option(err, argv2, argc);
	} else {
		check_accepted(&o);
	}
	/* getopt keeps state between calls: a second parse must agree */
	ret2 = options_parse(argc, argv2, &o2, err2, sizeof(err2));
	require(ret2 == ret && !strcmp(err, err2), "same result twice");
	if (!ret)
		require(o.cmd == o2.cmd && o.delay_s == o2.delay_s && o.nr_pids == o2.nr_pids &&
				o.max_tasks == o2.max_tasks && o.by == o2.by,
			"same options twice");
out:
	free(buf);
	free(copy);
	return 0;
}
