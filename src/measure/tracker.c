// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Keeping per-task state in userspace lets the BPF side only ever add: it
 * never has to reset an entry, so nothing charged between two reads is
 * lost to a race with the reader.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "measure/tracker.h"
#include "util/grow.h"

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

#define DEAD SIZE_MAX	/* the slot of a task dropped from the list */

#define MIN_CAP 64

/*
 * Grow two arrays (their pointers at pa, pb) sharing *cap to hold need:
 * both get the same size, and *cap moves once both have it.
 */
static int grow2(void *pa, size_t asize, void *pb, size_t bsize, size_t *cap, size_t need)
{
	size_t acap = *cap;

	if (grow(pa, &acap, need, asize, MIN_CAP))
		return -ENOMEM;
	return grow(pb, cap, need, bsize, MIN_CAP);
}

static int add_key(struct task_key **list, size_t *nr, size_t *cap, const struct task_key *k)
{
	if (GROW(*list, *cap, *nr + 1, MIN_CAP))
		return -ENOMEM;
	(*list)[(*nr)++] = *k;
	return 0;
}

static int add_gone(struct tracker *t, const struct task_key *k, __u64 exit_ns)
{
	if (grow2(&t->gone, sizeof(*t->gone), &t->gone_exit, sizeof(*t->gone_exit),
		     &t->gone_cap, t->nr_gone + 1))
		return -ENOMEM;
	t->gone_exit[t->nr_gone] = exit_ns;
	t->gone[t->nr_gone++] = *k;
	return 0;
}

/* A slot for a new task's values, a freed one first; SIZE_MAX when out
 * of memory. */
static size_t new_slot(struct tracker *t)
{
	if (t->nr_free)
		return t->free_slots[--t->nr_free];
	if (grow2(&t->vals, sizeof(*t->vals), &t->free_slots, sizeof(*t->free_slots),
		     &t->vals_cap, t->vals_used + 1))
		return SIZE_MAX;
	return t->vals_used++;
}

/* Position of k in the list, or -(insertion point) - 1. */
static ptrdiff_t find(const struct tracker *t, const struct task_key *k)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = key_cmp(&t->tasks[mid].key, k);

		if (!c)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -(ptrdiff_t)lo - 1;
}

static void drop(struct tracker *t, size_t i)
{
	t->free_slots[t->nr_free++] = t->tasks[i].slot;
	t->tasks[i].slot = DEAD;
	t->nr_dead++;
}

/* What to remember of a task: all but the accumulators as read now, the
 * frozen half as read now, the other half as it was last frozen. kept may
 * be prev (a task seen before) or fresh (prev NULL). */
static void remember(struct task_val *kept, const struct task_val *cur, const struct task_val *prev,
		     int half)
{
	bool ended_here = prev && prev->exited && !cur->exited;
	__u64 exit_ns = prev ? prev->exit_ns : 0;

	memcpy(kept, cur, offsetof(struct task_val, half));
	kept->half[half] = cur->half[half];
	if (!prev)
		memset(&kept->half[!half], 0, sizeof(kept->half[!half]));
	if (ended_here) {
		kept->exited = 1;
		kept->exit_ns = exit_ns;
	}
}

/* One task of the snapshot against what is remembered of it. */
static int take(struct tracker *t, const struct task_key *k, const struct task_val *cur, int half,
		__u64 flip_ns, bool report, struct sample *out, size_t *nr_added)
{
	ptrdiff_t pos = find(t, k);
	struct task_val *prev = pos >= 0 ? tracker__val(t, pos) : NULL;
	bool final = is_final(cur, prev, flip_ns);
	size_t slot;

	if (report && emit(out, k, cur, prev, half, final))
		return -ENOMEM;
	if (final) {
		if (add_gone(t, k, cur->exited ? cur->exit_ns : prev->exit_ns))
			return -ENOMEM;
		if (prev)
			drop(t, pos);
		return 0;
	}
	/* ended after the flip: final at a later update, read again or not
	 * (its last charge may be in the half read now) */
	if (cur->exited && !(prev && prev->exited) &&
	    add_key(&t->ended, &t->nr_ended, &t->ended_cap, k))
		return -ENOMEM;
	if (prev) {
		remember(prev, cur, prev, half);
		return 0;
	}
	slot = new_slot(t);
	if (slot == SIZE_MAX)
		return -ENOMEM;
	remember(&t->vals[slot], cur, NULL, half);
	t->added[(*nr_added)++] = (struct tracked){ *k, slot };
	return 0;
}

/*
 * Tasks marked ended before this update (here, or by the kernel after a
 * flip) whose end is now before the flip: reported a last time with what
 * was last read of them, since the snapshot holds only tasks with news in
 * the frozen half (their other half was read at the previous update and
 * nothing charged either since they ended).
 */
static int finish_ended(struct tracker *t, size_t nr_before, int half, __u64 flip_ns, bool report,
			struct sample *out)
{
	size_t kept = 0;

	for (size_t e = 0; e < nr_before; e++) {
		ptrdiff_t pos = find(t, &t->ended[e]);
		struct task_val *v;

		if (pos < 0 || t->tasks[pos].slot == DEAD)
			continue;	/* already final: read in this snapshot */
		v = tracker__val(t, pos);
		if (!is_final(v, NULL, flip_ns)) {
			t->ended[kept++] = t->ended[e];
			continue;
		}
		if ((report && emit(out, &t->tasks[pos].key, v, v, half, true)) ||
		    add_gone(t, &t->tasks[pos].key, v->exit_ns))
			return -ENOMEM;
		drop(t, pos);
	}
	/* those this update added stay for the next */
	if (t->nr_ended > nr_before)
		memmove(&t->ended[kept], &t->ended[nr_before],
			(t->nr_ended - nr_before) * sizeof(*t->ended));
	t->nr_ended = kept + t->nr_ended - nr_before;
	return 0;
}

