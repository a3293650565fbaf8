// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Writing recordings. An interval is an "interval" line, one line per task
 * (so lines stay short however many tasks ran) and an "end" line; it is
 * flushed as a whole, so a killed recorder leaves at most one incomplete
 * interval, which readers drop. Cgroup lines go out before the interval
 * that first uses them, once per id and path.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#define RECORD_INTERNAL
#include "rows/aggregate.h"
#include "util/errmsg.h"
#include "util/grow.h"
#include "record/record.h"
#include "record/cgroup_table.h"
#include "record/codec.h"

/* zlib's default of 8 KiB costs a write(2) per few tasks */
#define WRITE_BUFFER (128 * 1024)

struct recorder {
	gzFile gz;
	int nr_events;
	__u64 seq;		/* intervals written */
	bool failed;		/* a write failed: the file may end mid-interval */
	char *line;
	size_t cap;
	struct rec_cgroups cg;	/* the paths written so far */
};

static int gz_err(gzFile gz, const char *what, char *err, size_t errlen)
{
	int errnum = Z_OK;
	const char *msg = gzerror(gz, &errnum);

	if (errnum == Z_ERRNO)
		msg = strerror(errno);
	return errmsg(err, errlen, -1, "failed to %s recording: %s", what, msg);
}

/* Encode *j* as one line and hand it to zlib (not yet flushed). */
static int put_line(struct recorder *r, const json_t *j, int digits, char *err, size_t errlen)
{
	size_t flags = JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(digits);
	size_t n = json_dumpb(j, r->line, r->cap, flags);

	if (!n)
		return errmsg(err, errlen, -1, "failed to encode recording line: out of memory");
	if (n >= r->cap) {
		if (GROW(r->line, r->cap, n + 1, 4096))
			return errmsg(err, errlen, -1, "failed to encode recording line: out of memory");
		n = json_dumpb(j, r->line, r->cap, flags);
	}
	/* cannot happen with the field limits; would make the file unreadable */
	if (n > REC_MAX_LINE)
		return errmsg(err, errlen, -1, "failed to encode recording line: %zu bytes", n);
	r->line[n++] = '\n';
	if (gzwrite(r->gz, r->line, (unsigned int)n) != (int)n) {
		r->failed = true;
		return gz_err(r->gz, "write", err, errlen);
	}
	return 0;
}

/* Put *j* (a new reference, NULL on ENOMEM) as a line and drop it. */
static int put_new(struct recorder *r, json_t *j, int digits, char *err, size_t errlen)
{
	int ret;

	if (!j)
		return errmsg(err, errlen, -1, "failed to encode recording line: out of memory");
	ret = put_line(r, j, digits, err, errlen);
	json_decref(j);
	return ret;
}

static int flush(struct recorder *r, char *err, size_t errlen)
{
	if (gzflush(r->gz, Z_SYNC_FLUSH) != Z_OK) {
		r->failed = true;
		return gz_err(r->gz, "write", err, errlen);
	}
	return 0;
}

struct recorder *recorder__open(const char *path, const struct rec_header *h, bool gzip,
				char *err, size_t errlen)
{
	struct recorder *r;
	char why[200];
	int digits, fd;
	json_t *line;

	if (rec_header__check(h, why, sizeof(why))) {
		errmsg(err, errlen, -1, "invalid recording header: %s", why);
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		errmsg(err, errlen, -1, "failed to open %s: out of memory", path);
		return NULL;
	}
	r->nr_events = h->nr_events;
	if (!strcmp(path, "-"))
		fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
	else
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		errmsg(err, errlen, -1, "failed to open %s: %s", path, strerror(errno));
		free(r);
		return NULL;
	}
	/* "T": transparent, so plain files go through the same calls */
	r->gz = gzdopen(fd, gzip ? "wb6" : "wbT");
	if (!r->gz) {
		errmsg(err, errlen, -1, "failed to open %s: out of memory", path);
		close(fd);
		free(r);
		return NULL;
	}
	gzbuffer(r->gz, WRITE_BUFFER);
	line = rec_header__json(h, &digits);
	if (put_new(r, line, digits, err, errlen) || flush(r, err, errlen)) {
		gzclose_w(r->gz);
		free(r->line);
		free(r);
		return NULL;
	}
	return r;
}

