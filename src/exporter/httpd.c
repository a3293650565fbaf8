// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The exporter's HTTP/1.1 server: threads that each run an epoll loop over
 * the connections they accepted. A connection is a small state machine
 * (TLS handshake, reading a head, writing an answer, lingering before the
 * close) with one deadline at a time, which only the server moves: from
 * the connection or a request's first byte to its whole head, from there
 * to the whole answer, and between requests of a kept-alive connection.
 * Clients are counted per address so that one cannot take every slot.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include "util/clock.h"
#include "util/errmsg.h"
#include "exporter/httpd.h"
#include "exporter/tls.h"

#define READ_CHUNK 2048
#define SWEEP_S 0.1		/* deadlines are checked this often */
#define ACCEPT_PAUSE_S 0.1	/* out of descriptors: accept again after this */
#define LINGER_S 2.0		/* after the last answer, read what the client still sends */
#define MAX_EVENTS_PER_WAIT 64

enum conn_state { C_HANDSHAKE, C_READ, C_WRITE, C_LINGER };

/* A client's address as counted: IPv4 whole, IPv6 by its /64. */
struct client_key {
	unsigned char b[8];
	unsigned char len;
};

struct client_count {
	struct client_key key;
	size_t n;
};

struct conn {
	struct conn *prev, *next;
	int fd;
	struct tls_conn *tls;
	enum conn_state state;
	unsigned int events;	/* what epoll watches for */
	double deadline;
	bool idle;		/* kept alive, no byte of the next request yet */
	struct client_key client;
	char *buf;		/* request bytes received */
	size_t len, cap;
	size_t head;		/* of the request being answered */
	bool keep;		/* read another request after this answer */
	bool sending;		/* resp holds a response not yet done */
	struct http_response resp;
	char hdr[1024];
	struct iovec iov[3];
	int nr_iov, cur;
	size_t off;		/* into iov[cur] */
};

struct worker {
	struct httpd *h;
	pthread_t tid;
	bool started;
	int ep;
	struct conn *conns;
	bool accepting;
	double resume_accept;
	double next_sweep;
};

struct httpd {
	struct httpd_opts o;
	int listen_fd, stop_fd;
	pthread_mutex_t lock;	/* guards the counts */
	size_t nr_conns;
	struct client_count *clients;
	size_t nr_clients;
	struct worker *w;
};

/* ---- clients ---- */

static struct client_key client_key(const struct sockaddr_storage *ss)
{
	struct client_key k = {};

	if (ss->ss_family == AF_INET6) {
		memcpy(k.b, &((const struct sockaddr_in6 *)ss)->sin6_addr, 8);
		k.len = 8;
	} else {
		memcpy(k.b, &((const struct sockaddr_in *)ss)->sin_addr, 4);
		k.len = 4;
	}
	return k;
}

static struct client_count *client_find(struct httpd *h, const struct client_key *k)
{
	for (size_t i = 0; i < h->nr_clients; i++)
		if (h->clients[i].key.len == k->len && !memcmp(h->clients[i].key.b, k->b, k->len))
			return &h->clients[i];
	return NULL;
}

/* Count a new connection, unless it would pass a limit. */
static bool client_admit(struct httpd *h, const struct client_key *k)
{
	struct client_count *c;
	bool ok = false;

	pthread_mutex_lock(&h->lock);
	c = client_find(h, k);
	if (h->nr_conns < h->o.max_conns && (!c || c->n < h->o.max_per_client)) {
		if (!c) {
			c = &h->clients[h->nr_clients++];
			c->key = *k;
			c->n = 0;
		}
		c->n++;
		h->nr_conns++;
		ok = true;
	}
	pthread_mutex_unlock(&h->lock);
	return ok;
}

static void client_leave(struct httpd *h, const struct client_key *k)
{
	struct client_count *c;

	pthread_mutex_lock(&h->lock);
	c = client_find(h, k);
	if (c && !--c->n)
		*c = h->clients[--h->nr_clients];
	h->nr_conns--;
	pthread_mutex_unlock(&h->lock);
}

