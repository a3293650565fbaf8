// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Vendor event names through libpfm4 (pfm.c, and its use in events.c).
 * The unit tests' main() makes libpfm4 see an Ice Lake on any machine, so
 * the encodings below are libpfm4's icl tables, and the kernel's PMUs are
 * the fixture trees'.
 */
#include <stdlib.h>
#include "pmu/events.h"
#include "event_parse.h"
#include "test.h"

#define SKL "../fixtures/sysfs/skylake"
#define ICL "../fixtures/sysfs/icelake"
#define ADL "../fixtures/sysfs/alderlake"
#define VM "../fixtures/sysfs/vm-nopmu"

/* Ice Lake's encodings: event | umask << 8 | cmask << 24, on the core PMU. */
TEST(vendor_names)
{
	static const struct {
		const char *root, *s;
		__u32 type;
		__u64 config;
		unsigned int exclude;
	} cases[] = {
		/* INST_RETIRED.ANY is the fixed counter's pseudo-event 0x100 */
		{ ICL, "inst_retired.any", 4, 0x100, 0 },
		{ ICL, "INST_RETIRED.ANY", 4, 0x100, 0 },
		{ SKL, "mem_load_retired.l3_miss", 4, 0x20d1, 0 },
		{ ICL, "icl::inst_retired.any", 4, 0x100, 0 },
		{ ICL, "inst_retired.any:u", 4, 0x100, EXCL_KERNEL | EXCL_HV },
		{ ICL, "icl::mem_load_retired.l3_miss:k", 4, 0x20d1, EXCL_USER | EXCL_HV },
		/* libpfm4's own attribute syntax for what perf writes as terms */
		{ ICL, "mem_load_retired.l3_miss:c=2", 4, 0x20020d1, 0 },
		/* sysfs PMU form: the vendor name stands for an events/ alias */
		{ ICL, "cpu/inst_retired.any/", 4, 0x100, 0 },
		{ ICL, "cpu/mem_load_retired.l3_miss,cmask=3/u", 4, 0x30020d1,
		  EXCL_KERNEL | EXCL_HV },
		{ ADL, "cpu_core/inst_retired.any/", 4, 0x100, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct event_spec *e = &list.ev[0];

		if (parse(cases[i].root, cases[i].s)) {
			test_fail(__FILE__, __LINE__, "'%s': %s", cases[i].s, err);
			continue;
		}
		if (list.nr != 1 || strcmp(e->name, cases[i].s) || e->type != cases[i].type ||
		    e->config != cases[i].config || e->config1 || e->config2 ||
		    e->exclude != cases[i].exclude)
			test_fail(__FILE__, __LINE__,
				  "'%s' -> '%s' type %u config %#llx exclude %#x", cases[i].s,
				  e->name, e->type, (unsigned long long)e->config, e->exclude);
	}
	/* tdtop's own names come first: "instructions" stays the generic event */
	CHECK_INT(parse(ICL, "instructions,inst_retired.any"), 0);
	CHECK_INT(list.ev[0].type, 0);
	CHECK_INT(list.ev[1].type, 4);
}

TEST(vendor_errors)
{
	/* unknown to this CPU's tables, or to the PMU named */
	CHECK_FAILS(ICL, "ls_dispatch.ld_dispatch",
		    "unknown event 'ls_dispatch.ld_dispatch': not a known event on this CPU "
		    "(libpfm4 PMU: icl)");
	CHECK_FAILS(ICL, "inst_retired.bogus", "not a known event on this CPU (libpfm4: ");
	CHECK_FAILS(ICL, "skl::inst_retired.any_p",
		    "libpfm4's PMU 'skl' is not this CPU's (which has icl)");
	CHECK_FAILS(ICL, "nosuch::inst_retired.any", "libpfm4 has no PMU 'nosuch'");
	CHECK_FAILS(ICL, "icl::no_such_event", "PMU 'icl' has no event 'no_such_event'");
	/* known, but the kernel has no PMU to count it on */
	CHECK_FAILS(VM, "inst_retired.any",
		    "'inst_retired.any' is an event of libpfm4's PMU 'icl', but the kernel has "
		    "no CPU PMU here");
	/* privilege levels and precision are perf's modifiers' job, or none */
	CHECK_FAILS(ICL, "inst_retired.any:u=0", "give privilege levels as perf's modifiers");
	CHECK_FAILS(ICL, "mem_load_retired.l3_miss:precise=1", "precise sampling");
	/* a colon and letters are modifiers, not libpfm4's unit masks */
	CHECK_FAILS(ICL, "INST_RETIRED:ANY", "a unit mask is written event.umask");
	/* hybrid: Ice Lake's table is not the cpu_atom PMU's (type 10) */
	CHECK_FAILS(ADL, "cpu_atom/inst_retired.any/",
		    "'inst_retired.any' is an event of libpfm4's PMU 'icl', which is not "
		    "cpu_atom");
	/* only core PMUs look names up; the msr PMU keeps its term error */
	CHECK_FAILS(VM, "msr/inst_retired.any/", "unknown term 'inst_retired.any'");
	CHECK(!strstr(err, "vendor"));
	CHECK_FAILS(ICL, "cpu/cpu-cycles,inst_retired.any/", "unknown term 'inst_retired.any'");
	CHECK_FAILS(ICL, "inst_retired.any,icl::inst_retired.any", "are the same event");
}

TEST(vendor_list)
{
	char *icl = print_list(ICL), *vm = print_list(VM);

	CHECK(icl && vm);
	if (icl && vm) {
		CHECK(strstr(icl, "Vendor events (libpfm4"));
		CHECK(strstr(icl, "\n  inst_retired.any\n"));
		CHECK(strstr(icl, "\n  mem_load_retired.l3_miss\n"));
		CHECK(strstr(icl, "inst_retired.any\n") < strstr(icl, "mem_load_retired.l3_miss"));
		CHECK(strstr(icl, "Modifiers, after any event"));
		CHECK(strstr(vm, "libpfm4 knows this CPU as icl, but the kernel has no CPU PMU"));
		CHECK(!strstr(vm, "inst_retired.any\n"));
	}
	free(icl);
	free(vm);
}
