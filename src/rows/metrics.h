/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Derived values of an interval's rows: the TopDown breakdown and IPC,
 * computed the same way for every row, for live and replayed data.
 */
#ifndef __TDTOP_METRICS_H
#define __TDTOP_METRICS_H

#include "pmu/events.h"
#include "rows/model.h"
#include "pmu/tdconfig.h"

/*
 * A TopDown value as outputs name it. *key* is its one name, typed
 * wherever a name is asked for (--sort, the exporter's category label);
 * *sort* is an older short form still accepted as an alias of it; *label*
 * abbreviates it as a column header. The man page lists all three.
 */
struct td_field {
	const char *key;	/* JSON, CSV and Prometheus name; a --sort key */
	const char *sort;	/* short alias of key for --sort; the text totals line */
	const char *label;	/* text column header */
	int level;		/* 1 or 2; 0 for slots and smt_contention */
	size_t offset;		/* of a double in struct td_result */
};

/* Level 1, then level 2, then SMT contention (AMD only). */
extern const struct td_field td_fields[];
extern const int nr_td_fields;

static inline double td_field_value(const struct td_result *r, int i)
{
	return *(const double *)((const char *)r + td_fields[i].offset);
}

/*
 * TopDown field *i* is part of the interval's output: level 1, level 2
 * when shown, SMT contention where the method measures it.
 */
bool td_field_shown(const struct interval *iv, int i);

/*
 * Fill td/ipc of every row and of the interval (all tasks, idle
 * excluded). Hybrid parts are merged by their slots. *scale* gives each
 * event's sysfs scale (1.0 when none).
 */
void interval__fill_metrics(struct interval *iv, const struct td_config *cfg, const double *scale);

/* The breakdown of one set of deltas (a row, or any sum of rows). */
void metrics_compute(const struct delta *ev, const struct td_config *cfg, const double *scale,
		     struct td_result *td, double *ipc);

#endif /* __TDTOP_METRICS_H */
