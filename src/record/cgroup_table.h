/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The cgroups a recording names: id -> path for the writer's dedupe and
 * the reader's lookups, path -> id for the tree a replay rebuilds from the
 * paths.
 */
/* Internal to record/. */
#ifndef __TDTOP_RECORD_CGROUP_H
#define __TDTOP_RECORD_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "util/keyindex.h"

struct rec_cgroup {
	__u64 id;
	char *path;
	size_t len;
	__u64 gen;		/* when it got this path: the newest owner of a path wins */
};

/* Zero-initialise; free with rec_cgroups__free(). */
struct rec_cgroups {
	struct rec_cgroup *ent;		/* in order of first appearance */
	size_t nr, cap;
	struct key_index by_id;
	struct key_index by_path;	/* may hold the slots of replaced paths */
	__u64 gen;
};

/* "/" alone, or "/" and names joined by "/", none empty, "." or "..". */
bool rec_cgroups__path_ok(const char *path, size_t len);

/*
 * Name *id* by *path* (valid, of *len* bytes). 0: it already was; 1: added
 * or replaced; -ENOSPC: a new id beyond REC_MAX_CGROUPS; -ENOMEM. On error
 * the table is unchanged.
 */
int rec_cgroups__set(struct rec_cgroups *t, __u64 id, const char *path, size_t len);

/* NULL / 0 when unknown. */
const char *rec_cgroups__path(const struct rec_cgroups *t, __u64 id);
__u64 rec_cgroups__id(const struct rec_cgroups *t, const char *path, size_t len);

/* The named ancestors of *id* found through its path, nearest first, at
 * most *max*; -1 when *id* is unknown. */
int rec_cgroups__ancestors(const struct rec_cgroups *t, __u64 id, __u64 *out, int max);

void rec_cgroups__free(struct rec_cgroups *t);

#endif /* __TDTOP_RECORD_CGROUP_H */
