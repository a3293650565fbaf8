/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * -e parsing for the event tests: parse a list against a sysfs root into
 * one list and one message buffer per test file, check a refusal and its
 * message, and capture what --list-events prints.
 */
#ifndef __TDTOP_EVENT_PARSE_H
#define __TDTOP_EVENT_PARSE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pmu/events.h"
#include "test.h"

static char err[512];
static struct event_list list;

static int parse(const char *root, const char *s)
{
	err[0] = '\0';
	return event_list__parse(root, s, &list, err, sizeof(err));
}

/* Parse *s*, which must fail with a message containing *msg*. */
#define CHECK_FAILS(root, s, msg)                                                          \
	do {                                                                               \
		if (parse(root, s) != -1)                                                  \
			test_fail(__FILE__, __LINE__, "'%s' was accepted", s);             \
		else if (!strstr(err, msg))                                                \
			test_fail(__FILE__, __LINE__, "'%s': '%s' lacks '%s'", s, err, msg); \
	} while (0)

/* What --list-events prints for *root*, malloc'ed, or NULL. */
static inline char *print_list(const char *root)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	events_print_list(root, f);
	fclose(f);
	return buf;
}

#endif /* __TDTOP_EVENT_PARSE_H */
