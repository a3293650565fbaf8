/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Bit-for-bit comparison of two samples, for the recording's round trips:
 * the unit tests and the recording fuzzer both check that a sample read
 * back is the one written.
 */
#ifndef __TDTOP_TEST_SAMPLE_EQ_H
#define __TDTOP_TEST_SAMPLE_EQ_H

#include <stdbool.h>
#include <string.h>
#include "rows/sample.h"

static inline bool sample_eq(const struct sample *a, const struct sample *b)
{
	if (memcmp(&a->ts, &b->ts, sizeof(a->ts)) ||
	    memcmp(&a->interval_s, &b->interval_s, sizeof(a->interval_s)) ||
	    a->ncpus != b->ncpus || memcmp(&a->idle, &b->idle, sizeof(a->idle)) ||
	    memcmp(&a->lost, &b->lost, sizeof(a->lost)) ||
	    memcmp(&a->total, &b->total, sizeof(a->total)) || a->switches != b->switches ||
	    a->dropped != b->dropped || a->read_errors != b->read_errors || a->nr != b->nr)
		return false;
	for (size_t i = 0; i < a->nr; i++) {
		const struct task_delta *x = &a->tasks[i], *y = &b->tasks[i];

		if (x->tid != y->tid || x->pid != y->pid || x->start_ns != y->start_ns ||
		    x->leader_start_ns != y->leader_start_ns || x->cgroup_id != y->cgroup_id ||
		    memcmp(x->comm, y->comm, TASK_COMM_LEN) ||
		    memcmp(x->pcomm, y->pcomm, TASK_COMM_LEN) || x->exited != y->exited ||
		    x->cpu_ns != y->cpu_ns || memcmp(x->ev, y->ev, sizeof(x->ev)))
			return false;
	}
	return true;
}

#endif /* __TDTOP_TEST_SAMPLE_EQ_H */
