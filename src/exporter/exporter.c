// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The exporter's HTTP server. The collector's thread renders each interval
 * once into an immutable, refcounted snapshot; scrapes only take a
 * reference to the latest one, so a slow client never holds up measuring.
 */
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/clock.h"
#include "util/errmsg.h"
#include "exporter/exporter.h"
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
	struct MHD_Daemon *daemon;
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

static enum MHD_Result reply_static(struct MHD_Connection *c, unsigned int status,
				    const char *type, const char *body, const char *allow)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* A scrape's body: the shared snapshot, then its own live trailer. */
struct body {
	struct snapshot *snap;
	char *tail;
	size_t tail_len;
};

static void body_free(void *cls)
{
	struct body *b = cls;

	snapshot_put(b->snap);
	free(b->tail);
	free(b);
}

static enum MHD_Result reply_metrics(struct exporter *e, struct MHD_Connection *c)
{
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_ACCEPT);
	bool om = prom_wants_openmetrics(accept);
	struct MHD_IoVec iov[2];
	struct MHD_Response *r;
	enum MHD_Result ret;
	struct body *b;
	FILE *f;
	int err;

	b = calloc(1, sizeof(*b));
	if (!b)
		return MHD_NO;
	b->snap = snapshot_get(e);
	f = open_memstream(&b->tail, &b->tail_len);
	if (!f) {
		body_free(b);
		return MHD_NO;
	}
	err = prom_render_trailer(f, om, mono_s() - b->snap->published <= e->stale_s,
				  b->snap->render_s);
	if (fclose(f) || err) {
		body_free(b);
		return MHD_NO;
	}
	iov[0].iov_base = om ? b->snap->om : b->snap->text;
	iov[0].iov_len = om ? b->snap->om_len : b->snap->text_len;
	iov[1].iov_base = b->tail;
	iov[1].iov_len = b->tail_len;
	r = MHD_create_response_from_iovec(iov, 2, body_free, b);
	if (!r) {
		body_free(b);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				om ? PROM_OPENMETRICS_TYPE : PROM_TEXT_TYPE);
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_data_size,
				  void **con_cls)
{
	static int seen;
	struct exporter *e = cls;

	/* answered at once, which closes the connection: no body is read */
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_static(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain; charset=utf-8",
				    "method not allowed: use GET\n", "GET, HEAD");
	/*
	 * Answer once the request is complete, which keeps the connection
	 * open for the next scrape; a body, which GET should not have, is
	 * discarded as it comes.
	 */
	if (!*con_cls) {
		*con_cls = &seen;
		return MHD_YES;
	}
	if (*upload_data_size) {
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (!strcmp(url, "/metrics"))
		return reply_metrics(e, c);
	if (!strcmp(url, "/"))
		return reply_static(c, MHD_HTTP_OK, "text/html; charset=utf-8", index_html, NULL);
	return reply_static(c, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8",
			    "not found: metrics are on /metrics\n", NULL);
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
	unsigned int flags = MHD_USE_AUTO_INTERNAL_THREAD;
	sigset_t all, old;
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
	if (o->listen.ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/* the server's threads inherit this mask: signals stay with the collector */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	e->daemon = MHD_start_daemon(flags, 0, NULL, NULL, on_request, e,
				     MHD_OPTION_LISTEN_SOCKET, fd,
				     MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)EXPORTER_THREADS,
				     MHD_OPTION_CONNECTION_LIMIT,
				     (unsigned int)EXPORTER_MAX_CONNECTIONS,
				     MHD_OPTION_CONNECTION_TIMEOUT,
				     (unsigned int)EXPORTER_TIMEOUT_S,
				     MHD_OPTION_CONNECTION_MEMORY_LIMIT,
				     (size_t)EXPORTER_CONN_MEMORY,
				     MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!e->daemon) {
		errmsg(err, errlen, -EIO, "failed to start the HTTP server on %s", o->listen.text);
		close(fd);
		goto fail;
	}
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
	if (e->daemon)
		MHD_stop_daemon(e->daemon);
	snapshot_put(e->cur);
	prom_store__free(e->store);
	pthread_mutex_destroy(&e->lock);
	free(e);
}
