// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Keeping per-task state in userspace lets the BPF side only ever add: it
 * never has to reset an entry, so nothing charged between two reads is
 * lost to a race with the reader.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "tracker.h"

static int key_cmp(const struct task_key *a, const struct task_key *b)
{
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	if (a->cgroup_id != b->cgroup_id)
		return a->cgroup_id < b->cgroup_id ? -1 : 1;
	return 0;
}

static bool same_task(const struct task_key *a, const struct task_key *b)
{
	return a->tid == b->tid && a->start_ns == b->start_ns;
}

static int index_cmp(const void *a, const void *b, void *keys)
{
	const struct task_key *k = keys;

	return key_cmp(&k[*(const size_t *)a], &k[*(const size_t *)b]);
}

/* Counters only grow; a smaller value means the entry was recreated. */
static __u64 sub(__u64 cur, __u64 prev)
{
	return cur >= prev ? cur - prev : cur;
}

static void acc_diff(struct delta *d, __u64 *cpu_ns, const struct acc *cur,
		     const struct acc *prev)
{
	*cpu_ns += sub(cur->cpu_ns, prev->cpu_ns);
	for (int i = 0; i < MAX_EVENTS; i++) {
		d[i].count += sub(cur->ev[i].count, prev->ev[i].count);
		d[i].enabled += sub(cur->ev[i].enabled, prev->ev[i].enabled);
		d[i].running += sub(cur->ev[i].running, prev->ev[i].running);
	}
}

static void bucket_diff(struct bucket_delta *d, const struct acc *cur, const struct acc *prev)
{
	memset(d, 0, sizeof(*d));
	acc_diff(d->ev, &d->cpu_ns, cur, prev);
}

static bool changed(const struct task_delta *d)
{
	if (d->cpu_ns || d->exited)
		return true;
	for (int i = 0; i < MAX_EVENTS; i++)
		if (d->ev[i].count || d->ev[i].enabled)
			return true;
	return false;
}

/* A task is final once it was freed before the flip: nothing charges it. */
static bool is_final(const struct task_val *cur, const struct task_val *prev, __u64 flip_ns)
{
	if (cur->exited)
		return cur->exit_ns < flip_ns;
	return prev && prev->exited && prev->exit_ns < flip_ns;
}

static int emit(struct sample *out, const struct task_key *k, const struct task_val *cur,
		const struct task_val *prev, int half, bool final)
{
	static const struct task_val zero;
	struct task_delta d = {
		.tid = k->tid,
		.pid = cur->pid,
		.start_ns = k->start_ns,
		.leader_start_ns = cur->leader_start_ns,
		.cgroup_id = k->cgroup_id,
		.exited = final,
	};
	struct task_delta *slot;

	if (!prev)
		prev = &zero;
	/* most remembered tasks did not run: nothing to add up (every charge
	 * counts a slice, so an unchanged slice count is an unchanged half) */
	if (!final && cur->half[half].slices == prev->half[half].slices)
		return 0;
	memcpy(d.comm, cur->comm, TASK_COMM_LEN);
	d.comm[TASK_COMM_LEN - 1] = '\0';
	memcpy(d.pcomm, cur->pcomm, TASK_COMM_LEN);
	d.pcomm[TASK_COMM_LEN - 1] = '\0';
	acc_diff(d.ev, &d.cpu_ns, &cur->half[half], &prev->half[half]);
	/* the other half of a dead task is settled too */
	if (final)
		acc_diff(d.ev, &d.cpu_ns, &cur->half[!half], &prev->half[!half]);
	if (!changed(&d))
		return 0;
	slot = sample__add(out);
	if (!slot)
		return -ENOMEM;
	*slot = d;
	return 0;
}

