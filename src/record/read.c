// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Reading recordings back into struct sample, and the cgroup lines into a
 * table of paths. Everything is checked, so a damaged or hostile file
 * yields a "line N: ..." error, never a sample that the aggregation would
 * trip over; an interval cut short at the end of the file (a killed
 * recorder) is dropped with a warning.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/macros.h"
#include "rows/aggregate.h"
#include "util/errmsg.h"
#include "record/record.h"
#include "record/cgroup_table.h"
#include "record/codec.h"
#include "record/source.h"

#define MSG_LEN 320

enum line_type {
	LINE_HEADER,
	LINE_INTERVAL,
	LINE_TASK,
	LINE_END,
	LINE_CGROUP,
};

static const char *const line_types[] = {
	[LINE_HEADER] = "header",
	[LINE_INTERVAL] = "interval",
	[LINE_TASK] = "task",
	[LINE_END] = "end",
	[LINE_CGROUP] = "cgroup",
};

enum reader_state {
	READING,
	AT_END,
	FAILED,
};

struct rec_reader {
	struct rec_src *src;
	int nr_events;
	int version;			/* of the format, from the header */
	__u64 seq;			/* of the last interval returned */
	enum reader_state state;
	char msg[MSG_LEN];		/* the end's warning or the error, repeated */
	struct rec_cgroups cg;		/* named by the cgroup lines so far */
};

/* Text from the file shown in a message: short, printable. */
static void sanitize(char *dst, size_t size, const char *src)
{
	size_t n = 0;

	for (; *src && n + 1 < size; src++)
		dst[n++] = (*src >= 0x20 && *src < 0x7f) ? *src : '?';
	dst[n] = '\0';
}

/* Parse one line into a JSON object and say which type it is. */
static int parse_line(const char *line, size_t len, unsigned long lineno, json_t **out,
		      enum line_type *type, char *err, size_t errlen)
{
	const json_t *t;
	json_error_t jerr;
	char text[64];
	json_t *j;

	if (!len)
		return errmsg(err, errlen, -1, "line %lu: empty line", lineno);
	if (memchr(line, '\0', len))
		return errmsg(err, errlen, -1, "line %lu: NUL byte, not a text line", lineno);
	j = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!j) {
		char why[sizeof(jerr.text)];

		sanitize(why, sizeof(why), jerr.text);
		return errmsg(err, errlen, -1, "line %lu: invalid JSON at column %d: %s", lineno,
				jerr.column, why);
	}
	if (!json_is_object(j)) {
		json_decref(j);
		return errmsg(err, errlen, -1, "line %lu: not a JSON object", lineno);
	}
	t = json_object_get(j, "type");
	if (!json_is_string(t)) {
		json_decref(j);
		return errmsg(err, errlen, -1, "line %lu: field 'type' must be a string", lineno);
	}
	for (size_t i = 0; i < ARRAY_SIZE(line_types); i++) {
		if (!strcmp(json_string_value(t), line_types[i]) &&
		    strlen(line_types[i]) == json_string_length(t)) {
			*type = (enum line_type)i;
			*out = j;
			return 0;
		}
	}
	sanitize(text, sizeof(text), json_string_value(t));
	json_decref(j);
	return errmsg(err, errlen, -1, "line %lu: unknown line type '%s'", lineno, text);
}

/* Read and parse the next line: 1 with *j* set, 0 at the end of the data
 * (a partial last line counts as the end), -1 on error. */
static int next_line(struct rec_reader *r, json_t **j, enum line_type *type, bool *partial)
{
	const char *line;
	size_t len;

	switch (rec_src__line(r->src, &line, &len, r->msg, sizeof(r->msg))) {
	case REC_LINE_OK:
		break;
	case REC_LINE_EOF:
		*partial = false;
		return 0;
	case REC_LINE_PARTIAL:
		*partial = true;
		return 0;
	default:
		return -1;
	}
	return parse_line(line, len, rec_src__lineno(r->src), j, type, r->msg, sizeof(r->msg)) ?
		       -1 : 1;
}

