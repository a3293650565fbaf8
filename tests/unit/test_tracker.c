// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Cumulative snapshots to per-interval deltas: new, changed, exited and
 * missed tasks, tid reuse, cgroup moves, and the two accumulator halves
 * the loader alternates between (each snapshot freezes one of them).
 */
#include <stdlib.h>
#include "test.h"
#include "measure/tracker.h"

#define SEC_NS 1000000000ULL

/* The next snapshot: it freezes the half the previous one did not (the
 * fixtures start at half 1, so the first snapshot freezes half 0). */
static void next(struct snapshot *s, double at_s)
{
	s->nr = 0;
	s->half = !s->half;
	s->mono_s = at_s;
	s->flip_ns = (__u64)(at_s * SEC_NS);
}

/* A task whose halves hold cumulative cpu_ns h0/h1 and event 0 counts
 * c0/c1 (enabled = running = cpu_ns). As in the kernel, anything charged
 * comes with a slice: the slice counts grow with cpu_ns and the count. */
static struct task_val *put(struct snapshot *s, __u32 tid, __u64 start, __u32 pid, __u64 h0,
			    __u64 h1, __u64 c0, __u64 c1)
{
	size_t i = s->nr++;
	struct task_val *v;

	snapshot__reserve(s, s->nr);
	memset(&s->keys[i], 0, sizeof(s->keys[i]));
	v = memset(&s->vals[i], 0, sizeof(s->vals[i]));
	s->keys[i].tid = tid;
	s->keys[i].start_ns = start;
	v->pid = pid;
	v->half[0].cpu_ns = h0;
	v->half[1].cpu_ns = h1;
	v->half[0].slices = h0 + c0;
	v->half[1].slices = h1 + c1;
	v->half[0].ev[0] = (struct counter){ c0, h0, h0 };
	v->half[1].ev[0] = (struct counter){ c1, h1, h1 };
	snprintf(v->comm, TASK_COMM_LEN, "t%u", tid);
	return v;
}

static const struct task_delta *find(const struct sample *s, __u32 tid, __u64 start)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->tasks[i].tid == tid && s->tasks[i].start_ns == start)
			return &s->tasks[i];
	return NULL;
}

struct fix {
	struct tracker t;
	struct snapshot s;
	struct sample out;
};

static void fix_free(struct fix *f)
{
	tracker__free(&f->t);
	snapshot__free(&f->s);
	sample__free(&f->out);
}

TEST(tracker_first_update_is_baseline)
{
	struct fix f = { .s.half = 1 };

	next(&f.s, 10);
	put(&f.s, 5, 1, 5, 100, 0, 7, 0);
	CHECK_INT(tracker__update(&f.t, &f.s, 2, &f.out), 1);
	CHECK_INT(f.out.nr, 0);
	fix_free(&f);
}

TEST(tracker_deltas_of_the_frozen_half)
{
	struct fix f = { .s.half = 1 };
	const struct task_delta *d;

	next(&f.s, 10);		/* freezes half 0 */
	put(&f.s, 5, 1, 5, 100, 0, 7, 0);
	put(&f.s, 6, 1, 5, 50, 0, 3, 0);
	f.s.buckets[BUCKET_TOTAL].cpu_ns = 1000;
	tracker__update(&f.t, &f.s, 2, &f.out);

	next(&f.s, 11.5);	/* freezes half 1 */
	f.s.real_s = 1700000000.25;
	put(&f.s, 6, 1, 5, 50, 0, 3, 0);		/* nothing new: no row */
	put(&f.s, 5, 1, 5, 100, 60, 7, 3);		/* 60 ns in half 1 */
	put(&f.s, 9, 4, 9, 999, 30, 0, 2);	/* new; its half 0 is still live */
	f.s.buckets[BUCKET_TOTAL].cpu_ns = 2000;	/* half 1's own total */
	f.s.stats.switches = 40;
	CHECK_INT(tracker__update(&f.t, &f.s, 2, &f.out), 0);
	CHECK_INT(f.out.nr, 2);
	CHECK_NEAR(f.out.interval_s, 1.5, 1e-9);
	CHECK_NEAR(f.out.ts, 1700000000.25, 1e-6);
	CHECK_INT(f.out.ncpus, 2);
	CHECK_U64(f.out.total.cpu_ns, 2000);
	CHECK_U64(f.out.switches, 40);
	d = find(&f.out, 5, 1);
	CHECK(d && d->cpu_ns == 60 && d->ev[0].count == 3);
	CHECK(d && !strcmp(d->comm, "t5"));
	d = find(&f.out, 9, 4);
	CHECK(d && d->cpu_ns == 30 && d->ev[0].count == 2);
	CHECK(find(&f.out, 6, 1) == NULL);

	next(&f.s, 12);		/* half 0 again: deltas against its last freeze */
	put(&f.s, 5, 1, 5, 140, 60, 9, 3);
	put(&f.s, 9, 4, 9, 1009, 30, 1, 2);	/* half 0 was never frozen for it */
	f.s.buckets[BUCKET_TOTAL].cpu_ns = 1500;
	tracker__update(&f.t, &f.s, 2, &f.out);
	CHECK_U64(f.out.total.cpu_ns, 500);
	d = find(&f.out, 5, 1);
	CHECK(d && d->cpu_ns == 40 && d->ev[0].count == 2);
	d = find(&f.out, 9, 4);
	CHECK(d && d->cpu_ns == 1009);
	fix_free(&f);
}

