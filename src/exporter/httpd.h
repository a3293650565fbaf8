/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The exporter's HTTP/1.1 server: a few threads, each an event loop over
 * its connections, so that slow clients cost a socket and a buffer, never
 * a thread. Every request must arrive whole, and its answer be taken,
 * within a deadline that a client cannot extend by trickling bytes.
 */
#ifndef __TDTOP_HTTPD_H
#define __TDTOP_HTTPD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/uio.h>
#include "exporter/httpreq.h"

struct tls_server;

/* What a handler answers; the server adds Date, Content-Length and Connection. */
struct http_response {
	int status;
	const char *type;		/* Content-Type; NULL: none */
	const char *fields;		/* more header lines, each ending in "\r\n"; NULL */
	struct iovec body[2];		/* HEAD sends its length, not the bytes */
	int nr_body;
	bool close;			/* close the connection after it */
	void (*done)(void *arg);	/* once sent or dropped; NULL */
	void *done_arg;
};

/*
 * Fill *resp* for *rq* (zeroed by the server). Runs on a server thread;
 * the request's strings are only valid during the call.
 */
typedef void (*http_handler_fn)(void *ctx, const struct http_request *rq,
				struct http_response *resp);

struct httpd_opts {
	int threads;
	size_t max_conns;		/* open at once; more are closed at once */
	size_t max_per_client;		/* per client IPv4 address, or IPv6 /64 */
	double request_s;		/* first byte (or connect) to whole head; again
					 * from there to the whole response taken */
	double idle_s;			/* a kept-alive connection between requests */
	const struct tls_server *tls;	/* NULL: plain HTTP */
	http_handler_fn handler;
	void *ctx;
};

struct httpd;

/*
 * Serve on *listen_fd* (bound and listening; the server owns it from
 * here, also on failure). The threads start with every signal blocked.
 * NULL with a one-line message in *err*.
 */
struct httpd *httpd__start(int listen_fd, const struct httpd_opts *o, char *err, size_t errlen);

/* Stop the threads, close every connection (dropping responses in flight). Accepts NULL. */
void httpd__stop(struct httpd *h);

#endif /* __TDTOP_HTTPD_H */
