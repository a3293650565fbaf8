// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The live sample stream over the collector: each snapshot turned into the
 * interval's deltas, tdtop's own cost measured, and tasks whose end the
 * kernel never reported found and ended.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "measure/live.h"
#include "util/clock.h"
#include "util/errmsg.h"

/* The initial PID namespace's inode number (PROC_PID_INIT_INO). */
#define INIT_PID_NS_INO 0xEFFFFFFCU
/* Each remembered task is checked against the living one interval in this
 * many: a tenth of them (by tid) every interval keeps each interval's cost
 * even. */
#define SWEEP_EVERY 10

/* The BPF cost is sampled one interval in this many. */
#define STATS_EVERY 10

/* tdtop's own cost: kernel side per switch (sampled), and its CPU use. */
static void measure_self(struct live *l)
{
	double cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID), now = mono_s();
	__u64 ns, runs;

	l->self_cpu_pct = l->mono_s > 0 && now > l->mono_s
				  ? (cpu - l->self_cpu_s) / (now - l->mono_s) * 100.0
				  : NAN;
	l->self_cpu_s = cpu;
	l->mono_s = now;
	if (l->sampling) {
		if (!collector__bpf_cost(l->col, &ns, &runs) && runs > l->bpf_runs)
			l->bpf_ns_per_switch =
				(double)(ns - l->bpf_ns) / (double)(runs - l->bpf_runs);
		collector__bpf_stats(l->col, false);
		l->sampling = false;
	} else if (l->intervals++ % STATS_EVERY == 0 && !collector__bpf_stats(l->col, true) &&
		   !collector__bpf_cost(l->col, &l->bpf_ns, &l->bpf_runs)) {
		l->sampling = true;
	}
}

/*
 * A task whose end the kernel never reported is still gone: a thread that
 * exec'd took over its leader's identity (de_thread), so its own entry is
 * never freed. Mark remembered tasks that no longer exist as ended; the
 * next update reports them a last time and frees their entries. A race
 * with the flip can also leave a task's end unlisted (see read_tasks in
 * collector.c): this finds it too. Only in the initial PID namespace,
 * where the kernel's task ids are ours.
 */
static int sweep_dead(struct live *l)
{
	struct tracker *t = &l->tracker;
	unsigned int phase = l->sweeps++ % SWEEP_EVERY;

	if (!l->init_pid_ns)
		return 0;
	/*
	 * Ended as of now, so at the next update, not this one: a task just
	 * reaped may still be making its last switch, whose charge must land
	 * before its entry is freed.
	 */
	__u64 now = mono_ns();

	for (size_t i = 0; i < t->nr; i++) {
		if (t->tasks[i].key.tid % SWEEP_EVERY != phase || tracker__val(t, i)->exited)
			continue;
		if (kill((pid_t)t->tasks[i].key.tid, 0) && errno == ESRCH && tracker__end(t, i, now))
			return -ENOMEM;
	}
	return 0;
}

static bool in_init_pid_ns(void)
{
	struct stat st;

	return !stat("/proc/self/ns/pid", &st) && st.st_ino == INIT_PID_NS_INO;
}

int live__open(struct live *l, const struct collector_opts *o, char *err, size_t errlen)
{
	memset(l, 0, sizeof(*l));
	l->bpf_ns_per_switch = NAN;
	l->self_cpu_pct = NAN;
	l->init_pid_ns = in_init_pid_ns();
	return collector__open(&l->col, o, err, errlen);
}

int live__next(struct live *l, struct sample *out, char *err, size_t errlen)
{
	int ret = collector__snapshot(l->col, &l->snap);

	if (ret)
		return errmsg(err, errlen, -1, "failed to read the BPF maps: %s", strerror(-ret));
	ret = tracker__update(&l->tracker, &l->snap, collector__ncpus(l->col), out);
	if (ret < 0)
		return errmsg(err, errlen, -1, "out of memory");
	/* reported for the last time: free their kernel entries */
	collector__forget(l->col, l->tracker.gone, l->tracker.nr_gone);
	measure_self(l);
	if (sweep_dead(l))
		return errmsg(err, errlen, -1, "out of memory");
	return ret;
}

void live__close(struct live *l)
{
	collector__free(l->col);
	tracker__free(&l->tracker);
	snapshot__free(&l->snap);
	memset(l, 0, sizeof(*l));
}
