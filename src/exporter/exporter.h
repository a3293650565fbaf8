/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The exporter: the metrics of the last complete interval served on
 * /metrics (httpd.h). Its options are in opts.h.
 */
#ifndef __TDTOP_EXPORTER_H
#define __TDTOP_EXPORTER_H

#include "rows/model.h"
#include "exporter/opts.h"

/* Limits that keep bad or slow clients from hurting the exporter (httpd.h). */
#define EXPORTER_MAX_CONNECTIONS 1024	/* room for scrapes beside hundreds of slow clients */
#define EXPORTER_MAX_PER_CLIENT 16	/* per IPv4 address or IPv6 /64 */
#define EXPORTER_REQUEST_S 10.0		/* a request whole, and again its answer taken */
#define EXPORTER_IDLE_S 30.0		/* kept-alive, between two scrapes */
#define EXPORTER_THREADS 2

struct exporter;

/*
 * Bind o->listen and serve, with TLS and authentication as o->web asks
 * (which must outlive the exporter). The state starts empty: build info
 * and zero counters until the first exporter__publish(). NULL with a
 * one-line message in *err* on failure (e.g. the address is in use).
 */
struct exporter *exporter__start(const struct exporter_opts *o, char *err, size_t errlen);

/*
 * Add one interval and make it what scrapes get. Only the caller's thread
 * does the work; scrapes in progress keep the state they started with.
 * Returns 0, or -errno (the previously published state stays served).
 */
int exporter__publish(struct exporter *e, const struct interval *iv);

/* Stop serving and free everything. Accepts NULL. */
void exporter__stop(struct exporter *e);

#endif /* __TDTOP_EXPORTER_H */
