// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* TopDown discovery (pmu/discover*.c, sysinfo.c, groups.c, describe.c,
 * open_failure.c): the method, groups, roles and parts built for every
 * fixture CPU, variants of them in scratch trees, --list, the open failure
 * reasons, and counts through metrics_compute() with the discovered roles. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>
#include "pmu/discover.h"
#include "rows/metrics.h"
#include "fixture.h"
#include "test.h"

#define FX(name) "../fixtures/sysfs/" name

static struct td_discovery d;
static char err[256];

static void discover(const char *root, int level)
{
	err[0] = '\0';
	if (td_discover(root, level, &d, err, sizeof(err)))
		test_fail(__FILE__, __LINE__, "td_discover(%s): %s", root, err);
}

/* One event of the list: attr fields, group and role. */
static void expect_ev(int line, int i, __u32 type, __u64 config, int leader, int role)
{
	const struct event_spec *e = &d.events.ev[i];
	struct perf_event_attr a;

	if (i >= d.events.nr) {
		test_fail(__FILE__, line, "event %d missing (only %d)", i, d.events.nr);
		return;
	}
	event_spec__to_attr(e, &a);
	if (a.type != type || a.config != config || a.config1 != 0 || e->leader != leader ||
	    d.cfg.role[i] != role)
		test_fail(__FILE__, line,
			  "event %d (%s): type %u config %#llx config1 %#llx leader %d role %s; "
			  "want type %u config %#llx leader %d role %s", i, e->name, a.type,
			  (unsigned long long)a.config, (unsigned long long)a.config1, e->leader,
			  td_role_name(d.cfg.role[i]), type, (unsigned long long)config, leader,
			  td_role_name(role));
}

#define EV(i, type, config, leader, role) expect_ev(__LINE__, i, type, config, leader, role)

/*
 * What holds for every discovered list: leaders come first and lead
 * themselves, exactly the group leaders are pinned, nothing samples or
 * inherits, every member has the same exclude bits, and the parts tile
 * [0, nr) in order with every event in one part having a role.
 */
static void check_invariants(int line)
{
	struct perf_event_attr first, a;
	int next = 0;

	for (int i = 0; i < d.events.nr; i++) {
		const struct event_spec *e = &d.events.ev[i];
		bool leads_group = false;

		for (int j = i + 1; j < d.events.nr; j++)
			leads_group |= d.events.ev[j].leader == i;
		event_spec__to_attr(e, &a);
		if (!i)
			first = a;
		if (e->leader > i || d.events.ev[e->leader].leader != e->leader)
			test_fail(__FILE__, line, "event %d: leader %d is not a group leader", i,
				  e->leader);
		if (a.pinned != (e->leader == i && leads_group))
			test_fail(__FILE__, line, "event %d: pinned %d", i, (int)a.pinned);
		if (a.sample_period || a.freq || a.inherit || a.sample_type)
			test_fail(__FILE__, line, "event %d samples or inherits", i);
		if (a.exclude_user != first.exclude_user || a.exclude_kernel != first.exclude_kernel ||
		    a.exclude_hv != first.exclude_hv || a.exclude_idle != first.exclude_idle)
			test_fail(__FILE__, line, "event %d: exclude bits differ", i);
		if (d.cfg.role[i] == TD_NO_ROLE)
			test_fail(__FILE__, line, "event %d has no role", i);
	}
	for (int p = 0; p < d.cfg.nr_parts; p++) {
		const struct td_part *part = &d.cfg.parts[p];

		if (part->ev_lo != next || part->ev_hi <= part->ev_lo)
			test_fail(__FILE__, line, "part %d: events [%d, %d) after %d", p,
				  part->ev_lo, part->ev_hi, next);
		for (int i = part->ev_lo; i < part->ev_hi; i++)
			if (d.events.ev[i].leader < part->ev_lo)
				test_fail(__FILE__, line, "event %d leads from another part", i);
		next = part->ev_hi;
	}
	if (next != d.events.nr)
		test_fail(__FILE__, line, "parts cover %d of %d events", next, d.events.nr);
	for (int i = d.events.nr; i < MAX_EVENTS; i++)
		if (d.cfg.role[i] != TD_NO_ROLE)
			test_fail(__FILE__, line, "unused event %d has role %d", i, d.cfg.role[i]);
}

#define INVARIANTS() check_invariants(__LINE__)

static int find_role(int role)
{
	for (int i = 0; i < d.events.nr; i++)
		if (d.cfg.role[i] == role)
			return i;
	return -1;
}

static bool has_note(const char *s)
{
	for (int i = 0; i < d.nr_notes; i++)
		if (strstr(d.notes[i], s))
			return true;
	return false;
}

/* --list into a string (static buffer). */
static const char *listing(void)
{
	static char buf[16384];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	if (!f)
		return "";
	td_discovery__print(&d, f);
	fclose(f);
	return buf;
}

#define CHECK_HAS(hay, needle)                                                             \
	do {                                                                               \
		if (!strstr((hay), (needle)))                                              \
			test_fail(__FILE__, __LINE__, "'%s' not found in:\n%s", (needle),  \
				  (hay));                                                  \
	} while (0)

/* ------------------------------------------------------------------ */
/* Scratch trees                                                       */
/* ------------------------------------------------------------------ */

/* <root>/<rel> with *data*, or when that is NULL linked to the fixture's own. */
static void put_or_link(const char *root, const char *fixture, const char *rel, const char *data)
{
	char target[PATH_MAX];

	if (data) {
		fixture_put(root, rel, data);
		return;
	}
	snprintf(target, sizeof(target), "%s/%s", fixture, rel);
	fixture_link(root, rel, target);
}

/*
 * A fixture's PMUs with another cpuinfo, watchdog or SMT state: NULL (or
 * smt < 0) keeps the fixture's own.
 */
