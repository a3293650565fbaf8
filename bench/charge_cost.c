// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Prints what each part of tdtop's switch program costs in a hot loop
 * (see charge_cost.bpf.c): the medians over REPS test runs on one CPU, with
 * cpu-clock, page-faults and context-switches open on every CPU as
 * `tdtop -e cpu-clock,page-faults,context-switches` opens them.
 *
 *   sudo .output/std/bench/charge_cost [-c CPU] [-r REPS]
 *
 * Needs bpf_rdonly_cast() (kernel 6.2 or later). Exit status 0, 1 on a
 * failure, 2 on a usage error.
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
#include "charge_cost.skel.h"

#define NR_EVENTS 3
#define MAX_REPS 1001
/* one per enum part in charge_cost.bpf.c */
#define NR_PART_PROGS 8

static const __u64 event_config[NR_EVENTS] = {
	PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_CONTEXT_SWITCHES,
};

static const char *const part_names[] = {
	"charge(), reads from memory (on_switch_mem)",
	"charge(), helper reads (on_switch)",
	"bpf_ktime_get_ns()",
	"task table lookup (hit)",
	"bpf_perf_event_read(cpu-clock)",
	"bpf_perf_event_read_value(cpu-clock)",
	"page-faults from struct perf_event",
	"empty loop body",
};

_Static_assert(sizeof(part_names) / sizeof(part_names[0]) == NR_PART_PROGS, "a name per part");

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

static int setup_counters(struct charge_cost_bpf *skel, int ncpus, int *fds)
{
	int map_fd = bpf_map__fd(skel->maps.counters);

	for (int e = 0; e < NR_EVENTS; e++) {
		for (int cpu = 0; cpu < ncpus; cpu++) {
			struct perf_event_attr attr = {
				.type = PERF_TYPE_SOFTWARE,
				.size = sizeof(attr),
				.config = event_config[e],
			};
			__u32 key = e * ncpus + cpu;
			int fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0);

			/* an offline CPU keeps an empty slot */
			if (fd < 0 && errno == ENODEV)
				continue;
			if (fd < 0 || bpf_map_update_elem(map_fd, &key, &fd, BPF_ANY)) {
				fprintf(stderr, "charge_cost: failed to open event %d on CPU %d: %s\n",
					e, cpu, strerror(errno));
				if (fd >= 0)
					close(fd);
				return -1;
			}
			fds[key] = fd;
		}
	}
	return 0;
}

static int setup_cpu_states(struct charge_cost_bpf *skel, int ncpus)
{
	struct cpu_state *cs = calloc(ncpus, sizeof(*cs));
	__u32 zero = 0;
	int ret;

	if (!cs)
		return -1;
	for (int cpu = 0; cpu < ncpus; cpu++)
		cs[cpu].ev_hi = NR_EVENTS;
	ret = bpf_map_update_elem(bpf_map__fd(skel->maps.cpu_states), &zero, cs, BPF_ANY);
	free(cs);
	return ret;
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

int main(int argc, char **argv)
{
	struct bpf_program *progs[NR_PART_PROGS];
	static __u64 samples[NR_PART_PROGS][MAX_REPS];
	struct charge_cost_bpf *skel = NULL;
	int ncpus, cpu = 0, reps = 11, opt, ret = 1, *fds = NULL;

	while ((opt = getopt(argc, argv, "c:r:h")) != -1) {
		switch (opt) {
		case 'c':
			if (parse_int(optarg, 0, 4095, &cpu)) {
				fprintf(stderr, "charge_cost: invalid CPU '%s'\n", optarg);
				return 2;
			}
			break;
		case 'r':
			if (parse_int(optarg, 1, MAX_REPS, &reps)) {
				fprintf(stderr, "charge_cost: invalid repetitions '%s' (1..%d)\n",
					optarg, MAX_REPS);
				return 2;
			}
			break;
		default:
			fprintf(stderr, "usage: %s [-c CPU] [-r REPS]\n", argv[0]);
			return 2;
		}
	}
	ncpus = libbpf_num_possible_cpus();
	if (ncpus <= 0 || cpu >= ncpus) {
		fprintf(stderr, "charge_cost: CPU %d does not exist\n", cpu);
		return 2;
	}
	fds = malloc(sizeof(*fds) * NR_EVENTS * ncpus);
	skel = charge_cost_bpf__open();
	if (!fds || !skel) {
		fprintf(stderr, "charge_cost: failed to open the BPF object\n");
		goto cleanup;
	}
	for (int i = 0; i < NR_EVENTS * ncpus; i++)
		fds[i] = -1;
	/* only the measuring programs: nothing is attached */
	bpf_program__set_autoload(skel->progs.on_switch, false);
	bpf_program__set_autoload(skel->progs.on_switch_mem, false);
	bpf_program__set_autoload(skel->progs.flush, false);
	bpf_program__set_autoload(skel->progs.on_free, false);
	bpf_program__set_autoload(skel->progs.on_exec, false);
	bpf_program__set_autoload(skel->progs.on_rename, false);
	skel->rodata->nr_cpus = ncpus;
	skel->rodata->nr_counters = NR_EVENTS * ncpus;
	skel->rodata->always_on = (1u << NR_EVENTS) - 1;
	skel->rodata->in_memory = 6;	/* page-faults, context-switches */
	bpf_map__set_max_entries(skel->maps.counters, NR_EVENTS * ncpus);
	bpf_map__set_max_entries(skel->maps.tasks, 1024);
	if (charge_cost_bpf__load(skel)) {
		fprintf(stderr, "charge_cost: failed to load the BPF object (root, and kernel 6.2 or "
				"later for bpf_rdonly_cast(), are needed)\n");
		goto cleanup;
	}
	if (setup_counters(skel, ncpus, fds) || setup_cpu_states(skel, ncpus))
		goto cleanup;

	progs[0] = skel->progs.cost_charge_mem;
	progs[1] = skel->progs.cost_charge_helper;
	progs[2] = skel->progs.cost_clock;
	progs[3] = skel->progs.cost_task_lookup;
	progs[4] = skel->progs.cost_read;
	progs[5] = skel->progs.cost_read_value;
	progs[6] = skel->progs.cost_read_memory;
	progs[7] = skel->progs.cost_empty;
	for (int r = 0; r < reps; r++) {
		/* the parts take turns, so that drift spreads over all of them */
		for (int p = 0; p < NR_PART_PROGS; p++) {
			LIBBPF_OPTS(bpf_test_run_opts, topts, .flags = BPF_F_TEST_RUN_ON_CPU,
				    .cpu = cpu);

			if (bpf_prog_test_run_opts(bpf_program__fd(progs[p]), &topts)) {
				fprintf(stderr, "charge_cost: test run on CPU %d failed: %s\n", cpu,
					strerror(errno));
				goto cleanup;
			}
			samples[p][r] = skel->bss->cost[p];
		}
	}
	printf("ns per call, hot loop on CPU %d, median of %d runs of 20000 calls\n", cpu, reps);
	for (int p = 0; p < NR_PART_PROGS; p++) {
		qsort(samples[p], reps, sizeof(samples[p][0]), cmp_u64);
		printf("%8.1f  %s\n", samples[p][reps / 2] / 100.0, part_names[p]);
	}
	ret = 0;
cleanup:
	if (fds) {
		for (int i = 0; i < NR_EVENTS * ncpus; i++)
			if (fds[i] >= 0)
				close(fds[i]);
	}
	charge_cost_bpf__destroy(skel);
	free(fds);
	return ret;
}
