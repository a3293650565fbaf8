// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Cumulative snapshots to per-interval deltas: new, changed, exited and
 * missed tasks, and tid reuse. */
#include <stdlib.h>
#include "test.h"
#include "tracker.h"

static void put(struct snapshot *s, __u32 tid, __u64 start, __u32 pid, __u64 cpu_ns,
		__u64 count, bool exited)
{
	size_t i = s->nr++;

	snapshot__reserve(s, s->nr);
	memset(&s->keys[i], 0, sizeof(s->keys[i]));
	memset(&s->vals[i], 0, sizeof(s->vals[i]));
	s->keys[i].tid = tid;
	s->keys[i].start_ns = start;
	s->vals[i].pid = pid;
	s->vals[i].cpu_ns = cpu_ns;
	s->vals[i].ev[0].count = count;
	s->vals[i].ev[0].enabled = cpu_ns;
	s->vals[i].ev[0].running = cpu_ns;
	s->vals[i].exited = exited;
	snprintf(s->vals[i].comm, TASK_COMM_LEN, "t%u", tid);
}

static const struct task_delta *find(const struct sample *s, __u32 tid, __u64 start)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->tasks[i].tid == tid && s->tasks[i].start_ns == start)
			return &s->tasks[i];
	return NULL;
}

TEST(tracker_first_update_is_baseline)
{
	struct tracker t = {};
	struct snapshot s = { .mono_s = 10 };
	struct sample out = {};

	put(&s, 5, 1, 5, 100, 7, false);
	CHECK_INT(tracker__update(&t, &s, 2, &out), 1);
	CHECK_INT(out.nr, 0);
	tracker__free(&t);
	snapshot__free(&s);
	sample__free(&out);
}

TEST(tracker_deltas_new_changed_unchanged)
{
	struct tracker t = {};
	struct snapshot s = { .mono_s = 10 };
	struct sample out = {};
	const struct task_delta *d;

	put(&s, 5, 1, 5, 100, 7, false);
	put(&s, 6, 1, 5, 50, 3, false);
	s.buckets[BUCKET_TOTAL].cpu_ns = 1000;
	tracker__update(&t, &s, 2, &out);

	s.nr = 0;
	s.mono_s = 11.5;
	s.real_s = 1700000000.25;
	put(&s, 6, 1, 5, 50, 3, false);		/* unchanged: no row */
	put(&s, 5, 1, 5, 160, 10, false);	/* changed */
	put(&s, 9, 4, 9, 30, 2, false);		/* new */
	s.buckets[BUCKET_TOTAL].cpu_ns = 3000;
	s.stats.switches = 40;
	CHECK_INT(tracker__update(&t, &s, 2, &out), 0);
	CHECK_INT(out.nr, 2);
	CHECK_NEAR(out.interval_s, 1.5, 1e-9);
	CHECK_NEAR(out.ts, 1700000000.25, 1e-6);
	CHECK_INT(out.ncpus, 2);
	CHECK_U64(out.total.cpu_ns, 2000);
	CHECK_U64(out.switches, 40);
	d = find(&out, 5, 1);
	CHECK(d != NULL);
	if (d) {
		CHECK_U64(d->cpu_ns, 60);
		CHECK_U64(d->ev[0].count, 3);
		CHECK_STR(d->comm, "t5");
	}
	d = find(&out, 9, 4);
	CHECK(d && d->cpu_ns == 30 && d->ev[0].count == 2);
	CHECK(find(&out, 6, 1) == NULL);
	tracker__free(&t);
	snapshot__free(&s);
	sample__free(&out);
}

TEST(tracker_exited_reported_once_then_gone)
{
	struct tracker t = {};
	struct snapshot s = {};
	struct sample out = {};
	const struct task_delta *d;

	put(&s, 7, 2, 7, 10, 1, false);
	tracker__update(&t, &s, 1, &out);
	s.nr = 0;
	put(&s, 7, 2, 7, 25, 4, true);
	tracker__update(&t, &s, 1, &out);
	d = find(&out, 7, 2);
	CHECK(d && d->exited && d->cpu_ns == 15 && d->ev[0].count == 3);
	CHECK_INT(t.nr_gone, 1);
	CHECK_INT(t.gone[0].tid, 7);
	CHECK_INT(t.nr, 0);	/* not remembered any more */

	/* the loader freed the entry: the next snapshot has nothing */
	s.nr = 0;
	tracker__update(&t, &s, 1, &out);
	CHECK_INT(out.nr, 0);
	CHECK_INT(t.nr_gone, 0);
	tracker__free(&t);
	snapshot__free(&s);
	sample__free(&out);
}

