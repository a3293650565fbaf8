// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Task owners for recordings: a table of tasks by tid, each with the uid
 * found for its start time; entries not seen for a while are swept out
 * whenever the table has doubled, so it follows the tasks that run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "measure/owners.h"
#include "util/grow.h"
#include "util/keyindex.h"

/* an entry not seen for this many intervals goes at the next sweep */
#define OWNER_TTL 16
#define SWEEP_MIN 1024

struct owner {
	__u32 tid;
	__u64 start_ns;		/* of the task the uid is for */
	bool known;		/* /proc/TID was there */
	uid_t uid;
	unsigned long seen;	/* interval number */
};

struct owners {
	char proc[64];
	struct owner *e;
	size_t nr, cap;
	size_t swept;		/* entries left by the last sweep */
	struct key_index ix;	/* of e[] by tid */
	unsigned long now;
	struct user_names names;
};

struct owners *owners__new(const char *proc)
{
	struct owners *o = calloc(1, sizeof(*o));

	if (o)
		snprintf(o->proc, sizeof(o->proc), "%s", proc);
	return o;
}

void owners__free(struct owners *o)
{
	if (!o)
		return;
	key_index__free(&o->ix);
	free(o->e);
	free(o);
}

struct tid_ref {
	const struct owners *o;
	__u32 tid;
};

static bool tid_is(const void *ctx, size_t pos)
{
	const struct tid_ref *ref = ctx;

	return ref->o->e[pos].tid == ref->tid;
}

/* Drop the entries not seen lately and index the others again. */
static void sweep(struct owners *o)
{
	size_t kept = 0;

	for (size_t i = 0; i < o->nr; i++)
		if (o->now - o->e[i].seen <= OWNER_TTL)
			o->e[kept++] = o->e[i];
	o->nr = kept;
	o->swept = kept;
	/* the index keeps its size: setting what it held cannot fail */
	key_index__clear(&o->ix);
	for (size_t i = 0; i < o->nr; i++)
		key_index__set(&o->ix, key_hash_u64(o->e[i].tid), i, NULL, NULL);
}

/* The entry of *tid*, new (and not known) when there was none; NULL on ENOMEM. */
static struct owner *entry_of(struct owners *o, __u32 tid)
{
	struct tid_ref ref = { o, tid };
	size_t hash = key_hash_u64(tid);
	long pos = key_index__find(&o->ix, hash, tid_is, &ref);

	if (pos >= 0)
		return &o->e[pos];
	if (o->nr >= SWEEP_MIN && o->nr >= 2 * o->swept)
		sweep(o);
	if (GROW(o->e, o->cap, o->nr + 1, 256) || key_index__set(&o->ix, hash, o->nr, NULL, NULL))
		return NULL;
	memset(&o->e[o->nr], 0, sizeof(o->e[0]));
	o->e[o->nr].tid = tid;
	return &o->e[o->nr++];
}

static void look_up(const struct owners *o, struct owner *e, __u64 start_ns)
{
	char path[96];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%u", o->proc, e->tid);
	e->start_ns = start_ns;
	e->known = !stat(path, &st);
	e->uid = e->known ? st.st_uid : 0;
}

int owners__fill(struct owners *o, struct sample *s)
{
	o->now++;
	for (size_t i = 0; i < s->nr; i++) {
		struct task_delta *t = &s->tasks[i];
		struct owner *e = entry_of(o, t->tid);

		if (!e)
			return -ENOMEM;
		/* a tid used again by another task: look again */
		if (e->seen == 0 || e->start_ns != t->start_ns)
			look_up(o, e, t->start_ns);
		e->seen = o->now;
		t->uid = e->uid;
		if (e->known)
			snprintf(t->user, sizeof(t->user), "%s", user_names__get(&o->names, e->uid));
		else
			t->user[0] = '\0';
	}
	return 0;
}