static char *overlay(const char *fixture, const char *cpuinfo, const char *nmi, int smt)
{
	char *root = fixture_new("disc");

	if (!root)
		return NULL;
	put_or_link(root, fixture, "bus", NULL);
	if (smt >= 0)
		fixture_put(root, "devices/system/cpu/smt/active", smt ? "1\n" : "0\n");
	else
		put_or_link(root, fixture, "devices", NULL);
	put_or_link(root, fixture, "cpuinfo", cpuinfo);
	put_or_link(root, fixture, "nmi_watchdog", nmi);
	return root;
}

#define DEV FIXTURE_DEVICES

/* What every Intel core PMU has, for the trees below to add TopDown events to. */
static const struct fixture_file intel_core[] = {
	{ "format/event", "config:0-7\n" }, { "format/umask", "config:8-15\n" },
	{ "events/cpu-cycles", "event=0x3c\n" }, { "events/instructions", "event=0xc0\n" },
	{ NULL },
};

/* A scratch tree of one Intel core PMU, intel_core and *files*, discovered at level 1. */
static char *discover_core_pmu(const char *pmu, const struct fixture_file *files)
{
	char *root = fixture_new("disc");
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), DEV "%s", pmu);
	fixture_put_files(root, dir, intel_core);
	fixture_put_files(root, dir, files);
	discover(root, 1);
	return root;
}

/* ------------------------------------------------------------------ */
/* Intel PERF_METRICS                                                  */
/* ------------------------------------------------------------------ */

static void expect_perf_metrics_l1(int line)
{
	expect_ev(line, 0, 4, 0x0400, 0, TD_SLOTS);
	expect_ev(line, 1, 4, 0x8000, 0, TD_RETIRING);
	expect_ev(line, 2, 4, 0x8100, 0, TD_BAD_SPEC);
	expect_ev(line, 3, 4, 0x8200, 0, TD_FE_BOUND);
	expect_ev(line, 4, 4, 0x8300, 0, TD_BE_BOUND);
}

TEST(discover_icelake)
{
	for (int level = 1; level <= 2; level++) {
		discover(FX("icelake"), level);
		INVARIANTS();
		CHECK_INT(d.cfg.nr_parts, 1);
		CHECK_INT(d.cfg.parts[0].method, TD_PERF_METRICS);
		CHECK_STR(d.cfg.parts[0].pmu, "cpu");
		CHECK(d.cfg.parts[0].all_cpus);
		CHECK_INT(d.cfg.max_level, 1);
		CHECK_INT(d.levels_available, 1);
		CHECK(!d.cfg.per_core_only);
		CHECK_INT(d.events.nr, 7);
		expect_perf_metrics_l1(__LINE__);
		EV(5, 4, 0x3c, 5, TD_CYCLES);
		EV(6, 4, 0xc0, 6, TD_INSTRUCTIONS);
		CHECK(d.events.ev[0].pinned);
		CHECK(!d.events.ev[5].pinned && !d.events.ev[6].pinned);
		CHECK_STR(d.cpu_model, "Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz");
		CHECK_INT(d.cpu.family, 6);
		CHECK_INT(d.cpu.model, 0x6a);
		CHECK(d.smt_on && d.smt_known);
		CHECK_INT(d.nmi_watchdog, 1);
		CHECK_STR(d.reason, "");
		CHECK(has_note("level 2 not available") == (level == 2));
	}
}

TEST(discover_sapphirerapids_levels)
{
	discover(FX("sapphirerapids"), 1);
	INVARIANTS();
	CHECK_INT(d.cfg.max_level, 1);
	CHECK_INT(d.levels_available, 2);
	CHECK_INT(d.events.nr, 7);
	expect_perf_metrics_l1(__LINE__);
	/* level 1 reads none of the level-2 metrics */
	for (int i = 0; i < d.events.nr; i++)
		CHECK(d.events.ev[i].config < 0x8400 || d.events.ev[i].config > 0x87ff);
	CHECK_INT(find_role(TD_HEAVY_OPS), -1);
	CHECK_INT(find_role(TD_MEM_BOUND), -1);

	discover(FX("sapphirerapids"), 2);
	INVARIANTS();
	CHECK_INT(d.cfg.max_level, 2);
	CHECK_INT(d.events.nr, 11);
	expect_perf_metrics_l1(__LINE__);
	EV(5, 4, 0x8400, 0, TD_HEAVY_OPS);
	EV(6, 4, 0x8500, 0, TD_BR_MISPREDICT);
	EV(7, 4, 0x8600, 0, TD_FETCH_LAT);
	EV(8, 4, 0x8700, 0, TD_MEM_BOUND);
	EV(9, 4, 0x3c, 9, TD_CYCLES);
	EV(10, 4, 0xc0, 10, TD_INSTRUCTIONS);
	CHECK_INT(d.cfg.parts[0].ev_hi, 11);
	CHECK_INT(d.nmi_watchdog, 0);
	CHECK_INT(d.nr_notes, 0);
}