/* The limits the reader enforces, so that everything written reads back. */
static int check_sample(const struct sample *s, char *err, size_t errlen)
{
	if (!isfinite(s->ts) || s->ts < 0)
		return errmsg(err, errlen, -1, "failed to record interval: ts %g is not >= 0", s->ts);
	if (!isfinite(s->interval_s) || s->interval_s < 0)
		return errmsg(err, errlen, -1, "failed to record interval: interval_s %g is not >= 0",
				s->interval_s);
	if (s->ncpus < 1 || s->ncpus > MAX_CPUS)
		return errmsg(err, errlen, -1, "failed to record interval: ncpus %d not in 1..%d",
				s->ncpus, MAX_CPUS);
	if (s->nr > REC_MAX_TASKS)
		return errmsg(err, errlen, -1, "failed to record interval: %zu tasks, at most %d",
				s->nr, REC_MAX_TASKS);
	for (size_t i = 0; i < s->nr; i++) {
		const struct task_delta *t = &s->tasks[i];

		if (t->tid < 1 || t->tid > REC_PID_MAX || t->pid < 1 || t->pid > REC_PID_MAX)
			return errmsg(err, errlen, -1,
					"failed to record interval: task %zu has tid %u pid %u, "
					"not in 1..%d", i, t->tid, t->pid, REC_PID_MAX);
		if (!memchr(t->comm, '\0', TASK_COMM_LEN) || !memchr(t->pcomm, '\0', TASK_COMM_LEN))
			return errmsg(err, errlen, -1,
					"failed to record interval: task %zu (tid %u) has a name "
					"without NUL", i, t->tid);
	}
	return 0;
}

