// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* pmu.c: format, term and CPU-list parsers, and the sysfs readers against
 * the fixture trees and against malformed trees built in a temp dir. */
#include <errno.h>
#include <stdlib.h>
#include "pmu/pmu.h"
#include "fixture.h"
#include "test.h"

#define SKL "../fixtures/sysfs/skylake"
#define VM "../fixtures/sysfs/vm-nopmu"
#define DEV FIXTURE_DEVICES

static char err[256];

TEST(pmu_format_parse_ranges)
{
	static const struct {
		const char *s;
		int field;
		__u64 mask;
	} cases[] = {
		{ "config:0-7", PMU_CONFIG, 0xff },
		{ "config1:0-15", PMU_CONFIG1, 0xffff },
		{ "config2:0-1", PMU_CONFIG2, 0x3 },
		{ "config:8-15,32-35", PMU_CONFIG, 0xf0000ff00ULL },
		{ "config:21", PMU_CONFIG, 1ULL << 21 },
		{ "config:0-63", PMU_CONFIG, ~0ULL },
		{ "config:63", PMU_CONFIG, 1ULL << 63 },
		{ "config:0-7,32-35", PMU_CONFIG, 0xf000000ffULL },
		{ "config:0-15", PMU_CONFIG, 0xffff },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pmu_format f = { 0 };

		if (pmu_format__parse(cases[i].s, &f, err, sizeof(err)))
			test_fail(__FILE__, __LINE__, "'%s': %s", cases[i].s, err);
		else if ((int)f.field != cases[i].field || f.mask != cases[i].mask)
			test_fail(__FILE__, __LINE__, "'%s': field %d mask %#llx", cases[i].s,
				  f.field, (unsigned long long)f.mask);
	}
}

TEST(pmu_format_parse_errors)
{
	static const struct {
		const char *s;
		int ret;
	} bad[] = {
		{ "", -EINVAL },		{ "config", -EINVAL },
		{ "config:", -EINVAL },		{ "config3:0", -EINVAL },
		{ "conf:0", -EINVAL },		{ "configx:0", -EINVAL },
		{ "config:64", -ERANGE },	{ "config:0-64", -ERANGE },
		{ "config:7-0", -EINVAL },	{ "config:0-7,", -EINVAL },
		{ "config:0-7x", -EINVAL },	{ "config:a", -EINVAL },
		{ "config:-1", -EINVAL },	{ " config:0", -EINVAL },
		{ "config:0-", -EINVAL },	{ "config:0-7\nconfig:8", -EINVAL },
		{ "config:99999999999999999999999", -ERANGE },
		{ "config:0,,1", -EINVAL },
	};
	struct pmu_format f;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (pmu_format__parse(bad[i].s, &f, err, sizeof(err)) != bad[i].ret)
			test_fail(__FILE__, __LINE__, "'%s' not rejected with %d", bad[i].s,
				  bad[i].ret);
		CHECK(err[0] != '\0');
	}
	CHECK_INT(pmu_format__parse("config:7-0", &f, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "reversed"));
	CHECK_INT(pmu_format__parse("config:70", &f, err, sizeof(err)), -ERANGE);
	CHECK(strstr(err, "0-63"));
}

