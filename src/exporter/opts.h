/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The exporter's options: where it listens, and what it serves. */
#ifndef __TDTOP_EXPORTER_OPTS_H
#define __TDTOP_EXPORTER_OPTS_H

#include <stddef.h>
#include <stdio.h>
#include <sys/socket.h>
#include "exporter/store.h"

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

struct web_config;

struct exporter_opts {
	struct listen_addr listen;
	struct prom_opts prom;
	double interval_s;		/* -d: tdtop_up turns 0 after 3 intervals without one */
	FILE *log;			/* a line per metric found unavailable; NULL: none */
	struct web_config *web;		/* --web-config; NULL: plain HTTP, no authentication */
};

/*
 * "ADDR:PORT", "[IPV6]:PORT", or the address alone for the default port.
 * Numeric addresses only (no name lookup); port 1..65535. Returns 0, or
 * -EINVAL with a one-line message in *err* (and *a* zeroed).
 */
int listen_addr__parse(struct listen_addr *a, const char *s, char *err, size_t errlen);

/* Defaults: 127.0.0.1:9717, per cgroup, every series, one-hour TTL, 1 s intervals. */
void exporter_opts__init(struct exporter_opts *o);

/* The command line's values the exporter takes. */
struct exporter_args {
	const char *listen;	/* --listen; NULL: 127.0.0.1:9717 */
	const char *web_config;	/* --web-config FILE; NULL: none */
	enum group_by by;	/* --by cgroup or process */
	bool by_comm;		/* --by comm: process rows summed per command name */
	size_t top;		/* --top; 0: every cgroup, or EXPORTER_DEFAULT_TOP */
	double interval_s;	/* -d */
};

/*
 * The exporter's settings from the command line's values, the web
 * configuration read and checked. Returns 0, or -EINVAL with a one-line
 * message in *err* (a bad address, --by thread, --top too large, a bad web
 * configuration). Free with exporter_opts__free(), also after a failure.
 */
int exporter_opts__parse(struct exporter_opts *o, const struct exporter_args *a, char *err,
			 size_t errlen);

/* "https://127.0.0.1:9717/metrics (basic authentication)": where, and how. */
void exporter_opts__describe(const struct exporter_opts *o, char *buf, size_t size);

/* What parsing allocated (the web configuration); *o* may be zeroed or parsed. */
void exporter_opts__free(struct exporter_opts *o);

#endif /* __TDTOP_EXPORTER_OPTS_H */
