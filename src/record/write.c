// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Writing recordings. An interval is an "interval" line, one line per task
 * (so lines stay short however many tasks ran) and an "end" line; it is
 * flushed as a whole, so a killed recorder leaves at most one incomplete
 * interval, which readers drop. Cgroup lines go out before the interval
 * that first uses them, once per id and path. Each line is written into
 * memory by the JSON writer and handed to zlib once complete.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "rows/aggregate.h"
#include "util/errmsg.h"
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
	FILE *mem;		/* the line being written, then handed to zlib */
	char *line;		/* mem's buffer and length, as of its last fflush() */
	size_t len;
	struct json_writer *w;	/* writes into mem */
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

/* End the line r->w wrote and hand it to zlib (not yet flushed); the
 * next line starts empty whatever happened to this one. */
static int put_line(struct recorder *r, char *err, size_t errlen)
{
	int ret = 0;

	json__newline(r->w);
	if (fflush(r->mem) || !json__ok(r->w))
		ret = errmsg(err, errlen, -1, "failed to encode recording line: out of memory");
	/* cannot happen with the field limits; would make the file unreadable */
	else if (r->len - 1 > REC_MAX_LINE)
		ret = errmsg(err, errlen, -1, "failed to encode recording line: %zu bytes",
			     r->len - 1);
	else if (gzwrite(r->gz, r->line, (unsigned int)r->len) != (int)r->len) {
		r->failed = true;
		ret = gz_err(r->gz, "write", err, errlen);
	}
	clearerr(r->mem);
	rewind(r->mem);
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

/* Accepts a recorder open only in part. */
static void recorder__free(struct recorder *r)
{
	if (r->gz)
		gzclose_w(r->gz);
	json__free(r->w);
	if (r->mem)
		fclose(r->mem);
	free(r->line);
	rec_cgroups__free(&r->cg);
	free(r);
}

/* The line buffer and its writer; 0 or -ENOMEM. */
static int open_line(struct recorder *r)
{
	r->mem = open_memstream(&r->line, &r->len);
	if (!r->mem)
		return -ENOMEM;
	r->w = json__new(r->mem);
	return r->w ? 0 : -ENOMEM;
}

struct recorder *recorder__open_fd(int fd, const char *name, const struct rec_header *h,
				   bool gzip, char *err, size_t errlen)
{
	struct recorder *r;
	char why[200];

	if (rec_header__check(h, why, sizeof(why))) {
		errmsg(err, errlen, -1, "invalid recording header: %s", why);
		close(fd);
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r || open_line(r)) {
		errmsg(err, errlen, -1, "failed to open %s: out of memory", name);
		close(fd);
		goto fail;
	}
	r->nr_events = h->nr_events;
	/* "T": transparent, so plain files go through the same calls */
	r->gz = gzdopen(fd, gzip ? "wb6" : "wbT");
	if (!r->gz) {
		errmsg(err, errlen, -1, "failed to open %s: out of memory", name);
		close(fd);
		goto fail;
	}
	gzbuffer(r->gz, WRITE_BUFFER);
	rec_header__json(h, r->w);
	if (put_line(r, err, errlen) || flush(r, err, errlen))
		goto fail;
	return r;
fail:
	if (r)
		recorder__free(r);
	return NULL;
}

struct recorder *recorder__open(const char *path, const struct rec_header *h, bool gzip,
				char *err, size_t errlen)
{
	char why[200];
	int fd;

	/* checked before the file is truncated */
	if (rec_header__check(h, why, sizeof(why))) {
		errmsg(err, errlen, -1, "invalid recording header: %s", why);
		return NULL;
	}
	if (!strcmp(path, "-"))
		fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
	else
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		errmsg(err, errlen, -1, "failed to open %s: %s", path, strerror(errno));
		return NULL;
	}
	return recorder__open_fd(fd, path, h, gzip, err, errlen);
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
		if (!memchr(t->comm, '\0', TASK_COMM_LEN) || !memchr(t->pcomm, '\0', TASK_COMM_LEN) ||
		    !memchr(t->user, '\0', sizeof(t->user)))
			return errmsg(err, errlen, -1,
					"failed to record interval: task %zu (tid %u) has a name "
					"without NUL", i, t->tid);
	}
	return 0;
}

