// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Row order of the interactive view beyond the build's sort: reversed,
 * filtered, trees of cgroups and of processes with their threads, --top.
 * Pure: the unit tests run it on rows they make.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rows/metrics.h"
#include "tui/order.h"

/* The build sorts NaN last in either direction: those rows have no value for the key. */
static bool no_value(const struct row *r, const struct sort_key *k)
{
	switch (k->kind) {
	case SORT_EVENT:
		return k->event >= 0 && k->event < MAX_EVENTS && isnan(delta__scaled(&r->ev[k->event]));
	case SORT_TD:
		if (k->field == TD_SORT_SLOTS)
			return isnan(r->td.slots);
		if (k->field == TD_SORT_IPC)
			return isnan(r->ipc);
		return k->field >= 0 && k->field < nr_td_fields &&
		       isnan(td_field_value(&r->td, k->field));
	case SORT_CPU:
	case SORT_PID:
	case SORT_COMM:
		break;
	}
	return false;
}

void tui_rows_reverse(struct row *rows, size_t nr, const struct sort_key *key)
{
	size_t end = nr;

	while (end && no_value(&rows[end - 1], key))
		end--;
	for (size_t i = 0; i < end / 2; i++) {
		struct row tmp = rows[i];

		rows[i] = rows[end - 1 - i];
		rows[end - 1 - i] = tmp;
	}
}

static bool path_contains(void *filter, const struct row *r)
{
	return r->cgroup && strstr(r->cgroup, filter);
}

size_t tui_cgroup_filter(struct row *rows, size_t nr, const char *filter)
{
	if (!filter || !filter[0])
		return nr;
	return rows__filter(rows, nr, path_contains, (void *)filter);
}

/* ---- the cgroup tree ---- */

#define NONE ((size_t)-1)

/* An ancestor's path for the lookup: the first *len* bytes of a row's path. */
struct path_key {
	const struct row *rows;
	const char *s;
	size_t len;
};

static int path_key_cmp(const void *key, const void *elem)
{
	const struct path_key *k = key;
	const char *p = k->rows[*(const size_t *)elem].cgroup;
	int c = strncmp(k->s, p, k->len);

	return c ? c : p[k->len] ? -1 : 0;
}

static int by_path_cmp(const void *a, const void *b, void *rows)
{
	const struct row *r = rows;

	return strcmp(r[*(const size_t *)a].cgroup, r[*(const size_t *)b].cgroup);
}

/* The nearest ancestor of row *i* among the rows (indices *by_path* sorted by path), or NONE. */
static size_t ancestor(const struct row *rows, const size_t *by_path, size_t nr_paths, size_t i)
{
	struct path_key k = { .rows = rows, .s = rows[i].cgroup };

	k.len = k.s ? strlen(k.s) : 0;
	while (k.len > 1) {
		const size_t *hit;

		while (k.len > 1 && k.s[k.len - 1] != '/')
			k.len--;
		/* "/a/b" has "/a" above it, "/a" the root "/" */
		if (k.len > 1)
			k.len--;
		hit = bsearch(&k, by_path, nr_paths, sizeof(size_t), path_key_cmp);
		if (hit)
			return *hit;
	}
	return NONE;
}

/* Links of the tree: each row's first child and next sibling; the roots hang off *nr*. */
struct links {
	size_t *first, *next, *last;
};

static void link_child(struct links *l, size_t parent, size_t child)
{
	if (l->last[parent] == NONE)
		l->first[parent] = child;
	else
		l->next[l->last[parent]] = child;
	l->last[parent] = child;
}

/* The children of *parent* onto the stack, the first on top. */
static void push_children(const struct links *l, size_t parent, size_t *stack, size_t *top)
{
	size_t kids = 0, k;

	for (size_t c = l->first[parent]; c != NONE; c = l->next[c])
		kids++;
	*top += kids;
	k = *top;
	for (size_t c = l->first[parent]; c != NONE; c = l->next[c])
		stack[--k] = c;
}

int tui_cgroup_tree(struct row *rows, size_t nr)
{
	/* by_path, stack: nr each; first, next, last: nr + 1 (the roots' parent) */
	size_t *mem = calloc(5 * nr + 3, sizeof(size_t));
	struct row *out = malloc((nr ? nr : 1) * sizeof(*out));
	size_t *by_path, *stack, nr_paths = 0, top = 0, n = 0;
	struct links l;

	if (!mem || !out) {
		free(mem);
		free(out);
		return -1;
	}
	by_path = mem;
	stack = mem + nr;
	l.first = mem + 2 * nr;
	l.next = l.first + nr + 1;
	l.last = l.next + nr + 1;
	for (size_t i = 0; i <= nr; i++)
		l.first[i] = l.next[i] = l.last[i] = NONE;
	for (size_t i = 0; i < nr; i++)
		if (rows[i].cgroup)
			by_path[nr_paths++] = i;
	qsort_r(by_path, nr_paths, sizeof(size_t), by_path_cmp, rows);
	for (size_t i = 0; i < nr; i++) {
		size_t p = ancestor(rows, by_path, nr_paths, i);

		link_child(&l, p == NONE ? nr : p, i);
	}
	/* depth first, each row pushed once */
	push_children(&l, nr, stack, &top);
	while (top) {
		size_t i = stack[--top];

		out[n++] = rows[i];
		push_children(&l, i, stack, &top);
	}
	memcpy(rows, out, nr * sizeof(*rows));
	free(out);
	free(mem);
	return 0;
}

/* ---- processes with their threads ---- */

/* By PID, and in the order given within one. */
static int thread_cmp(const void *a, const void *b, void *threads)
{
	const struct row *t = threads;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (t[x].pid != t[y].pid)
		return t[x].pid < t[y].pid ? -1 : 1;
	return (x > y) - (x < y);
}

/* The first of the sorted thread indices with PID *pid*, or nr when none. */
static size_t first_thread(const struct row *threads, const size_t *idx, size_t nr, int pid)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (threads[idx[mid]].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nr && threads[idx[lo]].pid == pid ? lo : nr;
}

int tui_process_tree(const struct row *procs, size_t nr_procs, struct row *threads,
		     size_t nr_threads, struct row **out, size_t *nr_out)
{
	size_t *idx = malloc((nr_threads + 1) * sizeof(*idx));
	bool *taken = calloc(nr_threads + 1, sizeof(*taken));
	struct row *rows = malloc((nr_procs + nr_threads + 1) * sizeof(*rows));
	size_t n = 0;

	if (!idx || !taken || !rows) {
		free(idx);
		free(taken);
		free(rows);
		return -1;
	}
	for (size_t i = 0; i < nr_threads; i++)
		idx[i] = i;
	qsort_r(idx, nr_threads, sizeof(*idx), thread_cmp, threads);
	for (size_t p = 0; p < nr_procs; p++) {
		size_t i = first_thread(threads, idx, nr_threads, procs[p].pid), end = i;

		rows[n++] = procs[p];
		while (end < nr_threads && threads[idx[end]].pid == procs[p].pid)
			end++;
		/* one thread is the process itself; a reused PID's second row gets none */
		if (end - i < 2 || taken[i])
			continue;
		for (; i < end; i++) {
			taken[i] = true;
			rows[n++] = threads[idx[i]];
			threads[idx[i]].cgroup = NULL;
		}
	}
	free(idx);
	free(taken);
	*out = rows;
	*nr_out = n;
	return 0;
}
