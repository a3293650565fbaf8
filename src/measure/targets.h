/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The processes given with -p: whether each still runs, and its name, so
 * that one that did not run shows with zeros and the end of the last one
 * ends the run (as perf stat -p does).
 */
#ifndef __TDTOP_TARGETS_H
#define __TDTOP_TARGETS_H

#include <stdbool.h>
#include <stddef.h>
#include "rows/aggregate.h"
#include "tdtop_abi.h"

struct target {
	int pid;
	bool alive;		/* /proc/PID is there and not a zombie */
	char comm[TASK_COMM_LEN];
};

struct targets {
	char proc[64];
	struct target *t;
	size_t nr;
	struct absent_rows absent;	/* for the view: the living ones by name */
};

/* The processes *pids* under *proc* ("/proc"), looked at once. -ENOMEM. */
int targets__init(struct targets *t, const char *proc, const int *pids, size_t nr);

/* Look at each living one again: gone once /proc/PID is missing or a zombie. */
void targets__refresh(struct targets *t);

/* Every target is gone (false when there are none). */
bool targets__all_gone(const struct targets *t);

void targets__free(struct targets *t);

#endif /* __TDTOP_TARGETS_H */
