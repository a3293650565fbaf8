// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The exporter's HTTP server on loopback with a test handler: answers,
 * keep-alive and pipelining, refusals with a status, deadlines that
 * trickling does not move, and the per-client limit.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "util/clock.h"
#include "exporter/httpd.h"
#include "test.h"

static void handler(void *ctx, const struct http_request *rq, struct http_response *r)
{
	static const char ok[] = "hello\n";
	int *calls = ctx;

	(*calls)++;
	r->status = strcmp(rq->path, "/") ? 404 : 200;
	r->type = "text/plain";
	r->body[0] = (struct iovec){ (void *)ok, sizeof(ok) - 1 };
	r->body[1] = (struct iovec){ (void *)ok, sizeof(ok) - 1 };
	r->nr_body = 2;
}

static struct httpd *serve(struct httpd_opts *o, int *calls, int *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(0x7f000001) };
	socklen_t len = sizeof(a);
	char err[256];
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 64) ||
	    getsockname(fd, (struct sockaddr *)&a, &len)) {
		CHECK(!"listening socket");
		return NULL;
	}
	*port = ntohs(a.sin_port);
	o->threads = o->threads ? o->threads : 2;
	o->max_conns = o->max_conns ? o->max_conns : 64;
	o->max_per_client = o->max_per_client ? o->max_per_client : 16;
	o->request_s = o->request_s > 0 ? o->request_s : 5;
	o->idle_s = o->idle_s > 0 ? o->idle_s : 5;
	o->handler = handler;
	o->ctx = calls;
	return httpd__start(fd, o, err, sizeof(err));
}