TEST(tracker_exit_before_the_flip_is_final)
{
	struct fix f = { .s.half = 1 };
	const struct task_delta *d;
	struct task_val *v;

	next(&f.s, 10);
	put(&f.s, 7, 2, 7, 10, 0, 1, 0);
	tracker__update(&f.t, &f.s, 1, &f.out);
	next(&f.s, 11);
	v = put(&f.s, 7, 2, 7, 10, 15, 1, 4);
	v->exited = 1;
	v->exit_ns = 10 * SEC_NS + 5;	/* freed before this flip */
	tracker__update(&f.t, &f.s, 1, &f.out);
	d = find(&f.out, 7, 2);
	CHECK(d && d->exited && d->cpu_ns == 15 && d->ev[0].count == 4);
	CHECK_INT(f.t.nr_gone, 1);
	CHECK_INT(f.t.gone[0].tid, 7);
	CHECK_INT(f.t.nr, 0);

	next(&f.s, 12);		/* the loader freed the entry */
	tracker__update(&f.t, &f.s, 1, &f.out);
	CHECK_INT(f.out.nr, 0);
	CHECK_INT(f.t.nr_gone, 0);
	fix_free(&f);
}

TEST(tracker_exit_after_the_flip_waits_for_the_next)
{
	struct fix f = { .s.half = 1 };
	const struct task_delta *d;
	struct task_val *v;

	next(&f.s, 10);
	put(&f.s, 7, 2, 7, 10, 0, 0, 0);
	tracker__update(&f.t, &f.s, 1, &f.out);
	/* freed between the flip and the read: its last slice went to the
	 * live half, which belongs to the next interval */
	next(&f.s, 11);
	v = put(&f.s, 7, 2, 7, 12, 20, 0, 0);
	v->exited = 1;
	v->exit_ns = 11 * SEC_NS + 100;
	tracker__update(&f.t, &f.s, 1, &f.out);
	d = find(&f.out, 7, 2);
	CHECK(d && !d->exited && d->cpu_ns == 20);
	CHECK_INT(f.t.nr_gone, 0);
	next(&f.s, 12);
	v = put(&f.s, 7, 2, 7, 12, 20, 0, 0);
	v->exited = 1;
	v->exit_ns = 11 * SEC_NS + 100;
	tracker__update(&f.t, &f.s, 1, &f.out);
	d = find(&f.out, 7, 2);
	CHECK(d && d->exited && d->cpu_ns == 2);
	CHECK_INT(f.t.nr_gone, 1);
	fix_free(&f);
}

TEST(tracker_tid_reuse_is_a_new_task)
{
	struct fix f = { .s.half = 1 };
	const struct task_delta *d;
	struct task_val *v;

	next(&f.s, 10);
	put(&f.s, 7, 2, 7, 1000, 0, 100, 0);
	tracker__update(&f.t, &f.s, 1, &f.out);
	next(&f.s, 11);
	v = put(&f.s, 7, 2, 7, 1000, 0, 100, 0);	/* the old one exits */
	v->exited = 1;
	v->exit_ns = 10 * SEC_NS + 1;
	put(&f.s, 7, 99, 7, 0, 40, 0, 5);		/* same tid, new start */
	tracker__update(&f.t, &f.s, 1, &f.out);
	CHECK_INT(f.out.nr, 2);
	d = find(&f.out, 7, 99);
	CHECK(d && d->cpu_ns == 40 && d->ev[0].count == 5 && !d->exited);
	d = find(&f.out, 7, 2);
	CHECK(d && d->exited && d->cpu_ns == 0);
	fix_free(&f);
}