static int add_gone(struct tracker *t, const struct task_key *k)
{
	if (t->nr_gone == t->gone_cap) {
		size_t cap = t->gone_cap ? t->gone_cap * 2 : 64;
		struct task_key *g = realloc(t->gone, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		t->gone = g;
		t->gone_cap = cap;
	}
	t->gone[t->nr_gone++] = *k;
	return 0;
}

/* Append to the next generation of remembered values. */
static struct task_val *keep(struct task_key *keys, struct task_val *vals, size_t *n,
			     const struct task_key *k, const struct task_val *v)
{
	keys[*n] = *k;
	vals[*n] = *v;
	return &vals[(*n)++];
}

/* What to remember of a live task: all but the accumulators as read now,
 * the frozen half as read now, the other half as it was last frozen. */
static struct task_val *remember(struct task_key *keys, struct task_val *vals, size_t *n,
				 const struct task_key *k, const struct task_val *cur,
				 const struct task_val *prev, int half)
{
	struct task_val *kept = &vals[*n];

	keys[(*n)++] = *k;
	memcpy(kept, cur, offsetof(struct task_val, half));
	kept->half[half] = cur->half[half];
	if (prev)
		kept->half[!half] = prev->half[!half];
	else
		memset(&kept->half[!half], 0, sizeof(kept->half[!half]));
	return kept;
}

static int prefix_cmp(const struct task_key *a, const struct task_key *b)
{
	struct task_key x = *a, y = *b;

	x.cgroup_id = y.cgroup_id = 0;
	return key_cmp(&x, &y);
}

/*
 * The kernel marks only the entry of the cgroup a task died in; entries of
 * cgroups it left earlier are marked here, to be finalised (with both
 * halves settled) at the next update. Both lists are sorted.
 */
static void mark_left_cgroups(const struct task_key *gone, const __u64 *gone_exit, size_t nr_gone,
			      const struct task_key *keys, struct task_val *vals, size_t n)
{
	size_t g = 0;

	for (size_t i = 0; i < n && nr_gone; i++) {
		while (g < nr_gone && prefix_cmp(&gone[g], &keys[i]) < 0)
			g++;
		if (g < nr_gone && same_task(&gone[g], &keys[i]) && !vals[i].exited) {
			vals[i].exited = 1;
			vals[i].exit_ns = gone_exit[g];
		}
	}
}

int tracker__update(struct tracker *t, const struct snapshot *cur, int ncpus, struct sample *out)
{
	size_t cap = cur->nr + t->nr, n = 0, i = 0, j = 0;
	int h = cur->half & 1;
	struct task_key *keys = NULL;
	struct task_val *vals = NULL;
	__u64 *gone_exit = NULL;
	size_t *idx = NULL;
	bool report = t->primed;
	int ret = -ENOMEM;

	out->nr = 0;
	t->nr_gone = 0;
	idx = malloc((cur->nr ? cur->nr : 1) * sizeof(*idx));
	keys = malloc((cap ? cap : 1) * sizeof(*keys));
	vals = malloc((cap ? cap : 1) * sizeof(*vals));
	gone_exit = malloc((cap ? cap : 1) * sizeof(*gone_exit));
	if (!idx || !keys || !vals || !gone_exit)
		goto out;
	for (size_t k = 0; k < cur->nr; k++)
		idx[k] = k;
	qsort_r(idx, cur->nr, sizeof(*idx), index_cmp, cur->keys);

	while (i < cur->nr || j < t->nr) {
		const struct task_key *ck = i < cur->nr ? &cur->keys[idx[i]] : NULL;
		const struct task_val *cv = ck ? &cur->vals[idx[i]] : NULL;
		int c = !ck ? 1 : j >= t->nr ? -1 : key_cmp(ck, &t->keys[j]);
		const struct task_val *pv = c == 0 ? &t->vals[j] : NULL;
		bool final;

		if (c > 0) {
			/* missed by this read (the map changed under it): carry */
			keep(keys, vals, &n, &t->keys[j], &t->vals[j]);
			j++;
			continue;
		}
		final = is_final(cv, pv, cur->flip_ns);
		if (report && emit(out, ck, cv, pv, h, final))
			goto out;
		if (final) {
			gone_exit[t->nr_gone] = cv->exited ? cv->exit_ns : pv->exit_ns;
			if (add_gone(t, ck))
				goto out;
		} else {
			struct task_val *kept = remember(keys, vals, &n, ck, cv, pv, h);

			if (pv && pv->exited && !cv->exited) {
				kept->exited = 1;
				kept->exit_ns = pv->exit_ns;
			}
		}
		i++;
		if (c == 0)
			j++;
	}
	mark_left_cgroups(t->gone, gone_exit, t->nr_gone, keys, vals, n);

	if (report) {
		out->ts = cur->real_s;
		out->interval_s = cur->mono_s - t->prev_mono_s;
		out->ncpus = ncpus;
		bucket_diff(&out->idle, &cur->buckets[BUCKET_IDLE], &t->prev_buckets[h][BUCKET_IDLE]);
		bucket_diff(&out->lost, &cur->buckets[BUCKET_LOST], &t->prev_buckets[h][BUCKET_LOST]);
		bucket_diff(&out->total, &cur->buckets[BUCKET_TOTAL],
			    &t->prev_buckets[h][BUCKET_TOTAL]);
		out->switches = sub(cur->stats.switches, t->prev_stats.switches);
		out->dropped = sub(cur->stats.dropped, t->prev_stats.dropped);
		out->read_errors = sub(cur->stats.read_errors, t->prev_stats.read_errors);
	}
	memcpy(t->prev_buckets[h], cur->buckets, sizeof(t->prev_buckets[h]));
	t->prev_stats = cur->stats;
	t->prev_mono_s = cur->mono_s;
	free(t->keys);
	free(t->vals);
	t->keys = keys;
	t->vals = vals;
	t->nr = n;
	t->cap = cap;
	keys = NULL;
	vals = NULL;
	ret = report ? 0 : 1;
	t->primed = true;
out:
	free(idx);
	free(keys);
	free(vals);
	free(gone_exit);
	return ret;
}

void tracker__free(struct tracker *t)
{
	free(t->keys);
	free(t->vals);
	free(t->gone);
	memset(t, 0, sizeof(*t));
}
