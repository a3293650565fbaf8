/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * -e parsing for the event tests: parse a list against a sysfs root into
 * one list and one message buffer per test file, and check a refusal and
 * its message.
 */
#ifndef __TDTOP_EVENT_PARSE_H
#define __TDTOP_EVENT_PARSE_H

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

#endif /* __TDTOP_EVENT_PARSE_H */
