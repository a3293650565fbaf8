/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The recording format's limits and its header: what the run was, the
 * events and TopDown parts, the options that shaped it; filling, checking,
 * writing and parsing it. docs/record-format.md is the definition.
 */
#ifndef __TDTOP_RECORD_FORMAT_H
#define __TDTOP_RECORD_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "pmu/events.h"
#include "tdtop_abi.h"

#define REC_FORMAT_NAME "tdtop-recording"
#define REC_FORMAT_VERSION 2
/* Task lines carry their owner (uid, user) from this version on. */
#define REC_VERSION_OWNERS 2
/* The uid of a task whose owner is not known ((uid_t)-1, never a user's). */
#define REC_NO_UID 4294967295u

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

struct json_t;
struct json_writer;

/* The header line's object, to *w* (rec_header__check() it first). */
void rec_header__json(const struct rec_header *h, struct json_writer *w);

/* Parse the header line's object (type already checked) into *h*. */
int rec_header__parse(struct rec_header *h, const struct json_t *j, unsigned long line,
		      char *err, size_t errlen);

#endif /* __TDTOP_RECORD_FORMAT_H */