TEST(pmu_format_apply_scatters_bits)
{
	struct pmu_format event = { PMU_CONFIG, 0xff };
	struct pmu_format any = { PMU_CONFIG, 1ULL << 21 };
	struct pmu_format amd = { PMU_CONFIG, 0xf000000ffULL };	/* config:0-7,32-35 */
	struct pmu_format split = { PMU_CONFIG, 0xf0000ff00ULL };	/* config:8-15,32-35 */
	struct pmu_format ldlat = { PMU_CONFIG1, 0xffff };
	struct pmu_format all = { PMU_CONFIG, ~0ULL };
	__u64 cfg[NR_PMU_FIELDS] = { 0 };

	CHECK_INT(pmu_format__apply(&event, "event", 0x3c, cfg, err, sizeof(err)), 0);
	CHECK_INT(pmu_format__apply(&any, "any", 1, cfg, err, sizeof(err)), 0);
	CHECK_U64(cfg[PMU_CONFIG], 0x20003c);

	/* A later value replaces the field, other bits stay. */
	CHECK_INT(pmu_format__apply(&event, "event", 0xc0, cfg, err, sizeof(err)), 0);
	CHECK_U64(cfg[PMU_CONFIG], 0x2000c0);
	CHECK_INT(pmu_format__apply(&any, "any", 0, cfg, err, sizeof(err)), 0);
	CHECK_U64(cfg[PMU_CONFIG], 0xc0);

	/* AMD's 12-bit event select: the low 8 bits, then bits 32-35. */
	memset(cfg, 0, sizeof(cfg));
	CHECK_INT(pmu_format__apply(&amd, "event", 0x1d6, cfg, err, sizeof(err)), 0);
	CHECK_U64(cfg[PMU_CONFIG], 0x1000000d6ULL);
	memset(cfg, 0, sizeof(cfg));
	CHECK_INT(pmu_format__apply(&split, "umask", 0xabc, cfg, err, sizeof(err)), 0);
	CHECK_U64(cfg[PMU_CONFIG], 0xa0000bc00ULL);

	CHECK_INT(pmu_format__apply(&ldlat, "ldlat", 3, cfg, err, sizeof(err)), 0);
	CHECK_U64(cfg[PMU_CONFIG1], 3);
	CHECK_U64(cfg[PMU_CONFIG2], 0);

	CHECK_INT(pmu_format__apply(&all, "event", ~0ULL, cfg, err, sizeof(err)), 0);
	CHECK_U64(cfg[PMU_CONFIG], ~0ULL);

	/* Values wider than the field are refused, not truncated. */
	memset(cfg, 0, sizeof(cfg));
	CHECK_INT(pmu_format__apply(&event, "event", 0x100, cfg, err, sizeof(err)), -ERANGE);
	CHECK(strstr(err, "does not fit term 'event'"));
	CHECK(strstr(err, "8 bits"));
	CHECK_INT(pmu_format__apply(&any, "any", 2, cfg, err, sizeof(err)), -ERANGE);
	CHECK_INT(pmu_format__apply(&split, "umask", 0x1000, cfg, err, sizeof(err)), -ERANGE);
	CHECK_U64(cfg[PMU_CONFIG], 0);
	CHECK_INT(pmu_format__width(&split), 12);
	CHECK_INT(pmu_format__width(&all), 64);
}

TEST(pmu_parse_u64_forms)
{
	__u64 v = 0;

	CHECK_INT(pmu_parse_u64("0x3c", &v), 0);
	CHECK_U64(v, 0x3c);
	CHECK_INT(pmu_parse_u64("0X3C", &v), 0);
	CHECK_U64(v, 0x3c);
	CHECK_INT(pmu_parse_u64("60", &v), 0);
	CHECK_U64(v, 60);
	CHECK_INT(pmu_parse_u64("010", &v), 0);	/* decimal, as in perf */
	CHECK_U64(v, 10);
	CHECK_INT(pmu_parse_u64("18446744073709551615", &v), 0);
	CHECK_U64(v, ~0ULL);
	CHECK_INT(pmu_parse_u64("0xffffffffffffffff", &v), 0);
	CHECK_U64(v, ~0ULL);
	CHECK_INT(pmu_parse_u64("0x000000000000000000001", &v), 0);
	CHECK_U64(v, 1);
	CHECK_INT(pmu_parse_u64("18446744073709551616", &v), -ERANGE);
	CHECK_INT(pmu_parse_u64("0x10000000000000000", &v), -ERANGE);
	CHECK_INT(pmu_parse_u64("", &v), -EINVAL);
	CHECK_INT(pmu_parse_u64("0x", &v), -EINVAL);
	CHECK_INT(pmu_parse_u64("0xg", &v), -EINVAL);
	CHECK_INT(pmu_parse_u64("-1", &v), -EINVAL);
	CHECK_INT(pmu_parse_u64("1 ", &v), -EINVAL);
	CHECK_INT(pmu_parse_u64("12abc", &v), -EINVAL);
}

