// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The exporter: each interval added to the store and rendered by the
 * collector's thread (served.h), and the HTTP paths that serve the latest
 * rendering, so that a slow client never holds up measuring.
 */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/clock.h"
#include "util/errmsg.h"
#include "exporter/auth.h"
#include "exporter/exporter.h"
#include "exporter/httpd.h"
#include "exporter/negotiate.h"
#include "exporter/render.h"
#include "exporter/served.h"

struct exporter {
	struct httpd *httpd;
	struct basic_auth *auth;	/* NULL: none asked for */
	double stale_s;			/* tdtop_up is 0 for older intervals */
	struct prom_store *store;	/* the publishing thread's only */
	FILE *log;
	unsigned int logged;		/* prom_store__unavailable() bits already logged */
	pthread_mutex_t lock;		/* guards cur, held for a pointer copy only */
	struct served *cur;
};

static struct served *served_now(struct exporter *e)
{
	struct served *s;

	pthread_mutex_lock(&e->lock);
	s = served__get(e->cur);
	pthread_mutex_unlock(&e->lock);
	return s;
}

static void publish(struct exporter *e, struct served *s)
{
	struct served *old;

	pthread_mutex_lock(&e->lock);
	old = e->cur;
	e->cur = s;
	pthread_mutex_unlock(&e->lock);
	served__put(old);
}

/* Each unavailable metric once, when it is found so. */
static void log_unavailable(struct exporter *e)
{
	unsigned int na = prom_store__unavailable(e->store) & ~e->logged;

	for (int i = 0; i < PROM_NR_NA; i++)
		if ((na & (1u << i)) && prom_na_info[i].why && e->log)
			fprintf(e->log, "tdtop: %s is not exported: %s\n", prom_na_info[i].metric,
				prom_na_info[i].why);
	e->logged |= na;
}

int exporter__publish(struct exporter *e, const struct interval *iv)
{
	struct served *s;
	int ret;

	ret = prom_store__add(e->store, iv);
	if (ret)
		return ret;
	log_unavailable(e);
	s = served__render(e->store);
	if (!s)
		return -ENOMEM;
	publish(e, s);
	return 0;
}

/* ---- HTTP ---- */

static const char index_html[] =
	"<!DOCTYPE html>\n<html><head><title>tdtop exporter</title></head>\n"
	"<body><h1>tdtop exporter</h1>\n"
	"<p>Per-cgroup or per-process CPU time and TopDown issue slots: "
	"<a href=\"/metrics\">/metrics</a></p>\n"
	"<p>Liveness: <a href=\"/healthz\">/healthz</a></p></body></html>\n";

#define TEXT_TYPE "text/plain; charset=utf-8"

static void reply_static(struct http_response *r, int status, const char *type,
			 const char *body, const char *fields)
{
	r->status = status;
	r->type = type;
	r->fields = fields;
	r->body[0] = (struct iovec){ (void *)body, strlen(body) };
	r->nr_body = 1;
}

/* A scrape's body: the shared rendering, then its own live trailer. */
struct body {
	struct served *s;
	char *tail;		/* plain, or the end of the gzip member */
	size_t tail_len;
};

static void body_free(void *arg)
{
	struct body *b = arg;

	served__put(b->s);
	free(b->tail);
	free(b);
}

/* Whether the collector still publishes on time. */
static bool fresh(const struct exporter *e, const struct served *s)
{
	return mono_s() - s->published <= e->stale_s;
}

static int body_trailer(struct body *b, bool om, bool up)
{
	FILE *f = open_memstream(&b->tail, &b->tail_len);
	int err;

	if (!f)
		return -ENOMEM;
	err = prom_render_trailer(f, om, up, b->s->render_s);
	return fclose(f) || err ? -ENOMEM : 0;
}

/* The trailer compressed after the shared gzip'ed rendering; false to send it plain. */
static bool body_gzip(struct body *b, bool om, struct iovec *head)
{
	const struct gz_body *gz = served__gzip(b->s, om);
	char *tail;
	size_t len;

	if (!gz || gz_tail(gz, b->tail, b->tail_len, &tail, &len))
		return false;
	free(b->tail);
	b->tail = tail;
	b->tail_len = len;
	*head = (struct iovec){ gz->data, gz->len };
	return true;
}

static void reply_metrics(struct exporter *e, const struct http_request *rq,
			  struct http_response *r)
{
	char buf[HTTP_MAX_HEAD];
	bool om = prom_wants_openmetrics(http_request__field(rq, "Accept", buf, sizeof(buf)));
	bool gz = prom_accepts_gzip(http_request__field(rq, "Accept-Encoding", buf, sizeof(buf)));
	struct body *b = calloc(1, sizeof(*b));