static struct rec_reader *reader_new(struct rec_src *src, struct rec_header *h, char *err,
				     size_t errlen)
{
	struct rec_reader *r;
	enum line_type type;
	bool partial;
	json_t *j;
	int ret;

	if (!src)
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r) {
		rec_src__close(src);
		errmsg(err, errlen, -1, "failed to read recording: out of memory");
		return NULL;
	}
	r->src = src;
	ret = next_line(r, &j, &type, &partial);
	if (ret == 0) {
		if (partial)
			errmsg(r->msg, sizeof(r->msg), -1, "line 1: incomplete header line: file "
				 "truncated or not a tdtop recording");
		else if (rec_src__truncated(r->src))
			errmsg(r->msg, sizeof(r->msg), -1, "line 1: the compressed data ends before "
				 "the header: truncated or corrupt gzip file");
		else
			errmsg(r->msg, sizeof(r->msg), -1, "line 1: empty file, header missing");
		goto fail;
	}
	if (ret < 0)
		goto fail;
	if (type != LINE_HEADER) {
		errmsg(r->msg, sizeof(r->msg), -1, "line 1: header missing: first line has type '%s'",
			 line_types[type]);
		json_decref(j);
		goto fail;
	}
	ret = rec_header__parse(h, j, 1, r->msg, sizeof(r->msg));
	json_decref(j);
	if (ret)
		goto fail;
	r->nr_events = h->nr_events;
	r->version = h->version;
	return r;
fail:
	errmsg(err, errlen, -1, "%s", r->msg);
	rec_reader__close(r);
	return NULL;
}

struct rec_reader *rec_reader__open(const char *path, struct rec_header *h, char *err,
				    size_t errlen)
{
	int fd;

	if (!strcmp(path, "-"))
		return reader_new(rec_src__open_fd(STDIN_FILENO, false, err, errlen), h, err,
				  errlen);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		errmsg(err, errlen, -1, "failed to open %s: %s", path, strerror(errno));
		return NULL;
	}
	return reader_new(rec_src__open_fd(fd, true, err, errlen), h, err, errlen);
}

struct rec_reader *rec_reader__open_mem(const void *data, size_t len, struct rec_header *h,
					char *err, size_t errlen)
{
	return reader_new(rec_src__open_mem(data, len, err, errlen), h, err, errlen);
}

static int parse_bucket(struct rec_ctx *c, const json_t *j, const char *key, int nr_events,
			struct bucket_delta *b)
{
	char prefix[16];
	const json_t *o;

	if (rec_get_object(c, j, key, &o))
		return -1;
	snprintf(prefix, sizeof(prefix), "%s.", key);
	c->prefix = prefix;
	if (rec_get_u64(c, o, "cpu_ns", &b->cpu_ns) ||
	    rec_get_deltas(c, o, "ev", nr_events, b->ev))
		return -1;
	c->prefix = "";
	return 0;
}

/* The interval line into *s*; *nr_tasks* gets the tasks it declares. */
static int parse_interval(struct rec_reader *r, const json_t *j, struct sample *s,
			  __u64 *nr_tasks)
{
	struct rec_ctx c = { rec_src__lineno(r->src), "", r->msg, sizeof(r->msg) };
	__u64 seq, ncpus;

	if (rec_get_u64(&c, j, "seq", &seq))
		return -1;
	if (seq != r->seq + 1)
		return rec_field_err(&c, "seq", "is %llu, expected %llu", (unsigned long long)seq,
				     (unsigned long long)r->seq + 1);
	if (rec_get_double(&c, j, "ts", 0, &s->ts) ||
	    rec_get_double(&c, j, "interval_s", 0, &s->interval_s) ||
	    rec_get_range(&c, j, "ncpus", 1, MAX_CPUS, &ncpus) ||
	    rec_get_u64(&c, j, "switches", &s->switches) ||
	    rec_get_u64(&c, j, "dropped", &s->dropped) ||
	    rec_get_u64(&c, j, "read_errors", &s->read_errors) ||
	    rec_get_range(&c, j, "tasks", 0, REC_MAX_TASKS, nr_tasks) ||
	    parse_bucket(&c, j, "idle", r->nr_events, &s->idle) ||
	    parse_bucket(&c, j, "lost", r->nr_events, &s->lost) ||
	    parse_bucket(&c, j, "total", r->nr_events, &s->total))
		return -1;
	s->ncpus = (int)ncpus;
	return 0;
}

/* uid and user, from version 2 on: a name exactly when the uid is known. */
static int parse_owner(const struct rec_ctx *c, const json_t *j, struct task_delta *t)
{
	__u64 uid;

	if (rec_get_range(c, j, "uid", 0, REC_NO_UID, &uid) ||
	    rec_get_str(c, j, "user", t->user, sizeof(t->user)))
		return -1;
	if ((uid == REC_NO_UID) != !t->user[0])
		return rec_field_err(c, "user", "must be \"\" exactly when 'uid' is %u", REC_NO_UID);
	t->uid = t->user[0] ? (__u32)uid : 0;
	return 0;
}

