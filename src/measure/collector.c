// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The only user of the BPF skeleton: sizes and loads the object, opens the
 * per-CPU counters into the perf-event array, attaches, and copies the maps
 * out. Nothing is pinned, so everything goes away with the process.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "measure/collector.h"
#include "measure/span.h"
#include "pmu/readplan.h"
#include "util/clock.h"
#include "util/errmsg.h"
#include "util/fileio.h"
#include "tdtop.skel.h"

/* A flush pass that took longer than twice the fastest one plus
 * FLUSH_SLOW_NS is repeated, up to FLUSH_TRIES passes in all. */
#define FLUSH_SLOW_NS 100000ULL
#define FLUSH_TRIES 4

struct collector {
	struct tdtop_bpf *skel;
	int ncpus;		/* possible CPUs: the per-CPU map stride */
	int nr_events;
	int *fds;		/* [event * ncpus + cpu], -1 where not opened */
	void *percpu_buf;	/* scratch for per-CPU map values */
	struct event_list events;	/* what each CPU opens */
	struct td_config parts;		/* nr_parts 0: every CPU opens every event */
	struct pmu_cpus online;		/* CPUs whose events are open */
	char online_path[PATH_MAX];	/* the sysfs list of online CPUs */
	int stats_fd;		/* holds the kernel's BPF run-time stats on */
	struct bpf_program *switch_prog;	/* the sched_switch program loaded */
	struct change_list *changes;	/* the change lists, mapped */
	size_t changes_len;	/* bytes mapped */
	__u64 quick_pass_ns;	/* the fastest flush pass so far */
	__u64 *cuts[2];		/* per CPU, the cut of the last two snapshots */
	struct span_marks marks;	/* of the last snapshot */
};

static bool verbose_libbpf;

/* libbpf speaks only with -v: tdtop prints its own one-line errors. */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return verbose_libbpf ? vfprintf(stderr, fmt, ap) : 0;
}

static int perf_event_open(struct perf_event_attr *attr, int cpu, int group_fd)
{
	return syscall(SYS_perf_event_open, attr, -1, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
}

static const char *open_hint(int err)
{
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
		return " (not supported here: is there a hardware PMU? VMs often have none)";
	case EACCES:
	case EPERM:
		return " (needs root or CAP_PERFMON, or a lower kernel.perf_event_paranoid)";
	case EBUSY:
		return " (the counter is held by another user, e.g. the NMI watchdog)";
	case EINVAL:
		return " (invalid for this PMU or group)";
	default:
		return "";
	}
}

/*
 * The events a CPU reads: all of them, or on hybrid CPUs those of its
 * core type's PMU. A CPU no part covers reads nothing.
 */
static void cpu_range(const struct collector *c, int cpu, int *lo, int *hi)
{
	const struct td_config *cfg = &c->parts;

	*lo = 0;
	*hi = c->events.nr;
	if (cfg->nr_parts <= 0)
		return;
	for (int p = 0; p < cfg->nr_parts && p < MAX_TD_PARTS; p++) {
		const struct td_part *part = &cfg->parts[p];

		if (part->all_cpus || pmu_cpus__has(&part->cpus, cpu)) {
			*lo = part->ev_lo;
			*hi = part->ev_hi;
			return;
		}
	}
	*hi = 0;
}

static void close_cpu(struct collector *c, int cpu)
{
	for (int i = 0; i < c->nr_events; i++) {
		int *fd = &c->fds[i * c->ncpus + cpu];

		if (*fd >= 0)
			close(*fd);
		*fd = -1;
	}
}