TEST(discover_alderlake_hybrid)
{
	const struct td_part *core, *atom;

	discover(FX("alderlake"), 1);
	INVARIANTS();
	CHECK_INT(d.cfg.nr_parts, 2);
	core = &d.cfg.parts[0];
	atom = &d.cfg.parts[1];
	CHECK_STR(core->pmu, "cpu_core");
	CHECK_INT(core->method, TD_PERF_METRICS);
	CHECK_INT(core->ev_lo, 0);
	CHECK_INT(core->ev_hi, 7);
	CHECK(!core->all_cpus);
	CHECK_INT(core->cpus.nr, 16);
	CHECK(pmu_cpus__has(&core->cpus, 0) && pmu_cpus__has(&core->cpus, 15));
	CHECK(!pmu_cpus__has(&core->cpus, 16));
	expect_perf_metrics_l1(__LINE__);
	EV(5, 4, 0x3c, 5, TD_CYCLES);
	EV(6, 4, 0xc0, 6, TD_INSTRUCTIONS);

	CHECK_STR(atom->pmu, "cpu_atom");
	CHECK_INT(atom->method, TD_INTEL_ATOM);
	CHECK_INT(atom->slot_width, 5);
	CHECK_INT(atom->ev_lo, 7);
	CHECK_INT(atom->ev_hi, 12);
	CHECK_INT(atom->cpus.nr, 8);
	CHECK(pmu_cpus__has(&atom->cpus, 16) && pmu_cpus__has(&atom->cpus, 23));
	CHECK(!pmu_cpus__has(&atom->cpus, 15));
	EV(7, 10, 0x3c, 7, TD_CYCLES);
	EV(8, 10, 0xc2, 7, TD_RETIRING);
	EV(9, 10, 0x71, 7, TD_FE_BOUND);
	EV(10, 10, 0x74, 7, TD_BE_BOUND);
	EV(11, 10, 0xc0, 11, TD_INSTRUCTIONS);
	CHECK(d.events.ev[7].pinned);
	CHECK_INT(d.events.nr, 12);

	/* the E-cores have no level 2: the P-core metrics are not read either */
	discover(FX("alderlake"), 2);
	INVARIANTS();
	CHECK_INT(d.cfg.max_level, 1);
	CHECK_INT(d.events.nr, 12);
	CHECK_INT(find_role(TD_HEAVY_OPS), -1);
	CHECK(has_note("level 2 not available"));
}

/* An unknown hybrid model keeps its P-cores and says what the E-cores lack. */
TEST(discover_hybrid_unknown_atom_width)
{
	static const char cpuinfo[] = "vendor_id\t: GenuineIntel\ncpu family\t: 6\n"
				      "model\t\t: 153\nmodel name\t: Future Intel\n\n";
	char *root = overlay(FX("alderlake"), cpuinfo, NULL, -1);

	discover(root, 1);
	INVARIANTS();
	CHECK_INT(d.cfg.nr_parts, 1);
	CHECK_STR(d.cfg.parts[0].pmu, "cpu_core");
	CHECK(has_note("CPUs of cpu_atom have no TopDown"));
	CHECK(has_note("slot width"));
	fixture_remove(root);
}

/*
 * Three core types (Arrow Lake-H style): with IPC events they exceed
 * MAX_EVENTS, so they are built again without them.
 */
TEST(discover_three_core_types_drop_ipc)
{
	char *root = overlay(FX("alderlake"), NULL, NULL, -1);
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/bus", root);
	CHECK_INT(unlink(path), 0);
	fixture_link(root, DEV "cpu_core", FX("alderlake") "/" DEV "cpu_core");
	fixture_link(root, DEV "cpu_atom", FX("alderlake") "/" DEV "cpu_atom");
	fixture_link(root, DEV "cpu_lowpower", FX("alderlake") "/" DEV "cpu_atom");
	discover(root, 1);
	INVARIANTS();
	CHECK_INT(d.cfg.nr_parts, 3);
	CHECK_STR(d.cfg.parts[2].pmu, "cpu_lowpower");
	CHECK_INT(d.cfg.parts[2].slot_width, 6);
	CHECK_INT(d.events.nr, 13);
	CHECK_INT(find_role(TD_INSTRUCTIONS), -1);
	CHECK_INT(d.cfg.role[d.cfg.parts[1].ev_lo], TD_CYCLES);
	CHECK(has_note("IPC not counted"));
	fixture_remove(root);
}

/* Skymont's events name the width whatever the model. */
TEST(discover_atom_skymont_encoding)
{
	static const struct fixture_file atom[] = {
		{ "type", "10\n" }, { "cpus", "4-7\n" },
		{ "events/topdown-retiring", "event=0xc2,umask=0x02" },
		{ "events/topdown-fe-bound", "event=0x9c,umask=0x01" },
		{ "events/topdown-be-bound", "event=0xa4,umask=0x02" },
		{ NULL },
	};
	char *root = discover_core_pmu("cpu_atom", atom);

	INVARIANTS();
	CHECK_INT(d.cfg.nr_parts, 1);
	CHECK_INT(d.cfg.parts[0].method, TD_INTEL_ATOM);
	CHECK_INT(d.cfg.parts[0].slot_width, 8);
	EV(2, 10, 0x019c, 0, TD_FE_BOUND);
	CHECK_STR(d.cpu_model, "unknown CPU");
	fixture_remove(root);
}

/* ------------------------------------------------------------------ */
/* Intel before Ice Lake                                               */
/* ------------------------------------------------------------------ */

static void expect_generic_group(int line, __u64 total_cfg, __u64 recovery_cfg, double scale)
{
	expect_ev(line, 0, 4, total_cfg, 0, TD_TOTAL_SLOTS);
	expect_ev(line, 1, 4, 0x2c2, 0, TD_SLOTS_RETIRED);
	expect_ev(line, 2, 4, 0x19c, 0, TD_FETCH_BUBBLES);
	expect_ev(line, 3, 4, 0x10e, 0, TD_SLOTS_ISSUED);
	expect_ev(line, 4, 4, recovery_cfg, 0, TD_RECOVERY_BUBBLES);
	if (d.events.ev[0].scale != scale || d.events.ev[4].scale != scale ||
	    d.events.ev[1].scale != 1.0)
		test_fail(__FILE__, line, "scales %g %g %g, want %g", d.events.ev[0].scale,
			  d.events.ev[4].scale, d.events.ev[1].scale, scale);
}

