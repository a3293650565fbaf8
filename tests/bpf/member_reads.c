// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Runs the switch program's member loads on a software event, for
 * tests/integration/test_attribution.py. One cpu-clock event fills three
 * slots of the counters map: event 0 is a leader read with the helper,
 * event 1 a group member loaded from memory after it (as the loader plans
 * the PERF_METRICS metrics), event 2 an in-place count loaded from memory
 * with the slice's times. cpu-clock's count in memory only moves when it is
 * read, so the member matches the leader only if its load came after the
 * leader's read. Prints one JSON line per phase: both read, the leader's
 * slot emptied (its read fails), the slot back.
 *
 *   member_reads [CPU]      (root, kernel 6.2 or later for bpf_rdonly_cast())
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "tdtop_abi.h"
#include "member_reads.skel.h"

#define NR_EVENTS 3
#define LEADER 0
#define MEMBER 1
#define IN_PLACE 2

struct harness {
	struct member_reads_bpf *skel;
	struct cpu_state *cs;	/* every CPU's, as the map holds them */
	int ncpus;
	int cpu;
	int fd;			/* the cpu-clock event */
};

static int fail(const char *what)
{
	fprintf(stderr, "member_reads: %s: %s\n", what, strerror(errno));
	return -1;
}

static int load(struct harness *h)
{
	struct member_reads_bpf *skel = member_reads_bpf__open();

	if (!skel)
		return fail("opening the BPF object");
	h->skel = skel;
	/* on_switch_mem is loaded too, so the verifier checks the member path
	 * of the real program; nothing is attached */
	bpf_program__set_autoload(skel->progs.on_switch, false);
	bpf_program__set_autoload(skel->progs.flush, false);
	bpf_program__set_autoload(skel->progs.on_free, false);
	bpf_program__set_autoload(skel->progs.on_exec, false);
	bpf_program__set_autoload(skel->progs.on_rename, false);
	skel->rodata->nr_cpus = h->ncpus;
	skel->rodata->nr_counters = NR_EVENTS * h->ncpus;
	skel->rodata->in_memory = 1u << IN_PLACE;
	skel->rodata->group_member = 1u << MEMBER;
	skel->rodata->member_leader[MEMBER] = LEADER;
	bpf_map__set_max_entries(skel->maps.counters, NR_EVENTS * h->ncpus);
	bpf_map__set_max_entries(skel->maps.tasks, 1024);
	bpf_map__set_max_entries(skel->maps.changes, 2 * h->ncpus);
	if (member_reads_bpf__load(skel))
		return fail("loading the BPF object");
	return 0;
}

static int put_slot(struct harness *h, int ev)
{
	__u32 key = ev * h->ncpus + h->cpu;

	if (bpf_map_update_elem(bpf_map__fd(h->skel->maps.counters), &key, &h->fd, BPF_ANY))
		return fail("adding the event to the map");
	return 0;
}

static int setup(struct harness *h)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
	};
	__u32 zero = 0;

	h->fd = syscall(SYS_perf_event_open, &attr, -1, h->cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (h->fd < 0)
		return fail("opening cpu-clock");
	for (int ev = 0; ev < NR_EVENTS; ev++)
		if (put_slot(h, ev))
			return -1;
	for (int cpu = 0; cpu < h->ncpus; cpu++)
		h->cs[cpu].ev_hi = NR_EVENTS;
	if (bpf_map_update_elem(bpf_map__fd(h->skel->maps.cpu_states), &zero, h->cs, BPF_ANY))
		return fail("initialising the per-CPU state");
	return 0;
}

/* A switch on the CPU, *n* times, 5 ms apart; then that CPU's state. */
static int charge(struct harness *h, int n)
{
	__u32 zero = 0;

	for (int i = 0; i < n; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .flags = BPF_F_TEST_RUN_ON_CPU,
			    .cpu = h->cpu);

		if (i)
			usleep(5000);
		if (bpf_prog_test_run_opts(bpf_program__fd(h->skel->progs.charge_mem), &opts))
			return fail("running charge()");
	}
	if (bpf_map_lookup_elem(bpf_map__fd(h->skel->maps.cpu_states), &zero, h->cs))
		return fail("reading the per-CPU state");
	return 0;
}

static void print_counters(const char *key, const struct counter *c)
{
	printf(",\"%s\":[", key);
	for (int ev = 0; ev < NR_EVENTS; ev++)
		printf("%s[%llu,%llu,%llu]", ev ? "," : "", (unsigned long long)c[ev].count,
		       (unsigned long long)c[ev].enabled, (unsigned long long)c[ev].running);
	printf("]");
}

/* What the phase left: each event's last reading and its charged total. */
static void print_phase(const struct harness *h, const char *phase)
{
	const struct cpu_state *cs = &h->cs[h->cpu];

	printf("{\"phase\":\"%s\",\"read_errors\":%llu,\"primed\":%u", phase,
	       (unsigned long long)cs->stats.read_errors, cs->primed);
	print_counters("last", cs->last);
	print_counters("total", cs->buckets[BUCKET_TOTAL * 2].ev);
	printf("}\n");
	fflush(stdout);
}

static int run_phases(struct harness *h)
{
	__u32 key = LEADER * h->ncpus + h->cpu;

	if (charge(h, 3))
		return -1;
	print_phase(h, "both read");
	/* an empty slot fails the leader's read with -ENOENT */
	if (bpf_map_delete_elem(bpf_map__fd(h->skel->maps.counters), &key))
		return fail("emptying the leader's slot");
	if (charge(h, 2))
		return -1;
	print_phase(h, "leader fails");
	if (put_slot(h, LEADER) || charge(h, 3))
		return -1;
	print_phase(h, "leader back");
	return 0;
}

int main(int argc, char **argv)
{
	struct harness h = { .fd = -1 };
	int ret = 1;

	h.ncpus = libbpf_num_possible_cpus();
	h.cpu = argc > 1 ? atoi(argv[1]) : 0;
	if (h.ncpus <= 0 || h.cpu < 0 || h.cpu >= h.ncpus) {
		fprintf(stderr, "usage: member_reads [CPU]\n");
		return 2;
	}
	/* per-CPU map values are padded to 8 bytes per CPU, as struct cpu_state is */
	h.cs = calloc(h.ncpus, sizeof(*h.cs));
	if (!h.cs)
		goto cleanup;
	if (!load(&h) && !setup(&h) && !run_phases(&h))
		ret = 0;
cleanup:
	member_reads_bpf__destroy(h.skel);
	if (h.fd >= 0)
		close(h.fd);
	free(h.cs);
	return ret;
}
