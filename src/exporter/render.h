/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* A series store written in the text exposition format 0.0.4 or OpenMetrics 1.0.0. */
#ifndef __TDTOP_RENDER_H
#define __TDTOP_RENDER_H

#include <stdbool.h>
#include <stdio.h>
#include "exporter/store.h"

/*
 * Write every metric family with HELP and TYPE lines, series in a stable
 * order (cgroup path, PID). The OpenMetrics "# EOF" is left to
 * prom_render_trailer(), so that a server can append live values.
 * Returns 0, or -1 when writing failed.
 */
int prom_store__render(const struct prom_store *s, bool openmetrics, FILE *f);

/*
 * tdtop_up (whether the collector still publishes on time) and
 * tdtop_render_duration_seconds (what rendering the served state took),
 * then "# EOF" for OpenMetrics. Returns 0, or -1 when writing failed.
 */
int prom_render_trailer(FILE *f, bool openmetrics, bool up, double render_s);

#endif /* __TDTOP_RENDER_H */