TEST(discover_skylake_smt)
{
	discover(FX("skylake-smt"), 2);
	INVARIANTS();
	CHECK_INT(d.cfg.nr_parts, 1);
	CHECK_INT(d.cfg.parts[0].method, TD_INTEL_GENERIC);
	CHECK_INT(d.cfg.max_level, 1);
	expect_generic_group(__LINE__, 0x20003c, 0x120010d, 2.0);
	/* with HT the group holds all 4 general counters: no cycles */
	CHECK_INT(d.events.nr, 6);
	EV(5, 4, 0xc0, 5, TD_INSTRUCTIONS);
	CHECK_INT(find_role(TD_CYCLES), -1);
	CHECK(d.cfg.per_core_only);
	CHECK_STR(d.per_core_reason,
		  "SMT is on: pre-Ice Lake TopDown counts whole cores, per-task values are not "
		  "valid");
	CHECK(d.smt_on);
}

TEST(discover_skylake_nosmt)
{
	discover(FX("skylake-nosmt"), 1);
	INVARIANTS();
	CHECK_INT(d.cfg.parts[0].method, TD_INTEL_GENERIC);
	expect_generic_group(__LINE__, 0x3c, 0x100010d, 4.0);
	CHECK_INT(d.events.nr, 7);
	EV(5, 4, 0x3c, 5, TD_CYCLES);
	EV(6, 4, 0xc0, 6, TD_INSTRUCTIONS);
	CHECK(!d.cfg.per_core_only);
	CHECK_STR(d.per_core_reason, "");
	CHECK(!d.smt_on && d.smt_known);
}

/* The any=1 form alone (no smt/active file) means the events count the core. */
TEST(discover_skylake_ht_variant_only)
{
	char *root;

	discover(FX("skylake"), 1);
	CHECK(d.cfg.per_core_only);
	CHECK(d.smt_on && !d.smt_known);
	CHECK_STR(d.cpu_model, "unknown CPU");
	CHECK_INT(d.nmi_watchdog, -1);

	/* SMT switched off after boot: still the whole-core form */
	root = overlay(FX("skylake-smt"), NULL, "1\n", 0);
	discover(root, 1);
	CHECK(d.cfg.per_core_only);
	CHECK(!d.smt_on);
	CHECK_HAS(d.per_core_reason, "possible at boot");
	CHECK(has_note("NMI watchdog holds fixed counter 1"));
	fixture_remove(root);
}

/* Silvermont-like: no recovery bubbles, so slots-issued is not read either. */
TEST(discover_generic_without_recovery)
{
	static const struct fixture_file cpu[] = {
		{ "type", "4\n" }, { "events/topdown-total-slots", "event=0x3c\n" },
		{ "events/topdown-total-slots.scale", "2\n" },
		{ "events/topdown-fetch-bubbles", "event=0xca,umask=0x50\n" },
		{ "events/topdown-fetch-bubbles.scale", "2\n" },
		{ "events/topdown-slots-issued", "event=0xc2,umask=0x10\n" },
		{ "events/topdown-slots-retired", "event=0xc2,umask=0x10\n" },
		{ NULL },
	};
	char *root = discover_core_pmu("cpu", cpu);

	INVARIANTS();
	CHECK_INT(d.cfg.parts[0].method, TD_INTEL_GENERIC);
	CHECK_INT(find_role(TD_SLOTS_ISSUED), -1);
	CHECK_INT(find_role(TD_RECOVERY_BUBBLES), -1);
	EV(1, 4, 0x10c2, 0, TD_SLOTS_RETIRED);
	EV(2, 4, 0x50ca, 0, TD_FETCH_BUBBLES);
	CHECK(d.events.ev[2].scale == 2.0);
	fixture_remove(root);
}

/* ------------------------------------------------------------------ */
/* AMD                                                                 */
/* ------------------------------------------------------------------ */

static void expect_amd_core(int line)
{
	expect_ev(line, 0, 4, 0x76, 0, TD_CYCLES);
	expect_ev(line, 1, 4, 0x7aa, 0, TD_AMD_DISPATCHED);
	expect_ev(line, 2, 4, 0xc1, 0, TD_AMD_RETIRED_OPS);
	/* event 0x1a0: bits 8-11 of the event select go to config bits 32-35 */
	expect_ev(line, 3, 4, 0x1000001a0ULL, 0, TD_AMD_NO_OPS_FE);
	expect_ev(line, 4, 4, 0x100001ea0ULL, 0, TD_AMD_BE_STALLS);
}

TEST(discover_zen4)
{
	discover(FX("zen4"), 2);
	INVARIANTS();
	CHECK_INT(d.cfg.nr_parts, 1);
	CHECK_INT(d.cfg.parts[0].method, TD_AMD_ZEN);
	CHECK_INT(d.cfg.parts[0].slot_width, 6);
	CHECK_INT(d.cfg.max_level, 1);
	expect_amd_core(__LINE__);
	/* SMT on and all 6 counters free: smt_contention, but no room for IPC */
	EV(5, 4, 0x1000060a0ULL, 0, TD_AMD_SMT_CONTENTION);
	CHECK_INT(d.events.nr, 6);
	CHECK_INT(find_role(TD_INSTRUCTIONS), -1);
	CHECK(has_note("IPC not counted"));
	CHECK_STR(d.label[3], "de_no_dispatch_per_slot.no_ops_from_frontend");
	CHECK_STR(d.uarch[0], "Zen 4");
	CHECK_STR(d.src[3], "event=0x1a0,umask=0x1");
}

TEST(discover_zen4_watchdog_and_smt)
{
	char *root = overlay(FX("zen4"), NULL, "1\n", -1);

	/* the watchdog holds a counter: smt_contention goes */
	discover(root, 1);
	INVARIANTS();
	expect_amd_core(__LINE__);
	CHECK_INT(d.events.nr, 5);
	CHECK_INT(find_role(TD_AMD_SMT_CONTENTION), -1);
	CHECK(has_note("smt_contention dropped"));
	fixture_remove(root);

	/* SMT off, no watchdog: smt_contention is useless, instructions fit */
	root = overlay(FX("zen4"), NULL, "0\n", 0);
	discover(root, 1);
	INVARIANTS();
	CHECK_INT(d.events.nr, 6);
	EV(5, 4, 0xc0, 5, TD_INSTRUCTIONS);
	CHECK_INT(find_role(TD_AMD_SMT_CONTENTION), -1);
	fixture_remove(root);
}