TEST(pmu_terms_parse_alias_strings)
{
	struct pmu_term t[PMU_MAX_TERMS];
	char many[256] = "";

	CHECK_INT(pmu_terms_parse("event=0x3c,umask=0x0,any=1", t, PMU_MAX_TERMS, err,
				  sizeof(err)), 3);
	CHECK_STR(t[0].name, "event");
	CHECK_U64(t[0].val, 0x3c);
	CHECK_STR(t[1].name, "umask");
	CHECK_U64(t[1].val, 0);
	CHECK(t[1].has_val);
	CHECK_STR(t[2].name, "any");
	CHECK_U64(t[2].val, 1);

	CHECK_INT(pmu_terms_parse("event=0x00,umask=0x4", t, PMU_MAX_TERMS, err, sizeof(err)), 2);
	CHECK_U64(t[1].val, 4);

	/* A bare term means 1; "?" is a placeholder the user must fill. */
	CHECK_INT(pmu_terms_parse("event=0xc2,edge,umask=?", t, PMU_MAX_TERMS, err, sizeof(err)),
		  3);
	CHECK(!t[1].has_val);
	CHECK_U64(t[1].val, 1);
	CHECK(t[2].placeholder);
	CHECK(!t[0].placeholder);
	CHECK_INT(pmu_terms_parse("topdown-total-slots", t, PMU_MAX_TERMS, err, sizeof(err)), 1);
	CHECK_STR(t[0].name, "topdown-total-slots");

	CHECK_INT(pmu_terms_parse("", t, PMU_MAX_TERMS, err, sizeof(err)), -EINVAL);
	CHECK_INT(pmu_terms_parse(",", t, PMU_MAX_TERMS, err, sizeof(err)), -EINVAL);
	CHECK_INT(pmu_terms_parse("event=0x3c,", t, PMU_MAX_TERMS, err, sizeof(err)), -EINVAL);
	CHECK_INT(pmu_terms_parse("event=", t, PMU_MAX_TERMS, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "no value"));
	CHECK_INT(pmu_terms_parse("=1", t, PMU_MAX_TERMS, err, sizeof(err)), -EINVAL);
	CHECK_INT(pmu_terms_parse("ev ent=1", t, PMU_MAX_TERMS, err, sizeof(err)), -EINVAL);
	CHECK_INT(pmu_terms_parse(".hidden", t, PMU_MAX_TERMS, err, sizeof(err)), -EINVAL);
	CHECK_INT(pmu_terms_parse("event=zz", t, PMU_MAX_TERMS, err, sizeof(err)), -EINVAL);
	CHECK_INT(pmu_terms_parse("event=99999999999999999999", t, PMU_MAX_TERMS, err,
				  sizeof(err)), -ERANGE);
	CHECK(strstr(err, "64 bits"));
	CHECK_INT(pmu_terms_parse("event=0x0000000000000000000000000000000000001", t,
				  PMU_MAX_TERMS, err, sizeof(err)), -ERANGE);
	memset(many, 'a', PMU_NAME_LEN);
	strcpy(many + PMU_NAME_LEN, "=1");
	CHECK_INT(pmu_terms_parse(many, t, PMU_MAX_TERMS, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "too long"));
	many[0] = '\0';
	for (int i = 0; i <= PMU_MAX_TERMS; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%st%d=1", i ? "," : "",
			 i);
	CHECK_INT(pmu_terms_parse(many, t, PMU_MAX_TERMS, err, sizeof(err)), -E2BIG);
	CHECK(strstr(err, "at most 16"));
}

