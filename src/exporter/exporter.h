/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The exporter's HTTP server (libmicrohttpd): the metrics of the last
 * complete interval on /metrics. Its options are in listen.h.
 */
#ifndef __TDTOP_EXPORTER_H
#define __TDTOP_EXPORTER_H

#include "rows/model.h"
#include "exporter/listen.h"

/* Limits that keep bad or slow clients from hurting the exporter. */
#define EXPORTER_MAX_CONNECTIONS 128
#define EXPORTER_TIMEOUT_S 10		/* idle connections are closed after this */
#define EXPORTER_CONN_MEMORY 16384	/* per connection: larger headers are refused */
#define EXPORTER_THREADS 2

struct exporter;

/*
 * Bind o->listen and serve. The state starts empty: build info and zero
 * counters until the first exporter__publish(). NULL with a one-line
 * message in *err* on failure (e.g. the address is in use).
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
