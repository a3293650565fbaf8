// SPDX-License-Identifier: GPL-2.0
/*
 * What each part of the switch program costs, in a hot loop: bpf_loop()
 * runs one part many times inside a single test run on one CPU, timed with
 * the BPF clock. The parts are tdtop's own functions, included from
 * bpf/tdtop.bpf.c, so this measures the code that runs at every switch,
 * without the cache and TLB misses a real switch adds.
 */
#include "../bpf/tdtop.bpf.c"

#define LOOPS 20000

/* In the order bench/charge_cost.c names them. */
enum part {
	PART_CHARGE_MEM,	/* charge() as on_switch_mem runs it */
	PART_CHARGE_HELPER,	/* charge() as on_switch runs it */
	PART_CLOCK,		/* bpf_ktime_get_ns() */
	PART_TASK_LOOKUP,	/* the task table lookup (a hit) */
	PART_READ,		/* bpf_perf_event_read() of cpu-clock */
	PART_READ_VALUE,	/* bpf_perf_event_read_value() of cpu-clock */
	PART_READ_MEMORY,	/* page-faults loaded from struct perf_event */
	PART_EMPTY,		/* the loop itself */
	NR_PARTS,
};

/* Per iteration, in hundredths of a ns. */
__u64 cost[NR_PARTS];
/* Results summed so that no part can be optimised away. */
__u64 keep;

static long part_charge_mem(__u64 i, void *ctx)
{
	charge(bpf_get_current_task_btf(), false, true);
	return 0;
}

static long part_charge_helper(__u64 i, void *ctx)
{
	charge(bpf_get_current_task_btf(), false, false);
	return 0;
}

static long part_clock(__u64 i, void *ctx)
{
	keep += bpf_ktime_get_ns();
	return 0;
}

static long part_task_lookup(__u64 i, void *ctx)
{
	struct task_struct *p = bpf_get_current_task_btf();
	struct task_key key = { .tid = p->pid, .start_ns = p->start_time };

	keep += bpf_map_lookup_elem(&tasks, &key) != NULL;
	return 0;
}

/* Event 0 is cpu-clock and event 1 page-faults (see charge_cost.c). */
static long part_read(__u64 i, void *ctx)
{
	struct bpf_perf_event_value v;

	if (!read_counter(bpf_get_smp_processor_id(), true, 0, &v))
		keep += v.counter;
	return 0;
}

static long part_read_value(__u64 i, void *ctx)
{
	struct bpf_perf_event_value v;

	if (!bpf_perf_event_read_value(&counters, bpf_get_smp_processor_id(), &v, sizeof(v)))
		keep += v.counter;
	return 0;
}

static long part_read_memory(__u64 i, void *ctx)
{
	struct bpf_perf_event_value v;

	if (!read_in_memory(nr_cpus + bpf_get_smp_processor_id(), 0, &v))
		keep += v.counter;
	return 0;
}

static long part_empty(__u64 i, void *ctx)
{
	keep++;
	return 0;
}

#define PART(name, fn, slot)                                              \
	SEC("raw_tp")                                                     \
	int name(void *ctx)                                               \
	{                                                                 \
		__u64 t0;                                                 \
									  \
		if (!counters_addr)                                       \
			counters_addr = (__u64)(unsigned long)&counters;  \
		t0 = bpf_ktime_get_ns();                                  \
		bpf_loop(LOOPS, fn, NULL, 0);                             \
		cost[slot] = (bpf_ktime_get_ns() - t0) * 100 / LOOPS;     \
		return 0;                                                 \
	}

PART(cost_charge_mem, part_charge_mem, PART_CHARGE_MEM)
PART(cost_charge_helper, part_charge_helper, PART_CHARGE_HELPER)
PART(cost_clock, part_clock, PART_CLOCK)
PART(cost_task_lookup, part_task_lookup, PART_TASK_LOOKUP)
PART(cost_read, part_read, PART_READ)
PART(cost_read_value, part_read_value, PART_READ_VALUE)
PART(cost_read_memory, part_read_memory, PART_READ_MEMORY)
PART(cost_empty, part_empty, PART_EMPTY)
