/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Recordings (tdtop record / tdtop report): a header describing the run,
 * then every interval's struct sample, as JSON Lines, optionally gzipped.
 * The format's limits and header are in format.h, which this includes.
 * With diff.h and recmeta.h this is record/'s interface; its other headers
 * (codec.h, cgroup_table.h, source.h) are internal.
 */
#ifndef __TDTOP_RECORD_H
#define __TDTOP_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "record/format.h"
#include "rows/sample.h"

/*
 * Writing. Every function returns 0 (or a pointer) on success, and -1 (or
 * NULL) with a one-line message in *err* (which may be NULL). A recording
 * is readable up to the last interval recorder__write() returned from, even
 * if the process is killed: each interval is flushed to the kernel before
 * the call returns (it is not fsync()ed).
 */
struct recorder;

/* Create (or truncate) *path* ("-": standard output) and write the
 * header; *gzip* compresses. */
struct recorder *recorder__open(const char *path, const struct rec_header *h, bool gzip,
				char *err, size_t errlen);

/*
 * The same on *fd*, open for writing, which the recorder owns from now
 * on (closed also on failure); *name* is what messages call it.
 */
struct recorder *recorder__open_fd(int fd, const char *name, const struct rec_header *h,
				   bool gzip, char *err, size_t errlen);

/*
 * Append one interval. A sample that breaks the format's limits (tid 0,
 * a comm without NUL, a non-finite ts, ...) is refused before anything is
 * written; a write error leaves the recorder failed for good.
 */
int recorder__write(struct recorder *r, const struct sample *s, char *err, size_t errlen);

/*
 * Name cgroup *id* (non-zero) by *path*, relative to the cgroup root
 * ("/system.slice/nginx.service", "/" for the root): a "cgroup" line, which
 * the next interval is the first to use. Known ids are remembered: the same
 * path again writes nothing, a new path is written and replaces the old
 * one. A path that is not "/" plus names (no empty, "." or ".." name),
 * longer than REC_MAX_CGROUP_PATH bytes, or an id beyond REC_MAX_CGROUPS
 * distinct ones is refused with nothing written, and the recorder goes on.
 */
int recorder__write_cgroup(struct recorder *r, __u64 id, const char *path, char *err,
			   size_t errlen);

struct cgroup_tree;

/*
 * recorder__write_cgroup() for the cgroup of every task in *s* and each of
 * its ancestors, with their paths from *t* (those without a path are
 * skipped); call it before recorder__write(s) so that replay has names
 * and the hierarchy. A refused cgroup does not stop the others: 1 with
 * the first message, and the recorder goes on. -1 with the message when a
 * write failed (the recorder is failed for good).
 */
int recorder__write_cgroups(struct recorder *r, const struct sample *s,
			    const struct cgroup_tree *t, char *err, size_t errlen);

/* Flush, close and free; accepts NULL. */
int recorder__close(struct recorder *r, char *err, size_t errlen);

/*
 * Reading. Plain and gzip input are told apart by their first bytes. The
 * open functions read and check the header into *h*.
 */
struct rec_reader;

/* *path* "-" reads standard input. */
struct rec_reader *rec_reader__open(const char *path, struct rec_header *h, char *err,
				    size_t errlen);

/* *data* must stay valid until rec_reader__close(). */
struct rec_reader *rec_reader__open_mem(const void *data, size_t len, struct rec_header *h,
					char *err, size_t errlen);

/*
 * The next interval into *s* (its task array is reused; free it with
 * sample__free()). Returns 1 for an interval, 0 at the end and -1 on an
 * error, with a "line N: ..." message in *msg*. At the end *msg* is "" or
 * a warning such as "truncated at line N: last interval incomplete,
 * ignored". After an error or the end, every call returns the same again.
 */
int rec_reader__next(struct rec_reader *r, struct sample *s, char *msg, size_t msglen);

/*
 * The cgroups named so far: every "cgroup" line up to the interval
 * rec_reader__next() returned last (the lines come before the intervals
 * that use them). NULL, 0 or -1 for what was not named. Pointers stay
 * valid until the next rec_reader__next() or rec_reader__close().
 */
const char *rec_reader__cgroup_path(const struct rec_reader *r, __u64 id);
/* The id most recently named *path*; 0 for none. */
__u64 rec_reader__cgroup_id(const struct rec_reader *r, const char *path);
/*
 * *t* answers from the table above, for the aggregation: the ancestors of
 * a cgroup are the named cgroups whose paths are its path's prefixes
 * ("/a/b" has "/a", then "/"), nearest first; a prefix nobody was named
 * by is skipped. *r* must outlive *t*'s use.
 */
void rec_reader__cgroup_tree(struct rec_reader *r, struct cgroup_tree *t);

/* Accepts NULL. */
void rec_reader__close(struct rec_reader *r);

#endif /* __TDTOP_RECORD_H */
