// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* HTTP request heads: where they end, the limits, and what is refused. */
#include <stdlib.h>
#include "exporter/httpreq.h"
#include "test.h"

/* Parse *head*, which must be whole; the status, 0 for a request served. */
static int parse(struct http_request *rq, const char *head, char *buf, size_t size)
{
	size_t len = strlen(head);
	long end;

	snprintf(buf, size, "%s", head);
	end = http_head_end(buf, len);
	if (end <= 0)
		return end ? (int)end : -1;
	return http_request__parse(rq, buf, (size_t)end);
}

TEST(http_head_end_and_limits)
{
	char *big = malloc(HTTP_MAX_HEAD + 64);

	CHECK_INT(http_head_end("GET / HTTP/1.1\r\nHost: x\r\n", 25), 0);
	CHECK_INT(http_head_end("GET / HTTP/1.1\r\nHost: x\r\n\r\nGET", 30), 27);
	CHECK_INT(http_head_end("GET / HTTP/1.0\n\n", 16), 16);
	CHECK_INT(http_head_end("\r\nGET / HTTP/1.0\r\n\r\n", 20), 20);
	CHECK_INT(http_head_end("", 0), 0);
	if (!big)
		return;
	/* a request line that cannot end within the limit: 414 before it ends */
	memset(big, 'a', HTTP_MAX_HEAD + 64);
	memcpy(big, "GET /", 5);
	CHECK_INT(http_head_end(big, HTTP_MAX_LINE), 0);
	CHECK_INT(http_head_end(big, HTTP_MAX_LINE + 1), -414);
	/* fields past the limit: 431, whether they end or not */
	memcpy(big, "GET / HTTP/1.1\r\nX: ", 19);
	CHECK_INT(http_head_end(big, HTTP_MAX_HEAD), 0);
	CHECK_INT(http_head_end(big, HTTP_MAX_HEAD + 1), -431);
	memcpy(big + HTTP_MAX_HEAD - 2, "\r\n\r\n", 4);
	CHECK_INT(http_head_end(big, HTTP_MAX_HEAD + 2), -431);
	memcpy(big + HTTP_MAX_HEAD - 4, "\r\n\r\n", 4);
	CHECK_INT(http_head_end(big, HTTP_MAX_HEAD + 2), HTTP_MAX_HEAD);
	free(big);
}

TEST(http_request_parses)
{
	struct http_request rq;
	char buf[1024], join[256];

	CHECK_INT(parse(&rq, "GET /metrics?x=1&y HTTP/1.1\r\nHost: h:1\r\n"
			"Accept:  text/plain;q=0.5 \r\nUser-Agent: t\r\n"
			"accept: application/openmetrics-text\r\n\r\n", buf, sizeof(buf)), 0);
	CHECK_INT(rq.method, HTTP_GET);
	CHECK_STR(rq.path, "/metrics");
	CHECK_INT(rq.minor, 1);
	CHECK(rq.keep_alive && !rq.has_body);
	CHECK_INT(rq.nr_fields, 4);
	CHECK_STR(http_request__field(&rq, "host", join, sizeof(join)), "h:1");
	CHECK_STR(http_request__field(&rq, "user-agent", join, 1), "t");
	/* a repeated list field is one, joined (RFC 9110 5.3) */
	CHECK_STR(http_request__field(&rq, "Accept", join, sizeof(join)),
		  "text/plain;q=0.5, application/openmetrics-text");
	CHECK(!http_request__field(&rq, "Accept", join, 20));
	CHECK(!http_request__field(&rq, "Authorization", join, sizeof(join)));

	CHECK_INT(parse(&rq, "HEAD / HTTP/1.0\n\n", buf, sizeof(buf)), 0);
	CHECK_INT(rq.method, HTTP_HEAD);
	CHECK_INT(rq.minor, 0);
	CHECK(!rq.keep_alive);
	CHECK_INT(parse(&rq, "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\n", buf,
			sizeof(buf)), 0);
	CHECK_INT(rq.method, HTTP_OTHER);
	CHECK(rq.has_body && !rq.keep_alive);
	CHECK_INT(parse(&rq, "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 00\r\n\r\n", buf,
			sizeof(buf)), 0);
	CHECK(!rq.has_body && rq.keep_alive);
	CHECK_INT(parse(&rq, "GET / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n",
			buf, sizeof(buf)), 0);
	CHECK(rq.has_body);
	CHECK_INT(parse(&rq, "GET / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, Close\r\n\r\n",
			buf, sizeof(buf)), 0);
	CHECK(!rq.keep_alive);
	/* absolute-form targets name their path; a later 1.x is read as 1.1 */
	CHECK_INT(parse(&rq, "GET http://h:9/metrics?a HTTP/1.1\r\nHost: h\r\n\r\n", buf,
			sizeof(buf)), 0);
	CHECK_STR(rq.path, "/metrics");
	CHECK_INT(parse(&rq, "GET HTTP://h HTTP/1.9\r\nHost: h\r\n\r\n", buf, sizeof(buf)), 0);
	CHECK_STR(rq.path, "/");
	CHECK_INT(rq.minor, 1);
}