static json_t *bucket_json(const struct bucket_delta *b, int nr_events)
{
	json_t *o = json_object();

	if (o && (json_object_set_new(o, "cpu_ns", rec_json_u64(b->cpu_ns)) ||
		  json_object_set_new(o, "ev", rec_json_deltas(b->ev, nr_events)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *interval_json(const struct sample *s, __u64 seq, int nr_events)
{
	json_t *o = json_object();

	if (o && (json_object_set_new(o, "type", json_string("interval")) ||
		  json_object_set_new(o, "seq", rec_json_u64(seq)) ||
		  json_object_set_new(o, "ts", json_real(s->ts)) ||
		  json_object_set_new(o, "interval_s", json_real(s->interval_s)) ||
		  json_object_set_new(o, "ncpus", json_integer(s->ncpus)) ||
		  json_object_set_new(o, "switches", rec_json_u64(s->switches)) ||
		  json_object_set_new(o, "dropped", rec_json_u64(s->dropped)) ||
		  json_object_set_new(o, "read_errors", rec_json_u64(s->read_errors)) ||
		  json_object_set_new(o, "tasks", json_integer((json_int_t)s->nr)) ||
		  json_object_set_new(o, "idle", bucket_json(&s->idle, nr_events)) ||
		  json_object_set_new(o, "lost", bucket_json(&s->lost, nr_events)) ||
		  json_object_set_new(o, "total", bucket_json(&s->total, nr_events)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *task_json(const struct task_delta *t, int nr_events)
{
	json_t *o = json_object();

	if (o && (json_object_set_new(o, "type", json_string("task")) ||
		  json_object_set_new(o, "tid", json_integer(t->tid)) ||
		  json_object_set_new(o, "pid", json_integer(t->pid)) ||
		  json_object_set_new(o, "start_ns", rec_json_u64(t->start_ns)) ||
		  json_object_set_new(o, "leader_start_ns", rec_json_u64(t->leader_start_ns)) ||
		  json_object_set_new(o, "cgroup_id", rec_json_u64(t->cgroup_id)) ||
		  json_object_set_new(o, "comm", rec_json_str(t->comm)) ||
		  json_object_set_new(o, "pcomm", rec_json_str(t->pcomm)) ||
		  json_object_set_new(o, "exited", json_boolean(t->exited)) ||
		  json_object_set_new(o, "cpu_ns", rec_json_u64(t->cpu_ns)) ||
		  json_object_set_new(o, "ev", rec_json_deltas(t->ev, nr_events)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *end_json(__u64 seq)
{
	json_t *o = json_object();

	if (o && (json_object_set_new(o, "type", json_string("end")) ||
		  json_object_set_new(o, "seq", rec_json_u64(seq)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int recorder__write(struct recorder *r, const struct sample *s, char *err, size_t errlen)
{
	int digits;

	if (r->failed)
		return errmsg(err, errlen, -1, "failed to record interval: an earlier write failed");
	if (check_sample(s, err, errlen))
		return -1;
	digits = rec_real_digits(s->ts);
	if (rec_real_digits(s->interval_s) > digits)
		digits = rec_real_digits(s->interval_s);
	if (put_new(r, interval_json(s, r->seq + 1, r->nr_events), digits, err, errlen))
		goto fail;
	for (size_t i = 0; i < s->nr; i++)
		if (put_new(r, task_json(&s->tasks[i], r->nr_events), 1, err, errlen))
			goto fail;
	if (put_new(r, end_json(r->seq + 1), 1, err, errlen) || flush(r, err, errlen))
		goto fail;
	r->seq++;
	return 0;
fail:
	/* part of the interval may be out: nothing may follow it */
	r->failed = true;
	return -1;
}

static json_t *cgroup_json(__u64 id, const char *path)
{
	json_t *o = json_object();

	if (o && (json_object_set_new(o, "type", json_string("cgroup")) ||
		  json_object_set_new(o, "id", rec_json_u64(id)) ||
		  json_object_set_new(o, "path", rec_json_str(path)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int recorder__write_cgroup(struct recorder *r, __u64 id, const char *path, char *err,
			   size_t errlen)
{
	size_t len = strnlen(path, REC_MAX_CGROUP_PATH + 1);
	const char *known;

	if (r->failed)
		return errmsg(err, errlen, -1, "failed to record cgroup: an earlier write failed");
	if (!id)
		return errmsg(err, errlen, -1, "failed to record cgroup: id 0");
	if (len > REC_MAX_CGROUP_PATH)
		return errmsg(err, errlen, -1,
				"failed to record cgroup %llu: path longer than %d bytes",
				(unsigned long long)id, REC_MAX_CGROUP_PATH);
	if (!rec_cgroup_path_ok(path, len))
		return errmsg(err, errlen, -1,
				"failed to record cgroup %llu: path is not \"/\" and names without "
				"empty, \".\" or \"..\" ones", (unsigned long long)id);
	known = rec_cgroups__path(&r->cg, id);
	if (known && !strcmp(known, path))
		return 0;
	if (!known && r->cg.nr >= REC_MAX_CGROUPS)
		return errmsg(err, errlen, -1, "failed to record cgroup %llu: more than %d cgroups",
				(unsigned long long)id, REC_MAX_CGROUPS);
	if (put_new(r, cgroup_json(id, path), 1, err, errlen))
		return -1;
	/*
	 * Remembered only once written. Should that fail for want of memory,
	 * the next call writes the line again, which readers take as is.
	 */
	rec_cgroups__set(&r->cg, id, path, len);
	return 0;
}

/* The cgroup *id* and its ancestors, the root first; 0, or -1 for a
 * refusal (the first one's message in *err*) or a failed write. */
static int write_lineage(struct recorder *r, const struct cgroup_tree *t, __u64 id,
			 char *err, size_t errlen, bool *refused)
{
	__u64 ids[MAX_CGROUP_DEPTH + 1];
	int n = t->ancestors(t->ctx, id, ids + 1, MAX_CGROUP_DEPTH);

	ids[0] = id;
	for (int i = n < 0 ? 0 : n; i >= 0; i--) {
		const char *path = t->path(t->ctx, ids[i]);
		char why[256];

		if (!path || !ids[i] || !recorder__write_cgroup(r, ids[i], path, why, sizeof(why)))
			continue;
		/* the first refusal says why, unless a write failure follows */
		if (!*refused || r->failed)
			errmsg(err, errlen, -1, "%s", why);
		*refused = true;
		if (r->failed)
			return -1;
	}
	return 0;
}

int recorder__write_cgroups(struct recorder *r, const struct sample *s,
			    const struct cgroup_tree *t, char *err, size_t errlen)
{
	bool refused = false;
	__u64 last = 0;

	for (size_t i = 0; i < s->nr; i++) {
		__u64 id = s->tasks[i].cgroup_id;

		/* tasks of one cgroup tend to be neighbours: skip the lookups */
		if (!id || id == last)
			continue;
		last = id;
		if (write_lineage(r, t, id, err, errlen, &refused))
			return -1;
	}
	return refused ? -1 : 0;
}

int recorder__close(struct recorder *r, char *err, size_t errlen)
{
	int ret = 0, zret;

	if (!r)
		return 0;
	zret = gzclose_w(r->gz);
	if (zret != Z_OK)
		ret = errmsg(err, errlen, -1, "failed to close recording: %s",
			       zret == Z_ERRNO ? strerror(errno) : zError(zret));
	rec_cgroups__free(&r->cg);
	free(r->line);
	free(r);
	return ret;
}