/* ---- responses ---- */

static const char *status_text(int status)
{
	switch (status) {
	case 200: return "OK";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 414: return "URI Too Long";
	case 431: return "Request Header Fields Too Large";
	case 503: return "Service Unavailable";
	case 505: return "HTTP Version Not Supported";
	default: return "Internal Server Error";
	}
}

/* RFC 9110 IMF-fixdate, whatever the locale. */
static void http_date(char *buf, size_t size)
{
	static const char days[] = "SunMonTueWedThuFriSat";
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	snprintf(buf, size, "%.3s, %02d %.3s %d %02d:%02d:%02d GMT", days + 3 * tm.tm_wday,
		 tm.tm_mday, months + 3 * tm.tm_mon, tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
		 tm.tm_sec);
}

static size_t body_len(const struct http_response *r)
{
	size_t n = 0;

	for (int i = 0; i < r->nr_body; i++)
		n += r->body[i].iov_len;
	return n;
}

/* The answer in c->resp, queued: its header, then its body unless for HEAD. */
static void conn_queue(struct conn *c, bool head_only, double now, double request_s)
{
	const struct http_response *r = &c->resp;
	char date[40];
	int n;

	http_date(date, sizeof(date));
	n = snprintf(c->hdr, sizeof(c->hdr),
		     "HTTP/1.1 %d %s\r\nDate: %s\r\n%s%s%s%sContent-Length: %zu\r\n%s\r\n",
		     r->status, status_text(r->status), date, r->type ? "Content-Type: " : "",
		     r->type ? r->type : "", r->type ? "\r\n" : "", r->fields ? r->fields : "",
		     body_len(r), c->keep ? "" : "Connection: close\r\n");
	/* the fields are the handler's constants: they fit, or it is a bug caught in tests */
	if (n < 0 || (size_t)n >= sizeof(c->hdr))
		n = snprintf(c->hdr, sizeof(c->hdr), "HTTP/1.1 500 %s\r\nContent-Length: 0\r\n"
			     "Connection: close\r\n\r\n", status_text(500));
	c->iov[0] = (struct iovec){ c->hdr, (size_t)n };
	c->nr_iov = 1;
	for (int i = 0; !head_only && i < r->nr_body; i++)
		if (r->body[i].iov_len)
			c->iov[c->nr_iov++] = r->body[i];
	c->cur = 0;
	c->off = 0;
	c->sending = true;
	c->state = C_WRITE;
	c->deadline = now + request_s;
}

static void conn_done(struct conn *c)
{
	if (c->sending && c->resp.done)
		c->resp.done(c->resp.done_arg);
	c->sending = false;
}

/* An answer of the server's own (a refused request), after which it closes. */
static void conn_refuse(struct conn *c, int status, double now, double request_s)
{
	static const char body[] = "request refused: see the status\n";

	memset(&c->resp, 0, sizeof(c->resp));
	c->resp.status = status;
	c->resp.type = "text/plain; charset=utf-8";
	c->resp.body[0] = (struct iovec){ (void *)body, sizeof(body) - 1 };
	c->resp.nr_body = 1;
	c->keep = false;
	conn_queue(c, false, now, request_s);
}

/* A whole head of *end* bytes in c->buf: parse it, and ask the handler. */
static void conn_answer(struct httpd *h, struct conn *c, size_t end, double now)
{
	struct http_request rq;
	int ret = http_request__parse(&rq, c->buf, end);

	c->head = end;
	if (ret) {
		conn_refuse(c, -ret, now, h->o.request_s);
		return;
	}
	memset(&c->resp, 0, sizeof(c->resp));
	h->o.handler(h->o.ctx, &rq, &c->resp);
	c->keep = rq.keep_alive && !c->resp.close;
	conn_queue(c, rq.method == HTTP_HEAD, now, h->o.request_s);
}