TEST(pmu_cpulist_parse_forms)
{
	struct pmu_cpus c;

	CHECK_INT(pmu_cpus__parse("0-3,8", &c, err, sizeof(err)), 0);
	CHECK_INT(c.nr, 5);
	CHECK(pmu_cpus__has(&c, 0) && pmu_cpus__has(&c, 3) && pmu_cpus__has(&c, 8));
	CHECK(!pmu_cpus__has(&c, 4) && !pmu_cpus__has(&c, 9) && !pmu_cpus__has(&c, -1));
	CHECK(!pmu_cpus__has(&c, MAX_CPUS));

	CHECK_INT(pmu_cpus__parse("0-3,8,10-11\n", &c, err, sizeof(err)), 0);
	CHECK_INT(c.nr, 7);
	CHECK(pmu_cpus__has(&c, 11) && !pmu_cpus__has(&c, 12));

	CHECK_INT(pmu_cpus__parse("", &c, err, sizeof(err)), 0);
	CHECK_INT(c.nr, 0);
	CHECK_INT(pmu_cpus__parse("\n", &c, err, sizeof(err)), 0);
	CHECK_INT(c.nr, 0);
	CHECK_INT(pmu_cpus__parse("5", &c, err, sizeof(err)), 0);
	CHECK_INT(c.nr, 1);
	CHECK(pmu_cpus__has(&c, 5));
	CHECK_INT(pmu_cpus__parse("0,0-1,1", &c, err, sizeof(err)), 0);
	CHECK_INT(c.nr, 2);
	CHECK_INT(pmu_cpus__parse("0-4095", &c, err, sizeof(err)), 0);
	CHECK_INT(c.nr, MAX_CPUS);

	CHECK_INT(pmu_cpus__parse("4096", &c, err, sizeof(err)), -ERANGE);
	CHECK(strstr(err, "below 4096"));
	CHECK_INT(pmu_cpus__parse("0-99999999999999999999999", &c, err, sizeof(err)), -ERANGE);
	CHECK_INT(pmu_cpus__parse("3-1", &c, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "reversed"));
	static const char *const junk[] = { "a", "0-", "-1", "0,,1", "0-3x", "1,", " 1", "1 2",
					    "0-3:2/4", "0x1" };
	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		if (pmu_cpus__parse(junk[i], &c, err, sizeof(err)) != -EINVAL)
			test_fail(__FILE__, __LINE__, "'%s' not rejected", junk[i]);
	}
}

/* The formatter writes what the parser reads back. */
TEST(pmu_cpus_format_round_trip)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "", "" }, { "5", "5" }, { "0-3,8", "0-3,8" }, { "0,1,2,3", "0-3" },
		{ "0-3,8,10-11\n", "0-3,8,10-11" }, { "4095", "4095" }, { "0-4095", "0-4095" },
		{ "1,3,5", "1,3,5" },
	};
	struct pmu_cpus c;
	char buf[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_INT(pmu_cpus__parse(cases[i].in, &c, err, sizeof(err)), 0);
		pmu_cpus__format(&c, buf, sizeof(buf));
		CHECK_STR(buf, cases[i].out);
	}
	/* cut to the buffer, never past it */
	CHECK_INT(pmu_cpus__parse("0,2,4,6,8", &c, err, sizeof(err)), 0);
	pmu_cpus__format(&c, buf, 6);
	CHECK_STR(buf, "0,2,4");
}

TEST(pmu_names)
{
	static const struct {
		const char *name;
		bool valid, core;
	} cases[] = {
		{ "cpu", true, true }, { "cpu_core", true, true }, { "cpu_atom", true, true },
		{ "armv8_pmuv3_0", true, true }, { "armv8_cortex_a53", true, true },
		{ "topdown-total-slots.scale", true, false }, { "msr", true, false },
		{ "software", true, false }, { "cpu2", true, false },
		{ "uncore_imc_0", true, false }, { "", false, false }, { ".", false, false },
		{ "..", false, false }, { "a/b", false, false }, { "a b", false, false },
	};
	char longname[PMU_NAME_LEN + 1];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (pmu_name_valid(cases[i].name) != cases[i].valid ||
		    pmu_is_core_name(cases[i].name) != cases[i].core)
			test_fail(__FILE__, __LINE__, "'%s': valid %d core %d", cases[i].name,
				  pmu_name_valid(cases[i].name), pmu_is_core_name(cases[i].name));
	memset(longname, 'a', PMU_NAME_LEN);
	longname[PMU_NAME_LEN] = '\0';
	CHECK(!pmu_name_valid(longname));
	longname[PMU_NAME_LEN - 1] = '\0';
	CHECK(pmu_name_valid(longname));
}