static int parse_task(struct rec_reader *r, const json_t *j, struct sample *s)
{
	struct rec_ctx c = { rec_src__lineno(r->src), "", r->msg, sizeof(r->msg) };
	struct task_delta t = { 0 };
	struct task_delta *slot;
	__u64 tid, pid;

	if (rec_get_range(&c, j, "tid", 1, REC_PID_MAX, &tid) ||
	    rec_get_range(&c, j, "pid", 1, REC_PID_MAX, &pid) ||
	    rec_get_u64(&c, j, "start_ns", &t.start_ns) ||
	    rec_get_u64(&c, j, "leader_start_ns", &t.leader_start_ns) ||
	    rec_get_u64(&c, j, "cgroup_id", &t.cgroup_id) ||
	    rec_get_str(&c, j, "comm", t.comm, sizeof(t.comm)) ||
	    rec_get_str(&c, j, "pcomm", t.pcomm, sizeof(t.pcomm)) ||
	    rec_get_bool(&c, j, "exited", &t.exited) ||
	    (r->version >= REC_VERSION_OWNERS && parse_owner(&c, j, &t)) ||
	    rec_get_u64(&c, j, "cpu_ns", &t.cpu_ns) ||
	    rec_get_deltas(&c, j, "ev", r->nr_events, t.ev))
		return -1;
	t.tid = (__u32)tid;
	t.pid = (__u32)pid;
	slot = sample__add(s);
	if (!slot)
		return errmsg(r->msg, sizeof(r->msg), -1, "line %lu: out of memory", c.line);
	*slot = t;
	return 0;
}

/* A cgroup line into the table: it names an id or renames it. */
static int parse_cgroup(struct rec_reader *r, const json_t *j)
{
	struct rec_ctx c = { rec_src__lineno(r->src), "", r->msg, sizeof(r->msg) };
	char path[REC_MAX_CGROUP_PATH + 1];
	size_t len;
	__u64 id;
	int ret;

	if (rec_get_u64(&c, j, "id", &id))
		return -1;
	if (!id)
		return rec_field_err(&c, "id", "must not be 0");
	if (rec_get_str(&c, j, "path", path, sizeof(path)))
		return -1;
	len = strlen(path);
	if (!rec_cgroups__path_ok(path, len))
		return rec_field_err(&c, "path", "must be \"/\" and names without empty, \".\" "
				     "or \"..\" ones");
	ret = rec_cgroups__set(&r->cg, id, path, len);
	if (ret == -ENOSPC)
		return errmsg(r->msg, sizeof(r->msg), -1, "line %lu: more than %d cgroups", c.line,
				REC_MAX_CGROUPS);
	if (ret < 0)
		return errmsg(r->msg, sizeof(r->msg), -1, "line %lu: out of memory", c.line);
	return 0;
}

/* A line of the wrong type where *type* appeared. */
static int misplaced(struct rec_reader *r, enum line_type type)
{
	unsigned long line = rec_src__lineno(r->src);

	if (type == LINE_HEADER)
		return errmsg(r->msg, sizeof(r->msg), -1,
				"line %lu: a second header (concatenated recordings?)", line);
	if (type == LINE_INTERVAL)
		return errmsg(r->msg, sizeof(r->msg), -1,
				"line %lu: interval %llu started before interval %llu ended", line,
				(unsigned long long)r->seq + 2, (unsigned long long)r->seq + 1);
	if (type == LINE_CGROUP)
		return errmsg(r->msg, sizeof(r->msg), -1,
				"line %lu: 'cgroup' line inside interval %llu", line,
				(unsigned long long)r->seq + 1);
	return errmsg(r->msg, sizeof(r->msg), -1, "line %lu: '%s' line outside an interval", line,
			line_types[type]);
}

static void set_end(struct rec_reader *r, bool partial, bool in_interval)
{
	unsigned long line = rec_src__lineno(r->src) + 1;

	r->state = AT_END;
	if (partial || in_interval)
		errmsg(r->msg, sizeof(r->msg), -1,
			 "truncated at line %lu: last interval incomplete, ignored", line);
	else if (rec_src__truncated(r->src))
		errmsg(r->msg, sizeof(r->msg), -1,
			 "truncated at line %lu: compressed stream incomplete, every complete "
			 "interval was read", line);
	else
		r->msg[0] = '\0';
}

