/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * From a sample to the interval every output shows: rows for a view,
 * TopDown and IPC per row, sorted. Live and replayed samples take the
 * same path.
 */
#ifndef __TDTOP_PIPELINE_H
#define __TDTOP_PIPELINE_H

#include "rows/aggregate.h"
#include "pmu/events.h"
#include "rows/model.h"
#include "rows/sample.h"
#include "pmu/tdconfig.h"

struct pipeline {
	int nr_events;
	const char *names[MAX_EVENTS];
	double scale[MAX_EVENTS];
	bool topdown;			/* cfg describes a TopDown method */
	struct td_config cfg;		/* roles also give IPC without TopDown */
	const char *method;		/* td_method_name() of the first part */
	const char *notice;		/* why TopDown is off, or NULL */
};

/* Names and scales from the event list; cfg/topdown/method set apart. */
void pipeline__init(struct pipeline *p, const struct event_list *el);

/* Why rows of *p* grouped *by* have no values for sort key *k*; NULL when they have. */
const char *pipeline__sort_missing(const struct pipeline *p, const struct sort_key *k,
				   enum group_by by);

/*
 * Sort key *k* (typed as *typed*) has values in the rows *p* makes when
 * grouped *by*: 0, else -EINVAL with a message naming the key, why, and
 * the keys that have values ("sort key 'backend' has no values here:
 * TopDown is not measured (available: cpu, pid, comm, ...)").
 */
int pipeline__check_sort(const struct pipeline *p, const char *typed, const struct sort_key *k,
			 enum group_by by, char *err, size_t errlen);

/* Build *iv*; free its rows with interval__free_rows(). -ENOMEM. */
int pipeline__build(const struct pipeline *p, const struct sample *s, const struct view *v,
		    int level, struct interval *iv);

#endif /* __TDTOP_PIPELINE_H */