TEST(discover_zen5)
{
	discover(FX("zen5"), 1);
	INVARIANTS();
	CHECK_INT(d.cfg.parts[0].method, TD_AMD_ZEN);
	CHECK_INT(d.cfg.parts[0].slot_width, 8);
	CHECK_STR(d.uarch[0], "Zen 5");
	expect_amd_core(__LINE__);
	EV(5, 4, 0xc0, 5, TD_INSTRUCTIONS);
	CHECK_INT(d.events.nr, 6);
	CHECK_STR(d.cpu.vendor, "AuthenticAMD");
	CHECK_INT(d.cpu.family, 0x1a);
}

TEST(discover_amd_other_families)
{
	static const char zen3[] = "vendor_id\t: AuthenticAMD\ncpu family\t: 25\n"
				   "model\t\t: 33\nmodel name\t: AMD Ryzen 9 5950X\n\n";
	static const char genoa_x[] = "vendor_id\t: AuthenticAMD\ncpu family\t: 25\n"
				      "model\t\t: 160\nmodel name\t: AMD EPYC 9754\n\n";
	char *root = overlay(FX("zen4"), zen3, NULL, -1);

	discover(root, 1);
	CHECK_INT(d.cfg.nr_parts, 0);
	CHECK_INT(d.events.nr, 0);
	CHECK_HAS(d.reason, "family 0x19 model 0x21");
	CHECK_HAS(d.reason, "only for Zen 4 and Zen 5");
	fixture_remove(root);

	root = overlay(FX("zen4"), genoa_x, NULL, -1);
	discover(root, 1);
	CHECK_INT(d.cfg.parts[0].slot_width, 6);
	fixture_remove(root);

	/* without cpuinfo the format says AMD, but not which Zen */
	root = overlay(FX("zen4"), "", NULL, -1);
	discover(root, 1);
	CHECK_INT(d.cfg.nr_parts, 0);
	CHECK_HAS(d.reason, "cannot tell Zen 4/5 apart");
	fixture_remove(root);
}

/* ------------------------------------------------------------------ */
/* Arm                                                                 */
/* ------------------------------------------------------------------ */

TEST(discover_neoverse_n2)
{
	discover(FX("neoverse-n2"), 1);
	INVARIANTS();
	CHECK_INT(d.cfg.nr_parts, 1);
	CHECK_INT(d.cfg.parts[0].method, TD_ARM);
	CHECK_STR(d.cfg.parts[0].pmu, "armv8_pmuv3_0");
	CHECK_INT(d.cfg.parts[0].slot_width, 5);
	CHECK(d.cfg.parts[0].arm_n2_erratum);
	CHECK(!d.cfg.parts[0].all_cpus);
	CHECK_INT(d.cfg.parts[0].cpus.nr, 128);
	EV(0, 8, 0x11, 0, TD_CYCLES);
	EV(1, 8, 0x3f, 0, TD_ARM_STALL_SLOT);
	EV(2, 8, 0x3e, 0, TD_ARM_STALL_SLOT_FE);
	EV(3, 8, 0x3d, 0, TD_ARM_STALL_SLOT_BE);
	EV(4, 8, 0x3b, 0, TD_ARM_OP_SPEC);
	EV(5, 8, 0x3a, 0, TD_ARM_OP_RETIRED);
	EV(6, 8, 0x08, 6, TD_INSTRUCTIONS);
	CHECK_STR(d.cpu_model, "Arm Neoverse N2");
}

TEST(discover_neoverse_n2_r0p3_and_watchdog)
{
	static const char r0p3[] = "CPU implementer\t: 0x41\nCPU architecture: 8\n"
				   "CPU variant\t: 0x0\nCPU part\t: 0xd49\nCPU revision\t: 3\n\n";
	char *root = overlay(FX("neoverse-n2"), r0p3, "1\n", -1);

	discover(root, 1);
	INVARIANTS();
	CHECK(!d.cfg.parts[0].arm_n2_erratum);
	/* the watchdog's cycle counter pushes cpu_cycles onto a general counter */
	CHECK_INT(find_role(TD_INSTRUCTIONS), -1);
	CHECK_INT(d.events.nr, 6);
	fixture_remove(root);
}

TEST(discover_arm_without_slots)
{
	static const struct fixture_file a76[] = {
		{ "type", "9\n" }, { "cpus", "4-7\n" }, { "format/event", "config:0-15\n" },
		{ "events/cpu_cycles", "event=0x0011\n" },
		{ "events/stall_slot", "event=0x003f\n" },
		{ "events/stall_slot_frontend", "event=0x003e\n" },
		{ "events/stall_slot_backend", "event=0x003d\n" },
		{ "events/op_spec", "event=0x003b\n" }, { "events/op_retired", "event=0x003a\n" },
		{ NULL },
	};
	char *root = fixture_new("disc");
	char rel[128];

	fixture_put_files(root, DEV "armv8_cortex_a76", a76);
	discover(root, 1);
	CHECK_INT(d.cfg.nr_parts, 0);
	CHECK_HAS(d.reason, "no caps/slots");

	/* and a KVM guest's PMU without the STALL_SLOT events */
	snprintf(rel, sizeof(rel), "%s/" DEV "armv8_cortex_a76/events/stall_slot", root);
	CHECK_INT(unlink(rel), 0);
	discover(root, 1);
	CHECK_HAS(d.reason, "has no stall_slot (Armv8.4");
	fixture_remove(root);
}

