// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The id <-> path table behind a recording's "cgroup" lines. Paths are all
 * a replay has of the hierarchy, so the parent of a cgroup is whichever id
 * was last named by its path's prefix.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#define RECORD_INTERNAL
#include "record/record.h"
#include "record/cgroup_table.h"

#define MIN_SLOTS 64

bool rec_cgroup_path_ok(const char *path, size_t len)
{
	size_t start = 1;

	if (!len || path[0] != '/' || memchr(path, '\0', len))
		return false;
	if (len == 1)
		return true;
	/* every name up to the end: a trailing "/" is an empty one */
	while (start <= len) {
		const char *slash = memchr(path + start, '/', len - start);
		size_t end = slash ? (size_t)(slash - path) : len;
		size_t n = end - start;

		if (!n || (n == 1 && path[start] == '.') ||
		    (n == 2 && path[start] == '.' && path[start + 1] == '.'))
			return false;
		start = end + 1;
	}
	return true;
}

/* Ids are inode numbers, often sequential: mix them before masking. */
static size_t hash_id(__u64 id)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	id *= 0xc4ceb9fe1a85ec53ULL;
	id ^= id >> 33;
	return (size_t)id;
}

static size_t hash_path(const char *p, size_t len)
{
	__u64 h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)p[i];
		h *= 0x100000001b3ULL;
	}
	return (size_t)(h ^ (h >> 29));
}

static bool path_is(const struct rec_cgroup *e, const char *path, size_t len)
{
	return e->len == len && !memcmp(e->path, path, len);
}

static long find(const struct rec_cgroups *t, __u64 id)
{
	size_t mask = t->id_cap - 1;

	if (!t->id_cap)
		return -1;
	for (size_t i = hash_id(id) & mask;; i = (i + 1) & mask) {
		unsigned int slot = t->by_id[i];

		if (!slot)
			return -1;
		if (t->ent[slot - 1].id == id)
			return (long)slot - 1;
	}
}

static void id_insert(unsigned int *slots, size_t cap, const struct rec_cgroup *ent, size_t idx)
{
	size_t i = hash_id(ent[idx].id) & (cap - 1);

	while (slots[i])
		i = (i + 1) & (cap - 1);
	slots[i] = (unsigned int)idx + 1;
}

/* Room in by_id for one more entry, rebuilt larger when half full. */
static int id_reserve(struct rec_cgroups *t)
{
	size_t cap = t->id_cap ? t->id_cap : MIN_SLOTS;
	unsigned int *slots;

	while ((t->nr + 1) * 2 > cap)
		cap *= 2;
	if (cap == t->id_cap)
		return 0;
	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr; i++)
		id_insert(slots, cap, t->ent, i);
	free(t->by_id);
	t->by_id = slots;
	t->id_cap = cap;
	return 0;
}

/* Point a slot for entry *idx*'s path at it, unless a newer owner has it. */
static size_t path_insert(unsigned int *slots, size_t cap, const struct rec_cgroup *ent,
			  size_t idx)
{
	const struct rec_cgroup *e = &ent[idx];
	size_t i = hash_path(e->path, e->len) & (cap - 1);

	for (;; i = (i + 1) & (cap - 1)) {
		unsigned int slot = slots[i];

		if (!slot) {
			slots[i] = (unsigned int)idx + 1;
			return 1;
		}
		if (path_is(&ent[slot - 1], e->path, e->len)) {
			if (e->gen >= ent[slot - 1].gen)
				slots[i] = (unsigned int)idx + 1;
			return 0;
		}
	}
}

/*
 * Room in by_path for one more slot. A replaced path leaves its slot
 * behind (lookups compare the entry's current path), so the index is
 * rebuilt from the entries once three quarters of it are used.
 */
static int path_reserve(struct rec_cgroups *t)
{
	size_t cap = MIN_SLOTS, used = 0;
	unsigned int *slots;

	if (t->path_cap && (t->path_used + 1) * 4 <= t->path_cap * 3)
		return 0;
	while (cap < (t->nr + 1) * 4)
		cap *= 2;
	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr; i++)
		used += path_insert(slots, cap, t->ent, i);
	free(t->by_path);
	t->by_path = slots;
	t->path_cap = cap;
	t->path_used = used;
	return 0;
}

static char *dup_path(const char *path, size_t len)
{
	char *p = malloc(len + 1);

	if (p) {
		memcpy(p, path, len);
		p[len] = '\0';
	}
	return p;
}

static int add(struct rec_cgroups *t, __u64 id, const char *path, size_t len)
{
	struct rec_cgroup *e;
	char *p;

	if (t->nr >= REC_MAX_CGROUPS)
		return -ENOSPC;
	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;

		e = realloc(t->ent, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		t->ent = e;
		t->cap = cap;
	}
	if (id_reserve(t) || path_reserve(t))
		return -ENOMEM;
	p = dup_path(path, len);
	if (!p)
		return -ENOMEM;
	e = &t->ent[t->nr];
	*e = (struct rec_cgroup){ id, p, len, ++t->gen };
	id_insert(t->by_id, t->id_cap, t->ent, t->nr);
	t->path_used += path_insert(t->by_path, t->path_cap, t->ent, t->nr);
	t->nr++;
	return 1;
}

int rec_cgroups__set(struct rec_cgroups *t, __u64 id, const char *path, size_t len)
{
	long idx = find(t, id);
	struct rec_cgroup *e;
	char *p;

	if (idx < 0)
		return add(t, id, path, len);
	e = &t->ent[idx];
	if (path_is(e, path, len))
		return 0;
	if (path_reserve(t))
		return -ENOMEM;
	p = dup_path(path, len);
	if (!p)
		return -ENOMEM;
	free(e->path);
	e->path = p;
	e->len = len;
	e->gen = ++t->gen;
	t->path_used += path_insert(t->by_path, t->path_cap, t->ent, (size_t)idx);
	return 1;
}

const char *rec_cgroups__path(const struct rec_cgroups *t, __u64 id)
{
	long idx = find(t, id);

	return idx < 0 ? NULL : t->ent[idx].path;
}

__u64 rec_cgroups__id(const struct rec_cgroups *t, const char *path, size_t len)
{
	size_t mask = t->path_cap - 1;

	if (!t->path_cap)
		return 0;
	for (size_t i = hash_path(path, len) & mask;; i = (i + 1) & mask) {
		unsigned int slot = t->by_path[i];

		if (!slot)
			return 0;
		if (path_is(&t->ent[slot - 1], path, len))
			return t->ent[slot - 1].id;
	}
}

int rec_cgroups__ancestors(const struct rec_cgroups *t, __u64 id, __u64 *out, int max)
{
	long idx = find(t, id);
	const char *p;
	size_t len;
	int n = 0;
	__u64 up;

	if (idx < 0)
		return -1;
	p = t->ent[idx].path;
	len = t->ent[idx].len;
	/* "/a/b/c": "/a/b", "/a", then the root "/" */
	for (size_t i = len - 1; i > 0 && n < max; i--) {
		if (p[i] == '/' && (up = rec_cgroups__id(t, p, i)))
			out[n++] = up;
	}
	if (len > 1 && n < max && (up = rec_cgroups__id(t, p, 1)))
		out[n++] = up;
	return n;
}

void rec_cgroups__free(struct rec_cgroups *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->ent[i].path);
	free(t->ent);
	free(t->by_id);
	free(t->by_path);
	memset(t, 0, sizeof(*t));
}
