/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Scratch directory trees for the unit tests (fake sysfs, cgroupfs):
 * make a temp root, write files with their parent directories, link in
 * parts of the fixture trees, remove it all; temp files, a memory FILE and
 * a fixed cgroup tree. A step that fails is a test failure, so callers
 * need not check each one.
 */
#ifndef __TDTOP_FIXTURE_H
#define __TDTOP_FIXTURE_H

#include <stddef.h>
#include <stdio.h>

/* Where sysfs keeps the PMUs, relative to its root. */
#define FIXTURE_DEVICES "bus/event_source/devices/"

/* A new empty directory /tmp/tdtop-<name>-XXXXXX (free with fixture_remove()),
 * or NULL with a test failure. */
char *fixture_new(const char *name);

/* Write <root>/<rel> (a leading '/' in rel is ignored), making its parents. */
void fixture_put(const char *root, const char *rel, const char *data);
void fixture_put_len(const char *root, const char *rel, const void *data, size_t len);

/* One file of a tree: where below the tree's directory, and what it holds. */
struct fixture_file {
	const char *rel;
	const char *data;
};

/* fixture_put() of each of *files*, up to one with a NULL rel, below <root>/<dir>. */
void fixture_put_files(const char *root, const char *dir, const struct fixture_file *files);

/* mkdir <root>/<rel> and its parents; an existing directory is fine. */
void fixture_mkdir(const char *root, const char *rel);

/* <root>/<rel> as a symlink to the real path of *target*. */
void fixture_link(const char *root, const char *rel, const char *target);

/*
 * A new file $TMPDIR/tdtop-<name>-XXXXXX (/tmp without TMPDIR) holding
 * *len* bytes of *data*, its path in *path*; unlink() it when done.
 */
void fixture_tmpfile(char *path, size_t size, const char *name, const void *data, size_t len);

/* The first size - 1 bytes of the file at *path*, NUL-terminated ("" when unreadable). */
void fixture_read(const char *path, char *buf, size_t size);

/* A FILE writing to memory, for outputs under test. */
struct fixture_mem {
	FILE *f;
	char *buf;
	size_t len;
};

void fixture_mem_open(struct fixture_mem *m);
/* What was written so far (flushed), NUL-terminated. */
const char *fixture_mem_text(struct fixture_mem *m);
void fixture_mem_close(struct fixture_mem *m);

struct cgroup_tree;

/*
 * A fixed cgroup tree: 1 "/" -> 2 "/system.slice" ->
 * 3 "/system.slice/nginx.service", 1 -> 4 "/user.slice" -> 5 with a broken
 * path ("/user.slice//x") and 6 with none. Other ids are unknown.
 */
extern const struct cgroup_tree fixture_cgroup_tree;

/* Remove the tree (links are removed, not followed) and free *root*. */
void fixture_remove(char *root);

#endif /* __TDTOP_FIXTURE_H */