TEST(pmu_fixture_skylake)
{
	struct pmu_format f;
	char buf[PMU_ALIAS_LEN], unit[16];
	double scale = 0;
	__u32 type = 0;

	CHECK(pmu_exists(SKL, "cpu"));
	CHECK(!pmu_exists(SKL, "msr"));
	CHECK(!pmu_exists(SKL, "../skylake"));
	CHECK_INT(pmu_read_type(SKL, "cpu", &type, err, sizeof(err)), 0);
	CHECK_INT(type, 4);
	CHECK_INT(pmu_read_type(SKL, "software", &type, err, sizeof(err)), 0);
	CHECK_INT(type, 1);
	CHECK_INT(pmu_read_type(SKL, "nope", &type, err, sizeof(err)), -ENOENT);

	/* The Intel core formats (arch/x86/events/intel/core.c). */
	CHECK_INT(pmu_read_format(SKL, "cpu", "event", &f, err, sizeof(err)), 0);
	CHECK_U64(f.mask, 0xff);
	CHECK_INT(pmu_read_format(SKL, "cpu", "umask", &f, err, sizeof(err)), 0);
	CHECK_U64(f.mask, 0xff00);
	CHECK_INT(pmu_read_format(SKL, "cpu", "any", &f, err, sizeof(err)), 0);
	CHECK_U64(f.mask, 1ULL << 21);
	CHECK_INT(pmu_read_format(SKL, "cpu", "cmask", &f, err, sizeof(err)), 0);
	CHECK_U64(f.mask, 0xff000000ULL);
	CHECK_INT(pmu_read_format(SKL, "cpu", "in_tx_cp", &f, err, sizeof(err)), 0);
	CHECK_U64(f.mask, 1ULL << 33);
	CHECK_INT(pmu_read_format(SKL, "cpu", "frontend", &f, err, sizeof(err)), 0);
	CHECK_INT(f.field, PMU_CONFIG1);
	CHECK_U64(f.mask, 0xffffff);
	CHECK_INT(pmu_read_format(SKL, "cpu", "nope", &f, err, sizeof(err)), -ENOENT);
	CHECK_INT(pmu_read_format(SKL, "cpu", "../type", &f, err, sizeof(err)), -EINVAL);

	/* Written with and without a trailing newline by the kernel. */
	CHECK_INT(pmu_read_alias(SKL, "cpu", "cpu-cycles", buf, sizeof(buf), err, sizeof(err)), 0);
	CHECK_STR(buf, "event=0x3c");
	CHECK_INT(pmu_read_alias(SKL, "cpu", "topdown-total-slots", buf, sizeof(buf), err,
				 sizeof(err)), 0);
	CHECK_STR(buf, "event=0x3c,umask=0x0,any=1");
	CHECK_INT(pmu_read_alias(SKL, "cpu", "nope", buf, sizeof(buf), err, sizeof(err)), -ENOENT);
	CHECK_INT(pmu_read_alias(SKL, "cpu", "cpu-cycles", buf, 6, err, sizeof(err)), -E2BIG);

	CHECK_INT(pmu_read_scale(SKL, "cpu", "topdown-total-slots", &scale, err, sizeof(err)), 0);
	CHECK_NEAR(scale, 2.0, 0);
	CHECK_INT(pmu_read_scale(SKL, "cpu", "cpu-cycles", &scale, err, sizeof(err)), 0);
	CHECK_NEAR(scale, 1.0, 0);
	strcpy(unit, "x");
	CHECK_INT(pmu_read_unit(SKL, "cpu", "cpu-cycles", unit, sizeof(unit), err, sizeof(err)), 0);
	CHECK_STR(unit, "");
}