TEST(tracker_task_missing_from_one_read_is_carried)
{
	struct fix f = { .s.half = 1 };
	const struct task_delta *d;

	next(&f.s, 10);
	put(&f.s, 3, 1, 3, 100, 0, 10, 0);
	tracker__update(&f.t, &f.s, 1, &f.out);
	next(&f.s, 11);		/* the batch read missed it */
	tracker__update(&f.t, &f.s, 1, &f.out);
	CHECK_INT(f.out.nr, 0);
	CHECK_INT(f.t.nr, 1);
	next(&f.s, 12);
	put(&f.s, 3, 1, 3, 130, 7, 12, 1);
	tracker__update(&f.t, &f.s, 1, &f.out);
	d = find(&f.out, 3, 1);
	CHECK(d && d->cpu_ns == 30 && d->ev[0].count == 2);
	fix_free(&f);
}

TEST(tracker_many_tasks_unsorted_input)
{
	struct fix f = { .s.half = 1 };
	__u64 sum = 0;

	next(&f.s, 10);
	for (__u32 i = 0; i < 5000; i++)
		put(&f.s, (i * 7919) % 5000 + 1, i, 1, i, 0, 0, 0);
	tracker__update(&f.t, &f.s, 1, &f.out);
	next(&f.s, 11);
	for (__u32 i = 0; i < 5000; i++)
		put(&f.s, (i * 7919) % 5000 + 1, i, 1, i, 2, 0, 0);
	tracker__update(&f.t, &f.s, 1, &f.out);
	CHECK_INT(f.out.nr, 5000);
	for (size_t i = 0; i < f.out.nr; i++)
		sum += f.out.tasks[i].cpu_ns;
	CHECK_U64(sum, 10000);
	fix_free(&f);
}

TEST(tracker_task_that_moved_cgroups_ends_everywhere)
{
	struct fix f = { .s.half = 1 };
	struct task_val *v;
	__u64 cpu = 0;

	next(&f.s, 10);
	put(&f.s, 8, 3, 8, 100, 0, 1, 0);
	f.s.keys[0].cgroup_id = 11;
	tracker__update(&f.t, &f.s, 1, &f.out);
	next(&f.s, 11);
	put(&f.s, 8, 3, 8, 100, 5, 1, 0);	/* left cgroup 11 after 5 ns */
	f.s.keys[0].cgroup_id = 11;
	v = put(&f.s, 8, 3, 8, 0, 70, 0, 2);	/* died in cgroup 22 */
	f.s.keys[1].cgroup_id = 22;
	v->exited = 1;
	v->exit_ns = 10 * SEC_NS + 7;
	put(&f.s, 9, 1, 9, 0, 5, 0, 1);		/* unrelated */
	f.s.keys[2].cgroup_id = 11;
	tracker__update(&f.t, &f.s, 1, &f.out);
	for (size_t i = 0; i < f.out.nr; i++)
		if (f.out.tasks[i].tid == 8)
			cpu += f.out.tasks[i].cpu_ns;
	CHECK_U64(cpu, 75);
	CHECK_INT(f.t.nr_gone, 1);	/* cgroup 22's entry */
	CHECK_INT(f.t.nr, 2);		/* 8 in cgroup 11 (marked dead), and 9 */

	/* next update: the entry left behind in cgroup 11 is final too */
	next(&f.s, 12);
	put(&f.s, 8, 3, 8, 100, 5, 1, 0);
	f.s.keys[0].cgroup_id = 11;
	put(&f.s, 9, 1, 9, 0, 5, 0, 1);
	f.s.keys[1].cgroup_id = 11;
	tracker__update(&f.t, &f.s, 1, &f.out);
	CHECK_INT(f.t.nr_gone, 1);
	CHECK(f.t.gone[0].tid == 8 && f.t.gone[0].cgroup_id == 11);
	CHECK_INT(f.t.nr, 1);
	CHECK_INT(f.t.tasks[0].key.tid, 9);
	fix_free(&f);
}

