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

/* Build *iv*; free its rows with interval__free_rows(). -ENOMEM. */
int pipeline__build(const struct pipeline *p, const struct sample *s, const struct view *v,
		    int level, struct interval *iv);

#endif /* __TDTOP_PIPELINE_H */
