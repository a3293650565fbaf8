// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* modifiers.c: perf's event modifiers on every kind of -e name, what they
 * exclude in the attr, and the names tdtop refuses. */
#include <errno.h>
#include "pmu/events.h"
#include "event_parse.h"
#include "test.h"

#define SKL "../fixtures/sysfs/skylake"
#define VM "../fixtures/sysfs/vm-nopmu"
#define UKH (EXCL_USER | EXCL_KERNEL | EXCL_HV)

/* perf's rule: naming some of u, k, h leaves out the rest; G, H alike. */
TEST(modifiers_exclude)
{
	static const struct {
		const char *mods;
		unsigned int exclude;
	} cases[] = {
		{ "u", EXCL_KERNEL | EXCL_HV },
		{ "k", EXCL_USER | EXCL_HV },
		{ "h", EXCL_USER | EXCL_KERNEL },
		{ "uk", EXCL_HV },
		{ "ku", EXCL_HV },
		{ "ukh", 0 },
		{ "uu", EXCL_KERNEL | EXCL_HV },
		{ "G", EXCL_HOST },
		{ "H", EXCL_GUEST },
		{ "GH", 0 },
		{ "uG", EXCL_KERNEL | EXCL_HV | EXCL_HOST },
		{ "kH", EXCL_USER | EXCL_HV | EXCL_GUEST },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned int ex = ~0u;

		if (event_mods__parse(cases[i].mods, "x", &ex, err, sizeof(err)))
			test_fail(__FILE__, __LINE__, "'%s': %s", cases[i].mods, err);
		else if (ex != cases[i].exclude)
			test_fail(__FILE__, __LINE__, "'%s' -> %#x, want %#x", cases[i].mods, ex,
				  cases[i].exclude);
	}
}

TEST(modifiers_refused)
{
	unsigned int ex;

	CHECK(event_mods__parse("", "cycles:", &ex, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "no modifiers after the event in 'cycles:'"));
	CHECK(event_mods__parse("x", "cycles:x", &ex, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "unknown modifier 'x' in 'cycles:x' (tdtop takes u, k, h, G, H)"));
	CHECK(!strstr(err, "unit mask"));
	CHECK(event_mods__parse("any", "e:any", &ex, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "a unit mask is written event.umask"));
	CHECK(event_mods__parse("pp", "cycles:pp", &ex, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "precise sampling, which does not apply to counting"));
	CHECK(event_mods__parse("uP", "cycles:uP", &ex, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "modifier 'P'"));
	CHECK(event_mods__parse("D", "cycles:D", &ex, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "perf's modifier 'D' in 'cycles:D' is not supported"));
}

