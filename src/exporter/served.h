/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What scrapes are served: one interval rendered in both formats,
 * immutable once published and shared by reference counts, with its gzip
 * forms made on first demand.
 */
#ifndef __TDTOP_SERVED_H
#define __TDTOP_SERVED_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include "exporter/gzip.h"
#include "exporter/store.h"

struct served {
	int refs;
	char *body[2];		/* [openmetrics]: the text format, OpenMetrics */
	size_t len[2];
	double published;	/* CLOCK_MONOTONIC seconds */
	double render_s;	/* what rendering both formats took */
	pthread_mutex_t gz_lock;	/* guards the gzip forms */
	struct gz_body gz[2];
	bool gz_made[2];
};

/* *st* rendered in both formats, with one reference; NULL on ENOMEM. */
struct served *served__render(const struct prom_store *st);

/* Another reference. */
struct served *served__get(struct served *s);

/* Drop a reference; the last frees. Accepts NULL. */
void served__put(struct served *s);

/* The body of one format gzip'ed, made by the first to ask; NULL on ENOMEM. */
const struct gz_body *served__gzip(struct served *s, bool openmetrics);

#endif /* __TDTOP_SERVED_H */
