// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* readplan.c: how every fixture CPU's events are read at a switch, with and
 * without loads from memory, the exact helper calls per switch of each
 * core type, the -e lists, and groups that must not be read from memory. */
#include "pmu/discover.h"
#include "pmu/readplan.h"
#include "test.h"

#define FX(name) "../fixtures/sysfs/" name

static struct td_discovery d;
static struct read_plan plan;

static void plan_fixture(const char *root, int level, bool memory)
{
	char err[256] = "";

	if (td_discover(root, level, &d, err, sizeof(err)))
		test_fail(__FILE__, __LINE__, "td_discover(%s): %s", root, err);
	read_plan__build(&plan, &d.events, &d.cfg, memory);
}

static int helper_calls(int part)
{
	return part < plan.nr_parts ? plan.parts[part].helper_calls : -1;
}

/* Every event of [lo, hi) read through the helper. */
static void expect_helpers(int line, int lo, int hi)
{
	for (int i = lo; i < hi; i++)
		if (plan.ev[i].how != READ_HELPER)
			test_fail(__FILE__, line, "event %d (%s): read %d, want the helper", i,
				  d.events.ev[i].name, plan.ev[i].how);
}

/* Events [lo, hi) loaded from memory after the read of *via*. */
static void expect_members(int line, int lo, int hi, int via)
{
	for (int i = lo; i < hi; i++)
		if (plan.ev[i].how != READ_MEMORY || plan.ev[i].via != via)
			test_fail(__FILE__, line, "event %d (%s): read %d via %d, want memory via %d",
				  i, d.events.ev[i].name, plan.ev[i].how, plan.ev[i].via, via);
}

#define HELPERS(lo, hi) expect_helpers(__LINE__, lo, hi)
#define MEMBERS(lo, hi, via) expect_members(__LINE__, lo, hi, via)

/* PERF_METRICS: one helper call for slots and its metrics, one each for
 * cycles and instructions; every event through the helper without memory. */
static void check_perf_metrics(const char *root, int level, int nr_metrics)
{
	int ipc = 1 + nr_metrics;

	plan_fixture(root, level, true);
	CHECK_INT(d.events.nr, ipc + 2);
	CHECK_INT(plan.nr_parts, 1);
	HELPERS(0, 1);
	MEMBERS(1, ipc, 0);
	HELPERS(ipc, ipc + 2);
	CHECK_INT(helper_calls(0), 3);
	CHECK(read_plan__uses_memory(&plan));
	CHECK_INT(plan.clock, -1);

	plan_fixture(root, level, false);
	HELPERS(0, d.events.nr);
	CHECK_INT(helper_calls(0), ipc + 2);
	CHECK(!read_plan__uses_memory(&plan));
}

TEST(readplan_icelake)
{
	check_perf_metrics(FX("icelake"), 1, 4);
	/* level 2 asked for, level 1 built: the same plan */
	check_perf_metrics(FX("icelake"), 2, 4);
}

TEST(readplan_sapphirerapids_level1)
{
	check_perf_metrics(FX("sapphirerapids"), 1, 4);
}

TEST(readplan_sapphirerapids_level2)
{
	check_perf_metrics(FX("sapphirerapids"), 2, 8);
}

/* The VM lists the events it then refuses: the plan is that of Ice Lake. */
TEST(readplan_vm_topdown_refused)
{
	check_perf_metrics(FX("vm-topdown-refused"), 1, 4);
}

/* P-cores read the PERF_METRICS group once; the E-cores' group is on
 * generic counters, each brought up to date by its own read only. */
TEST(readplan_alderlake_hybrid)
{
	for (int level = 1; level <= 2; level++) {
		plan_fixture(FX("alderlake"), level, true);
		CHECK_INT(plan.nr_parts, 2);
		CHECK_INT(plan.parts[0].ev_lo, 0);
		CHECK_INT(plan.parts[0].ev_hi, 7);
		CHECK_INT(plan.parts[1].ev_lo, 7);
		CHECK_INT(plan.parts[1].ev_hi, 12);
		HELPERS(0, 1);
		MEMBERS(1, 5, 0);
		HELPERS(5, 12);
		CHECK_INT(helper_calls(0), 3);
		CHECK_INT(helper_calls(1), 5);
	}
	plan_fixture(FX("alderlake"), 1, false);
	CHECK_INT(helper_calls(0), 7);
	CHECK_INT(helper_calls(1), 5);
}

/* Methods on generic counters: one helper call per event, memory or not. */
static void check_generic(const char *root, int nr_events)
{
	for (int memory = 0; memory <= 1; memory++) {
		for (int level = 1; level <= 2; level++) {
			plan_fixture(root, level, memory);
			CHECK_INT(d.events.nr, nr_events);
			CHECK_INT(plan.nr_parts, 1);
			HELPERS(0, nr_events);
			CHECK_INT(helper_calls(0), nr_events);
			CHECK(!read_plan__uses_memory(&plan));
		}
	}
}