TEST(pmu_fixture_has_aliases)
{
	static const char *const topdown[] = {
		"topdown-total-slots", "topdown-slots-retired", "topdown-fetch-bubbles",
	};
	static const char *const some[] = { "cpu-cycles", "nope", "slots", "instructions" };
	char missing[64];

	CHECK(pmu_has_alias(SKL, "cpu", "cpu-cycles"));
	/* longer than any buffer the test reads into: still there */
	CHECK(pmu_has_alias(SKL, "cpu", "topdown-total-slots"));
	CHECK(!pmu_has_alias(SKL, "cpu", "nope"));
	CHECK(!pmu_has_alias(SKL, "cpu", "../type"));
	CHECK(!pmu_has_alias(SKL, "nope", "cpu-cycles"));
	CHECK(pmu_has_aliases(SKL, "cpu", topdown, 3, missing, sizeof(missing)));
	CHECK_STR(missing, "");
	CHECK(!pmu_has_aliases(SKL, "cpu", some, 4, missing, sizeof(missing)));
	CHECK_STR(missing, "nope, slots");
	CHECK(!pmu_has_aliases(SKL, "cpu", some, 4, missing, 7));
	CHECK_STR(missing, "nope, ");
}

TEST(pmu_fixture_lists)
{
	char **names = pmu_list(VM);
	int n = 0;

	CHECK(names != NULL);
	for (char **p = names; p && *p; p++)
		n++;
	CHECK_INT(n, 5);
	if (n == 5) {
		CHECK_STR(names[0], "breakpoint");
		CHECK_STR(names[1], "msr");
		CHECK_STR(names[2], "software");
		CHECK_STR(names[3], "tracepoint");
		CHECK_STR(names[4], "uprobe");
	}
	pmu_names_free(names);

	names = pmu_list_events(SKL, "cpu");
	n = 0;
	for (char **p = names; p && *p; p++, n++) {
		CHECK(!strstr(*p, ".scale"));
		if (p != names)
			CHECK(strcmp(p[-1], *p) < 0);
	}
	CHECK_INT(n, 27);
	pmu_names_free(names);

	names = pmu_list_formats(SKL, "cpu");
	n = 0;
	for (char **p = names; p && *p; p++)
		n++;
	CHECK_INT(n, 12);
	pmu_names_free(names);

	names = pmu_list_events(VM, "software");
	CHECK(names == NULL);
	CHECK(pmu_list("/nonexistent-root") == NULL);
	pmu_names_free(NULL);

	CHECK(pmu_have_core(SKL));
	CHECK(!pmu_have_core(VM));
	CHECK(!pmu_have_core("/nonexistent-root"));
}

