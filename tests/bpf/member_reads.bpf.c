// SPDX-License-Identifier: GPL-2.0
/*
 * charge() as on_switch_mem runs it, in a program a test runs on one CPU:
 * tests/bpf/member_reads.c gives it a group member loaded from memory after
 * its leader's helper read, a software stand-in for the PERF_METRICS group
 * that a machine without a hardware PMU cannot open.
 */
#include "tdtop.bpf.c"

SEC("raw_tp")
int charge_mem(void *ctx)
{
	if (!counters_addr)
		counters_addr = (__u64)(unsigned long)&counters;
	charge(bpf_get_current_task_btf(), false, true);
	return 0;
}