/* ---- connections ---- */

static void conn_close(struct worker *w, struct conn *c)
{
	conn_done(c);
	tls_conn__free(c->tls);
	close(c->fd);
	client_leave(w->h, &c->client);
	if (c->prev)
		c->prev->next = c->next;
	else
		w->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	free(c->buf);
	free(c);
}

static int conn_watch(struct worker *w, struct conn *c, unsigned int events)
{
	struct epoll_event ev = { .events = events, .data.ptr = c };

	if (events == c->events)
		return 0;
	c->events = events;
	return epoll_ctl(w->ep, EPOLL_CTL_MOD, c->fd, &ev);
}

/* Wait for the socket the way TLS or the state needs; -1 to close. */
static int conn_wait(struct worker *w, struct conn *c, bool want_write)
{
	if (c->tls && c->state != C_LINGER)
		want_write = tls_conn__wants_write(c->tls);
	return conn_watch(w, c, want_write ? EPOLLOUT : EPOLLIN);
}

static ssize_t conn_recv(struct conn *c, void *buf, size_t len)
{
	ssize_t n;

	if (c->tls)
		return tls_conn__recv(c->tls, buf, len);
	n = recv(c->fd, buf, len, MSG_DONTWAIT);
	return n >= 0 ? n : errno == EAGAIN || errno == EINTR ? -EAGAIN : -errno;
}

static ssize_t conn_send(struct conn *c)
{
	struct msghdr m = { .msg_iov = c->iov + c->cur, .msg_iovlen = (size_t)(c->nr_iov - c->cur) };
	struct iovec first = c->iov[c->cur];
	ssize_t n;

	if (c->tls)
		return tls_conn__send(c->tls, (char *)first.iov_base + c->off,
				      first.iov_len - c->off);
	c->iov[c->cur].iov_base = (char *)first.iov_base + c->off;
	c->iov[c->cur].iov_len -= c->off;
	n = sendmsg(c->fd, &m, MSG_DONTWAIT | MSG_NOSIGNAL);
	c->iov[c->cur] = first;
	return n >= 0 ? n : errno == EAGAIN || errno == EINTR ? -EAGAIN : -errno;
}

/* Account for *n* bytes sent; true once everything was. */
static bool conn_sent(struct conn *c, size_t n)
{
	while (n && c->cur < c->nr_iov) {
		size_t left = c->iov[c->cur].iov_len - c->off, step = n < left ? n : left;

		c->off += step;
		n -= step;
		if (c->off == c->iov[c->cur].iov_len) {
			c->cur++;
			c->off = 0;
		}
	}
	return c->cur == c->nr_iov;
}

/* The answer is out: read the next request, or linger and close. */
static void conn_next(struct httpd *h, struct conn *c, double now)
{
	conn_done(c);
	if (!c->keep) {
		/* closing with unread bytes would reset the connection, and lose the answer */
		tls_conn__free(c->tls);
		c->tls = NULL;
		shutdown(c->fd, SHUT_WR);
		c->state = C_LINGER;
		c->deadline = now + LINGER_S;
		return;
	}
	memmove(c->buf, c->buf + c->head, c->len - c->head);
	c->len -= c->head;
	c->head = 0;
	c->state = C_READ;
	c->idle = !c->len;
	c->deadline = now + (c->idle ? h->o.idle_s : h->o.request_s);
}

/* Room to read into; false when the buffer is as large as a head may be. */
static bool conn_room(struct conn *c)
{
	size_t want = c->cap ? 2 * c->cap : READ_CHUNK;
	char *p;

	if (c->len < c->cap)
		return true;
	if (c->cap > HTTP_MAX_HEAD)
		return false;
	if (want > HTTP_MAX_HEAD + 1)
		want = HTTP_MAX_HEAD + 1;
	p = realloc(c->buf, want);
	if (!p)
		return false;
	c->buf = p;
	c->cap = want;
	return true;
}

