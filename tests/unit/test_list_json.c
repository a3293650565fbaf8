// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* --list and --list-events as JSON (pmu/list_json.c) over every sysfs
 * fixture: valid JSON, the same facts as discovery and the text lists. */
#include <dirent.h>
#include <jansson.h>
#include <stdlib.h>
#include "pmu/discover.h"
#include "pmu/events.h"
#include "pmu/readplan.h"
#include "test.h"

#define FIXTURES "../fixtures/sysfs/"

static struct td_discovery d;
static struct read_plan plan;

/* What a printer wrote, parsed; NULL (and a failure) when it is not one JSON line. */
static json_t *printed(int (*print)(const void *arg, FILE *f), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_error_t jerr;
	json_t *j = NULL;
	int ret;

	if (!f)
		return NULL;
	ret = print(arg, f);
	fclose(f);
	CHECK_INT(ret, 0);
	if (!buf)
		return NULL;
	/* one line: JSON Lines readers take it as one record */
	CHECK(len > 0 && buf[len - 1] == '\n' && !memchr(buf, '\n', len - 1));
	j = json_loads(buf, 0, &jerr);
	if (!j)
		test_fail(__FILE__, __LINE__, "not JSON (%s): %.200s", jerr.text, buf);
	free(buf);
	return j;
}

static int print_discovery(const void *arg, FILE *f)
{
	return td_discovery__print_json(arg, &plan, f);
}

static int print_events(const void *arg, FILE *f)
{
	return events_print_list_json(arg, f);
}

static json_t *list_json(const char *root, int level)
{
	char err[256] = "";

	if (td_discover(root, level, &d, err, sizeof(err))) {
		test_fail(__FILE__, __LINE__, "td_discover(%s): %s", root, err);
		return NULL;
	}
	read_plan__build(&plan, &d.events, &d.cfg, true);
	return printed(print_discovery, &d);
}