/* Open one CPU's events, group members after their leader. 1: CPU offline. */
static int open_cpu(struct collector *c, int cpu, char *err, size_t errlen)
{
	int map_fd = bpf_map__fd(c->skel->maps.counters);
	int lo, hi;

	cpu_range(c, cpu, &lo, &hi);
	for (int i = lo; i < hi; i++) {
		const struct event_spec *e = &c->events.ev[i];
		struct perf_event_attr attr;
		int group_fd = -1, fd;
		__u32 key = i * c->ncpus + cpu;

		if (e->leader != i)
			group_fd = c->fds[e->leader * c->ncpus + cpu];
		event_spec__to_attr(e, &attr);
		fd = perf_event_open(&attr, cpu, group_fd);
		if (fd < 0 && errno == ENODEV) {
			close_cpu(c, cpu);
			return 1;	/* offline: opened when it comes back */
		}
		if (fd < 0) {
			int e_no = errno;

			return errmsg(err, errlen, -e_no, "failed to open event '%s' on CPU %d: %s%s",
				      e->name, cpu, strerror(e_no), open_hint(e_no));
		}
		c->fds[key] = fd;
		if (bpf_map_update_elem(map_fd, &key, &fd, BPF_ANY)) {
			int e_no = errno;

			return errmsg(err, errlen, -e_no,
				      "failed to add event '%s' on CPU %d to the BPF map: %s", e->name,
				      cpu, strerror(e_no));
		}
	}
	c->online.bits[cpu / 64] |= 1ULL << (cpu % 64);
	return 0;
}

static int open_counters(struct collector *c, char *err, size_t errlen)
{
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		int ret = open_cpu(c, cpu, err, errlen);

		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * The kernel switches a CPU's events off for good when the CPU goes
 * offline: open new ones for CPUs that came back. The BPF side re-primes
 * a CPU that missed an epoch, and a counter that went back.
 */
static void reopen_returned_cpus(struct collector *c)
{
	struct pmu_cpus now;
	char buf[4096], err[256];

	if (read_small_file(c->online_path, buf, sizeof(buf)) <= 0 ||
	    pmu_cpus__parse(buf, &now, err, sizeof(err)))
		return;
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		bool was = pmu_cpus__has(&c->online, cpu), is = pmu_cpus__has(&now, cpu);

		if (is && !was) {
			close_cpu(c, cpu);
			open_cpu(c, cpu, err, sizeof(err));
		} else if (!is && was) {
			c->online.bits[cpu / 64] &= ~(1ULL << (cpu % 64));
		}
	}
}

static __u32 nr_counters(const struct collector *c)
{
	return (c->nr_events ? c->nr_events : 1) * c->ncpus;
}

static int init_cpu_states(struct collector *c)
{
	struct cpu_state *cs = c->percpu_buf;
	__u32 zero = 0;

	memset(cs, 0, sizeof(*cs) * c->ncpus);
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		int lo, hi;

		cpu_range(c, cpu, &lo, &hi);
		cs[cpu].ev_lo = lo;
		cs[cpu].ev_hi = hi;
	}
	return bpf_map_update_elem(bpf_map__fd(c->skel->maps.cpu_states), &zero, cs, BPF_ANY);
}

/* The switch program's settings for reading each event, from the plan. */
static void set_reads(struct tdtop_bpf__rodata *ro, const struct read_plan *plan)
{
	ro->clock_event = plan->clock >= 0 ? (__u32)plan->clock : MAX_EVENTS;
	for (int i = 0; i < plan->nr; i++) {
		const struct event_read *r = &plan->ev[i];

		if (r->always_on)
			ro->always_on |= 1u << i;
		if (r->how == READ_MEMORY && r->via == i)
			ro->in_memory |= 1u << i;
		if (r->how == READ_MEMORY && r->via != i) {
			ro->group_member |= 1u << i;
			ro->member_leader[i] = r->via;
		}
	}
}

/* Open and load the BPF object with one of the two switch programs. */
static int load_skel(struct collector *c, const struct collector_opts *opts, bool mem)
{
	struct read_plan plan;
	int ret;

	read_plan__build(&plan, opts->events, opts->parts, mem);
	if (mem && !read_plan__uses_memory(&plan))
		return -ENOTSUP;	/* nothing to gain */
	tdtop_bpf__destroy(c->skel);
	c->skel = tdtop_bpf__open();
	if (!c->skel)
		return -errno;
	c->skel->rodata->nr_cpus = c->ncpus;
	c->skel->rodata->nr_counters = nr_counters(c);
	c->skel->rodata->by_cgroup = opts->by_cgroup;
	set_reads(c->skel->rodata, &plan);
	bpf_map__set_max_entries(c->skel->maps.counters, nr_counters(c));
	bpf_map__set_max_entries(c->skel->maps.tasks, opts->max_tasks);
	bpf_program__set_autoload(c->skel->progs.on_switch, !mem);
	bpf_program__set_autoload(c->skel->progs.on_switch_mem, mem);
	bpf_map__set_max_entries(c->skel->maps.changes, c->ncpus * 2);
	ret = tdtop_bpf__load(c->skel);
	c->switch_prog = mem ? c->skel->progs.on_switch_mem : c->skel->progs.on_switch;
	return ret;
}