/* One step of reading: 1 to go on, 0 to wait for the socket, -1 to close. */
static int conn_read(struct httpd *h, struct conn *c, double now)
{
	long end = http_head_end(c->buf, c->len);
	ssize_t n;

	if (end > 0) {
		conn_answer(h, c, (size_t)end, now);
		return 1;
	}
	if (end < 0) {
		conn_refuse(c, (int)-end, now, h->o.request_s);
		return 1;
	}
	if (!conn_room(c))
		return -1;
	n = conn_recv(c, c->buf + c->len, c->cap - c->len);
	if (n == -EAGAIN)
		return 0;
	if (n <= 0)
		return -1;
	/* the first byte of a request starts its deadline, which no later byte moves */
	if (c->idle)
		c->deadline = now + h->o.request_s;
	c->idle = false;
	c->len += (size_t)n;
	return 1;
}

/* Drain what the client still sends after the last answer; -1 at its end. */
static int conn_linger(struct conn *c)
{
	char sink[4096];

	for (int i = 0; i < 16; i++) {
		ssize_t n = recv(c->fd, sink, sizeof(sink), MSG_DONTWAIT);

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		if (n <= 0)
			return -1;
	}
	return 0;
}

/* One step of the TLS handshake: 1 when done, 0 to wait, -1 to close. */
static int conn_handshake(struct conn *c)
{
	int ret = tls_conn__handshake(c->tls);

	if (!ret)
		c->state = C_READ;
	return !ret ? 1 : ret == -EAGAIN ? 0 : -1;
}

/* Run a connection until it must wait for its socket, or is closed. */
static void conn_run(struct worker *w, struct conn *c, double now)
{
	struct httpd *h = w->h;
	int ret = 1;
	ssize_t n;

	while (ret > 0) {
		switch (c->state) {
		case C_HANDSHAKE:
			ret = conn_handshake(c);
			break;
		case C_READ:
			ret = conn_read(h, c, now);
			break;
		case C_WRITE:
			n = conn_send(c);
			ret = n == -EAGAIN ? 0 : n < 0 ? -1 : 1;
			if (n >= 0 && conn_sent(c, (size_t)n))
				conn_next(h, c, now);
			break;
		case C_LINGER:
			ret = conn_linger(c);
			break;
		}
	}
	if (ret < 0 || conn_wait(w, c, c->state == C_WRITE))
		conn_close(w, c);
}

static void conn_open(struct worker *w, int fd, const struct sockaddr_storage *ss, double now)
{
	struct httpd *h = w->h;
	struct client_key k = client_key(ss);
	struct epoll_event ev = { .events = EPOLLIN };
	struct conn *c;

	if (!client_admit(h, &k)) {
		close(fd);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		goto fail;
	c->fd = fd;
	c->client = k;
	c->events = EPOLLIN;
	c->state = h->o.tls ? C_HANDSHAKE : C_READ;
	/* no idle allowance before the first request: it must come now */
	c->deadline = now + h->o.request_s;
	if (h->o.tls && !(c->tls = tls_conn__new(h->o.tls, fd)))
		goto fail;
	ev.data.ptr = c;
	if (epoll_ctl(w->ep, EPOLL_CTL_ADD, fd, &ev))
		goto fail;
	c->next = w->conns;
	if (w->conns)
		w->conns->prev = c;
	w->conns = c;
	return;
fail:
	if (c)
		tls_conn__free(c->tls);
	free(c);
	close(fd);
	client_leave(h, &k);
}

/* ---- the loop ---- */

static void accept_watch(struct worker *w, bool on)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLEXCLUSIVE,
				  .data.ptr = &w->h->listen_fd };

	if (on != w->accepting &&
	    !epoll_ctl(w->ep, on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, w->h->listen_fd, &ev))
		w->accepting = on;
}