	if (!b) {
		reply_static(r, 503, TEXT_TYPE, "out of memory\n", NULL);
		return;
	}
	b->s = served_now(e);
	if (body_trailer(b, om, fresh(e, b->s))) {
		body_free(b);
		reply_static(r, 503, TEXT_TYPE, "out of memory\n", NULL);
		return;
	}
	r->status = 200;
	r->type = om ? PROM_OPENMETRICS_TYPE : PROM_TEXT_TYPE;
	r->body[0] = (struct iovec){ b->s->body[om], b->s->len[om] };
	gz = gz && body_gzip(b, om, &r->body[0]);
	/* the answer depends on both: caches must not mix them */
	r->fields = gz ? "Content-Encoding: gzip\r\nVary: Accept, Accept-Encoding\r\n"
		       : "Vary: Accept, Accept-Encoding\r\n";
	r->body[1] = (struct iovec){ b->tail, b->tail_len };
	r->nr_body = 2;
	r->done = body_free;
	r->done_arg = b;
}

/* For liveness probes: is an interval measured within a few delays? */
static void reply_health(struct exporter *e, struct http_response *r)
{
	struct served *s = served_now(e);
	bool up = fresh(e, s);

	served__put(s);
	reply_static(r, up ? 200 : 503, TEXT_TYPE,
		     up ? "ok\n" : "stale: no interval measured in the last 3 delays\n", NULL);
}

/* Every path asks for the credentials, when there are users (as exporter-toolkit). */
static bool authorized(struct exporter *e, const struct http_request *rq,
		       struct http_response *r)
{
	char buf[HTTP_MAX_HEAD];

	switch (basic_auth__check(e->auth, http_request__field(rq, "Authorization", buf,
								 sizeof(buf)))) {
	case AUTH_OK:
		return true;
	case AUTH_BUSY:
		reply_static(r, 503, TEXT_TYPE, "authentication busy: try again\n",
			     "Retry-After: 1\r\n");
		return false;
	default:
		reply_static(r, 401, TEXT_TYPE, "authentication required\n",
			     "WWW-Authenticate: Basic realm=\"tdtop\", charset=\"UTF-8\"\r\n");
		return false;
	}
}

static void on_request(void *ctx, const struct http_request *rq, struct http_response *r)
{
	struct exporter *e = ctx;

	if (e->auth && !authorized(e, rq, r))
		return;
	if (rq->method == HTTP_OTHER) {
		reply_static(r, 405, TEXT_TYPE, "method not allowed: use GET\n",
			     "Allow: GET, HEAD\r\n");
		/* a body it may have is not read */
		r->close = true;
	} else if (!strcmp(rq->path, "/metrics")) {
		reply_metrics(e, rq, r);
	} else if (!strcmp(rq->path, "/healthz")) {
		reply_health(e, r);
	} else if (!strcmp(rq->path, "/")) {
		reply_static(r, 200, "text/html; charset=utf-8", index_html, NULL);
	} else {
		reply_static(r, 404, TEXT_TYPE, "not found: metrics are on /metrics\n", NULL);
	}
}

static int listen_socket(const struct listen_addr *a, char *err, size_t errlen)
{
	int fam = a->ss.ss_family, one = 1;
	int fd = socket(fam, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	if (fd < 0)
		return errmsg(err, errlen, -errno, "failed to create a socket for %s: %s", a->text,
			      strerror(errno));
	/* a restart must not wait for the old connections' TIME_WAIT */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (fam == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)&a->ss, a->len) || listen(fd, 64)) {
		int ret = errmsg(err, errlen, -errno, "failed to listen on %s: %s", a->text,
				 strerror(errno));

		close(fd);
		return ret;
	}
	return fd;
}

struct exporter *exporter__start(const struct exporter_opts *o, char *err, size_t errlen)
{
	struct httpd_opts ho = {
		.threads = EXPORTER_THREADS,
		.max_conns = EXPORTER_MAX_CONNECTIONS,
		.max_per_client = EXPORTER_MAX_PER_CLIENT,
		.request_s = EXPORTER_REQUEST_S,
		.idle_s = EXPORTER_IDLE_S,
		.handler = on_request,
	};
	struct exporter *e;
	int fd;

	e = calloc(1, sizeof(*e));
	if (!e) {
		errmsg(err, errlen, -ENOMEM, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&e->lock, NULL);
	e->stale_s = 3 * o->interval_s + 1;
	e->log = o->log;
	e->store = prom_store__new(&o->prom);
	if (e->store)
		e->cur = served__render(e->store);
	if (!e->cur) {
		errmsg(err, errlen, -ENOMEM, "out of memory");
		goto fail;
	}
	if (o->web && o->web->nr_users && !(e->auth = basic_auth__new(o->web))) {
		errmsg(err, errlen, -ENOMEM, "out of memory");
		goto fail;
	}
	fd = listen_socket(&o->listen, err, errlen);
	if (fd < 0)
		goto fail;
	ho.ctx = e;
	ho.tls = o->web ? o->web->tls : NULL;
	e->httpd = httpd__start(fd, &ho, err, errlen);
	if (!e->httpd)
		goto fail;
	return e;
fail:
	exporter__stop(e);
	return NULL;
}

void exporter__stop(struct exporter *e)
{
	if (!e)
		return;
	/* waits for the server's threads; responses in flight drop their references */
	httpd__stop(e->httpd);
	basic_auth__free(e->auth);
	served__put(e->cur);
	prom_store__free(e->store);
	pthread_mutex_destroy(&e->lock);
	free(e);
}