static int map_changes(struct collector *c)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = sizeof(struct change_list) * c->ncpus * 2;
	void *p;

	len = (len + page - 1) / page * page;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
		 bpf_map__fd(c->skel->maps.changes), 0);
	if (p == MAP_FAILED)
		return -errno;
	c->changes = p;
	c->changes_len = len;
	return 0;
}

int collector__open(struct collector **out, const struct collector_opts *opts, char *err,
		    size_t errlen)
{
	struct collector *c;
	int ret;

	*out = NULL;
	if (opts->note && opts->notelen)
		opts->note[0] = '\0';
	verbose_libbpf = opts->verbose;
	libbpf_set_print(libbpf_print);

	c = calloc(1, sizeof(*c));
	if (!c)
		return errmsg(err, errlen, -ENOMEM, "out of memory");
	c->stats_fd = -1;
	c->nr_events = opts->events->nr;
	if ((size_t)snprintf(c->online_path, sizeof(c->online_path), "%s/devices/system/cpu/online",
			     opts->sysfs ? opts->sysfs : "/sys") >= sizeof(c->online_path)) {
		ret = errmsg(err, errlen, -ENAMETOOLONG, "sysfs root is too long: %s", opts->sysfs);
		goto fail;
	}
	c->ncpus = libbpf_num_possible_cpus();
	if (c->ncpus <= 0 || c->ncpus > MAX_CPUS) {
		ret = errmsg(err, errlen, -EINVAL, "failed to count possible CPUs");
		goto fail;
	}
	/* per-CPU map values are padded to 8 bytes per CPU */
	c->percpu_buf = calloc(c->ncpus, sizeof(struct cpu_state));
	c->cuts[0] = calloc(c->ncpus, sizeof(*c->cuts[0]));
	c->cuts[1] = calloc(c->ncpus, sizeof(*c->cuts[1]));
	c->fds = malloc(sizeof(int) * nr_counters(c));
	if (!c->percpu_buf || !c->cuts[0] || !c->cuts[1] || !c->fds) {
		ret = errmsg(err, errlen, -ENOMEM, "out of memory");
		goto fail;
	}
	for (int i = 0; i < c->nr_events * c->ncpus; i++)
		c->fds[i] = -1;

	/* Older kernels (before 6.2) refuse on_switch_mem: load again without */
	ret = opts->helper_reads ? -ENOTSUP : load_skel(c, opts, true);
	if (ret) {
		if (ret != -ENOTSUP)
			errmsg(opts->note, opts->notelen, 0, "reading counts from memory refused (%s): "
			       "every counter is read through the helper", strerror(-ret));
		ret = load_skel(c, opts, false);
	}
	if (ret) {
		errmsg(err, errlen, ret, "failed to load BPF program: %s%s", strerror(-ret),
		       ret == -EPERM || ret == -EACCES ? " (needs root, or CAP_BPF and CAP_PERFMON)"
						       : " (run with -v for the verifier log)");
		goto fail;
	}
	c->events = *opts->events;
	if (opts->parts)
		c->parts = *opts->parts;
	ret = open_counters(c, err, errlen);
	if (ret)
		goto fail;
	if (init_cpu_states(c)) {
		ret = -errno;
		errmsg(err, errlen, ret, "failed to initialise per-CPU state: %s", strerror(-ret));
		goto fail;
	}
	ret = map_changes(c);
	if (ret) {
		errmsg(err, errlen, ret, "failed to map the change lists: %s", strerror(-ret));
		goto fail;
	}
	ret = tdtop_bpf__attach(c->skel);
	if (ret) {
		errmsg(err, errlen, ret, "failed to attach to sched_switch: %s", strerror(-ret));
		goto fail;
	}
	*out = c;
	return 0;
fail:
	collector__free(c);
	return ret;
}