TEST(readplan_intel_generic)
{
	check_generic(FX("skylake"), 6);	/* HT: no cycles beside the group */
	check_generic(FX("skylake-smt"), 6);
	check_generic(FX("skylake-nosmt"), 7);
}

TEST(readplan_amd)
{
	check_generic(FX("zen4"), 6);		/* the group takes every counter */
	check_generic(FX("zen5"), 6);
}

TEST(readplan_arm)
{
	check_generic(FX("neoverse-n2"), 7);
}

/* No TopDown: the software list tdtop falls back to. cpu-clock times the
 * slices with its one helper call; the in-place counts come from memory. */
TEST(readplan_software_events)
{
	struct event_list el;
	char err[256];

	plan_fixture(FX("vm-nopmu"), 1, true);
	CHECK_INT(d.cfg.nr_parts, 0);
	CHECK_INT(event_list__parse(FX("vm-nopmu"), "cpu-clock,context-switches,page-faults,task-clock",
			       &el, err, sizeof(err)), 0);
	read_plan__build(&plan, &el, NULL, true);
	CHECK_INT(plan.nr_parts, 1);
	CHECK_INT(plan.clock, 0);
	CHECK_INT(plan.ev[0].how, READ_CLOCK);
	CHECK_INT(plan.ev[1].how, READ_MEMORY);
	CHECK_INT(plan.ev[1].via, 1);
	CHECK_INT(plan.ev[2].how, READ_MEMORY);
	CHECK_INT(plan.ev[2].via, 2);
	CHECK_INT(plan.ev[3].how, READ_HELPER);
	for (int i = 0; i < 4; i++)
		CHECK(plan.ev[i].always_on);
	CHECK_INT(helper_calls(0), 2);

	read_plan__build(&plan, &el, NULL, false);
	CHECK_INT(plan.ev[0].how, READ_CLOCK);
	CHECK_INT(plan.ev[1].how, READ_HELPER);
	CHECK_INT(helper_calls(0), 4);

	CHECK_INT(event_list__parse(FX("vm-nopmu"), "cycles,instructions", &el, err, sizeof(err)), 0);
	read_plan__build(&plan, &el, NULL, true);
	CHECK_INT(plan.clock, -1);
	CHECK(!plan.ev[0].always_on);
	CHECK_INT(helper_calls(0), 2);
}

/* Only metrics of a slots-led PERF_METRICS group ride on the leader's read. */
TEST(readplan_not_members)
{
	plan_fixture(FX("sapphirerapids"), 1, true);
	/* a generic-counter event in the slots group */
	d.cfg.role[4] = TD_UOP_DROPPING;
	read_plan__build(&plan, &d.events, &d.cfg, true);
	MEMBERS(1, 4, 0);
	HELPERS(4, 5);
	CHECK_INT(helper_calls(0), 4);

	/* a group led by something else than slots */
	plan_fixture(FX("sapphirerapids"), 1, true);
	d.cfg.role[0] = TD_CYCLES;
	read_plan__build(&plan, &d.events, &d.cfg, true);
	HELPERS(0, d.events.nr);

	/* the same events without TopDown roles: no PERF_METRICS to trust */
	plan_fixture(FX("sapphirerapids"), 1, true);
	read_plan__build(&plan, &d.events, NULL, true);
	HELPERS(0, d.events.nr);
	CHECK_INT(helper_calls(0), d.events.nr);
}

/* --list: each event's read and the helper call count of each core type. */
TEST(readplan_print)
{
	char buf[8192];
	FILE *f;

	plan_fixture(FX("alderlake"), 1, true);
	f = fmemopen(buf, sizeof(buf), "w");
	read_plan__print(&plan, &d.events, &d.cfg, f);
	fclose(f);
	CHECK(strstr(buf, "\nReads at each switch (kernels with bpf_rdonly_cast()"));
	CHECK(strstr(buf, "  cpu_core:\n"));
	CHECK(strstr(buf, "     0  cpu_core/slots/                helper\n"));
	CHECK(strstr(buf, "     1  cpu_core/topdown-retiring/     memory (current after the read "
			  "of 0, whose times it takes)\n"));
	CHECK(strstr(buf, "  helper calls per switch: 3\n  cpu_atom:\n"));
	CHECK(strstr(buf, "    11  cpu_atom/instructions/         helper\n"
			  "  helper calls per switch: 5\n"));

	read_plan__build(&plan, &d.events, &d.cfg, false);
	f = fmemopen(buf, sizeof(buf), "w");
	read_plan__print(&plan, &d.events, &d.cfg, f);
	fclose(f);
	CHECK(strstr(buf, "(--helper-reads: every event through the helper)"));
	CHECK(strstr(buf, "  helper calls per switch: 7\n  cpu_atom:\n"));
	CHECK(!strstr(buf, "memory"));
}
