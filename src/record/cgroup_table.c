// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The id <-> path table behind a recording's "cgroup" lines. Paths are all
 * a replay has of the hierarchy, so the parent of a cgroup is whichever id
 * was last named by its path's prefix.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "record/format.h"
#include "record/cgroup_table.h"
#include "util/grow.h"

bool rec_cgroups__path_ok(const char *path, size_t len)
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

/* What the index callbacks compare against: an id or a path. */
struct cgroup_key {
	const struct rec_cgroups *t;
	__u64 id;
	const char *path;
	size_t len;
};

/* Positions at t->nr and beyond are not entries yet (an add that failed
 * half-way may leave one indexed): they match nothing. */
static bool id_is(const void *ctx, size_t pos)
{
	const struct cgroup_key *k = ctx;

	return pos < k->t->nr && k->t->ent[pos].id == k->id;
}

static bool path_is(const struct rec_cgroup *e, const char *path, size_t len)
{
	return e->len == len && !memcmp(e->path, path, len);
}

/* A slot left behind by a renamed entry fails this too: lookups compare
 * the entry's current path. */
static bool path_at(const void *ctx, size_t pos)
{
	const struct cgroup_key *k = ctx;

	return pos < k->t->nr && path_is(&k->t->ent[pos], k->path, k->len);
}

static long find(const struct rec_cgroups *t, __u64 id)
{
	struct cgroup_key k = { .t = t, .id = id };

	return key_index__find(&t->by_id, key_hash_u64(id), id_is, &k);
}

static long find_path(const struct rec_cgroups *t, const char *path, size_t len)
{
	struct cgroup_key k = { .t = t, .path = path, .len = len };

	return key_index__find(&t->by_path, key_hash(path, len), path_at, &k);
}

/* Point by_path's slot for entry *pos*'s path at it, taking over from the
 * path's previous owner. */
static int path_set(struct rec_cgroups *t, size_t pos)
{
	const struct rec_cgroup *e = &t->ent[pos];
	struct cgroup_key k = { .t = t, .path = e->path, .len = e->len };

	return key_index__set(&t->by_path, key_hash(e->path, e->len), pos, path_at, &k);
}

/*
 * A replaced path leaves its slot behind; once by_path holds twice as many
 * slots as there are entries, it is rebuilt from the entries, the newest
 * owner of each path winning. It keeps its size, so this cannot fail.
 */
static void path_sweep(struct rec_cgroups *t)
{
	if (t->by_path.nr <= 2 * t->nr)
		return;
	key_index__clear(&t->by_path);
	for (size_t i = 0; i < t->nr; i++) {
		long owner = find_path(t, t->ent[i].path, t->ent[i].len);

		if (owner < 0 || t->ent[owner].gen < t->ent[i].gen)
			path_set(t, i);
	}
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
	char *p;

	if (t->nr >= REC_MAX_CGROUPS)
		return -ENOSPC;
	if (GROW(t->ent, t->cap, t->nr + 1, 64))
		return -ENOMEM;
	p = dup_path(path, len);
	if (!p)
		return -ENOMEM;
	t->ent[t->nr] = (struct rec_cgroup){ id, p, len, t->gen + 1 };
	/* by_id first: a slot it keeps when by_path fails matches nothing */
	if (key_index__set(&t->by_id, key_hash_u64(id), t->nr, NULL, NULL) ||
	    path_set(t, t->nr)) {
		free(p);
		return -ENOMEM;
	}
	t->nr++;
	t->gen++;
	return 1;
}

int rec_cgroups__set(struct rec_cgroups *t, __u64 id, const char *path, size_t len)
{
	long idx = find(t, id);
	struct rec_cgroup *e, old;
	char *p;

	if (idx < 0)
		return add(t, id, path, len);
	e = &t->ent[idx];
	if (path_is(e, path, len))
		return 0;
	path_sweep(t);
	p = dup_path(path, len);
	if (!p)
		return -ENOMEM;
	old = *e;
	*e = (struct rec_cgroup){ id, p, len, t->gen + 1 };
	if (path_set(t, (size_t)idx)) {
		*e = old;
		free(p);
		return -ENOMEM;
	}
	free(old.path);
	t->gen++;
	return 1;
}

const char *rec_cgroups__path(const struct rec_cgroups *t, __u64 id)
{
	long idx = find(t, id);

	return idx < 0 ? NULL : t->ent[idx].path;
}

__u64 rec_cgroups__id(const struct rec_cgroups *t, const char *path, size_t len)
{
	long idx = find_path(t, path, len);

	return idx < 0 ? 0 : t->ent[idx].id;
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
	key_index__free(&t->by_id);
	key_index__free(&t->by_path);
	memset(t, 0, sizeof(*t));
}
