/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Recordings (tdtop record / tdtop report): a header describing the run,
 * then every interval's struct sample, as JSON Lines, optionally gzipped.
 * docs/record-format.md is the format's definition. With diff.h and
 * recmeta.h this is record/'s interface; its other headers are internal.
 */
#ifndef __TDTOP_RECORD_H
#define __TDTOP_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "pmu/events.h"
#include "rows/sample.h"
#include "tdtop_abi.h"

#define REC_FORMAT_NAME "tdtop-recording"
#define REC_FORMAT_VERSION 1

/* Longest line a reader accepts, '\n' not counted. */
#define REC_MAX_LINE (1024 * 1024)
/* Most tasks one interval may hold. */
#define REC_MAX_TASKS (1 << 22)
/* tid and pid are 1..REC_PID_MAX (the kernel's PID_MAX_LIMIT). */
#define REC_PID_MAX (1 << 22)
#define REC_MAX_PMUS 8
#define REC_MAX_PIDS 1024
#define REC_MAX_SLOT_WIDTH 64

/* String buffers, NUL included. */
#define REC_VERSION_LEN 32
#define REC_RELEASE_LEN 65	/* struct utsname's release */
#define REC_CPU_MODEL_LEN 128
#define REC_METHOD_LEN 32
#define REC_NAME_LEN 64		/* event and PMU names (EVENT_NAME_LEN) */
#define REC_UNIT_LEN 16
#define REC_ROLE_LEN 32
#define REC_GROUP_LEN 16
#define REC_PATH_LEN 256
#define REC_MAX_CGROUP_DEPTH 1024
/* Cgroup lines: distinct ids a recording may name, and a path's bytes. */
#define REC_MAX_CGROUPS 65536
#define REC_MAX_CGROUP_PATH 4096

struct rec_event {
	char name[REC_NAME_LEN];
	char pmu[REC_NAME_LEN];		/* "" when not tied to a named PMU */
	__u32 type;			/* perf_event_attr.type */
	__u64 config;
	__u64 config1;
	__u64 config2;
	double scale;			/* finite, > 0 */
	char unit[REC_UNIT_LEN];
	int leader;			/* index of its group leader, <= own index */
	bool pinned;
	char role[REC_ROLE_LEN];	/* TopDown role ("slots", ...), "" for none */
};

/* A TopDown part: one core type's PMU, its method and its events. */
struct rec_pmu {
	char name[REC_NAME_LEN];
	char method[REC_METHOD_LEN];	/* td_method_name() */
	int ev_lo;			/* its events: [ev_lo, ev_hi) */
	int ev_hi;
	unsigned int slot_width;	/* 0..REC_MAX_SLOT_WIDTH; 0: not used by the method */
	bool arm_n2_erratum;
};

/*
 * Once per file. Strings are NUL-terminated C strings of any bytes but NUL;
 * unused array slots and string tails are zero after reading.
 */
struct rec_header {
	int version;			/* set by the reader; the writer ignores it */
	char tdtop_version[REC_VERSION_LEN];
	char kernel_release[REC_RELEASE_LEN];
	char cpu_model[REC_CPU_MODEL_LEN];
	int ncpus;			/* 1..MAX_CPUS */
	char topdown_method[REC_METHOD_LEN];	/* td_method_name(), may be "none" */
	int nr_events;			/* 0..MAX_EVENTS */
	struct rec_event events[MAX_EVENTS];
	int nr_pmus;			/* 0 when TopDown was not measured */
	struct rec_pmu pmus[REC_MAX_PMUS];
	/* the command line options that shaped the recording */
	double delay_s;			/* finite, >= 0 */
	char group_by[REC_GROUP_LEN];	/* "process", "thread", "cgroup", ... */
	char cgroup[REC_PATH_LEN];	/* -c filter path, "" for none */
	int cgroup_depth;		/* 0..REC_MAX_CGROUP_DEPTH, 0: any */
	__u64 max_tasks;
	int nr_pids;			/* --pid filter; 0: every process */
	int pids[REC_MAX_PIDS];		/* 1..REC_PID_MAX */
};

/*
 * Zero *h*, then fill tdtop_version, kernel_release (uname) and cpu_model
 * (the first "model name" of *cpuinfo*, usually "/proc/cpuinfo"; "" when
 * there is none), topdown_method "none" and group_by "process". The caller
 * sets everything else.
 */
void rec_header__init_host(struct rec_header *h, const char *cpuinfo);

/* Copy name, type, config*, scale, unit, leader and pinned of every event;
 * pmu and role are left for the caller. -1 when a name does not fit. */
int rec_header__set_events(struct rec_header *h, const struct event_list *el);

/* 0 when *h* can be written and read back, else -1 with *err* saying why. */
int rec_header__check(const struct rec_header *h, char *err, size_t errlen);

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
 * and the hierarchy. A refused cgroup does not stop the others: -1 with
 * the first message, and the recorder goes on unless a write failed.
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