static void bucket_json(struct json_writer *w, const struct bucket_delta *b, int nr_events)
{
	json__begin_object(w);
	rec_member_u64(w, "cpu_ns", b->cpu_ns);
	json__key(w, "ev");
	rec_put_deltas(w, b->ev, nr_events);
	json__end_object(w);
}

static void interval_json(struct json_writer *w, const struct sample *s, __u64 seq,
			  int nr_events)
{
	json__begin_object(w);
	json__member_string(w, "type", "interval");
	rec_member_u64(w, "seq", seq);
	json__member_real(w, "ts", s->ts);
	json__member_real(w, "interval_s", s->interval_s);
	json__member_int(w, "ncpus", s->ncpus);
	rec_member_u64(w, "switches", s->switches);
	rec_member_u64(w, "dropped", s->dropped);
	rec_member_u64(w, "read_errors", s->read_errors);
	json__member_uint(w, "tasks", s->nr);
	json__key(w, "idle");
	bucket_json(w, &s->idle, nr_events);
	json__key(w, "lost");
	bucket_json(w, &s->lost, nr_events);
	json__key(w, "total");
	bucket_json(w, &s->total, nr_events);
	json__end_object(w);
}

static void task_json(struct json_writer *w, const struct task_delta *t, int nr_events)
{
	json__begin_object(w);
	json__member_string(w, "type", "task");
	json__member_uint(w, "tid", t->tid);
	json__member_uint(w, "pid", t->pid);
	rec_member_u64(w, "start_ns", t->start_ns);
	rec_member_u64(w, "leader_start_ns", t->leader_start_ns);
	rec_member_u64(w, "cgroup_id", t->cgroup_id);
	rec_member_str(w, "comm", t->comm);
	rec_member_str(w, "pcomm", t->pcomm);
	json__member_bool(w, "exited", t->exited);
	json__member_uint(w, "uid", t->user[0] ? t->uid : REC_NO_UID);
	rec_member_str(w, "user", t->user);
	rec_member_u64(w, "cpu_ns", t->cpu_ns);
	json__key(w, "ev");
	rec_put_deltas(w, t->ev, nr_events);
	json__end_object(w);
}

static void end_json(struct json_writer *w, __u64 seq)
{
	json__begin_object(w);
	json__member_string(w, "type", "end");
	rec_member_u64(w, "seq", seq);
	json__end_object(w);
}

int recorder__write(struct recorder *r, const struct sample *s, char *err, size_t errlen)
{
	if (r->failed)
		return errmsg(err, errlen, -1, "failed to record interval: an earlier write failed");
	if (check_sample(s, err, errlen))
		return -1;
	interval_json(r->w, s, r->seq + 1, r->nr_events);
	if (put_line(r, err, errlen))
		goto fail;
	for (size_t i = 0; i < s->nr; i++) {
		task_json(r->w, &s->tasks[i], r->nr_events);
		if (put_line(r, err, errlen))
			goto fail;
	}
	end_json(r->w, r->seq + 1);
	if (put_line(r, err, errlen) || flush(r, err, errlen))
		goto fail;
	r->seq++;
	return 0;
fail:
	/* part of the interval may be out: nothing may follow it */
	r->failed = true;
	return -1;
}

static void cgroup_json(struct json_writer *w, __u64 id, const char *path)
{
	json__begin_object(w);
	json__member_string(w, "type", "cgroup");
	rec_member_u64(w, "id", id);
	rec_member_str(w, "path", path);
	json__end_object(w);
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
	if (!rec_cgroups__path_ok(path, len))
		return errmsg(err, errlen, -1,
				"failed to record cgroup %llu: path is not \"/\" and names without "
				"empty, \".\" or \"..\" ones", (unsigned long long)id);
	known = rec_cgroups__path(&r->cg, id);
	if (known && !strcmp(known, path))
		return 0;
	if (!known && r->cg.nr >= REC_MAX_CGROUPS)
		return errmsg(err, errlen, -1, "failed to record cgroup %llu: more than %d cgroups",
				(unsigned long long)id, REC_MAX_CGROUPS);
	cgroup_json(r->w, id, path);
	if (put_line(r, err, errlen))
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
	return refused ? 1 : 0;
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
	r->gz = NULL;
	recorder__free(r);
	return ret;
}