/* Where modifiers start, and colons that belong to a vendor name. */
TEST(modifiers_find)
{
	static const struct {
		const char *name, *mods;
		size_t base;
	} cases[] = {
		{ "cycles:u", "u", 6 },
		{ "cycles", NULL, 0 },
		{ "cycles:", "", 6 },
		{ "cpu/event=0x3c/u", "u", 15 },
		{ "cpu/event=0x3c/:uk", "uk", 15 },
		{ "cpu/event=0x3c/", NULL, 0 },
		{ "a/b/c/d", NULL, 0 },
		{ "icl::inst_retired.any", NULL, 0 },
		{ "icl::inst_retired.any:k", "k", 21 },
		{ "INST_RETIRED:ANY_P", NULL, 0 },
		{ "inst_retired.any:c=2", NULL, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t base = 0;
		const char *m = event_mods__find(cases[i].name, &base);

		if (!cases[i].mods ? m != NULL
				   : !m || strcmp(m, cases[i].mods) || base != cases[i].base)
			test_fail(__FILE__, __LINE__, "'%s' -> '%s' at %zu", cases[i].name,
				  m ? m : "(none)", base);
	}
}

/* Every form of name takes them; the name keeps them as typed. */
TEST(modifiers_on_every_form)
{
	static const struct {
		const char *root, *s, *name;
		__u32 type;
		__u64 config;
		unsigned int exclude;
	} cases[] = {
		{ SKL, "cycles:u", "cycles:u", 0, 0, EXCL_KERNEL | EXCL_HV },
		{ SKL, "cpu-cycles:k", "cycles:k", 0, 0, EXCL_USER | EXCL_HV },
		{ SKL, "instructions:uk", "instructions:uk", 0, 1, EXCL_HV },
		{ VM, "cs:u", "context-switches:u", 1, 3, EXCL_KERNEL | EXCL_HV },
		{ VM, "cpu-clock:k", "cpu-clock:k", 1, 0, EXCL_USER | EXCL_HV },
		{ VM, "faults:u", "page-faults:u", 1, 2, EXCL_KERNEL | EXCL_HV },
		{ SKL, "r3c:u", "r3c:u", 4, 0x3c, EXCL_KERNEL | EXCL_HV },
		{ SKL, "cpu/cpu-cycles/u", "cpu/cpu-cycles/u", 4, 0x3c, EXCL_KERNEL | EXCL_HV },
		{ SKL, "cpu/event=0x3c,umask=1/:k", "cpu/event=0x3c,umask=1/:k", 4, 0x13c,
		  EXCL_USER | EXCL_HV },
		{ VM, "msr/tsc/G", "msr/tsc/G", 9, 0, EXCL_HOST },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct event_spec *e = &list.ev[0];

		if (parse(cases[i].root, cases[i].s)) {
			test_fail(__FILE__, __LINE__, "'%s': %s", cases[i].s, err);
			continue;
		}
		if (strcmp(e->name, cases[i].name) || e->type != cases[i].type ||
		    e->config != cases[i].config || e->exclude != cases[i].exclude)
			test_fail(__FILE__, __LINE__,
				  "'%s' -> '%s' type %u config %#llx exclude %#x", cases[i].s,
				  e->name, e->type, (unsigned long long)e->config, e->exclude);
	}
}

TEST(modifiers_attr)
{
	struct perf_event_attr attr;

	CHECK_INT(parse(SKL, "cycles:u,cycles:kG,cycles"), 0);
	event_spec__to_attr(&list.ev[0], &attr);
	CHECK_INT(attr.exclude_user, 0);
	CHECK_INT(attr.exclude_kernel, 1);
	CHECK_INT(attr.exclude_hv, 1);
	CHECK_INT(attr.exclude_host, 0);
	CHECK_INT(attr.exclude_guest, 0);
	event_spec__to_attr(&list.ev[1], &attr);
	CHECK_INT(attr.exclude_user, 1);
	CHECK_INT(attr.exclude_kernel, 0);
	CHECK_INT(attr.exclude_hv, 1);
	CHECK_INT(attr.exclude_host, 1);
	CHECK_INT(attr.exclude_guest, 0);
	event_spec__to_attr(&list.ev[2], &attr);
	CHECK_INT(attr.exclude_user | attr.exclude_kernel | attr.exclude_hv, 0);
	CHECK_INT(attr.exclude_host | attr.exclude_guest, 0);
}

TEST(modifiers_list_errors)
{
	char name[EVENT_NAME_LEN + 8];

	/* one event with different modifiers is two events; the same twice is not */
	CHECK_INT(parse(SKL, "cycles,cycles:u,cycles:k"), 0);
	CHECK_INT(list.nr, 3);
	CHECK_FAILS(SKL, "cycles:u,cycles:u", "event 'cycles:u' is listed twice");
	CHECK_FAILS(SKL, "cycles:uk,cycles:ku", "'cycles:uk' and 'cycles:ku' are the same event");
	CHECK_FAILS(SKL, "cycles:h,cycles:u,cycles:x", "unknown modifier 'x' in 'cycles:x'");
	CHECK_FAILS(SKL, "cycles:", "no modifiers");
	CHECK_FAILS(SKL, "cpu/event=1/:", "no modifiers");
	CHECK_FAILS(SKL, "cpu/event=1/u1", "unknown modifier '1'");
	CHECK_FAILS(SKL, "cycles:pp", "precise sampling");
	CHECK_FAILS(SKL, "nosuch:u", "unknown event 'nosuch'");
	CHECK_FAILS(SKL, "cycles:u1", "unknown event 'cycles:u1'");

	/* the name with its modifiers must fit: "cs:" is short, its name is not */
	memcpy(name, "cs:", 3);
	memset(name + 3, 'u', EVENT_NAME_LEN - 4);
	name[EVENT_NAME_LEN - 1] = '\0';
	CHECK_FAILS(VM, name, "event 'context-switches:uuu");
	CHECK_FAILS(VM, name, "too long (at most 63 characters)");
}