/* Charge the in-flight slice on every CPU (perf's bperf trick). */
static void flush_cpus(struct collector *c)
{
	int prog_fd = bpf_program__fd(c->skel->progs.flush);

	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		LIBBPF_OPTS(bpf_test_run_opts, topts, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = cpu);

		/* an offline CPU fails with ENXIO; it has nothing in flight */
		bpf_prog_test_run_opts(prog_fd, &topts);
	}
}

/*
 * Flush right before the flip. A CPU's interval ends at its last charge
 * before the flip, so if the loader was preempted during the pass, that
 * CPU's cut lags the flip by as long; the interval is then measured from
 * the cuts (span.h), but a slow pass is still repeated, a few times at
 * most, so that the CPUs' cuts stay close together. Returns when the last
 * pass started.
 */
static __u64 flush_before_flip(struct collector *c)
{
	__u64 t0 = 0;

	for (int tries = 0; tries < FLUSH_TRIES; tries++) {
		__u64 took;

		t0 = mono_ns();
		flush_cpus(c);
		took = mono_ns() - t0;
		if (!c->quick_pass_ns || took < c->quick_pass_ns)
			c->quick_pass_ns = took;
		if (took <= 2 * c->quick_pass_ns + FLUSH_SLOW_NS)
			break;
	}
	return t0;
}

/* The frozen half of the idle/lost/total sums and the health counters,
 * summed over CPUs, and each CPU's cut of the frozen epoch into cut[]. */
static int read_cpu_states(struct collector *c, struct snapshot *snap, __u32 frozen, __u64 *cut)
{
	const struct cpu_state *per_cpu = c->percpu_buf;
	__u32 zero = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.cpu_states), &zero, c->percpu_buf))
		return -errno;
	memset(snap->buckets, 0, sizeof(snap->buckets));
	memset(&snap->stats, 0, sizeof(snap->stats));
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		const struct cpu_state *cs = &per_cpu[cpu];

		cut[cpu] = cs->cut_epoch[snap->half] == frozen ? cs->cut_ns[snap->half] : 0;
		for (int b = 0; b < NR_BUCKETS; b++) {
			const struct acc *v = &cs->buckets[b * 2 + snap->half];
			struct acc *sum = &snap->buckets[b];

			sum->cpu_ns += v->cpu_ns;
			sum->slices += v->slices;
			for (int i = 0; i < MAX_EVENTS; i++) {
				sum->ev[i].count += v->ev[i].count;
				sum->ev[i].enabled += v->ev[i].enabled;
				sum->ev[i].running += v->ev[i].running;
			}
		}
		snap->stats.switches += cs->stats.switches;
		snap->stats.dropped += cs->stats.dropped;
		snap->stats.read_errors += cs->stats.read_errors;
	}
	return 0;
}

/* Batch-copy the whole task table; the map may change under us, which at
 * worst moves a few charges into the next interval. */
static int read_all_tasks(struct collector *c, struct snapshot *snap)
{
	int fd = bpf_map__fd(c->skel->maps.tasks);
	size_t cap = bpf_map__max_entries(c->skel->maps.tasks);
	__u64 batch = 0;
	bool first = true;

	if (snapshot__reserve(snap, cap))
		return -ENOMEM;
	snap->nr = 0;
	while (snap->nr < cap) {
		__u32 count = cap - snap->nr;
		int ret;

		ret = bpf_map_lookup_batch(fd, first ? NULL : &batch, &batch, snap->keys + snap->nr,
					   snap->vals + snap->nr, &count, NULL);
		snap->nr += count;
		first = false;
		if (ret)
			return errno == ENOENT ? 0 : -errno;
	}
	return 0;
}

/*
 * The tasks charged or ended in the frozen epoch, as the CPUs listed
 * them: an interval costs the tasks that ran in it, not every task
 * remembered. When a list overflowed, the whole table.
 */
