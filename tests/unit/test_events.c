// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* events.c: -e lists against the fixture trees (and the running system's
 * /sys when it has the msr PMU), attrs, and --list-events output. */
#include <stdlib.h>
#include "pmu/events.h"
#include "fixture.h"
#include "event_parse.h"
#include "test.h"

#define SKL "../fixtures/sysfs/skylake"
#define VM "../fixtures/sysfs/vm-nopmu"
#define DEV FIXTURE_DEVICES

/*
 * Names of one event: software (PERF_TYPE_SOFTWARE, 1, and the
 * PERF_COUNT_SW_* ABI numbers), hardware (0, PERF_COUNT_HW_*), raw (the
 * core PMU's type, 4 on Skylake) and the msr PMU of the VM fixture (9).
 */
TEST(events_names)
{
	static const struct {
		const char *root, *s, *name;
		__u32 type;
		__u64 config;
	} cases[] = {
		{ VM, "cpu-clock", "cpu-clock", 1, 0 },
		{ VM, "task-clock", "task-clock", 1, 1 },
		{ VM, "page-faults", "page-faults", 1, 2 },
		{ VM, "faults", "page-faults", 1, 2 },
		{ VM, "context-switches", "context-switches", 1, 3 },
		{ VM, "cs", "context-switches", 1, 3 },
		{ VM, "cpu-migrations", "cpu-migrations", 1, 4 },
		{ VM, "migrations", "cpu-migrations", 1, 4 },
		{ VM, "minor-faults", "minor-faults", 1, 5 },
		{ VM, "major-faults", "major-faults", 1, 6 },
		{ SKL, "cycles", "cycles", 0, 0 },
		{ SKL, "cpu-cycles", "cycles", 0, 0 },
		{ SKL, "instructions", "instructions", 0, 1 },
		{ SKL, "cache-references", "cache-references", 0, 2 },
		{ SKL, "cache-misses", "cache-misses", 0, 3 },
		{ SKL, "branches", "branches", 0, 4 },
		{ SKL, "branch-instructions", "branches", 0, 4 },
		{ SKL, "branch-misses", "branch-misses", 0, 5 },
		{ SKL, "bus-cycles", "bus-cycles", 0, 6 },
		{ SKL, "stalled-cycles-frontend", "stalled-cycles-frontend", 0, 7 },
		{ SKL, "stalled-cycles-backend", "stalled-cycles-backend", 0, 8 },
		{ SKL, "ref-cycles", "ref-cycles", 0, 9 },
		{ SKL, "r3c", "r3c", 4, 0x3c },
		{ SKL, "r003C", "r003C", 4, 0x3c },
		{ SKL, "r20003c", "r20003c", 4, 0x20003c },
		{ SKL, "rffffffffffffffff", "rffffffffffffffff", 4, ~0ULL },
		{ SKL, "r00000000000000000001", "r00000000000000000001", 4, 1 },
		{ VM, "msr/tsc/", "msr/tsc/", 9, 0 },
		{ VM, " msr/tsc/ ", "msr/tsc/", 9, 0 },
		{ VM, "msr/event=0x1/", "msr/event=0x1/", 9, 1 },
		{ VM, "msr/event=0xffffffffffffffff/", "msr/event=0xffffffffffffffff/", 9, ~0ULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *s = cases[i].s;

		if (parse(cases[i].root, s)) {
			test_fail(__FILE__, __LINE__, "'%s': %s", s, err);
			continue;
		}
		if (list.nr != 1 || strcmp(list.ev[0].name, cases[i].name) ||
		    list.ev[0].type != cases[i].type || list.ev[0].config != cases[i].config)
			test_fail(__FILE__, __LINE__, "'%s' -> nr %d '%s' type %u config %#llx", s,
				  list.nr, list.ev[0].name, list.ev[0].type,
				  (unsigned long long)list.ev[0].config);
	}
}

/* Raw names that do not fit or are not hex. */
TEST(events_raw_errors)
{
	CHECK_FAILS(SKL, "r10000000000000000", "does not fit in 64 bits");
	CHECK_FAILS(SKL, "r", "unknown event 'r'");
	CHECK_FAILS(SKL, "r3g", "unknown event 'r3g'");
	CHECK_FAILS(SKL, "rabbit", "unknown event");
}

/* Only counts the kernel adds to where they happen may be read from
 * memory: the clocks, hardware and PMU events need a read to be current. */
TEST(events_counted_in_place)
{
	static const struct {
		const char *name;
		bool in_place;
		bool clock;	/* can time the slices: cpu-clock alone */
	} cases[] = {
		{ "page-faults", true, false }, { "minor-faults", true, false },
		{ "major-faults", true, false }, { "context-switches", true, false },
		{ "cpu-migrations", true, false }, { "cpu-clock", false, true },
		{ "task-clock", false, false }, { "cycles", false, false },
		{ "instructions", false, false }, { "r003c", false, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_INT(parse(SKL, cases[i].name), 0);
		if (event_spec__counts_in_place(&list.ev[0]) != cases[i].in_place)
			test_fail(__FILE__, __LINE__, "%s: in place should be %d", cases[i].name,
				  cases[i].in_place);
		if (event_spec__is_cpu_clock(&list.ev[0]) != cases[i].clock)
			test_fail(__FILE__, __LINE__, "%s: cpu-clock should be %d", cases[i].name,
				  cases[i].clock);
	}
	CHECK_INT(parse(SKL, "cpu/topdown-total-slots/"), 0);
	CHECK(!event_spec__counts_in_place(&list.ev[0]));
}

TEST(events_defaults)
{
	CHECK_INT(parse(VM, "cs,faults,cpu-clock"), 0);
	CHECK_INT(list.nr, 3);
	for (int i = 0; i < list.nr; i++) {
		CHECK_INT(list.ev[i].leader, i);
		CHECK(!list.ev[i].pinned);
		CHECK_NEAR(list.ev[i].scale, 1.0, 0);
		CHECK_STR(list.ev[i].unit, "");
		CHECK_U64(list.ev[i].config1, 0);
		CHECK_U64(list.ev[i].config2, 0);
	}
}

/* Skylake's sysfs aliases and terms, and the two mixed. */
TEST(events_pmu_skylake)
{
	static const struct {
		const char *spec;
		__u64 config, config1, config2;
		double scale;
	} cases[] = {
		{ "cpu/topdown-total-slots/", 0x20003c, 0, 0, 2.0 },
		/* recovery-bubbles: event 0xd, umask 0x1, cmask 1, any */
		{ "cpu/topdown-recovery-bubbles/", 0x120010d, 0, 0, 2.0 },
		{ "cpu/mem-loads/", 0x1cd, 3, 0, 1.0 },
		{ "cpu/cycles-ct/", 0x30000003cULL, 0, 0, 1.0 },
		{ "cpu/ref-cycles/", 0x300, 0, 0, 1.0 },
		{ "cpu/event=0x3c,umask=0x0,any=1/", 0x20003c, 0, 0, 1.0 },
		{ "cpu/event=0xd,umask=1,cmask=1,edge,inv/", 0x184010dULL, 0, 0, 1.0 },
		{ "cpu/event=0xc6,umask=0x1,frontend=0x400406/", 0x1c6, 0x400406, 0, 1.0 },
		{ "cpu/config=0x1234,config2=5/", 0x1234, 0, 5, 1.0 },
		/* alias plus terms: the user's terms come last and win */
		{ "cpu/cpu-cycles,any=1/", 0x20003c, 0, 0, 1.0 },
		{ "cpu/topdown-total-slots,any=0/", 0x3c, 0, 0, 2.0 },
		{ "cpu/umask=0x1,cpu-cycles/", 0x13c, 0, 0, 1.0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct event_spec *e = &list.ev[0];

		if (parse(SKL, cases[i].spec) || list.nr != 1) {
			test_fail(__FILE__, __LINE__, "'%s': %s", cases[i].spec, err);
			continue;
		}
		if (strcmp(e->name, cases[i].spec) || e->type != 4 ||
		    e->config != cases[i].config || e->config1 != cases[i].config1 ||
		    e->config2 != cases[i].config2 || e->scale != cases[i].scale)
			test_fail(__FILE__, __LINE__,
				  "'%s' -> '%s' type %u config %#llx/%#llx/%#llx scale %g",
				  cases[i].spec, e->name, e->type, (unsigned long long)e->config,
				  (unsigned long long)e->config1, (unsigned long long)e->config2,
				  e->scale);
	}
}

TEST(events_comma_split)
{
	CHECK_INT(parse(SKL, "cycles,cpu/event=0x3c,umask=0x1/,instructions"), 0);
	CHECK_INT(list.nr, 3);
	CHECK_STR(list.ev[0].name, "cycles");
	CHECK_STR(list.ev[1].name, "cpu/event=0x3c,umask=0x1/");
	CHECK_U64(list.ev[1].config, 0x13c);
	CHECK_STR(list.ev[2].name, "instructions");
	CHECK_INT(list.ev[2].leader, 2);

	CHECK_INT(parse(SKL, "cpu/topdown-total-slots/,cpu/topdown-slots-issued/,"
			     "cpu/topdown-slots-retired/,cpu/topdown-fetch-bubbles/,"
			     "cpu/topdown-recovery-bubbles/"), 0);
	CHECK_INT(list.nr, 5);
	CHECK_U64(list.ev[1].config, 0x10e);
	CHECK_U64(list.ev[2].config, 0x2c2);
	CHECK_U64(list.ev[3].config, 0x19c);

	CHECK_INT(parse(VM, " cs , faults ,\tmsr/tsc/"), 0);
	CHECK_INT(list.nr, 3);
	CHECK_STR(list.ev[0].name, "context-switches");
	CHECK_STR(list.ev[1].name, "page-faults");
	CHECK_STR(list.ev[2].name, "msr/tsc/");
}

TEST(events_list_errors)
{
	char longname[200];

	CHECK_FAILS(VM, "", "empty event list");
	CHECK_FAILS(VM, "  \t", "empty event list");
	CHECK(event_list__parse(VM, NULL, &list, err, sizeof(err)) == -1);
	CHECK_FAILS(VM, "cs,,faults", "empty event");
	CHECK_FAILS(VM, "cs,", "empty event");
	CHECK_FAILS(VM, ",cs", "empty event");
	CHECK_FAILS(VM, "cs, ,faults", "empty event");

	CHECK_FAILS(VM, "foo", "unknown event 'foo': not a known event on this CPU");
	CHECK_FAILS(VM, "foo", "(see tdtop --list-events)");
	CHECK_FAILS(VM, "cs,foo", "unknown event 'foo'");
	CHECK_FAILS(VM, "tsc", "did you mean msr/tsc/?");

	CHECK_FAILS(VM, "cs,context-switches", "event 'context-switches' is listed twice");
	CHECK_FAILS(VM, "faults,page-faults", "listed twice");
	CHECK_FAILS(SKL, "r3c,r003c", "events 'r3c' and 'r003c' are the same event");
	CHECK_FAILS(VM, "msr/tsc/,msr/event=0/", "same event");
	CHECK_FAILS(VM, "msr/tsc/,msr/tsc/", "listed twice");

	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CHECK_FAILS(VM, longname, "too long (at most 63 characters)");
	CHECK_FAILS(SKL, "cpu/event=0x3c,umask=0x1,cmask=1,edge=1,inv=1,any=1,in_tx=1,pc=1/",
		    "too long");

	/* 7 software + 9 hardware names is exactly MAX_EVENTS. */
	CHECK_INT(parse(SKL, "cpu-clock,task-clock,page-faults,context-switches,cpu-migrations,"
			     "minor-faults,major-faults,cycles,instructions,branches,"
			     "branch-misses,cache-references,cache-misses,ref-cycles,bus-cycles,"
			     "stalled-cycles-frontend"), 0);
	CHECK_INT(list.nr, MAX_EVENTS);
	CHECK_FAILS(SKL, "cpu-clock,task-clock,page-faults,context-switches,cpu-migrations,"
			 "minor-faults,major-faults,cycles,instructions,branches,"
			 "branch-misses,cache-references,cache-misses,ref-cycles,bus-cycles,"
			 "stalled-cycles-frontend,stalled-cycles-backend",
		    "too many events: at most 16");
}

TEST(events_pmu_errors)
{
	CHECK_FAILS(SKL, "cpu/event=0x3c", "missing closing '/'");
	CHECK_FAILS(SKL, "cpu/event=0x3c,umask=1", "missing closing '/'");
	CHECK_FAILS(SKL, "cpu/event=1/,", "empty event");
	CHECK_FAILS(SKL, "cpu//", "no event or terms");
	CHECK_FAILS(SKL, "/event=1/", "bad PMU name");
	CHECK_FAILS(SKL, "../x/", "bad PMU name");
	CHECK_FAILS(SKL, "a/b/c/d", "unexpected '/'");
	CHECK_FAILS(SKL, "cpu/../", "bad event");
	CHECK_FAILS(SKL, "nopmu/tsc/", "unknown PMU 'nopmu' in 'nopmu/tsc/'");
	CHECK_FAILS(VM, "cpu/cycles/", "unknown PMU 'cpu'");
	CHECK_FAILS(SKL, "cpu/foo=1/", "unknown term 'foo' for PMU 'cpu'");
	CHECK_FAILS(SKL, "cpu/foo/", "unknown term 'foo'");
	CHECK_FAILS(SKL, "cpu/foo/", "as a vendor event: not a known event on this CPU");
	CHECK_FAILS(SKL, "cpu/event=0x100/", "does not fit term 'event'");
	CHECK_FAILS(SKL, "cpu/any=2/", "does not fit term 'any'");
	CHECK_FAILS(SKL, "cpu/event=/", "no value");
	CHECK_FAILS(SKL, "cpu/event=0xzz/", "bad value");
	CHECK_FAILS(SKL, "cpu/event=?/", "needs a value");
	CHECK_FAILS(SKL, "cpu/event=1,,umask=1/", "empty term");
	CHECK_FAILS(SKL, "cpu/cpu-cycles,instructions/", "names two events");
	CHECK_FAILS(VM, "software/cpu-clock/", "no format terms");
}

TEST(events_bad_sysfs_content)
{
	static const struct fixture_file pmus[] = {
		{ "cpu/type", "4\n" }, { "cpu/format/event", "config:0-7\n" },
		{ "cpu/format/umask", "config:8-15\n" }, { "cpu/format/wide", "config:0-64\n" },
		{ "cpu/events/param", "event=0x1,umask=?\n" }, { "cpu/events/junk", "event=zz\n" },
		{ "cpu/events/bogus", "event=1,bogus=1\n" },
		{ "cpu/events/toowide", "event=0x1ff\n" }, { "cpu/events/usewide", "wide=1\n" },
		{ "cpu/events/badscale", "event=2\n" }, { "cpu/events/badscale.scale", "two\n" },
		{ "cpu/events/energy", "event=3\n" },
		{ "cpu/events/energy.scale", "2.3283064365386962890625e-10\n" },
		{ "cpu/events/energy.unit", "Joules\n" }, { "notype/events/x", "event=1\n" },
		{ "badtype/type", "four\n" },
		{ NULL },
	};
	char *root = fixture_new("events");

	if (!root)
		return;
	fixture_put_files(root, DEV, pmus);

	CHECK_FAILS(root, "cpu/param/", "needs a value for 'umask'");
	CHECK_FAILS(root, "cpu/param/", "write cpu/param,umask=N/");
	CHECK_INT(parse(root, "cpu/param,umask=2/"), 0);
	CHECK_U64(list.ev[0].config, 0x201);
	CHECK_FAILS(root, "cpu/junk/", "bad sysfs alias cpu/junk/");
	CHECK_FAILS(root, "cpu/bogus/", "unknown term 'bogus'");
	CHECK_FAILS(root, "cpu/toowide/", "does not fit");
	CHECK_FAILS(root, "cpu/usewide/", "bits must be 0-63");
	CHECK_FAILS(root, "cpu/badscale/", "bad scale 'two'");
	CHECK_FAILS(root, "notype/x/", "notype/type");
	CHECK_FAILS(root, "badtype/x/", "bad type");

	CHECK_INT(parse(root, "cpu/energy/"), 0);
	CHECK_U64(list.ev[0].config, 3);
	CHECK_NEAR(list.ev[0].scale, 2.3283064365386962890625e-10, 1e-24);
	CHECK_STR(list.ev[0].unit, "Joules");
	fixture_remove(root);
}

TEST(events_attr)
{
	struct perf_event_attr attr;

	CHECK_INT(parse(SKL, "cpu/mem-loads/,cs"), 0);
	memset(&attr, 0xff, sizeof(attr));
	event_spec__to_attr(&list.ev[0], &attr);
	CHECK_INT(attr.size, sizeof(attr));
	CHECK_INT(attr.type, 4);
	CHECK_U64(attr.config, 0x1cd);
	CHECK_U64(attr.config1, 3);
	CHECK_U64(attr.config2, 0);
	CHECK_U64(attr.read_format, 3);	/* TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING */
	CHECK_U64(attr.sample_period, 0);
	CHECK_U64(attr.sample_type, 0);
	CHECK_INT(attr.inherit, 0);
	CHECK_INT(attr.disabled, 0);
	CHECK_INT(attr.pinned, 0);
	CHECK_INT(attr.exclude_kernel, 0);

	list.ev[1].pinned = true;
	event_spec__to_attr(&list.ev[1], &attr);
	CHECK_INT(attr.type, 1);
	CHECK_U64(attr.config, 3);
	CHECK_INT(attr.pinned, 1);
}

TEST(events_print_list_vm)
{
	char *out = print_list(VM);
	char *again = print_list(VM);

	CHECK(out && again);
	if (!out || !again)
		goto out;
	CHECK_STR(out, again);
	CHECK(strstr(out, "context-switches"));
	CHECK(strstr(out, "(alias: cs)"));
	CHECK(strstr(out, "(no hardware PMU found)"));
	CHECK(!strstr(out, "instructions"));
	CHECK(strstr(out, "msr/tsc/"));
	CHECK(strstr(out, "event=0x00"));
	CHECK(strstr(out, "uprobe/ "));
	CHECK(strstr(out, "ref_ctr_offset,retprobe"));
	/* Sorted: software events, then the PMUs by name. */
	CHECK(strstr(out, "context-switches") < strstr(out, "task-clock"));
out:
	free(out);
	free(again);
}

TEST(events_print_list_skylake)
{
	char *out = print_list(SKL);

	CHECK(out != NULL);
	if (!out)
		return;
	CHECK(!strstr(out, "no hardware PMU"));
	CHECK(strstr(out, "instructions"));
	CHECK(strstr(out, "(alias: cpu-cycles)"));
	CHECK(strstr(out, "cpu/topdown-total-slots/"));
	CHECK(strstr(out, "event=0x3c,umask=0x0,any=1  (scale 2)"));
	CHECK(!strstr(out, ".scale"));
	CHECK(strstr(out, "cpu/branch-instructions/") < strstr(out, "cpu/branch-misses/"));
	CHECK(strstr(out, "cpu/cycles-ct/") < strstr(out, "cpu/topdown-fetch-bubbles/"));
	free(out);
}

TEST(events_real_sysfs_msr)
{
	FILE *f;
	unsigned int type;

	/* Only where the running kernel has the msr PMU (x86). */
	f = fopen("/sys/bus/event_source/devices/msr/type", "r");
	if (!f)
		return;
	if (fscanf(f, "%u", &type) != 1)
		type = ~0U;
	fclose(f);
	CHECK_INT(parse("/sys", "msr/tsc/"), 0);
	CHECK_INT(list.nr, 1);
	CHECK_INT(list.ev[0].type, type);
	CHECK_U64(list.ev[0].config, 0);
	CHECK_STR(list.ev[0].name, "msr/tsc/");
}