/* ------------------------------------------------------------------ */
/* --list                                                              */
/* ------------------------------------------------------------------ */

TEST(discover_list)
{
	static const struct {
		const char *root;
		int level;
		const char *has[16];	/* up to a NULL */
	} cases[] = {
		{ FX("sapphirerapids"), 2,
		  { "Intel(R) Xeon(R) Platinum 8480+", "family 0x6 model 0x8f",
		    "cpu (type 4, CPUs all)",
		    "TopDown:      perf_metrics, level 2 (levels available: 1, 2)",
		    "SMT:          on", "NMI watchdog: off", "slots from fixed counter 3",
		    "cpu/slots/", "0x400 ", "leader, pinned  event=0x00,umask=0x4",
		    "cpu/topdown-mem-bound/", "0x8700", "member of 0     event=0x00,umask=0x87",
		    "alone           event=0x3c" } },
		{ FX("alderlake"), 1,
		  { "cpu_core (type 4, CPUs 0-15), cpu_atom (type 10, CPUs 16-23)",
		    "perf_metrics + intel_atom, level 1",
		    "Part 1: intel_atom on cpu_atom, CPUs 16-23, events 7-11",
		    "slot width 5 (Gracemont): slots = 5 x cycles",
		    "cpu_atom/topdown-retiring/" } },
		{ FX("skylake-smt"), 2, { "Per core only: SMT is on" } },
		{ FX("skylake-nosmt"), 1, { "slots = topdown-total-slots x 4" } },
		{ FX("zen4"), 2, { "ls_not_halted_cyc" } },
		{ FX("zen5"), 1, { "slot width 8 (Zen 5): 8 dispatch slots per cycle" } },
		{ FX("neoverse-n2"), 1,
		  { "implementer 0x41 part 0xd49 r0p0",
		    "slot width 5 (caps/slots), Neoverse N2 r0p0-r0p2 erratum",
		    "armv8_pmuv3_0 (type 8, CPUs 0-127)" } },
		{ FX("vm-nopmu"), 1,
		  { "Core PMUs:    none", "TopDown:      unavailable: no hardware PMU",
		    ", in a virtual machine" } },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *s;

		discover(cases[i].root, cases[i].level);
		s = listing();
		for (int j = 0; j < 16 && cases[i].has[j]; j++)
			if (!strstr(s, cases[i].has[j]))
				test_fail(__FILE__, __LINE__, "%s: '%s' not found in:\n%s",
					  cases[i].root, cases[i].has[j], s);
	}
}

/* ------------------------------------------------------------------ */
/* No TopDown, and failures found at open time                         */
/* ------------------------------------------------------------------ */

TEST(discover_vm_nopmu)
{
	discover(FX("vm-nopmu"), 1);
	CHECK_INT(d.cfg.nr_parts, 0);
	CHECK_INT(d.events.nr, 0);
	CHECK_INT(d.nr_pmus, 0);
	CHECK_STR(d.reason, "no hardware PMU: no cpu, cpu_core or armv8_* PMU in "
			    "bus/event_source/devices (a VM without vPMU?)");
	CHECK(d.cpu.hypervisor);
}

TEST(discover_vm_topdown_refused)
{
	char buf[TD_REASON_LEN];

	discover(FX("vm-topdown-refused"), 1);
	INVARIANTS();
	CHECK_INT(d.cfg.parts[0].method, TD_PERF_METRICS);
	expect_perf_metrics_l1(__LINE__);
	CHECK(d.cpu.hypervisor);
	CHECK(has_note("running under a hypervisor"));
	CHECK_HAS(td_discovery__open_failure_reason(&d, EINVAL, buf, sizeof(buf)),
		  "this VM lists slots and topdown-* events but the kernel refused them");
	CHECK_HAS(buf, "does not virtualise PERF_METRICS");

	discover(FX("icelake"), 1);
	CHECK_HAS(td_discovery__open_failure_reason(&d, EINVAL, buf, sizeof(buf)),
		  "PERF_METRICS is not enumerated");
	CHECK_HAS(td_discovery__open_failure_reason(&d, EBUSY, buf, sizeof(buf)), "NMI watchdog");
	CHECK_HAS(td_discovery__open_failure_reason(&d, EACCES, buf, sizeof(buf)), "CAP_PERFMON");
	CHECK_HAS(td_discovery__open_failure_reason(&d, EIO, buf, sizeof(buf)),
		  "opening the perf_metrics TopDown events failed");
}

TEST(discover_pmu_without_topdown)
{
	char *root = fixture_new("disc");

	fixture_put(root, DEV "cpu/type", "4\n");
	fixture_put(root, DEV "cpu/format/event", "config:0-7\n");
	fixture_put(root, DEV "cpu/events/cpu-cycles", "event=0x3c\n");
	fixture_put(root, "cpuinfo",
		    "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n\n");
	discover(root, 1);
	CHECK_INT(d.cfg.nr_parts, 0);
	CHECK_INT(d.nr_pmus, 1);
	CHECK_STR(d.reason, "PMU 'cpu' lists no TopDown events (no slots or topdown-* in its "
			    "events/)");

	/* slots without all of its metrics is no method either */
	fixture_put(root, DEV "cpu/events/slots", "event=0x00,umask=0x4\n");
	fixture_put(root, DEV "cpu/events/topdown-retiring", "event=0x00,umask=0x80\n");
	discover(root, 1);
	CHECK_INT(d.cfg.nr_parts, 0);
	CHECK_HAS(d.reason, "lists slots but not topdown-bad-spec, topdown-fe-bound");

	/* a broken alias is a reason, not a crash */
	fixture_put(root, DEV "cpu/events/topdown-bad-spec", "event=0x00,umask=0x81\n");
	fixture_put(root, DEV "cpu/events/topdown-fe-bound", "event=0x00,umask=0x82\n");
	fixture_put(root, DEV "cpu/events/topdown-be-bound", "umask=\n");
	discover(root, 1);
	CHECK_INT(d.cfg.nr_parts, 0);
	CHECK_INT(d.events.nr, 0);
	CHECK_HAS(d.reason, "perf_metrics not usable");
	fixture_remove(root);
}

