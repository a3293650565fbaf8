// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The exporter's HTTP server. The collector's thread renders each interval
 * once into an immutable, refcounted snapshot; scrapes only take a
 * reference to the latest one, so a slow client never holds up measuring.
 */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/clock.h"
#include "util/errmsg.h"
#include "exporter/exporter.h"
#include "exporter/httpd.h"
#include "exporter/negotiate.h"
#include "exporter/render.h"

/* ---- snapshots ---- */

/* One rendered interval in both formats; immutable once published. */
struct snapshot {
	int refs;
	char *text;
	size_t text_len;
	char *om;
	size_t om_len;
	double published;	/* CLOCK_MONOTONIC seconds */
	double render_s;	/* what rendering both formats took */
};

struct exporter {
	struct httpd *httpd;
	double stale_s;			/* tdtop_up is 0 for older snapshots */
	struct prom_store *store;	/* the publishing thread's only */
	FILE *log;
	unsigned int logged;		/* prom_store__unavailable() bits already logged */
	pthread_mutex_t lock;		/* guards cur, held for a pointer copy only */
	struct snapshot *cur;
};

static void snapshot_put(struct snapshot *s)
{
	if (!s || __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL))
		return;
	free(s->text);
	free(s->om);
	free(s);
}

static struct snapshot *snapshot_get(struct exporter *e)
{
	struct snapshot *s;

	pthread_mutex_lock(&e->lock);
	s = e->cur;
	__atomic_add_fetch(&s->refs, 1, __ATOMIC_ACQ_REL);
	pthread_mutex_unlock(&e->lock);
	return s;
}

static int render_to(const struct prom_store *st, bool om, char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);
	int ret;

	if (!f)
		return -ENOMEM;
	ret = prom_store__render(st, om, f);
	if (fclose(f) || ret) {
		free(*buf);
		*buf = NULL;
		return -ENOMEM;
	}
	return 0;
}

static struct snapshot *snapshot_render(const struct prom_store *st)
{
	struct snapshot *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->refs = 1;
	if (render_to(st, false, &s->text, &s->text_len) ||
	    render_to(st, true, &s->om, &s->om_len)) {
		snapshot_put(s);
		return NULL;
	}
	return s;
}

static void publish(struct exporter *e, struct snapshot *s)
{
	struct snapshot *old;

	pthread_mutex_lock(&e->lock);
	old = e->cur;
	e->cur = s;
	pthread_mutex_unlock(&e->lock);
	snapshot_put(old);
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
	struct snapshot *s;
	double t0;
	int ret;

	ret = prom_store__add(e->store, iv);
	if (ret)
		return ret;
	log_unavailable(e);
	t0 = mono_s();
	s = snapshot_render(e->store);
	if (!s)
		return -ENOMEM;
	s->published = mono_s();
	s->render_s = s->published - t0;
	publish(e, s);
	return 0;
}

/* ---- HTTP ---- */

static const char index_html[] =
	"<!DOCTYPE html>\n<html><head><title>tdtop exporter</title></head>\n"
	"<body><h1>tdtop exporter</h1>\n"
	"<p>Per-cgroup or per-process CPU time and TopDown issue slots: "
	"<a href=\"/metrics\">/metrics</a></p></body></html>\n";

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

/* A scrape's body: the shared snapshot, then its own live trailer. */
struct body {
	struct snapshot *snap;
	char *tail;
	size_t tail_len;
};

static void body_free(void *arg)
{
	struct body *b = arg;

	snapshot_put(b->snap);
	free(b->tail);
	free(b);
}

static int body_trailer(struct body *b, bool om, double stale_s)
{
	FILE *f = open_memstream(&b->tail, &b->tail_len);
	int err;

	if (!f)
		return -ENOMEM;
	err = prom_render_trailer(f, om, mono_s() - b->snap->published <= stale_s,
				  b->snap->render_s);
	return fclose(f) || err ? -ENOMEM : 0;
}

static void reply_metrics(struct exporter *e, const struct http_request *rq,
			  struct http_response *r)
{
	char buf[HTTP_MAX_HEAD];
	bool om = prom_wants_openmetrics(http_request__field(rq, "Accept", buf, sizeof(buf)));
	struct body *b = calloc(1, sizeof(*b));

	if (!b) {
		reply_static(r, 503, TEXT_TYPE, "out of memory\n", NULL);
		return;
	}
	b->snap = snapshot_get(e);
	if (body_trailer(b, om, e->stale_s)) {
		body_free(b);
		reply_static(r, 503, TEXT_TYPE, "out of memory\n", NULL);
		return;
	}
	r->status = 200;
	r->type = om ? PROM_OPENMETRICS_TYPE : PROM_TEXT_TYPE;
	r->body[0] = (struct iovec){ om ? b->snap->om : b->snap->text,
				     om ? b->snap->om_len : b->snap->text_len };
	r->body[1] = (struct iovec){ b->tail, b->tail_len };
	r->nr_body = 2;
	r->done = body_free;
	r->done_arg = b;
}

static void on_request(void *ctx, const struct http_request *rq, struct http_response *r)
{
	struct exporter *e = ctx;

	if (rq->method == HTTP_OTHER) {
		reply_static(r, 405, TEXT_TYPE, "method not allowed: use GET\n",
			     "Allow: GET, HEAD\r\n");
		/* a body it may have is not read */
		r->close = true;
	} else if (!strcmp(rq->path, "/metrics")) {
		reply_metrics(e, rq, r);
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
		e->cur = snapshot_render(e->store);
	if (!e->cur) {
		errmsg(err, errlen, -ENOMEM, "out of memory");
		goto fail;
	}
	e->cur->published = mono_s();
	fd = listen_socket(&o->listen, err, errlen);
	if (fd < 0)
		goto fail;
	ho.ctx = e;
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
	snapshot_put(e->cur);
	prom_store__free(e->store);
	pthread_mutex_destroy(&e->lock);
	free(e);
}
