// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Linear probing over (hash, position) pairs; see keyindex.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util/keyindex.h"

#define MIN_CAP 64

/* Ids are often sequential inode numbers and FNV's low bits are weak:
 * mix before masking. */
size_t key_hash_u64(__u64 v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	v *= 0xc4ceb9fe1a85ec53ULL;
	v ^= v >> 33;
	return (size_t)v;
}

size_t key_hash(const void *key, size_t len)
{
	const unsigned char *p = key;
	__u64 h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return key_hash_u64(h);
}

size_t key_hash_str(const char *s)
{
	return key_hash(s, strlen(s));
}

static struct key_slot *probe(const struct key_index *ix, size_t hash, key_eq_fn eq,
			      const void *ctx)
{
	size_t mask = ix->cap - 1;

	for (size_t i = hash & mask;; i = (i + 1) & mask) {
		struct key_slot *s = &ix->slot[i];

		if (!s->pos || (eq && s->hash == hash && eq(ctx, s->pos - 1)))
			return s;
	}
}

long key_index__find(const struct key_index *ix, size_t hash, key_eq_fn eq, const void *ctx)
{
	const struct key_slot *s;

	if (!ix->cap)
		return -1;
	s = probe(ix, hash, eq, ctx);
	return s->pos ? (long)(s->pos - 1) : -1;
}

static int rebuild(struct key_index *ix, size_t cap)
{
	struct key_slot *old = ix->slot;
	size_t old_cap = ix->cap;

	ix->slot = calloc(cap, sizeof(*ix->slot));
	if (!ix->slot) {
		ix->slot = old;
		return -ENOMEM;
	}
	ix->cap = cap;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].pos)
			*probe(ix, old[i].hash, NULL, NULL) = old[i];
	free(old);
	return 0;
}

int key_index__set(struct key_index *ix, size_t hash, size_t pos, key_eq_fn eq,
		   const void *ctx)
{
	struct key_slot *s;

	if ((ix->nr + 1) * 2 > ix->cap) {
		size_t cap = ix->cap ? ix->cap * 2 : MIN_CAP;

		if (cap < ix->cap || rebuild(ix, cap))
			return -ENOMEM;
	}
	s = probe(ix, hash, eq, ctx);
	if (!s->pos)
		ix->nr++;
	s->hash = hash;
	s->pos = pos + 1;
	return 0;
}

void key_index__clear(struct key_index *ix)
{
	if (ix->slot)
		memset(ix->slot, 0, ix->cap * sizeof(*ix->slot));
	ix->nr = 0;
}

void key_index__free(struct key_index *ix)
{
	free(ix->slot);
	memset(ix, 0, sizeof(*ix));
}
