// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * report --diff: per-key sums of two recordings compared per second of
 * each (recordings of different lengths), ordered by the -s key, in
 * JSON, CSV and text.
 */
#include <stdlib.h>
#include "record/diff.h"
#include "test.h"

static const char *const names[] = { "cpu-clock", "page-faults" };

static void add(struct diff_table *t, const char *key, int which, __u64 cpu_ns, __u64 faults)
{
	struct row r = { .cpu_ns = cpu_ns };

	r.ev[0] = (struct delta){ cpu_ns, cpu_ns, cpu_ns };
	r.ev[1] = (struct delta){ faults, cpu_ns, cpu_ns };
	CHECK_INT(diff_table__add(t, key, which, &r), 0);
}

/*
 * Before: 10 s, after: 20 s. "same" uses a CPU half the time in both;
 * "busier" goes from 10% to 30% of a CPU; "faulty" keeps its CPU but
 * faults 100 times more per second; "gone" and "new" are on one side.
 */
static void fixture(struct diff_table *t)
{
	struct event_list el = { .nr = 2 };
	struct pipeline p;

	memset(t, 0, sizeof(*t));
	snprintf(el.ev[0].name, sizeof(el.ev[0].name), "%s", names[0]);
	snprintf(el.ev[1].name, sizeof(el.ev[1].name), "%s", names[1]);
	pipeline__init(&p, &el);
	add(t, "same", 0, 5000000000ull, 10);
	add(t, "same", 1, 10000000000ull, 20);
	add(t, "busier", 0, 1000000000ull, 0);
	add(t, "busier", 1, 3000000000ull, 0);
	add(t, "busier", 1, 3000000000ull, 0);
	add(t, "faulty", 0, 2000000000ull, 100);
	add(t, "faulty", 1, 4000000000ull, 20000);
	add(t, "gone", 0, 100000000ull, 1);
	add(t, "new", 1, 200000000ull, 1);
	t->sort = (struct sort_key){ .kind = SORT_CPU, .event = -1 };
	t->run[0].sort_event = t->run[1].sort_event = -1;
	diff_table__finish(t, 0, &p, 10.0);
	diff_table__finish(t, 1, &p, 20.0);
}

static char *print(struct diff_table *t, enum output_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f != NULL);
	if (!f)
		return strdup("");
	CHECK_INT(diff_table__print(t, fmt, 1, f), 0);
	fclose(f);
	return buf;
}

/* The keys in the order printed (JSON lines). */
static void order(const char *out, char *keys, size_t size)
{
	size_t n = 0;

	keys[0] = '\0';
	for (const char *p = out; (p = strstr(p, "\"key\":\"")); p++) {
		const char *k = p + 7, *end = strchr(k, '"');

		n += (size_t)snprintf(keys + n, size - n, "%s%.*s", n ? " " : "", (int)(end - k), k);
	}
}

TEST(diff_compares_per_second)
{
	struct diff_table t;
	char *out;

	fixture(&t);
	out = print(&t, OUTPUT_JSON);
	/* 5 s of 10 and 10 s of 20: the same 50%, no change */
	CHECK(strstr(out, "{\"type\":\"diff\",\"schema\":1,\"key\":\"same\","
		      "\"before\":{\"cpu_ns\":5000000000,\"cpu_pct\":50,\"ipc\":null},"
		      "\"after\":{\"cpu_ns\":10000000000,\"cpu_pct\":50,\"ipc\":null},"
		      "\"change\":{\"cpu_pct\":0,\"ipc\":null}}\n") != NULL);
	CHECK(strstr(out, "\"key\":\"busier\",\"before\":{\"cpu_ns\":1000000000,\"cpu_pct\":10,"
		      "\"ipc\":null},\"after\":{\"cpu_ns\":6000000000,\"cpu_pct\":30,\"ipc\":null},"
		      "\"change\":{\"cpu_pct\":20,") != NULL);
	CHECK(strstr(out, "\"key\":\"gone\",\"before\":{\"cpu_ns\":100000000,\"cpu_pct\":1,"
		      "\"ipc\":null},\"after\":null,\"change\":{\"cpu_pct\":-1,") != NULL);
	free(out);
	diff_table__free(&t);
}

TEST(diff_orders_by_the_sort_key)
{
	struct diff_table t;
	char keys[128], *out;

	fixture(&t);
	out = print(&t, OUTPUT_JSON);
	order(out, keys, sizeof(keys));
	/* the largest change of CPU first, no change last */
	CHECK_STR(keys, "busier gone new faulty same");
	free(out);
	/* page-faults per second: faulty 10/s to 1000/s */
	t.sort = (struct sort_key){ .kind = SORT_EVENT, .event = 1 };
	t.run[0].sort_event = t.run[1].sort_event = 1;
	out = print(&t, OUTPUT_JSON);
	order(out, keys, sizeof(keys));
	CHECK_STR(keys, "faulty gone new busier same");
	free(out);
	t.sort = (struct sort_key){ .kind = SORT_COMM, .event = -1 };
	out = print(&t, OUTPUT_JSON);
	order(out, keys, sizeof(keys));
	CHECK_STR(keys, "busier faulty gone new same");
	free(out);
	diff_table__free(&t);
}

TEST(diff_csv_has_the_json_fields)
{
	struct diff_table t;
	char *out;

	fixture(&t);
	out = print(&t, OUTPUT_CSV);
	CHECK(!strncmp(out, "key,before.cpu_ns,before.cpu_pct,before.ipc,after.cpu_ns,"
		       "after.cpu_pct,after.ipc,change.cpu_pct,change.ipc\n"
		       "busier,1000000000,10,,6000000000,30,,20,\n", strlen("key,before.cpu_ns,"
		       "before.cpu_pct,before.ipc,after.cpu_ns,after.cpu_pct,after.ipc,"
		       "change.cpu_pct,change.ipc\nbusier,1000000000,10,,6000000000,30,,20,\n")));
	/* a side not seen has empty cells */
	CHECK(strstr(out, "\nnew,,,,200000000,1,,1,\n") != NULL);
	free(out);
	out = print(&t, OUTPUT_TEXT);
	CHECK(strstr(out, "COMMAND/CGROUP                CPU%      CPU%\n") == out);
	CHECK(strstr(out, "\nbusier                        10.0      30.0\n") != NULL);
	CHECK(strstr(out, "\nnew                              -       1.0\n") != NULL);
	free(out);
	diff_table__free(&t);
}