TEST(pmu_terms_apply_fixture)
{
	struct pmu_term t[PMU_MAX_TERMS];
	__u64 cfg[NR_PMU_FIELDS] = { 0 };
	int nr;

	nr = pmu_terms_parse("event=0x3c,umask=0x0,any=1", t, PMU_MAX_TERMS, err, sizeof(err));
	CHECK_INT(pmu_terms_apply(SKL, "cpu", t, nr, cfg, err, sizeof(err)), 0);
	CHECK_U64(cfg[PMU_CONFIG], 0x20003c);

	memset(cfg, 0, sizeof(cfg));
	nr = pmu_terms_parse("event=0xcd,umask=0x1,ldlat=3", t, PMU_MAX_TERMS, err, sizeof(err));
	CHECK_INT(pmu_terms_apply(SKL, "cpu", t, nr, cfg, err, sizeof(err)), 0);
	CHECK_U64(cfg[PMU_CONFIG], 0x1cd);
	CHECK_U64(cfg[PMU_CONFIG1], 3);

	/* Whole-field terms when format/ does not define them. */
	memset(cfg, 0, sizeof(cfg));
	nr = pmu_terms_parse("config=0x1234,config2=7", t, PMU_MAX_TERMS, err, sizeof(err));
	CHECK_INT(pmu_terms_apply(SKL, "cpu", t, nr, cfg, err, sizeof(err)), 0);
	CHECK_U64(cfg[PMU_CONFIG], 0x1234);
	CHECK_U64(cfg[PMU_CONFIG2], 7);

	nr = pmu_terms_parse("foo=1", t, PMU_MAX_TERMS, err, sizeof(err));
	CHECK_INT(pmu_terms_apply(SKL, "cpu", t, nr, cfg, err, sizeof(err)), -ENOENT);
	CHECK(strstr(err, "unknown term 'foo' for PMU 'cpu'"));
	CHECK(strstr(err, "valid: any,cmask,edge,event,frontend"));
	nr = pmu_terms_parse("foo=1", t, PMU_MAX_TERMS, err, sizeof(err));
	CHECK_INT(pmu_terms_apply(VM, "software", t, nr, cfg, err, sizeof(err)), -ENOENT);
	CHECK(strstr(err, "no format terms"));

	nr = pmu_terms_parse("event=0x100", t, PMU_MAX_TERMS, err, sizeof(err));
	CHECK_INT(pmu_terms_apply(SKL, "cpu", t, nr, cfg, err, sizeof(err)), -ERANGE);
	nr = pmu_terms_parse("umask=?", t, PMU_MAX_TERMS, err, sizeof(err));
	CHECK_INT(pmu_terms_apply(SKL, "cpu", t, nr, cfg, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "needs a value"));
}

TEST(pmu_malformed_files)
{
	static const struct fixture_file files[] = {
		{ "a/type", "abc\n" }, { "b/type", "4294967296\n" }, { "c/type", "" },
		{ "f/type", "4294967295" }, { "f/format/event", "config:64\n" },
		{ "f/format/twolines", "config:0-7\nconfig:8-15\n" },
		{ "f/events/ctl", "event=0x1\x01" }, { "f/events/s1", "event=1" },
		{ "f/events/s1.scale", "abc" }, { "f/events/s2.scale", "0" },
		{ "f/events/s3.scale", "-1" }, { "f/events/s4.scale", "inf" },
		{ "f/events/s5.scale", "nan" }, { "f/events/s6.scale", "2x" },
		{ "f/events/s7.scale", "6.103515625e-5\n" }, { "f/events/s7.unit", "Joules\n" },
		{ "f/events/s8.unit", "a-unit-that-is-far-too-long" }, { "f/events/s9.unit", "" },
		{ NULL },
	};
	char *root = fixture_new("pmu");
	char big[1024];
	struct pmu_format f;
	char buf[PMU_ALIAS_LEN], unit[16];
	double scale;
	__u32 type;

	if (!root)
		return;
	memset(big, 'x', sizeof(big));
	fixture_put_files(root, DEV, files);
	fixture_put_len(root, DEV "d/type", big, sizeof(big));
	fixture_put_len(root, DEV "e/type", "4\0", 2);
	fixture_put_len(root, DEV "f/format/huge", big, sizeof(big));

	CHECK_INT(pmu_read_type(root, "a", &type, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "bad type"));
	CHECK_INT(pmu_read_type(root, "b", &type, err, sizeof(err)), -ERANGE);
	CHECK_INT(pmu_read_type(root, "c", &type, err, sizeof(err)), -EINVAL);
	CHECK_INT(pmu_read_type(root, "d", &type, err, sizeof(err)), -E2BIG);
	CHECK(strstr(err, "longer than"));
	CHECK_INT(pmu_read_type(root, "e", &type, err, sizeof(err)), -EINVAL);
	CHECK_INT(pmu_read_type(root, "f", &type, err, sizeof(err)), 0);
	CHECK_U64(type, 4294967295U);

	CHECK_INT(pmu_read_format(root, "f", "event", &f, err, sizeof(err)), -ERANGE);
	CHECK(strstr(err, "PMU 'f' term 'event'"));
	CHECK_INT(pmu_read_format(root, "f", "twolines", &f, err, sizeof(err)), -EINVAL);
	CHECK_INT(pmu_read_format(root, "f", "huge", &f, err, sizeof(err)), -E2BIG);
	CHECK_INT(pmu_read_alias(root, "f", "ctl", buf, sizeof(buf), err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "unprintable"));

	for (int i = 1; i <= 6; i++) {
		char name[16];

		snprintf(name, sizeof(name), "s%d", i);
		if (pmu_read_scale(root, "f", name, &scale, err, sizeof(err)) != -EINVAL)
			test_fail(__FILE__, __LINE__, "scale of %s not rejected", name);
	}
	CHECK_INT(pmu_read_scale(root, "f", "s7", &scale, err, sizeof(err)), 0);
	CHECK_NEAR(scale, 6.103515625e-5, 1e-18);
	CHECK_INT(pmu_read_unit(root, "f", "s7", unit, sizeof(unit), err, sizeof(err)), 0);
	CHECK_STR(unit, "Joules");
	CHECK_INT(pmu_read_unit(root, "f", "s8", unit, sizeof(unit), err, sizeof(err)), -E2BIG);
	CHECK_INT(pmu_read_unit(root, "f", "s9", unit, sizeof(unit), err, sizeof(err)), 0);
	CHECK_STR(unit, "");

	/* Names that would leave the PMU directory never reach open(). */
	CHECK_INT(pmu_read_type(root, "..", &type, err, sizeof(err)), -EINVAL);
	CHECK_INT(pmu_read_type(root, "f/../a", &type, err, sizeof(err)), -EINVAL);
	CHECK_INT(pmu_read_alias(root, "f", "../type", buf, sizeof(buf), err, sizeof(err)),
		  -EINVAL);
	fixture_remove(root);
}