/* The end line: the interval is complete if it has every task. */
static int check_end(struct rec_reader *r, const json_t *j, size_t nr, __u64 declared)
{
	struct rec_ctx c = { rec_src__lineno(r->src), "", r->msg, sizeof(r->msg) };
	__u64 seq;

	if (rec_get_u64(&c, j, "seq", &seq))
		return -1;
	if (seq != r->seq + 1)
		return rec_field_err(&c, "seq", "is %llu, expected %llu", (unsigned long long)seq,
				     (unsigned long long)r->seq + 1);
	if (nr != declared)
		return errmsg(r->msg, sizeof(r->msg), -1,
				"line %lu: interval ended after %zu of its %llu tasks", c.line, nr,
				(unsigned long long)declared);
	return 0;
}

/* next_line(); at the end (0) r->state set, *in_interval* if it cut one short. */
static int next_line_or_end(struct rec_reader *r, json_t **j, enum line_type *type,
			    bool in_interval)
{
	bool partial;
	int ret = next_line(r, j, type, &partial);

	if (!ret)
		set_end(r, partial, in_interval);
	return ret;
}

/* 1: *s* holds the next interval; 0: the end (r->state says how); -1. */
static int read_interval(struct rec_reader *r, struct sample *s)
{
	enum line_type type;
	__u64 declared = 0;
	json_t *j;
	int ret;

	/* the cgroups the interval is the first to use come before it */
	for (;;) {
		ret = next_line_or_end(r, &j, &type, false);
		if (ret <= 0)
			return ret;
		if (type != LINE_CGROUP)
			break;
		ret = parse_cgroup(r, j);
		json_decref(j);
		if (ret)
			return -1;
	}
	if (type != LINE_INTERVAL) {
		json_decref(j);
		return misplaced(r, type);
	}
	ret = parse_interval(r, j, s, &declared);
	json_decref(j);
	if (ret)
		return -1;
	for (;;) {
		ret = next_line_or_end(r, &j, &type, true);
		if (ret <= 0)
			return ret;
		if (type == LINE_TASK && s->nr == declared) {
			ret = errmsg(r->msg, sizeof(r->msg), -1,
				       "line %lu: more tasks than the interval declares (%llu)",
				       rec_src__lineno(r->src), (unsigned long long)declared);
		} else if (type == LINE_TASK) {
			ret = parse_task(r, j, s);
		} else if (type == LINE_END) {
			ret = check_end(r, j, s->nr, declared);
			if (!ret)
				ret = 1;
		} else {
			ret = misplaced(r, type);
		}
		json_decref(j);
		if (ret)
			return ret;
	}
}

/* Everything but the task array, which is kept for reuse. */
static void sample_reset(struct sample *s)
{
	struct task_delta *tasks = s->tasks;
	size_t cap = s->cap;

	memset(s, 0, sizeof(*s));
	s->tasks = tasks;
	s->cap = cap;
}

int rec_reader__next(struct rec_reader *r, struct sample *s, char *msg, size_t msglen)
{
	int ret;

	sample_reset(s);
	if (r->state == READING) {
		ret = read_interval(r, s);
		if (ret == 1) {
			r->seq++;
			errmsg(msg, msglen, -1, "%s", "");
			return 1;
		}
		if (ret < 0)
			r->state = FAILED;
		/* a partial interval must not reach a careless caller */
		sample_reset(s);
	}
	errmsg(msg, msglen, -1, "%s", r->msg);
	return r->state == AT_END ? 0 : -1;
}

const char *rec_reader__cgroup_path(const struct rec_reader *r, __u64 id)
{
	return rec_cgroups__path(&r->cg, id);
}

__u64 rec_reader__cgroup_id(const struct rec_reader *r, const char *path)
{
	return rec_cgroups__id(&r->cg, path, strlen(path));
}

static int tree_ancestors(void *ctx, __u64 id, __u64 *out, int max)
{
	const struct rec_reader *r = ctx;

	return rec_cgroups__ancestors(&r->cg, id, out, max);
}

static const char *tree_path(void *ctx, __u64 id)
{
	return rec_reader__cgroup_path(ctx, id);
}

void rec_reader__cgroup_tree(struct rec_reader *r, struct cgroup_tree *t)
{
	t->ancestors = tree_ancestors;
	t->path = tree_path;
	t->ctx = r;
}

void rec_reader__close(struct rec_reader *r)
{
	if (!r)
		return;
	rec_cgroups__free(&r->cg);
	rec_src__close(r->src);
	free(r);
}