static const char *str_at(json_t *j, const char *path)
{
	json_t *v = json_object_get(j, path);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* The parts and events of discovery, one for one. */
static void check_topdown(const char *name, json_t *td)
{
	json_t *parts = json_object_get(td, "parts");
	size_t nr_events = 0, pi;
	json_t *part;

	if (!d.cfg.nr_parts) {
		CHECK(json_is_false(json_object_get(td, "available")));
		CHECK_STR(str_at(td, "reason"), d.reason);
		CHECK(!parts);
		return;
	}
	CHECK(json_is_true(json_object_get(td, "available")));
	CHECK_INT(json_integer_value(json_object_get(td, "level")), d.cfg.max_level);
	CHECK_INT(json_array_size(parts), d.cfg.nr_parts);
	json_array_foreach(parts, pi, part) {
		json_t *events = json_object_get(part, "events"), *ev;
		size_t i;

		CHECK_STR(str_at(part, "method"), td_method_name(d.cfg.parts[pi].method));
		CHECK_INT(json_integer_value(json_object_get(part, "slot_width")),
			  d.cfg.parts[pi].slot_width);
		CHECK_INT(json_integer_value(json_object_get(part, "helper_calls")),
			  plan.parts[pi].helper_calls);
		json_array_foreach(events, i, ev) {
			int idx = (int)json_integer_value(json_object_get(ev, "index"));

			if (idx < 0 || idx >= d.events.nr) {
				test_fail(__FILE__, __LINE__, "%s: event index %d", name, idx);
				continue;
			}
			CHECK_STR(str_at(ev, "role"), td_role_name(d.cfg.role[idx]));
			CHECK_U64(json_integer_value(json_object_get(ev, "config")),
				  d.events.ev[idx].config);
			CHECK_INT(json_integer_value(json_object_get(ev, "leader")),
				  d.events.ev[idx].leader);
			CHECK(json_boolean_value(json_object_get(ev, "pinned")) ==
			      d.events.ev[idx].pinned);
			nr_events++;
		}
	}
	CHECK_INT(nr_events, d.events.nr);
}

TEST(list_json_every_fixture)
{
	DIR *dir = opendir(FIXTURES);
	struct dirent *de;
	int seen = 0;

	CHECK(dir != NULL);
	while (dir && (de = readdir(dir))) {
		char root[512];
		json_t *j;

		if (de->d_name[0] == '.' || de->d_type != DT_DIR)
			continue;
		snprintf(root, sizeof(root), FIXTURES "%s", de->d_name);
		for (int level = 1; level <= 2; level++) {
			j = list_json(root, level);
			if (!j)
				continue;
			CHECK_STR(str_at(json_object_get(j, "cpu"), "model_name"), d.cpu_model);
			CHECK_STR(str_at(j, "sysfs"), root);
			CHECK_INT(json_array_size(json_object_get(j, "core_pmus")), d.nr_pmus);
			CHECK_INT(json_array_size(json_object_get(j, "notes")), d.nr_notes);
			check_topdown(de->d_name, json_object_get(j, "topdown"));
			json_decref(j);
		}
		seen++;
	}
	if (dir)
		closedir(dir);
	CHECK(seen >= 10);
}

TEST(list_json_icelake_group)
{
	json_t *j = list_json(FIXTURES "icelake", 1);
	json_t *ev0;

	if (!j)
		return;
	ev0 = json_array_get(json_object_get(json_array_get(json_object_get(json_object_get(j,
		"topdown"), "parts"), 0), "events"), 0);
	CHECK_STR(str_at(ev0, "role"), "slots");
	CHECK(json_is_true(json_object_get(ev0, "pinned")));
	CHECK_STR(str_at(json_object_get(j, "cpu"), "vendor"), "GenuineIntel");
	CHECK(json_is_integer(json_object_get(json_object_get(j, "cpu"), "family")));
	CHECK(!json_object_get(json_object_get(j, "cpu"), "arm"));
	json_decref(j);
}

/* The read plan of --list: Sapphire Rapids level 2 loads its 8 metrics from memory. */
TEST(list_json_read_plan)
{
	json_t *j = list_json(FIXTURES "sapphirerapids", 2);
	json_t *part, *ev;
	size_t i, memory = 0;

	if (!j)
		return;
	CHECK(json_is_true(json_object_get(json_object_get(j, "topdown"), "reads_from_memory")));
	part = json_array_get(json_object_get(json_object_get(j, "topdown"), "parts"), 0);
	CHECK_INT(json_integer_value(json_object_get(part, "helper_calls")), 3);
	json_array_foreach(json_object_get(part, "events"), i, ev) {
		if (!str_at(ev, "read") || strcmp(str_at(ev, "read"), "memory"))
			continue;
		memory++;
		CHECK_INT(json_integer_value(json_object_get(ev, "read_via")), 0);
	}
	CHECK_INT(memory, 8);
	CHECK_STR(str_at(json_array_get(json_object_get(part, "events"), 0), "read"), "helper");
	json_decref(j);
}

TEST(list_json_arm_and_no_pmu)
{
	json_t *j = list_json(FIXTURES "neoverse-n2", 1);
	json_t *cpu;

	if (j) {
		cpu = json_object_get(j, "cpu");
		CHECK(json_is_null(json_object_get(cpu, "vendor")));
		CHECK(json_is_null(json_object_get(cpu, "family")));
		CHECK_INT(json_integer_value(json_object_get(json_object_get(cpu, "arm"), "part")),
			  0xd49);
		json_decref(j);
	}
	j = list_json(FIXTURES "vm-nopmu", 1);
	if (j) {
		CHECK_INT(json_array_size(json_object_get(j, "core_pmus")), 0);
		CHECK(json_is_true(json_object_get(json_object_get(j, "cpu"), "hypervisor")));
		json_decref(j);
	}
}

/* The member of obj[key] (an array of objects) whose "name" is *name*. */
static json_t *named(json_t *obj, const char *key, const char *name)
{
	size_t i;
	json_t *e;

	json_array_foreach(json_object_get(obj, key), i, e)
		if (str_at(e, "name") && !strcmp(str_at(e, "name"), name))
			return e;
	return NULL;
}

/* A named event as --list-events -o json has it: name and alias (or null). */
static bool has_named(json_t *j, const char *key, const char *name, const char *alias)
{
	json_t *a = json_object_get(named(j, key, name), "alias");

	return alias ? json_is_string(a) && !strcmp(json_string_value(a), alias) : json_is_null(a);
}

static json_t *pmu_named(json_t *j, const char *name)
{
	return named(j, "pmus", name);
}

static json_t *event_named(json_t *pmu, const char *name)
{
	return named(pmu, "events", name);
}

TEST(list_events_json_vm)
{
	json_t *j = printed(print_events, FIXTURES "vm-nopmu");
	json_t *msr, *tsc, *uprobe;

	if (!j)
		return;
	CHECK(has_named(j, "software", "context-switches", "cs"));
	CHECK(has_named(j, "software", "cpu-clock", NULL));
	CHECK(json_is_false(json_object_get(j, "core_pmu")));
	CHECK_INT(json_array_size(json_object_get(j, "hardware")), 0);
	msr = pmu_named(j, "msr");
	tsc = event_named(msr, "tsc");
	CHECK_STR(str_at(tsc, "event"), "msr/tsc/");
	CHECK_STR(str_at(tsc, "encoding"), "event=0x00");
	CHECK(json_is_null(json_object_get(tsc, "unit")));
	uprobe = pmu_named(j, "uprobe");
	CHECK_INT(json_array_size(json_object_get(uprobe, "terms")), 2);
	CHECK_STR(json_string_value(json_array_get(json_object_get(uprobe, "terms"), 1)),
		  "retprobe");
	json_decref(j);
}

TEST(list_events_json_skylake)
{
	json_t *j = printed(print_events, FIXTURES "skylake");
	json_t *slots;

	if (!j)
		return;
	CHECK(json_is_true(json_object_get(j, "core_pmu")));
	CHECK(has_named(j, "hardware", "cycles", "cpu-cycles"));
	slots = event_named(pmu_named(j, "cpu"), "topdown-total-slots");
	CHECK_STR(str_at(slots, "encoding"), "event=0x3c,umask=0x0,any=1");
	CHECK_NEAR(json_number_value(json_object_get(slots, "scale")), 2, 0);
	/* the .scale companions are no events of their own */
	CHECK(!event_named(pmu_named(j, "cpu"), "topdown-total-slots.scale"));
	json_decref(j);
}

/* libpfm4's names (the unit tests make it see an Ice Lake), and the modifiers. */
TEST(list_events_json_vendor)
{
	json_t *j = printed(print_events, FIXTURES "skylake");
	json_t *vm = printed(print_events, FIXTURES "vm-nopmu");
	json_t *icl, *events, *ev;
	bool found = false;
	size_t i;

	if (j) {
		icl = json_array_get(json_object_get(j, "vendor"), 0);
		CHECK_STR(str_at(icl, "libpfm4_pmu"), "icl");
		events = json_object_get(icl, "events");
		json_array_foreach(events, i, ev)
			found |= !strcmp(json_string_value(ev), "inst_retired.any");
		CHECK(found);
		CHECK_INT(json_array_size(json_object_get(j, "modifiers")), 5);
		CHECK_STR(json_string_value(json_array_get(json_object_get(j, "modifiers"), 0)),
			  "u");
		json_decref(j);
	}
	if (vm) {
		/* the kernel has no core PMU: the CPU is known, its events are not countable */
		icl = json_array_get(json_object_get(vm, "vendor"), 0);
		CHECK_STR(str_at(icl, "libpfm4_pmu"), "icl");
		CHECK_INT(json_array_size(json_object_get(icl, "events")), 0);
		json_decref(vm);
	}
}

TEST(list_events_json_unreadable_pmus)
{
	json_t *j = printed(print_events, FIXTURES "no-such-machine");

	if (!j)
		return;
	CHECK(json_is_null(json_object_get(j, "pmus")));
	CHECK(json_array_size(json_object_get(j, "software")) > 0);
	json_decref(j);
}

TEST(list_json_write_error)
{
	FILE *f = fopen("/dev/full", "w");

	if (!f)
		return;
	setvbuf(f, NULL, _IONBF, 0);
	CHECK_INT(events_print_list_json(FIXTURES "vm-nopmu", f), -1);
	fclose(f);
}
