/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Derived values of an interval's rows: the TopDown breakdown and IPC,
 * computed the same way for every row, for live and replayed data.
 */
#ifndef __TDTOP_METRICS_H
#define __TDTOP_METRICS_H

#include "events.h"
#include "model.h"
#include "tdconfig.h"

/*
 * Fill td/ipc of every row and of the interval (all tasks, idle
 * excluded). Hybrid parts are merged by their slots. *scale* gives each
 * event's sysfs scale (1.0 when none).
 */
void metrics_fill(struct interval *iv, const struct td_config *cfg, const double *scale);

/* The breakdown of one set of deltas (a row, or any sum of rows). */
void metrics_compute(const struct delta *ev, const struct td_config *cfg, const double *scale,
		     struct td_result *td, double *ipc);

#endif /* __TDTOP_METRICS_H */
