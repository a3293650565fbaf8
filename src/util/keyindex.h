/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * An open-addressing index of positions in a caller's array. The caller
 * keeps the keys and says whether the entry at a position matches; the
 * index keeps each entry's hash, so it grows without asking for keys again.
 * Used for the tables that map paths, ids or series names to entries.
 */
#ifndef __TDTOP_KEYINDEX_H
#define __TDTOP_KEYINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct key_slot {
	size_t hash;
	size_t pos;		/* the position + 1; 0 is an empty slot */
};

struct key_index {
	struct key_slot *slot;
	size_t cap;		/* a power of two, or 0 before the first add */
	size_t nr;
};

/* Does the entry at *pos* have the key the caller looks for (in ctx)? */
typedef bool (*key_eq_fn)(const void *ctx, size_t pos);

size_t key_hash(const void *key, size_t len);
size_t key_hash_u64(__u64 v);
/* key_hash() of a C string without its NUL. */
size_t key_hash_str(const char *s);

/* The position of the entry with this hash that eq() accepts, or -1. */
long key_index__find(const struct key_index *ix, size_t hash, key_eq_fn eq, const void *ctx);

/* Index *pos* under *hash*; an entry eq() accepts (eq may be NULL) is
 * pointed at pos instead. Grows at half full: 0 or -ENOMEM. */
int key_index__set(struct key_index *ix, size_t hash, size_t pos, key_eq_fn eq,
		   const void *ctx);

/* Forget every entry, keeping the memory (for a table that rebuilds). */
void key_index__clear(struct key_index *ix);
void key_index__free(struct key_index *ix);

#endif /* __TDTOP_KEYINDEX_H */
