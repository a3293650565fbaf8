/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The exporter's options: where it listens, and what it serves. */
#ifndef __TDTOP_LISTEN_H
#define __TDTOP_LISTEN_H

#include <stddef.h>
#include <sys/socket.h>
#include "exporter/store.h"
#include "options.h"

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

#endif /* __TDTOP_LISTEN_H */