/* The list without dropped tasks, with the added ones (both sorted); as
 * it was when neither changed, most intervals. */
static void merge(struct tracker *t, size_t nr_added)
{
	struct tracked *out = t->spare;
	size_t n = 0, a = 0;

	if (!t->nr_dead && !nr_added)
		return;
	t->nr_dead = 0;
	for (size_t i = 0; i < t->nr || a < nr_added;) {
		if (i < t->nr && t->tasks[i].slot == DEAD) {
			i++;
			continue;
		}
		if (a < nr_added && (i == t->nr || key_cmp(&t->added[a].key, &t->tasks[i].key) < 0))
			out[n++] = t->added[a++];
		else
			out[n++] = t->tasks[i++];
	}
	t->spare = t->tasks;
	t->tasks = out;
	t->nr = n;
}

int tracker__end(struct tracker *t, size_t i, __u64 now_ns)
{
	struct task_val *v = tracker__val(t, i);

	v->exited = 1;
	v->exit_ns = now_ns;
	return add_key(&t->ended, &t->nr_ended, &t->ended_cap, &t->tasks[i].key);
}

static int prefix_cmp(const struct task_key *a, const struct task_key *b)
{
	struct task_key x = *a, y = *b;

	x.cgroup_id = y.cgroup_id = 0;
	return key_cmp(&x, &y);
}

/*
 * The kernel marks only the entry of the cgroup a task died in; entries of
 * cgroups it left earlier are marked here, to be finalised at the next
 * update.
 */
static int mark_left_cgroups(struct tracker *t)
{
	for (size_t g = 0; g < t->nr_gone; g++) {
		struct task_key first = t->gone[g];
		ptrdiff_t pos;

		first.cgroup_id = 0;
		pos = find(t, &first);
		for (size_t i = pos >= 0 ? pos : -pos - 1;
		     i < t->nr && !prefix_cmp(&t->tasks[i].key, &t->gone[g]); i++) {
			if (!tracker__val(t, i)->exited && tracker__end(t, i, t->gone_exit[g]))
				return -ENOMEM;
		}
	}
	return 0;
}

static void report_buckets(struct tracker *t, const struct snapshot *cur, int ncpus, int h,
			   struct sample *out)
{
	out->ts = cur->real_s;
	out->interval_s = cur->interval_s > 0 ? cur->interval_s : cur->mono_s - t->prev_mono_s;
	out->ncpus = ncpus;
	bucket_diff(&out->idle, &cur->buckets[BUCKET_IDLE], &t->prev_buckets[h][BUCKET_IDLE]);
	bucket_diff(&out->lost, &cur->buckets[BUCKET_LOST], &t->prev_buckets[h][BUCKET_LOST]);
	bucket_diff(&out->total, &cur->buckets[BUCKET_TOTAL], &t->prev_buckets[h][BUCKET_TOTAL]);
	out->switches = sub(cur->stats.switches, t->prev_stats.switches);
	out->dropped = sub(cur->stats.dropped, t->prev_stats.dropped);
	out->read_errors = sub(cur->stats.read_errors, t->prev_stats.read_errors);
}

int tracker__update(struct tracker *t, const struct snapshot *cur, int ncpus, struct sample *out)
{
	int h = cur->half & 1;
	bool report = t->primed;
	size_t nr_added = 0, nr_ended = t->nr_ended;

	out->nr = 0;
	t->nr_gone = 0;
	if (grow2(&t->tasks, sizeof(*t->tasks), &t->spare, sizeof(*t->spare), &t->cap,
		     t->nr + cur->nr) ||
	    grow2(&t->order, sizeof(*t->order), &t->added, sizeof(*t->added), &t->scratch_cap,
		     cur->nr))
		return -ENOMEM;
	for (size_t k = 0; k < cur->nr; k++)
		t->order[k] = k;
	if (cur->nr)
		qsort_r(t->order, cur->nr, sizeof(*t->order), index_cmp, cur->keys);

	for (size_t k = 0; k < cur->nr; k++) {
		size_t i = t->order[k];

		/* a task listed on two CPUs is read twice */
		if (k && !key_cmp(&cur->keys[i], &cur->keys[t->order[k - 1]]))
			continue;
		if (take(t, &cur->keys[i], &cur->vals[i], h, cur->flip_ns, report, out, &nr_added))
			return -ENOMEM;
	}
	if (finish_ended(t, nr_ended, h, cur->flip_ns, report, out))
		return -ENOMEM;
	merge(t, nr_added);
	if (mark_left_cgroups(t))
		return -ENOMEM;

	if (report)
		report_buckets(t, cur, ncpus, h, out);
	memcpy(t->prev_buckets[h], cur->buckets, sizeof(t->prev_buckets[h]));
	t->prev_stats = cur->stats;
	t->prev_mono_s = cur->mono_s;
	t->primed = true;
	return report ? 0 : 1;
}

void tracker__free(struct tracker *t)
{
	free(t->tasks);
	free(t->spare);
	free(t->vals);
	free(t->free_slots);
	free(t->gone);
	free(t->gone_exit);
	free(t->ended);
	free(t->order);
	free(t->added);
	memset(t, 0, sizeof(*t));
}