TEST(tracker_tasks_the_snapshot_leaves_out_are_unchanged)
{
	struct fix f = { .s.half = 1 };
	const struct task_delta *d;

	next(&f.s, 10);
	for (__u32 tid = 1; tid <= 100; tid++)
		put(&f.s, tid, 1, tid, 10 * tid, 0, 0, 0);
	tracker__update(&f.t, &f.s, 1, &f.out);
	next(&f.s, 11);		/* only task 40 ran */
	put(&f.s, 40, 1, 40, 400, 25, 0, 1);
	CHECK_INT(tracker__update(&f.t, &f.s, 1, &f.out), 0);
	CHECK_INT(f.out.nr, 1);
	d = find(&f.out, 40, 1);
	CHECK(d && d->cpu_ns == 25);
	CHECK_INT(f.t.nr, 100);
	next(&f.s, 12);		/* half 0 again: 7 ran, against its baseline */
	put(&f.s, 7, 1, 7, 75, 0, 2, 0);
	tracker__update(&f.t, &f.s, 1, &f.out);
	CHECK_INT(f.out.nr, 1);
	d = find(&f.out, 7, 1);
	CHECK(d && d->cpu_ns == 5 && d->ev[0].count == 2);
	fix_free(&f);
}

TEST(tracker_task_read_twice_counts_once)
{
	struct fix f = { .s.half = 1 };
	const struct task_delta *d;

	next(&f.s, 10);
	put(&f.s, 4, 1, 4, 100, 0, 0, 0);
	tracker__update(&f.t, &f.s, 1, &f.out);
	next(&f.s, 11);		/* listed on both CPUs it ran on */
	put(&f.s, 4, 1, 4, 100, 30, 0, 0);
	put(&f.s, 4, 1, 4, 100, 30, 0, 0);
	tracker__update(&f.t, &f.s, 1, &f.out);
	CHECK_INT(f.out.nr, 1);
	d = find(&f.out, 4, 1);
	CHECK(d && d->cpu_ns == 30);
	CHECK_INT(f.t.nr, 1);
	fix_free(&f);
}

TEST(tracker_task_ended_here_is_final_without_being_read)
{
	struct fix f = { .s.half = 1 };
	const struct task_delta *d;

	next(&f.s, 10);
	put(&f.s, 5, 1, 5, 100, 0, 0, 0);
	put(&f.s, 6, 1, 6, 100, 0, 0, 0);
	tracker__update(&f.t, &f.s, 1, &f.out);
	next(&f.s, 11);
	put(&f.s, 5, 1, 5, 100, 20, 0, 0);
	tracker__update(&f.t, &f.s, 1, &f.out);
	/* found gone after the update at 11 s */
	CHECK_INT(tracker__end(&f.t, 0, 11 * SEC_NS + 500), 0);
	CHECK_INT(f.t.tasks[0].key.tid, 5);

	next(&f.s, 12);		/* no news of it: its last report all the same */
	tracker__update(&f.t, &f.s, 1, &f.out);
	CHECK_INT(f.out.nr, 1);
	d = find(&f.out, 5, 1);
	CHECK(d && d->exited && d->cpu_ns == 0);
	CHECK_INT(f.t.nr_gone, 1);
	CHECK_INT(f.t.gone[0].tid, 5);
	CHECK_INT(f.t.nr, 1);
	CHECK_INT(f.t.tasks[0].key.tid, 6);
	next(&f.s, 13);
	tracker__update(&f.t, &f.s, 1, &f.out);
	CHECK_INT(f.out.nr, 0);
	CHECK_INT(f.t.nr_gone, 0);
	fix_free(&f);
}

TEST(tracker_end_after_the_next_flip_waits)
{
	struct fix f = { .s.half = 1 };

	next(&f.s, 10);
	put(&f.s, 5, 1, 5, 100, 0, 0, 0);
	tracker__update(&f.t, &f.s, 1, &f.out);
	tracker__end(&f.t, 0, 11 * SEC_NS + 1);
	next(&f.s, 11);
	tracker__update(&f.t, &f.s, 1, &f.out);
	CHECK_INT(f.out.nr, 0);
	CHECK_INT(f.t.nr, 1);
	next(&f.s, 12);
	tracker__update(&f.t, &f.s, 1, &f.out);
	CHECK(f.out.nr == 1 && f.out.tasks[0].exited);
	CHECK_INT(f.t.nr, 0);
	fix_free(&f);
}