TEST(pmu_read_cpus_files)
{
	static const struct fixture_file files[] = {
		{ "cpu_core/cpus", "0-7\n" }, { "cpu_core/cpumask", "0\n" },
		{ "cpu_atom/cpus", "8-15\n" }, { "uncore_imc_0/cpumask", "0,24\n" },
		{ "bad/cpus", "0-3,junk\n" }, { "software/type", "1\n" },
		{ NULL },
	};
	char *root = fixture_new("pmu");
	struct pmu_cpus c;
	char *big;

	if (!root)
		return;
	fixture_put_files(root, DEV, files);

	CHECK_INT(pmu_read_cpus(root, "cpu_core", &c, err, sizeof(err)), 0);
	CHECK_INT(c.nr, 8);
	CHECK(pmu_cpus__has(&c, 7) && !pmu_cpus__has(&c, 8));
	CHECK_INT(pmu_read_cpus(root, "cpu_atom", &c, err, sizeof(err)), 0);
	CHECK_INT(c.nr, 8);
	CHECK(pmu_cpus__has(&c, 8) && pmu_cpus__has(&c, 15));
	CHECK_INT(pmu_read_cpus(root, "uncore_imc_0", &c, err, sizeof(err)), 0);
	CHECK_INT(c.nr, 2);
	CHECK(pmu_cpus__has(&c, 24));
	CHECK_INT(pmu_read_cpus(root, "bad", &c, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "bad/cpus"));
	CHECK_INT(pmu_read_cpus(root, "software", &c, err, sizeof(err)), -ENOENT);
	CHECK_INT(pmu_read_cpus(VM, "msr", &c, err, sizeof(err)), -ENOENT);

	/* A list longer than any MAX_CPUS list is refused before parsing. */
	big = malloc(MAX_CPUS * 8);
	if (big) {
		memset(big, '1', MAX_CPUS * 8);
		fixture_put_len(root, DEV "huge/cpus", big, MAX_CPUS * 8);
		CHECK_INT(pmu_read_cpus(root, "huge", &c, err, sizeof(err)), -E2BIG);
		free(big);
	}
	fixture_remove(root);
}