TEST(http_request_refused)
{
	static const struct {
		const char *head;
		int status;
	} cases[] = {
		/* HTTP/1.1 needs one Host, and only one */
		{ "GET / HTTP/1.1\r\n\r\n", -400 },
		{ "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", -400 },
		{ "GET / HTTP/2.0\r\n\r\n", -505 },
		{ "GET / HTTP/0.9\r\n\r\n", -505 },
		{ "GET / HTTP/1.x\r\n\r\n", -400 },
		{ "GET / http/1.1\r\nHost: h\r\n\r\n", -400 },
		{ "GET /  HTTP/1.1\r\nHost: h\r\n\r\n", -400 },
		{ "GET / HTTP/1.1 \r\nHost: h\r\n\r\n", -400 },
		{ "GET HTTP/1.1\r\nHost: h\r\n\r\n", -400 },
		{ "G(T / HTTP/1.1\r\nHost: h\r\n\r\n", -400 },
		{ "GET metrics HTTP/1.1\r\nHost: h\r\n\r\n", -400 },
		{ "GET / HTTP/1.1\r\nHost : h\r\n\r\n", -400 },
		{ "GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n", -400 },
		{ "GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n", -400 },
		{ "GET / HTTP/1.1\r\nHost: h\rX: y\r\n\r\n", -400 },
		{ "GET / HTTP/1.1\r\nHost: h\x01\r\n\r\n", -400 },
		{ "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 1x\r\n\r\n", -400 },
		{ "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
		  -400 },
	};
	struct http_request rq;
	char buf[1024];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int got = parse(&rq, cases[i].head, buf, sizeof(buf));

		if (got != cases[i].status)
			test_fail(__FILE__, __LINE__, "case %zu: %d, want %d", i, got,
				  cases[i].status);
	}
}

/* Too many query arguments or fields: a status, not a dropped connection. */
TEST(http_request_too_many)
{
	struct http_request rq;
	static char head[HTTP_MAX_HEAD], buf[HTTP_MAX_HEAD];
	size_t n = 0;

	n += (size_t)snprintf(head, sizeof(head), "GET /metrics?");
	for (int i = 0; i < HTTP_MAX_ARGS; i++)
		n += (size_t)snprintf(head + n, sizeof(head) - n, "%sa%d=1", i ? "&" : "", i);
	snprintf(head + n, sizeof(head) - n, " HTTP/1.1\r\nHost: h\r\n\r\n");
	CHECK_INT(parse(&rq, head, buf, sizeof(buf)), 0);
	snprintf(head + n, sizeof(head) - n, "&b HTTP/1.1\r\nHost: h\r\n\r\n");
	CHECK_INT(parse(&rq, head, buf, sizeof(buf)), -414);

	n = (size_t)snprintf(head, sizeof(head), "GET / HTTP/1.1\r\nHost: h\r\n");
	for (int i = 1; i < HTTP_MAX_FIELDS; i++)
		n += (size_t)snprintf(head + n, sizeof(head) - n, "X-%d: 1\r\n", i);
	snprintf(head + n, sizeof(head) - n, "\r\n");
	CHECK_INT(parse(&rq, head, buf, sizeof(buf)), 0);
	snprintf(head + n, sizeof(head) - n, "X-Last: 1\r\n\r\n");
	CHECK_INT(parse(&rq, head, buf, sizeof(buf)), -431);
}