TEST(tracker_left_cgroup_entry_ends_without_being_read)
{
	struct fix f = { .s.half = 1 };
	struct task_val *v;

	next(&f.s, 10);
	put(&f.s, 8, 3, 8, 100, 0, 1, 0);
	f.s.keys[0].cgroup_id = 11;
	tracker__update(&f.t, &f.s, 1, &f.out);
	next(&f.s, 11);		/* moved to 22 and died there */
	v = put(&f.s, 8, 3, 8, 0, 70, 0, 2);
	f.s.keys[0].cgroup_id = 22;
	v->exited = 1;
	v->exit_ns = 10 * SEC_NS + 7;
	tracker__update(&f.t, &f.s, 1, &f.out);
	CHECK_INT(f.t.nr_gone, 1);
	CHECK_INT(f.t.nr, 1);
	next(&f.s, 12);
	tracker__update(&f.t, &f.s, 1, &f.out);
	CHECK_INT(f.t.nr_gone, 1);
	CHECK(f.t.gone[0].tid == 8 && f.t.gone[0].cgroup_id == 11);
	CHECK(f.out.nr == 1 && f.out.tasks[0].exited && f.out.tasks[0].cpu_ns == 0);
	CHECK_INT(f.t.nr, 0);
	fix_free(&f);
}

/* Tasks come and go for many intervals: each keeps its own values, and
 * the memory for them stays that of the most alive at once. */
TEST(tracker_churn_keeps_values_apart_and_memory_bounded)
{
	struct fix f = { .s.half = 1 };
	__u64 expect = 0, got = 0;

	next(&f.s, 10);
	put(&f.s, 1, 1, 1, 0, 0, 0, 0);
	tracker__update(&f.t, &f.s, 1, &f.out);
	for (__u32 round = 1; round <= 200; round++) {
		struct task_val *v;

		next(&f.s, 10 + round);
		/* task 1 runs on; task 1000+round-1 ends; 1000+round starts */
		put(&f.s, 1, 1, 1, f.s.half ? 0 : round, f.s.half ? round : 0, 0, 0);
		if (round > 1) {
			v = put(&f.s, 1000 + round - 1, 1, 2, 3, 3, 0, 0);
			v->exited = 1;
			v->exit_ns = (__u64)(9 + round) * SEC_NS;
		}
		put(&f.s, 1000 + round, 1, 2, f.s.half ? 0 : 3, f.s.half ? 3 : 0, 0, 0);
		tracker__update(&f.t, &f.s, 1, &f.out);
		for (size_t i = 0; i < f.out.nr; i++)
			got += f.out.tasks[i].cpu_ns;
		/* task 1 adds (round - round two back); a new task 3; the
		 * ended one the other half's 3 */
		expect += (round > 2 ? 2 : round) + 3 + (round > 1 ? 3 : 0);
	}
	CHECK_U64(got, expect);
	CHECK_INT(f.t.nr, 2);
	CHECK(f.t.vals_used <= 4);
	fix_free(&f);
}

/* The kernel marked it ended after the flip, with its last charge before:
 * no later read lists it, yet it is final at the next update. */
TEST(tracker_task_ended_after_the_flip_is_final_without_being_read)
{
	struct fix f = { .s.half = 1 };
	const struct task_delta *d;
	struct task_val *v;

	next(&f.s, 10);
	put(&f.s, 7, 2, 7, 10, 0, 0, 0);
	put(&f.s, 8, 2, 8, 10, 0, 0, 0);
	tracker__update(&f.t, &f.s, 1, &f.out);
	next(&f.s, 11);
	v = put(&f.s, 7, 2, 7, 10, 20, 0, 0);
	v->exited = 1;
	v->exit_ns = 11 * SEC_NS + 100;
	v = put(&f.s, 9, 5, 9, 0, 4, 0, 0);	/* new, and the same */
	v->exited = 1;
	v->exit_ns = 11 * SEC_NS + 200;
	tracker__update(&f.t, &f.s, 1, &f.out);
	CHECK_INT(f.out.nr, 2);
	CHECK_INT(f.t.nr_gone, 0);
	CHECK_INT(f.t.nr, 3);
	next(&f.s, 12);
	tracker__update(&f.t, &f.s, 1, &f.out);
	CHECK_INT(f.out.nr, 2);
	d = find(&f.out, 7, 2);
	CHECK(d && d->exited && d->cpu_ns == 0);
	d = find(&f.out, 9, 5);
	CHECK(d && d->exited && d->cpu_ns == 0);
	CHECK_INT(f.t.nr_gone, 2);
	CHECK_INT(f.t.nr, 1);
	CHECK_INT(f.t.tasks[0].key.tid, 8);
	fix_free(&f);
}