TEST(discover_bad_arguments)
{
	CHECK_INT(td_discover(FX("icelake"), 3, &d, err, sizeof(err)), -1);
	CHECK_HAS(err, "bad level 3");
	CHECK_INT(td_discover(NULL, 1, &d, err, sizeof(err)), -1);
	CHECK_INT(td_discover("", 1, &d, err, sizeof(err)), -1);
	CHECK_INT(td_discover(FX("icelake"), 1, NULL, err, sizeof(err)), -1);
	/* a root that is not there: no PMU directory, a reason, no crash */
	CHECK_INT(td_discover("/nonexistent-tdtop-root", 1, &d, err, sizeof(err)), 0);
	CHECK_INT(d.cfg.nr_parts, 0);
	CHECK_HAS(d.reason, "cannot read /nonexistent-tdtop-root/bus/event_source/devices");
}

TEST(discover_cpuinfo_robust)
{
	char *root = overlay(FX("icelake"), NULL, NULL, -1);
	char path[PATH_MAX], big[9000];

	/* a line longer than any buffer, no colon, junk numbers */
	memset(big, 'x', sizeof(big) - 2);
	big[sizeof(big) - 2] = '\n';
	big[sizeof(big) - 1] = '\0';
	snprintf(path, sizeof(path), "%s/cpuinfo", root);
	CHECK_INT(unlink(path), 0);
	fixture_put(root, "cpuinfo", big);
	discover(root, 1);
	CHECK_STR(d.cpu_model, "unknown CPU");
	CHECK_INT(d.cfg.parts[0].method, TD_PERF_METRICS);
	CHECK_INT(unlink(path), 0);
	fixture_put(root, "cpuinfo",
		    "cpu family : sixty\nmodel : 0x6a\nflags : fpu hypervisorx\n\n");
	discover(root, 1);
	CHECK_INT(d.cpu.family, -1);
	CHECK_INT(d.cpu.model, 0x6a);
	CHECK(!d.cpu.hypervisor);
	fixture_remove(root);
}

/* ------------------------------------------------------------------ */
/* Through the formulas                                                */
/* ------------------------------------------------------------------ */

static struct delta deltas[MAX_EVENTS];

/* Set the raw count of the event playing *role* in [lo, hi). */
static void set_count(int lo, int hi, int role, double v)
{
	for (int i = lo; i < hi; i++) {
		if (d.cfg.role[i] != role)
			continue;
		deltas[i].count = (__u64)v;
		deltas[i].enabled = deltas[i].running = 1000000000ULL;
		return;
	}
	test_fail(__FILE__, __LINE__, "no event with role %s", td_role_name(role));
}

static void compute(struct td_result *r, double *ipc)
{
	double scale[MAX_EVENTS];

	td_discovery__scales(&d, scale);
	metrics_compute(deltas, &d.cfg, scale, r, ipc);
}

TEST(discover_formulas_perf_metrics_l2)
{
	const double S = 1e7;
	struct td_result r;
	double ipc;

	discover(FX("sapphirerapids"), 2);
	memset(deltas, 0, sizeof(deltas));
	set_count(0, 11, TD_SLOTS, S);
	set_count(0, 11, TD_RETIRING, 0.40 * S);
	set_count(0, 11, TD_BAD_SPEC, 0.10 * S);
	set_count(0, 11, TD_FE_BOUND, 0.20 * S);
	set_count(0, 11, TD_BE_BOUND, 0.30 * S);
	set_count(0, 11, TD_HEAVY_OPS, 0.10 * S);
	set_count(0, 11, TD_BR_MISPREDICT, 0.06 * S);
	set_count(0, 11, TD_FETCH_LAT, 0.15 * S);
	set_count(0, 11, TD_MEM_BOUND, 0.18 * S);
	set_count(0, 11, TD_CYCLES, 2e6);
	set_count(0, 11, TD_INSTRUCTIONS, 5e6);
	compute(&r, &ipc);
	CHECK(r.valid);
	CHECK_NEAR(r.retiring, 0.40, 1e-9);
	CHECK_NEAR(r.bad_speculation, 0.10, 1e-9);
	CHECK_NEAR(r.frontend_bound, 0.20, 1e-9);
	CHECK_NEAR(r.backend_bound, 0.30, 1e-9);
	CHECK_NEAR(r.heavy_ops, 0.10, 1e-9);
	CHECK_NEAR(r.light_ops, 0.30, 1e-9);
	CHECK_NEAR(r.branch_mispredicts, 0.06, 1e-9);
	CHECK_NEAR(r.machine_clears, 0.04, 1e-9);
	CHECK_NEAR(r.fetch_latency, 0.15, 1e-9);
	CHECK_NEAR(r.fetch_bandwidth, 0.05, 1e-9);
	CHECK_NEAR(r.memory_bound, 0.18, 1e-9);
	CHECK_NEAR(r.core_bound, 0.12, 1e-9);
	CHECK_NEAR(ipc, 2.5, 1e-9);
}

