// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Keeping per-task state in userspace lets the BPF side only ever add: it
 * never has to reset an entry, so nothing charged between two reads is
 * lost to a race with the reader.
 */
#include <errno.h>
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

static void counters_diff(struct delta *d, const struct counter *cur, const struct counter *prev)
{
	for (int i = 0; i < MAX_EVENTS; i++) {
		d[i].count = sub(cur[i].count, prev ? prev[i].count : 0);
		d[i].enabled = sub(cur[i].enabled, prev ? prev[i].enabled : 0);
		d[i].running = sub(cur[i].running, prev ? prev[i].running : 0);
	}
}

static void bucket_diff(struct bucket_delta *d, const struct bucket_val *cur,
			const struct bucket_val *prev)
{
	d->cpu_ns = sub(cur->cpu_ns, prev->cpu_ns);
	counters_diff(d->ev, cur->ev, prev->ev);
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

static int emit(struct sample *out, const struct task_key *k, const struct task_val *cur,
		const struct task_val *prev)
{
	struct task_delta d = {
		.tid = k->tid,
		.pid = cur->pid,
		.start_ns = k->start_ns,
		.leader_start_ns = cur->leader_start_ns,
		.cgroup_id = k->cgroup_id,
		.exited = cur->exited,
		.cpu_ns = sub(cur->cpu_ns, prev ? prev->cpu_ns : 0),
	};
	struct task_delta *slot;

	memcpy(d.comm, cur->comm, TASK_COMM_LEN);
	d.comm[TASK_COMM_LEN - 1] = '\0';
	memcpy(d.pcomm, cur->pcomm, TASK_COMM_LEN);
	d.pcomm[TASK_COMM_LEN - 1] = '\0';
	counters_diff(d.ev, cur->ev, prev ? prev->ev : NULL);
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
static void keep(struct task_key *keys, struct task_val *vals, size_t *n,
		 const struct task_key *k, const struct task_val *v)
{
	keys[*n] = *k;
	vals[*n] = *v;
	(*n)++;
}

static int prefix_cmp(const struct task_key *a, const struct task_key *b)
{
	struct task_key x = *a, y = *b;

	x.cgroup_id = y.cgroup_id = 0;
	return key_cmp(&x, &y);
}

/*
 * The kernel marks only the entry of the cgroup a task died in; entries
 * of cgroups it left earlier are final too. Both lists are sorted.
 */
static int drop_left_cgroups(struct tracker *t, struct task_key *keys, struct task_val *vals,
			     size_t *n)
{
	size_t nr_gone = t->nr_gone, g = 0, kept = 0;

	for (size_t i = 0; i < *n; i++) {
		while (g < nr_gone && prefix_cmp(&t->gone[g], &keys[i]) < 0)
			g++;
		if (g < nr_gone && same_task(&t->gone[g], &keys[i])) {
			if (add_gone(t, &keys[i]))
				return -ENOMEM;
			continue;
		}
		keys[kept] = keys[i];
		vals[kept] = vals[i];
		kept++;
	}
	*n = kept;
	return 0;
}

int tracker__update(struct tracker *t, const struct snapshot *cur, int ncpus, struct sample *out)
{
	size_t cap = cur->nr + t->nr, n = 0, i = 0, j = 0;
	struct task_key *keys = NULL;
	struct task_val *vals = NULL;
	size_t *idx = NULL;
	bool report = t->primed;
	int ret = -ENOMEM;

	out->nr = 0;
	t->nr_gone = 0;
	idx = malloc((cur->nr ? cur->nr : 1) * sizeof(*idx));
	keys = malloc((cap ? cap : 1) * sizeof(*keys));
	vals = malloc((cap ? cap : 1) * sizeof(*vals));
	if (!idx || !keys || !vals)
		goto out;
	for (size_t k = 0; k < cur->nr; k++)
		idx[k] = k;
	qsort_r(idx, cur->nr, sizeof(*idx), index_cmp, cur->keys);

	while (i < cur->nr || j < t->nr) {
		const struct task_key *ck = i < cur->nr ? &cur->keys[idx[i]] : NULL;
		const struct task_val *cv = ck ? &cur->vals[idx[i]] : NULL;
		int c = !ck ? 1 : j >= t->nr ? -1 : key_cmp(ck, &t->keys[j]);

		if (c > 0) {
			/* missed by this read (the map changed under it): carry */
			keep(keys, vals, &n, &t->keys[j], &t->vals[j]);
			j++;
			continue;
		}
		if (report && emit(out, ck, cv, c == 0 ? &t->vals[j] : NULL))
			goto out;
		if (cv->exited) {
			if (add_gone(t, ck))
				goto out;
		} else {
			keep(keys, vals, &n, ck, cv);
		}
		i++;
		if (c == 0)
			j++;
	}

	if (drop_left_cgroups(t, keys, vals, &n))
		goto out;

	if (report) {
		out->ts = cur->real_s;
		out->interval_s = cur->mono_s - t->prev_mono_s;
		out->ncpus = ncpus;
		bucket_diff(&out->idle, &cur->buckets[BUCKET_IDLE], &t->prev_buckets[BUCKET_IDLE]);
		bucket_diff(&out->lost, &cur->buckets[BUCKET_LOST], &t->prev_buckets[BUCKET_LOST]);
		bucket_diff(&out->total, &cur->buckets[BUCKET_TOTAL],
			    &t->prev_buckets[BUCKET_TOTAL]);
		out->switches = sub(cur->stats.switches, t->prev_stats.switches);
		out->dropped = sub(cur->stats.dropped, t->prev_stats.dropped);
		out->read_errors = sub(cur->stats.read_errors, t->prev_stats.read_errors);
	}
	memcpy(t->prev_buckets, cur->buckets, sizeof(t->prev_buckets));
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
	return ret;
}

void tracker__free(struct tracker *t)
{
	free(t->keys);
	free(t->vals);
	free(t->gone);
	memset(t, 0, sizeof(*t));
}