TEST(tracker_tid_reuse_is_a_new_task)
{
	struct tracker t = {};
	struct snapshot s = {};
	struct sample out = {};
	const struct task_delta *d;

	put(&s, 7, 2, 7, 1000, 100, false);
	tracker__update(&t, &s, 1, &out);
	s.nr = 0;
	put(&s, 7, 2, 7, 1000, 100, true);	/* old one exits */
	put(&s, 7, 99, 7, 40, 5, false);	/* same tid, new start time */
	tracker__update(&t, &s, 1, &out);
	CHECK_INT(out.nr, 2);
	d = find(&out, 7, 99);
	/* counted from zero, not as a difference to the old task */
	CHECK(d && d->cpu_ns == 40 && d->ev[0].count == 5 && !d->exited);
	d = find(&out, 7, 2);
	CHECK(d && d->exited && d->cpu_ns == 0);
	tracker__free(&t);
	snapshot__free(&s);
	sample__free(&out);
}

TEST(tracker_task_missing_from_one_read_is_carried)
{
	struct tracker t = {};
	struct snapshot s = {};
	struct sample out = {};
	const struct task_delta *d;

	put(&s, 3, 1, 3, 100, 10, false);
	tracker__update(&t, &s, 1, &out);
	s.nr = 0;	/* the batch read missed it */
	tracker__update(&t, &s, 1, &out);
	CHECK_INT(out.nr, 0);
	CHECK_INT(t.nr, 1);
	s.nr = 0;
	put(&s, 3, 1, 3, 130, 12, false);
	tracker__update(&t, &s, 1, &out);
	d = find(&out, 3, 1);
	CHECK(d && d->cpu_ns == 30 && d->ev[0].count == 2);
	tracker__free(&t);
	snapshot__free(&s);
	sample__free(&out);
}

TEST(tracker_many_tasks_unsorted_input)
{
	struct tracker t = {};
	struct snapshot s = {};
	struct sample out = {};
	__u64 sum = 0;

	for (__u32 i = 0; i < 5000; i++)
		put(&s, (i * 7919) % 5000 + 1, i, 1, i, i, false);
	tracker__update(&t, &s, 1, &out);
	s.nr = 0;
	for (__u32 i = 0; i < 5000; i++)
		put(&s, (i * 7919) % 5000 + 1, i, 1, i + 2, i, false);
	tracker__update(&t, &s, 1, &out);
	CHECK_INT(out.nr, 5000);
	for (size_t i = 0; i < out.nr; i++)
		sum += out.tasks[i].cpu_ns;
	CHECK_U64(sum, 10000);
	tracker__free(&t);
	snapshot__free(&s);
	sample__free(&out);
}

TEST(tracker_task_that_moved_cgroups_ends_everywhere)
{
	struct tracker t = {};
	struct snapshot s = {};
	struct sample out = {};
	__u64 cpu = 0;

	put(&s, 8, 3, 8, 100, 1, false);
	s.keys[0].cgroup_id = 11;
	tracker__update(&t, &s, 1, &out);
	s.nr = 0;
	put(&s, 8, 3, 8, 100, 1, false);	/* left cgroup 11 */
	s.keys[0].cgroup_id = 11;
	put(&s, 8, 3, 8, 70, 2, true);		/* died in cgroup 22 */
	s.keys[1].cgroup_id = 22;
	put(&s, 9, 1, 9, 5, 1, false);		/* unrelated */
	s.keys[2].cgroup_id = 11;
	tracker__update(&t, &s, 1, &out);
	for (size_t i = 0; i < out.nr; i++)
		if (out.tasks[i].tid == 8)
			cpu += out.tasks[i].cpu_ns;
	CHECK_U64(cpu, 70);
	CHECK_INT(t.nr_gone, 2);	/* both entries of tid 8 */
	CHECK_INT(t.nr, 1);		/* only tid 9 remembered */
	CHECK_INT(t.keys[0].tid, 9);
	tracker__free(&t);
	snapshot__free(&s);
	sample__free(&out);
}
