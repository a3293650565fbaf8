/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The head of an HTTP/1.x request (RFC 9112): request line and header
 * fields, checked against the exporter's limits. Bodies are never read.
 */
#ifndef __TDTOP_HTTPREQ_H
#define __TDTOP_HTTPREQ_H

#include <stdbool.h>
#include <stddef.h>

#define HTTP_MAX_LINE 8192	/* request line: a longer one is 414 */
#define HTTP_MAX_HEAD 16384	/* request line and fields: more is 431 */
#define HTTP_MAX_FIELDS 64	/* field lines: more is 431 */
#define HTTP_MAX_ARGS 64	/* query arguments: more is 414 */

enum http_method { HTTP_GET, HTTP_HEAD, HTTP_OTHER };

struct http_field {
	const char *name;
	const char *value;	/* without the whitespace around it */
};

struct http_request {
	enum http_method method;
	const char *path;	/* the target without its query: "/metrics" */
	int minor;		/* HTTP/1.<minor> */
	bool keep_alive;	/* another request may follow on the connection */
	bool has_body;		/* Content-Length > 0 or Transfer-Encoding: left unread */
	size_t nr_fields;
	struct http_field fields[HTTP_MAX_FIELDS];
};

/*
 * Whether *buf* (*len* bytes received so far) holds a whole request head:
 * its length, 0 while more bytes are needed and no limit is exceeded, or
 * the negative status to refuse it with (414, 431) when one is.
 */
long http_head_end(const char *buf, size_t len);

/*
 * Parse a whole head of *len* bytes (as http_head_end() found it) in place:
 * the strings *rq* points to end where separators were. Returns 0, or the
 * negative status to answer with: 400 (malformed, no Host in HTTP/1.1, two
 * Hosts), 414 (too many query arguments), 431 (too many fields), 505 (not
 * HTTP/1.0 or 1.1).
 */
int http_request__parse(struct http_request *rq, char *buf, size_t len);

/*
 * Every field named *name* (case-insensitive), the values joined with ", "
 * as RFC 9110 combines repeated list fields: the value itself when there is
 * one, else written to *buf*. NULL when there is none or the join does not
 * fit *size*.
 */
const char *http_request__field(const struct http_request *rq, const char *name, char *buf,
				size_t size);

#endif /* __TDTOP_HTTPREQ_H */
