/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * cgroup v2 in userspace: finding the cgroup2 mount, resolving a user's
 * cgroup path to its id, and an id -> path cache with ancestry for rollups.
 */
#ifndef __TDTOP_CGROUP_H
#define __TDTOP_CGROUP_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

/* Longest absolute cgroup directory path handled, NUL included. */
#define CGROUP_PATH_MAX 4096

/* Limits of the cache walk. */
#define CGROUP_MAX_DEPTH 64
#define CGROUP_DEFAULT_MAX_DEPTH 32
#define CGROUP_DEFAULT_MAX_ENTRIES 65536
#define CGROUP_DEFAULT_MIN_REFRESH_S 1.0

/* cgroup2_mount_from_mountinfo() results besides -errno from reading. */
#define CGROUP_ENOMOUNT (-ENODEV)	/* no cgroup filesystem at all */
#define CGROUP_EV1ONLY (-EOPNOTSUPP)	/* only cgroup v1 hierarchies */

/*
 * Find the cgroup2 mount point in mountinfo and copy it, unescaped, to
 * *out*. The argument is mountinfo text when it contains a newline or
 * starts with a digit (every mountinfo line starts with the mount id),
 * otherwise the path of a file to read; NULL reads /proc/self/mountinfo.
 * Malformed lines are skipped. A mount of the whole hierarchy (root "/")
 * wins over a bind mount of a sub-cgroup; among equals the first listed.
 * Returns 0, CGROUP_EV1ONLY, CGROUP_ENOMOUNT, -ENAMETOOLONG when the mount
 * point does not fit *outlen*, -EFBIG for a file of 16 MiB or more, -EINVAL for
 * bad arguments or -errno from reading the file.
 */
int cgroup2_mount_from_mountinfo(const char *mountinfo_text_or_path, char *out, size_t outlen);

/* One-line message for a cgroup2_mount_from_mountinfo() error. */
void cgroup2_mount_strerror(int err, char *buf, size_t len);

/*
 * Resolve *user_path* to a cgroup directory under *mount* (the cgroup2
 * mount point). Like perf --cgroup and systemd-cgls, a path is relative to
 * the cgroup root whether or not it starts with '/': "system.slice/x" and
 * "/system.slice/x" are the same cgroup, and "/" is the root. A path that
 * starts with the mount point itself ("/sys/fs/cgroup/system.slice") is
 * taken as a filesystem path. Empty and "." components and trailing
 * slashes are ignored; ".." is refused, and so is a directory without a
 * cgroup.procs file or one that symlinks lead outside the mount.
 * On success fills *abs* (normalised absolute path) and *id* (the
 * directory's inode number, which is what bpf_get_current_cgroup_id()
 * returns) and returns 0. On failure writes a one-line message to *err*
 * and returns -EINVAL (bad path), -ENAMETOOLONG, -ENOENT, -ENOTDIR (not a
 * directory or not a cgroup), -EXDEV (outside the mount) or -errno.
 */
int cgroup_resolve_path(const char *mount, const char *user_path, char *abs, size_t len,
			unsigned long long *id, char *err, size_t errlen);

/* Number of components of *path*: "/" and "" give 0, "/a/b/" gives 2. */
int cgroup_path_depth(const char *path);

struct cgroup_entry {
	unsigned long long id;		/* inode number of the directory */
	unsigned long long parent_id;	/* 0 for the root */
	char *path;			/* relative to the cgroup root: "/", "/a/b" */
	int depth;			/* cgroup_path_depth(path) */
	bool gone;			/* missing from the last complete walk */
};

struct cgroup_cache_opts {
	int max_depth;		/* deepest level walked (root: 0), <= CGROUP_MAX_DEPTH */
	size_t max_entries;	/* a walk stops after this many cgroups */
	double min_refresh_s;	/* least time between walks caused by unknown ids */
};

struct cgroup_cache {
	char *mount;
	int max_depth;
	size_t max_entries;
	double min_refresh_s;
	struct cgroup_entry *ents;	/* sorted by id */
	size_t nr;
	size_t cap;
	unsigned long long root_id;
	unsigned long walks;		/* walks done so far */
	bool walked;
	bool truncated;			/* the last walk stopped at max_entries */
	double last_walk_s;
};

/*
 * Prepare an empty cache of the cgroups under *mount*. NULL opts takes
 * every default; otherwise a zero max_depth or max_entries means the
 * default and min_refresh_s is used as given (0: walk for every unknown
 * id). Nothing is read until the first refresh or lookup. Returns 0,
 * -EINVAL or -ENOMEM.
 */
int cgroup_cache__init(struct cgroup_cache *c, const char *mount,
		       const struct cgroup_cache_opts *opts);

/*
 * Walk the hierarchy now; *now_s* is the caller's monotonic clock. Every
 * directory is a cgroup; symlinks and other filesystems are not followed.
 * Cgroups not found any more stay cached, marked gone, until dropped;
 * after a walk cut short by max_entries nothing is marked gone. Entry
 * pointers from earlier calls are invalid afterwards. Returns the number
 * of cgroups seen or -errno (the cache is unchanged then).
 */
int cgroup_cache__refresh(struct cgroup_cache *c, double now_s);

/* The cached entry of *id*, or NULL; never walks. */
const struct cgroup_entry *cgroup_cache__find(const struct cgroup_cache *c, unsigned long long id);

/*
 * Like find, but an unknown *id* (a cgroup created since the last walk)
 * triggers a walk, unless one happened less than min_refresh_s before
 * *now_s*: passing one timestamp for a whole interval's lookups bounds the
 * walks to one per interval. May invalidate earlier entry pointers.
 */
const struct cgroup_entry *cgroup_cache__lookup(struct cgroup_cache *c, unsigned long long id,
						double now_s);

/*
 * Ids of the cached ancestors of *id*, nearest first (parent, ..., root),
 * at most *max* of them (CGROUP_MAX_DEPTH is always enough). Returns how
 * many were written, or -ENOENT when *id* is not cached.
 */
int cgroup_cache__ancestors(const struct cgroup_cache *c, unsigned long long id,
			    unsigned long long *out, int max);

/* True when *id* is *ancestor* or lies below it. */
bool cgroup_cache__within(const struct cgroup_cache *c, unsigned long long id,
			  unsigned long long ancestor);

/* Forget *id* (gone or not). Returns 0 or -ENOENT. */
int cgroup_cache__drop(struct cgroup_cache *c, unsigned long long id);

/* Forget every entry marked gone; returns how many. */
size_t cgroup_cache__drop_gone(struct cgroup_cache *c);

void cgroup_cache__free(struct cgroup_cache *c);

#endif /* __TDTOP_CGROUP_H */