/* A blocking client from 127.0.0.<from>, reads time out after 3 s. */
static int dial(int port, int from)
{
	struct sockaddr_in src = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(0x7f000000 | from) };
	struct sockaddr_in dst = { .sin_family = AF_INET, .sin_port = htons((unsigned short)port),
				   .sin_addr.s_addr = htonl(0x7f000001) };
	struct timeval tv = { 3, 0 };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (bind(fd, (struct sockaddr *)&src, sizeof(src)) ||
	    connect(fd, (struct sockaddr *)&dst, sizeof(dst))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void say(int fd, const char *s)
{
	CHECK(send(fd, s, strlen(s), MSG_NOSIGNAL) == (ssize_t)strlen(s));
}

/* Everything until the server closes (or 3 s pass), NUL-terminated in *buf*. */
static size_t slurp(int fd, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;

	while (len + 1 < size && (n = recv(fd, buf + len, size - 1 - len, 0)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	return len;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

TEST(httpd_answers_pipelined_requests_and_head)
{
	struct httpd_opts o = {};
	static char buf[8192];
	int calls = 0, port, fd;
	struct httpd *h = serve(&o, &calls, &port);

	if (!h)
		return;
	fd = dial(port, 1);
	say(fd, "GET / HTTP/1.1\r\nHost: t\r\n\r\nHEAD / HTTP/1.1\r\nHost: t\r\n\r\n"
		"GET /x HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
	slurp(fd, buf, sizeof(buf));
	CHECK_INT(calls, 3);
	CHECK_INT(count(buf, "HTTP/1.1 200 OK\r\n"), 2);
	CHECK_INT(count(buf, "HTTP/1.1 404 Not Found\r\n"), 1);
	CHECK_INT(count(buf, "Content-Length: 12\r\n"), 3);
	/* HEAD tells the length and sends no body */
	CHECK_INT(count(buf, "hello\nhello\n"), 2);
	CHECK_INT(count(buf, "Connection: close\r\n"), 1);
	CHECK(strstr(buf, "\r\nDate: ") && strstr(buf, " GMT\r\n"));
	close(fd);

	/* HTTP/1.0: one answer, then the close */
	fd = dial(port, 1);
	say(fd, "GET / HTTP/1.0\r\n\r\n");
	slurp(fd, buf, sizeof(buf));
	CHECK(strstr(buf, "Connection: close\r\n") && strstr(buf, "\r\n\r\nhello\nhello\n"));
	close(fd);
	httpd__stop(h);
}

TEST(httpd_refuses_with_a_status)
{
	static const struct {
		const char *head;
		const char *status;
	} cases[] = {
		{ "GET / HTTP/1.1\r\n\r\n", "HTTP/1.1 400 " },
		{ "GET / HTTP/3.0\r\nHost: t\r\n\r\n", "HTTP/1.1 505 " },
		{ "\x16\x03\x01\x02\x05\x01\r\n\r\n", "HTTP/1.1 400 " },
	};
	struct httpd_opts o = {};
	static char buf[8192], big[HTTP_MAX_HEAD * 4];
	int calls = 0, port, fd;
	struct httpd *h = serve(&o, &calls, &port);
	size_t n;

	if (!h)
		return;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fd = dial(port, 1);
		say(fd, cases[i].head);
		slurp(fd, buf, sizeof(buf));
		if (strncmp(buf, cases[i].status, strlen(cases[i].status)))
			test_fail(__FILE__, __LINE__, "case %zu: '%.40s'", i, buf);
		close(fd);
	}
	/* 2,000 query arguments: 414, and headers beyond the limit: 431, both read whole */
	n = (size_t)snprintf(big, sizeof(big), "GET /?");
	for (int i = 0; i < 2000; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "a%d=1&", i);
	snprintf(big + n, sizeof(big) - n, " HTTP/1.1\r\nHost: t\r\n\r\n");
	fd = dial(port, 1);
	say(fd, big);
	slurp(fd, buf, sizeof(buf));
	CHECK(!strncmp(buf, "HTTP/1.1 414 URI Too Long\r\n", 27));
	close(fd);
	n = (size_t)snprintf(big, sizeof(big), "GET / HTTP/1.1\r\nHost: t\r\nX: ");
	memset(big + n, 'x', sizeof(big) - n - 5);
	memcpy(big + sizeof(big) - 5, "\r\n\r\n", 5);
	fd = dial(port, 1);
	say(fd, big);
	slurp(fd, buf, sizeof(buf));
	CHECK(!strncmp(buf, "HTTP/1.1 431 Request Header Fields Too Large\r\n", 46));
	close(fd);
	CHECK_INT(calls, 0);
	httpd__stop(h);
}

/* A byte every 50 ms keeps a connection busy, not alive: the deadline holds. */
TEST(httpd_deadline_is_not_reset_by_trickling)
{
	struct httpd_opts o = { .request_s = 0.4, .idle_s = 0.3 };
	static const char req[] = "GET / HTTP/1.1\r\nHost: t\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaa";
	static char buf[4096];
	int calls = 0, port, fd;
	struct httpd *h = serve(&o, &calls, &port);
	double t0;
	size_t i;

	if (!h)
		return;
	fd = dial(port, 1);
	t0 = mono_s();
	for (i = 0; i < sizeof(req) - 1; i++) {
		struct timespec ts = { 0, 50000000 };

		if (send(fd, req + i, 1, MSG_NOSIGNAL) != 1)
			break;
		nanosleep(&ts, NULL);
	}
	/* cut off at 0.4 s (checked every 0.1 s), long before the 3 s of trickling */
	CHECK(i < sizeof(req) - 1);
	CHECK(mono_s() - t0 < 1.5);
	close(fd);

	/* kept alive: closed after the idle time without a next request */
	fd = dial(port, 1);
	say(fd, "GET / HTTP/1.1\r\nHost: t\r\n\r\n");
	t0 = mono_s();
	slurp(fd, buf, sizeof(buf));
	CHECK(strstr(buf, "200 OK"));
	CHECK(mono_s() - t0 > 0.25 && mono_s() - t0 < 2);
	close(fd);
	CHECK_INT(calls, 1);
	httpd__stop(h);
}

/* One client's connections are bounded; another's are still taken. */
TEST(httpd_limits_connections_per_client)
{
	struct httpd_opts o = { .max_per_client = 3, .max_conns = 5 };
	static char buf[4096];
	int calls = 0, port, held[5], fd;
	struct httpd *h = serve(&o, &calls, &port);

	if (!h)
		return;
	for (int i = 0; i < 3; i++)
		held[i] = dial(port, 2);
	/* the fourth from 127.0.0.2 is closed unanswered */
	fd = dial(port, 2);
	say(fd, "GET / HTTP/1.1\r\nHost: t\r\n\r\n");
	CHECK_INT(slurp(fd, buf, sizeof(buf)), 0);
	close(fd);
	/* another address is served */
	held[3] = dial(port, 3);
	say(held[3], "GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
	slurp(held[3], buf, sizeof(buf));
	CHECK(strstr(buf, "200 OK"));
	close(held[3]);
	/* and the whole server is bounded, once it saw that close */
	nanosleep(&(struct timespec){ 0, 200000000 }, NULL);
	held[3] = dial(port, 4);
	held[4] = dial(port, 5);
	fd = dial(port, 6);
	say(fd, "GET / HTTP/1.1\r\nHost: t\r\n\r\n");
	CHECK_INT(slurp(fd, buf, sizeof(buf)), 0);
	close(fd);
	for (int i = 0; i < 5; i++)
		close(held[i]);
	httpd__stop(h);
}
