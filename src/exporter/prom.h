/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The pure half of `tdtop exporter`: each interval's deltas added to
 * running totals per series (cgroup or process), those totals written in
 * the text exposition format 0.0.4 or OpenMetrics 1.0.0, and the
 * exporter's command-line options. The HTTP server is in exporter.h.
 */
#ifndef __TDTOP_PROM_H
#define __TDTOP_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/socket.h>
#include "rows/aggregate.h"
#include "rows/model.h"
#include "options.h"

/* Series tracked at most; rows beyond are counted, not stored. */
#define PROM_MAX_SERIES 65536
/* Half-life of the recent CPU time that ranks process series for --top. */
#define PROM_RANK_HALF_LIFE_S 60.0

#define PROM_TEXT_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define PROM_OPENMETRICS_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"

/* How an event's counts are exported. */
enum prom_event_kind {
	PROM_EV_GENERIC,	/* tdtop_events_total{event="<name>"} */
	PROM_EV_CYCLES,		/* tdtop_cycles_total */
	PROM_EV_INSTRUCTIONS,	/* tdtop_instructions_total */
	PROM_EV_SKIP,		/* not exported (TopDown inputs: see the slots metrics) */
};

struct prom_opts {
	enum group_by by;		/* BY_CGROUP or BY_PROCESS */
	size_t top;			/* row series written at most, by recent CPU; 0: all */
	double series_ttl_s;		/* forget a series without rows this long; 0: never */
	const char *version;		/* tdtop_build_info labels */
	const char *method;		/* NULL or "none": each interval's own is shown */
	enum prom_event_kind event_kind[MAX_EVENTS];
};

struct prom_state;

/* NULL on ENOMEM or when o->by is neither BY_CGROUP nor BY_PROCESS. */
struct prom_state *prom_state__new(const struct prom_opts *o);

/* Accepts NULL. */
void prom_state__free(struct prom_state *s);

/*
 * Add one interval. Process series reported exited in the previous
 * interval are dropped first (their last values were served once), then
 * series idle for longer than the TTL. Rows of the other kind are
 * ignored. Returns 0, -ENOMEM (the state is unchanged but for the drops),
 * or -EINVAL when the event list differs from the first interval's.
 */
int prom_state__add(struct prom_state *s, const struct interval *iv);

/* Row series currently tracked (written or not). */
size_t prom_state__nr_series(const struct prom_state *s);

/*
 * Write every metric family with HELP and TYPE lines, series in a stable
 * order (cgroup path, PID). The OpenMetrics "# EOF" is left to
 * prom_render_trailer(), so that a server can append live values.
 * Returns 0, or -1 when writing failed.
 */
int prom_render(const struct prom_state *s, bool openmetrics, FILE *f);

/*
 * tdtop_up (whether the collector still publishes on time) and
 * tdtop_scrape_duration_seconds (what building the served state took),
 * then "# EOF" for OpenMetrics. Returns 0, or -1 when writing failed.
 */
int prom_render_trailer(FILE *f, bool openmetrics, bool up, double build_s);

/*
 * Does an HTTP Accept header prefer OpenMetrics (1.0.0 or unversioned)
 * to the text format? Media ranges are weighed by their q; NULL, empty or
 * malformed headers give the text format.
 */
bool prom_wants_openmetrics(const char *accept);

/*
 * Escape *s* as a label value: '\\', '"' and newline backslashed, and each
 * ill-formed UTF-8 subpart replaced by U+FFFD (Prometheus rejects a scrape
 * holding invalid UTF-8). Writes at most *size* - 1 bytes plus a NUL,
 * never cutting an escape, and returns the length the whole result needs.
 */
size_t prom_escape_label(char *buf, size_t size, const char *s);

/*
 * Export kinds from TopDown roles (enum td_role, or TD_NO_ROLE): cycles
 * and instructions get their own metrics, events that only feed TopDown
 * are skipped, the others are generic.
 */
void prom_event_kinds_from_roles(const int *role, int n, enum prom_event_kind *out);

/* ---- the exporter's options ---- */

#define EXPORTER_DEFAULT_PORT 9717
#define EXPORTER_DEFAULT_ADDR "127.0.0.1"
/* Process series written by default with --by process. */
#define EXPORTER_DEFAULT_TOP 100
#define EXPORTER_DEFAULT_TTL_S 3600.0

struct listen_addr {
	struct sockaddr_storage ss;
	socklen_t len;
	char text[64];			/* "127.0.0.1:9717", "[::1]:9717" */
};

struct exporter_opts {
	struct listen_addr listen;
	struct prom_opts prom;
	double interval_s;		/* -d: tdtop_up turns 0 after 3 intervals without one */
};

/*
 * "ADDR:PORT", "[IPV6]:PORT", or the address alone for the default port.
 * Numeric addresses only (no name lookup); port 1..65535. Returns 0, or
 * -1 with a one-line message in *err*.
 */
int listen_addr_parse(const char *s, struct listen_addr *out, char *err, size_t errlen);

/* Defaults: 127.0.0.1:9717, per cgroup, every series, one-hour TTL, 1 s intervals. */
void exporter_opts_init(struct exporter_opts *o);

/*
 * The exporter's settings from its command line: --listen (default
 * 127.0.0.1:9717), --by cgroup or process, --top (default: every cgroup,
 * or EXPORTER_DEFAULT_TOP processes) and -d. Returns 0, or -1 with a
 * one-line message in *err* for a usage error (a bad address, --by thread).
 */
int exporter_opts_from_options(const struct options *o, struct exporter_opts *eo, char *err,
				size_t errlen);

#endif /* __TDTOP_PROM_H */