static int read_tasks(struct collector *c, struct snapshot *snap)
{
	int fd = bpf_map__fd(c->skel->maps.tasks);
	bool overflow = false;
	int ret = 0;

	snap->nr = 0;
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		struct change_list *l = &c->changes[cpu * 2 + snap->half];
		/*
		 * Emptied for its next epoch as it is read, every list whatever
		 * happens. Only a task's end can be listed in a half after its
		 * flip (the free runs where the flush cannot wait for it); such
		 * a key lands in the list's next use, or the check for tasks
		 * gone unnoticed ends the task.
		 */
		__u32 nr = __atomic_exchange_n(&l->nr, 0, __ATOMIC_ACQ_REL);

		overflow |= nr > CHANGE_LIST_LEN;
		if (overflow || ret)
			continue;
		if (snapshot__reserve(snap, snap->nr + nr)) {
			ret = -ENOMEM;
			continue;
		}
		for (__u32 i = 0; i < nr; i++) {
			snap->keys[snap->nr] = l->keys[i];
			/* ENOENT: listed again after the loader freed it */
			if (!bpf_map_lookup_elem(fd, &l->keys[i], &snap->vals[snap->nr]))
				snap->nr++;
		}
	}
	if (ret)
		return ret;
	return overflow ? read_all_tasks(c, snap) : 0;
}

/*
 * A consistent cut through every map: charge each CPU's running slice into
 * the current half, flip the epoch, then run the flush once more. It runs
 * on each CPU after whatever charge() was in progress there, so no CPU
 * writes the old half any more: reading it takes all maps as of the flip,
 * however long the reads take and whatever runs meanwhile.
 */
int collector__snapshot(struct collector *c, struct snapshot *snap)
{
	struct span_marks marks;
	__u32 frozen;
	__u64 *cut;
	int ret;

	reopen_returned_cpus(c);
	marks.pass_ns = flush_before_flip(c);
	frozen = c->skel->bss->epoch;
	snap->half = frozen & 1;
	cut = c->cuts[snap->half];
	__atomic_store_n(&c->skel->bss->epoch, frozen + 1, __ATOMIC_SEQ_CST);
	snap->flip_ns = marks.flip_ns = mono_ns();
	snap->real_s = clock_s(CLOCK_REALTIME);
	flush_cpus(c);
	snap->mono_s = snap->flip_ns / 1e9;
	ret = read_cpu_states(c, snap, frozen, cut);
	snap->interval_s = c->marks.flip_ns
				   ? span__mean_s(c->cuts[!snap->half], cut, c->ncpus, &c->marks, &marks)
				   : 0;
	c->marks = marks;
	if (!ret)
		ret = read_tasks(c, snap);
	return ret;
}

void collector__forget(struct collector *c, const struct task_key *keys, size_t n)
{
	int fd = bpf_map__fd(c->skel->maps.tasks);

	for (size_t i = 0; i < n; i++)
		bpf_map_delete_elem(fd, &keys[i]);
}

int collector__ncpus(const struct collector *c)
{
	return c->ncpus;
}

int collector__bpf_stats(struct collector *c, bool on)
{
	if (on && c->stats_fd < 0) {
		c->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		return c->stats_fd < 0 ? -errno : 0;
	}
	if (!on && c->stats_fd >= 0) {
		close(c->stats_fd);
		c->stats_fd = -1;
	}
	return 0;
}

int collector__bpf_cost(const struct collector *c, __u64 *run_ns, __u64 *runs)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(bpf_program__fd(c->switch_prog), &info, &len))
		return -errno;
	*run_ns = info.run_time_ns;
	*runs = info.run_cnt;
	return 0;
}

void collector__free(struct collector *c)
{
	if (!c)
		return;
	if (c->changes)
		munmap(c->changes, c->changes_len);
	tdtop_bpf__destroy(c->skel);
	if (c->stats_fd >= 0)
		close(c->stats_fd);
	if (c->fds) {
		for (int i = 0; i < c->nr_events * c->ncpus; i++)
			if (c->fds[i] >= 0)
				close(c->fds[i]);
	}
	free(c->fds);
	free(c->percpu_buf);
	free(c->cuts[0]);
	free(c->cuts[1]);
	free(c);
}