static void accept_some(struct worker *w, double now)
{
	for (int i = 0; i < 16; i++) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		int fd = accept4(w->h->listen_fd, (struct sockaddr *)&ss, &len,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd >= 0) {
			conn_open(w, fd, &ss, now);
			continue;
		}
		/* out of descriptors or memory: the listener would wake us at once again */
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
			accept_watch(w, false);
			w->resume_accept = now + ACCEPT_PAUSE_S;
		}
		return;
	}
}

static void sweep(struct worker *w, double now)
{
	struct conn *c = w->conns, *next;

	if (now < w->next_sweep)
		return;
	w->next_sweep = now + SWEEP_S;
	for (; c; c = next) {
		next = c->next;
		if (now >= c->deadline)
			conn_close(w, c);
	}
	if (!w->accepting && now >= w->resume_accept)
		accept_watch(w, true);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct epoll_event ev[MAX_EVENTS_PER_WAIT];

	for (;;) {
		int n = epoll_wait(w->ep, ev, MAX_EVENTS_PER_WAIT, (int)(SWEEP_S * 1000));
		double now = mono_s();

		for (int i = 0; i < n; i++) {
			void *p = ev[i].data.ptr;

			if (p == &w->h->stop_fd)
				return NULL;
			if (p == &w->h->listen_fd)
				accept_some(w, now);
			else
				conn_run(w, p, now);
		}
		sweep(w, now);
	}
}

/* Room for every connection: the soft limit up to the hard one (epoll has no FD_SETSIZE). */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int worker_start(struct httpd *h, struct worker *w)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &h->stop_fd };

	w->h = h;
	w->ep = epoll_create1(EPOLL_CLOEXEC);
	if (w->ep < 0 || epoll_ctl(w->ep, EPOLL_CTL_ADD, h->stop_fd, &ev))
		return -errno;
	accept_watch(w, true);
	if (!w->accepting)
		return -errno;
	errno = pthread_create(&w->tid, NULL, worker_main, w);
	if (errno)
		return -errno;
	w->started = true;
	return 0;
}

struct httpd *httpd__start(int listen_fd, const struct httpd_opts *o, char *err, size_t errlen)
{
	struct httpd *h = calloc(1, sizeof(*h));
	sigset_t all, old;
	int ret = 0;

	if (!h) {
		close(listen_fd);
		errmsg(err, errlen, -ENOMEM, "out of memory");
		return NULL;
	}
	h->o = *o;
	h->listen_fd = listen_fd;
	pthread_mutex_init(&h->lock, NULL);
	h->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	h->clients = calloc(o->max_conns ? o->max_conns : 1, sizeof(*h->clients));
	h->w = calloc((size_t)o->threads, sizeof(*h->w));
	for (int i = 0; h->w && i < o->threads; i++)
		h->w[i].ep = -1;
	if (h->stop_fd < 0 || !h->clients || !h->w) {
		errmsg(err, errlen, -ENOMEM, "out of memory");
		goto fail;
	}
	raise_nofile();
	/* the threads inherit this mask: signals stay with the collector */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (int i = 0; i < o->threads && !ret; i++)
		ret = worker_start(h, &h->w[i]);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		errmsg(err, errlen, ret, "failed to start the HTTP server: %s", strerror(-ret));
		goto fail;
	}
	return h;
fail:
	httpd__stop(h);
	return NULL;
}

void httpd__stop(struct httpd *h)
{
	if (!h)
		return;
	/* an eventfd stays readable: every thread sees it (adding 1 cannot fail) */
	if (h->stop_fd >= 0)
		eventfd_write(h->stop_fd, 1);
	for (int i = 0; h->w && i < h->o.threads; i++) {
		struct worker *w = &h->w[i];

		if (w->started)
			pthread_join(w->tid, NULL);
		while (w->conns)
			conn_close(w, w->conns);
		if (w->ep >= 0)
			close(w->ep);
	}
	close(h->listen_fd);
	if (h->stop_fd >= 0)
		close(h->stop_fd);
	pthread_mutex_destroy(&h->lock);
	free(h->clients);
	free(h->w);
	free(h);
}