TEST(discover_formulas_hybrid_merge)
{
	const double SP = 8e6, C = 1e6;		/* P slots; E cycles (5-wide: 5e6 slots) */
	const struct td_part *core, *atom;
	struct td_result r;
	double ipc;

	discover(FX("alderlake"), 1);
	core = &d.cfg.parts[0];
	atom = &d.cfg.parts[1];
	memset(deltas, 0, sizeof(deltas));
	set_count(core->ev_lo, core->ev_hi, TD_SLOTS, SP);
	set_count(core->ev_lo, core->ev_hi, TD_RETIRING, 0.5 * SP);
	set_count(core->ev_lo, core->ev_hi, TD_BAD_SPEC, 0.1 * SP);
	set_count(core->ev_lo, core->ev_hi, TD_FE_BOUND, 0.1 * SP);
	set_count(core->ev_lo, core->ev_hi, TD_BE_BOUND, 0.3 * SP);
	set_count(core->ev_lo, core->ev_hi, TD_CYCLES, 1.5e6);
	set_count(core->ev_lo, core->ev_hi, TD_INSTRUCTIONS, 4e6);
	set_count(atom->ev_lo, atom->ev_hi, TD_CYCLES, C);
	set_count(atom->ev_lo, atom->ev_hi, TD_RETIRING, 0.2 * 5 * C);
	set_count(atom->ev_lo, atom->ev_hi, TD_FE_BOUND, 0.3 * 5 * C);
	set_count(atom->ev_lo, atom->ev_hi, TD_BE_BOUND, 0.4 * 5 * C);
	set_count(atom->ev_lo, atom->ev_hi, TD_INSTRUCTIONS, 1e6);
	compute(&r, &ipc);
	CHECK(r.valid);
	CHECK_NEAR(r.slots, SP + 5 * C, 1e-6);
	CHECK_NEAR(r.retiring, (0.5 * SP + 0.2 * 5 * C) / (SP + 5 * C), 1e-9);
	CHECK_NEAR(r.backend_bound, (0.3 * SP + 0.4 * 5 * C) / (SP + 5 * C), 1e-9);
	CHECK_NEAR(r.bad_speculation, (0.1 * SP + 0.1 * 5 * C) / (SP + 5 * C), 1e-9);
	CHECK_NEAR(ipc, 5e6 / 2.5e6, 1e-9);
}

TEST(discover_formulas_generic_scale)
{
	const double C = 1e6;	/* thread cycles: 4e6 slots through .scale 4 */
	struct td_result r;
	double ipc;

	discover(FX("skylake-nosmt"), 1);
	memset(deltas, 0, sizeof(deltas));
	set_count(0, 7, TD_TOTAL_SLOTS, C);
	set_count(0, 7, TD_SLOTS_RETIRED, 1.6e6);
	set_count(0, 7, TD_FETCH_BUBBLES, 0.8e6);
	set_count(0, 7, TD_SLOTS_ISSUED, 2.0e6);
	set_count(0, 7, TD_RECOVERY_BUBBLES, 0.05e6);	/* x4 = 0.2e6 slots */
	set_count(0, 7, TD_CYCLES, C);
	set_count(0, 7, TD_INSTRUCTIONS, 3e6);
	compute(&r, &ipc);
	CHECK(r.valid);
	CHECK_NEAR(r.slots, 4e6, 1e-6);
	CHECK_NEAR(r.retiring, 0.40, 1e-9);
	CHECK_NEAR(r.frontend_bound, 0.20, 1e-9);
	CHECK_NEAR(r.bad_speculation, 0.15, 1e-9);
	CHECK_NEAR(r.backend_bound, 0.25, 1e-9);
	CHECK_NEAR(ipc, 3.0, 1e-9);
}

TEST(discover_formulas_amd_and_arm)
{
	const double C = 1e6;
	struct td_result r;
	double ipc;

	discover(FX("zen4"), 1);	/* 6 slots per cycle */
	memset(deltas, 0, sizeof(deltas));
	set_count(0, 6, TD_CYCLES, C);
	set_count(0, 6, TD_AMD_DISPATCHED, 2.4e6);
	set_count(0, 6, TD_AMD_RETIRED_OPS, 1.8e6);
	set_count(0, 6, TD_AMD_NO_OPS_FE, 1.2e6);
	set_count(0, 6, TD_AMD_BE_STALLS, 2.1e6);
	set_count(0, 6, TD_AMD_SMT_CONTENTION, 0.3e6);
	compute(&r, &ipc);
	CHECK(r.valid);
	CHECK_NEAR(r.retiring, 0.30, 1e-9);
	CHECK_NEAR(r.bad_speculation, 0.10, 1e-9);
	CHECK_NEAR(r.frontend_bound, 0.20, 1e-9);
	CHECK_NEAR(r.backend_bound, 0.35, 1e-9);
	CHECK_NEAR(r.smt_contention, 0.05, 1e-9);
	CHECK(isnan(ipc));	/* no instructions counted on this fixture */

	discover(FX("neoverse-n2"), 1);	/* 5 slots, N2 r0p0 erratum */
	memset(deltas, 0, sizeof(deltas));
	set_count(0, 7, TD_CYCLES, C);
	set_count(0, 7, TD_ARM_STALL_SLOT_FE, 1.0e6 + C);	/* one extra per cycle */
	set_count(0, 7, TD_ARM_STALL_SLOT_BE, 1.5e6);
	set_count(0, 7, TD_ARM_STALL_SLOT, 2.5e6 + C);
	set_count(0, 7, TD_ARM_OP_SPEC, 2.5e6);
	set_count(0, 7, TD_ARM_OP_RETIRED, 2.0e6);
	set_count(0, 7, TD_INSTRUCTIONS, 1.5e6);
	compute(&r, &ipc);
	CHECK(r.valid);
	CHECK_NEAR(r.frontend_bound, 0.20, 1e-9);
	CHECK_NEAR(r.backend_bound, 0.30, 1e-9);
	CHECK_NEAR(r.retiring, 0.8 * 0.5, 1e-9);
	CHECK_NEAR(r.bad_speculation, 0.2 * 0.5, 1e-9);
	CHECK_NEAR(ipc, 1.5, 1e-9);
}
