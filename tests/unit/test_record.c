// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Recordings: exact round trips (extreme counters, every comm byte, 3000
 * tasks, plain and gzip), truncation at every byte, a recorder killed in
 * mid-write, and the reader's error for each kind of malformed input;
 * TopDown parts in the header; cgroup lines, their dedupe and bounds, and
 * the cgroup tree a replay rebuilds from their paths.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include "rows/aggregate.h"
#include "record/record.h"
#include "sample_eq.h"
#include "fixture.h"
#include "test.h"

#define FIXTURES "../fixtures/recordings/"

/* ---- helpers ---- */

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;

	*len = 0;
	CHECK(f != NULL);
	if (!f)
		return NULL;
	for (;;) {
		if (*len == cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
		}
		size_t n = fread(buf + *len, 1, cap - *len, f);

		if (!n)
			break;
		*len += n;
	}
	fclose(f);
	return buf;
}

/* Both encodings of a u64 and the boundary between them. */
static __u64 pick(unsigned int k)
{
	static const __u64 v[] = {
		0, 1, INT64_MAX, (__u64)INT64_MAX + 1, UINT64_MAX, 1000000000, 123456789012345ULL,
		UINT64_MAX - 1, 9007199254740993ULL, /* above 2^53: a double would round it */
	};

	return v[k % (sizeof(v) / sizeof(v[0]))];
}

static void fill_deltas(struct delta *d, int n, unsigned int seed)
{
	for (int i = 0; i < n; i++) {
		d[i].count = pick(seed + 3 * i);
		d[i].enabled = pick(seed + 3 * i + 1);
		d[i].running = pick(seed + 3 * i + 2);
	}
}

/* 0..15 bytes; over many seeds every byte value 1..255 turns up. */
static void make_comm(char *comm, unsigned int seed)
{
	unsigned int len = seed % TASK_COMM_LEN;

	for (unsigned int j = 0; j < len; j++)
		comm[j] = (char)(1 + (seed * 15 + j) % 255);
	comm[len] = '\0';
}

static void make_header(struct rec_header *h, int nr_events)
{
	static const char *const roles[] = { "slots", "topdown-retiring", "topdown-be-bound" };

	memset(h, 0, sizeof(*h));
	strcpy(h->tdtop_version, "9.9.9-test");
	strcpy(h->kernel_release, "6.18.0-test+");
	/* JSON specials, the escape character, control bytes, UTF-8 and not */
	strcpy(h->cpu_model, "Cpu \"x\" 100% \\ \x01\x7f\xc3\xa9\xff\xc3");
	h->ncpus = MAX_CPUS;
	strcpy(h->topdown_method, "perf_metrics");
	h->nr_events = nr_events;
	for (int i = 0; i < nr_events; i++) {
		struct rec_event *e = &h->events[i];

		snprintf(e->name, sizeof(e->name), "cpu/event=0x%x,umask=0x%x/", i, 3 * i);
		strcpy(e->pmu, i % 2 ? "cpu" : "");
		e->type = i == 0 ? UINT32_MAX : 4;
		e->config = pick(i);
		e->config1 = pick(i + 1);
		e->config2 = pick(i + 2);
		e->scale = i == 2 ? 6.103515625e-05 : 1.0 / (i + 3);
		strcpy(e->unit, i == 2 ? "MiB" : "");
		e->leader = i < 4 ? 0 : i;
		e->pinned = i == 0;
		if (i < 3)
			strcpy(e->role, roles[i]);
	}
	/* TopDown parts splitting the events, the last one owning none */
	h->nr_pmus = 3;
	strcpy(h->pmus[0].name, "cpu_core");
	strcpy(h->pmus[0].method, "perf_metrics");
	h->pmus[0].ev_hi = nr_events / 2;
	strcpy(h->pmus[1].name, "cpu_atom");
	strcpy(h->pmus[1].method, "intel_atom");
	h->pmus[1].ev_lo = nr_events / 2;
	h->pmus[1].ev_hi = nr_events;
	h->pmus[1].slot_width = 6;
	strcpy(h->pmus[2].name, "armv8_pmuv3_0");
	strcpy(h->pmus[2].method, "arm");
	h->pmus[2].ev_lo = h->pmus[2].ev_hi = nr_events;
	h->pmus[2].slot_width = REC_MAX_SLOT_WIDTH;
	h->pmus[2].arm_n2_erratum = true;
	h->delay_s = 0.1;
	strcpy(h->group_by, "cgroup");
	strcpy(h->cgroup, "/system.slice/a%b\x01.service");
	h->cgroup_depth = 3;
	h->max_tasks = UINT64_MAX;
	h->nr_pids = 3;
	h->pids[0] = 1;
	h->pids[1] = REC_PID_MAX;
	h->pids[2] = 77;
}

/* Sample number *k*: a pattern the reader side can rebuild. */
static void make_sample(struct sample *s, unsigned int k, size_t nr_tasks, int nr_events)
{
	struct task_delta *tasks = s->tasks;
	size_t cap = s->cap;

	memset(s, 0, sizeof(*s));
	s->tasks = tasks;
	s->cap = cap;
	s->ts = 1718000000.0 + k * 0.1 + 1e-6;
	s->interval_s = 0.1 + k * 1e-9;
	s->ncpus = 1 + k % MAX_CPUS;
	s->idle.cpu_ns = pick(k);
	s->lost.cpu_ns = pick(k + 1);
	s->total.cpu_ns = pick(k + 2);
	fill_deltas(s->idle.ev, nr_events, k);
	fill_deltas(s->lost.ev, nr_events, k + 1);
	fill_deltas(s->total.ev, nr_events, k + 2);
	s->switches = pick(k + 3);
	s->dropped = pick(k + 4);
	s->read_errors = pick(k + 5);
	for (size_t i = 0; i < nr_tasks; i++) {
		struct task_delta *t = sample__add(s);

		t->tid = 1 + (__u32)((i * 7919 + k) % REC_PID_MAX);
		t->pid = i % 3 ? REC_PID_MAX : t->tid;
		t->start_ns = pick((unsigned int)i + k);
		t->leader_start_ns = pick((unsigned int)i + k + 3);
		t->cgroup_id = pick((unsigned int)i + k + 4);
		make_comm(t->comm, (unsigned int)i * 17 + k);
		make_comm(t->pcomm, (unsigned int)i * 5 + k + 1);
		t->exited = i % 2;
		t->cpu_ns = pick((unsigned int)i + 5);
		fill_deltas(t->ev, nr_events, (unsigned int)i + k);
	}
}

static void check_header_eq(const struct rec_header *a, const struct rec_header *b)
{
	CHECK_INT(b->version, REC_FORMAT_VERSION);
	CHECK(!memcmp(a->tdtop_version, b->tdtop_version, sizeof(a->tdtop_version)));
	CHECK(!memcmp(a->kernel_release, b->kernel_release, sizeof(a->kernel_release)));
	CHECK(!memcmp(a->cpu_model, b->cpu_model, sizeof(a->cpu_model)));
	CHECK_INT(a->ncpus, b->ncpus);
	CHECK(!memcmp(a->topdown_method, b->topdown_method, sizeof(a->topdown_method)));
	CHECK_INT(a->nr_events, b->nr_events);
	for (int i = 0; i < MAX_EVENTS; i++) {
		const struct rec_event *x = &a->events[i], *y = &b->events[i];

		CHECK(!memcmp(x->name, y->name, sizeof(x->name)));
		CHECK(!memcmp(x->pmu, y->pmu, sizeof(x->pmu)));
		CHECK_U64(x->type, y->type);
		CHECK_U64(x->config, y->config);
		CHECK_U64(x->config1, y->config1);
		CHECK_U64(x->config2, y->config2);
		CHECK(!memcmp(&x->scale, &y->scale, sizeof(x->scale)));
		CHECK(!memcmp(x->unit, y->unit, sizeof(x->unit)));
		CHECK_INT(x->leader, y->leader);
		CHECK_INT(x->pinned, y->pinned);
		CHECK(!memcmp(x->role, y->role, sizeof(x->role)));
	}
	CHECK_INT(a->nr_pmus, b->nr_pmus);
	for (int i = 0; i < REC_MAX_PMUS; i++) {
		const struct rec_pmu *x = &a->pmus[i], *y = &b->pmus[i];

		CHECK(!memcmp(x->name, y->name, sizeof(x->name)));
		CHECK(!memcmp(x->method, y->method, sizeof(x->method)));
		CHECK_INT(x->ev_lo, y->ev_lo);
		CHECK_INT(x->ev_hi, y->ev_hi);
		CHECK_INT(x->slot_width, y->slot_width);
		CHECK_INT(x->arm_n2_erratum, y->arm_n2_erratum);
	}
	CHECK(!memcmp(&a->delay_s, &b->delay_s, sizeof(a->delay_s)));
	CHECK(!memcmp(a->group_by, b->group_by, sizeof(a->group_by)));
	CHECK(!memcmp(a->cgroup, b->cgroup, sizeof(a->cgroup)));
	CHECK_INT(a->cgroup_depth, b->cgroup_depth);
	CHECK_U64(a->max_tasks, b->max_tasks);
	CHECK_INT(a->nr_pids, b->nr_pids);
	CHECK(!memcmp(a->pids, b->pids, sizeof(a->pids)));
}

static void write_recording(const char *path, bool gzip, const struct rec_header *h,
			    const struct sample *s, int n)
{
	char err[256] = "";
	struct recorder *r = recorder__open(path, h, gzip, err, sizeof(err));

	CHECK(r != NULL);
	if (!r) {
		fprintf(stderr, "    %s\n", err);
		return;
	}
	for (int i = 0; i < n; i++) {
		int ret = recorder__write(r, &s[i], err, sizeof(err));

		CHECK_INT(ret, 0);
		if (ret)
			fprintf(stderr, "    %s\n", err);
	}
	CHECK_INT(recorder__close(r, err, sizeof(err)), 0);
}

/* Read everything; returns the samples read (each checked against
 * want[]), with the last return value and message in *ret*, *msg*. */
static int read_compare(struct rec_reader *r, const struct sample *want, int n, int *ret,
			char *msg, size_t msglen)
{
	struct sample s = { 0 };
	int got = 0;

	while ((*ret = rec_reader__next(r, &s, msg, msglen)) == 1) {
		if (got >= n || !sample_eq(&want[got], &s)) {
			test_fail(__FILE__, __LINE__, "sample %d differs", got);
			*ret = -2;
			break;
		}
		got++;
	}
	sample__free(&s);
	return got;
}

static void free_samples(struct sample *s, int n)
{
	for (int i = 0; i < n; i++)
		sample__free(&s[i]);
}

/* ---- round trips ---- */

static void round_trip(bool gzip, int nr_events)
{
	struct sample want[4] = { 0 };
	struct rec_header h, back;
	char path[256], err[256], msg[256];
	struct rec_reader *r;
	int ret, got;
	size_t len;
	char *data;

	make_header(&h, nr_events);
	make_sample(&want[0], 0, 0, nr_events);
	make_sample(&want[1], 1, 3000, nr_events);
	make_sample(&want[2], 2, 1, nr_events);
	/* everything at its largest */
	make_sample(&want[3], 3, 2, nr_events);
	want[3].ts = 4102444800.123456789;
	want[3].interval_s = 1e-300;
	want[3].ncpus = MAX_CPUS;
	for (int i = 0; i < 2; i++) {
		struct task_delta *t = &want[3].tasks[i];

		t->tid = t->pid = REC_PID_MAX;
		t->start_ns = t->leader_start_ns = t->cgroup_id = t->cpu_ns = UINT64_MAX;
		for (int e = 0; e < nr_events; e++)
			t->ev[e] = (struct delta){ UINT64_MAX, UINT64_MAX, UINT64_MAX };
	}
	strcpy(want[3].tasks[0].comm, "\"\\%%25\x01\x1f\x7f\x80\xff");
	strcpy(want[3].tasks[1].comm, "\xc3\x28\xed\xa0\x80\xf4\x90\x80\x80\xc3");
	strcpy(want[3].tasks[1].pcomm, "123456789012345");

	fixture_tmpfile(path, sizeof(path), "test-record", "", 0);
	write_recording(path, gzip, &h, want, 4);

	r = rec_reader__open(path, &back, err, sizeof(err));
	CHECK(r != NULL);
	if (r) {
		check_header_eq(&h, &back);
		got = read_compare(r, want, 4, &ret, msg, sizeof(msg));
		CHECK_INT(got, 4);
		CHECK_INT(ret, 0);
		CHECK_STR(msg, "");
		rec_reader__close(r);
	}

	/* the same bytes from memory */
	data = read_all(path, &len);
	CHECK(len > 2 && (data[0] == 0x1f) == gzip);
	r = rec_reader__open_mem(data, len, &back, err, sizeof(err));
	CHECK(r != NULL);
	if (r) {
		got = read_compare(r, want, 4, &ret, msg, sizeof(msg));
		CHECK_INT(got, 4);
		CHECK_INT(ret, 0);
		rec_reader__close(r);
	}
	free(data);
	unlink(path);
	for (int i = 0; i < 4; i++)
		sample__free(&want[i]);
}

TEST(record_round_trip_plain)
{
	round_trip(false, MAX_EVENTS);
	round_trip(false, 1);
}

TEST(record_round_trip_gzip)
{
	round_trip(true, MAX_EVENTS);
	round_trip(true, 3);
}

TEST(record_round_trip_no_events)
{
	round_trip(false, 0);
}

/* Every byte 1..255 but '/', cycling, in names of 60 bytes: *len* in all. */
static void make_odd_path(char *path, size_t len)
{
	unsigned int b = 0;

	path[0] = '/';
	for (size_t i = 1; i < len; i++) {
		if (i % 61 == 0) {
			path[i] = '/';
			continue;
		}
		do
			b = b % 255 + 1;
		while (b == '/');
		path[i] = (char)b;
	}
	path[len] = '\0';
}

/* Samples at the edges of what a recording holds, each written and read
 * back bit for bit: reals at the ends of the double range, -0.0 and
 * integral ones beyond int64; every count at UINT64_MAX and at the
 * integer/string boundary; names of control bytes and invalid UTF-8; the
 * longest cgroup path of every byte. A NaN is refused, writing nothing. */
static void extreme_round_trip(bool gzip)
{
	static const double reals[][2] = {
		{ 1e20, 5e-324 },			/* integral beyond int64; denormal */
		{ 1.7976931348623157e308, -0.0 },
		{ 0.0, 2.2250738585072014e-308 },
		{ 4102444800.123456789, 1.0 / 3 },
	};
	enum { N = sizeof(reals) / sizeof(reals[0]) };
	struct sample want[N] = { 0 }, bad = { 0 }, got = { 0 };
	char path[256], err[256], msg[256], cg[REC_MAX_CGROUP_PATH + 1];
	struct rec_header h, back;
	struct recorder *w;
	struct rec_reader *r;
	int n = 0, ret;

	make_header(&h, MAX_EVENTS);
	h.events[0].scale = 5e-324;
	h.events[1].scale = 1.7976931348623157e308;
	h.events[3].scale = 1e20;
	h.delay_s = -0.0;
	h.events[0].config = h.events[0].config1 = h.events[0].config2 = UINT64_MAX;
	memset(h.cpu_model, '\x80', sizeof(h.cpu_model) - 1);
	memcpy(h.cpu_model, "\x01\x1b[31m\t\n\r\"\\%\xc0\x80\xed\xa0\x80", 17);
	make_odd_path(h.cgroup, sizeof(h.cgroup) - 1);
	make_odd_path(cg, REC_MAX_CGROUP_PATH);
	for (int k = 0; k < N; k++) {
		make_sample(&want[k], (unsigned int)k, 3, MAX_EVENTS);
		want[k].ts = reals[k][0];
		want[k].interval_s = reals[k][1];
		want[k].switches = UINT64_MAX;
		want[k].dropped = INT64_MAX;
		want[k].read_errors = (__u64)INT64_MAX + 1;
		want[k].total.cpu_ns = UINT64_MAX;
		for (int e = 0; e < MAX_EVENTS; e++)
			want[k].total.ev[e] = (struct delta){ UINT64_MAX, INT64_MAX, 0 };
		want[k].tasks[0].cgroup_id = UINT64_MAX;
		want[k].tasks[0].cpu_ns = UINT64_MAX;
		memcpy(want[k].tasks[0].comm, "\x7f\x01\xff\xfe\xc3\x28\x1b]0;x\x07\"\\%", 16);
		memcpy(want[k].tasks[0].pcomm, "\xf4\x90\x80\x80\xe2\x82\xac\xe2\x82\x00", 11);
	}

	fixture_tmpfile(path, sizeof(path), "test-record", "", 0);
	w = recorder__open(path, &h, gzip, err, sizeof(err));
	CHECK(w != NULL);
	if (!w)
		return;
	CHECK_INT(recorder__write_cgroup(w, UINT64_MAX, cg, err, sizeof(err)), 0);
	CHECK_INT(recorder__write_cgroup(w, (__u64)INT64_MAX + 1, "/", err, sizeof(err)), 0);
	for (int k = 0; k < N; k++) {
		CHECK_INT(recorder__write(w, &want[k], err, sizeof(err)), 0);
		make_sample(&bad, (unsigned int)k, 1, MAX_EVENTS);
		bad.interval_s = NAN;
		CHECK_INT(recorder__write(w, &bad, err, sizeof(err)), -1);
	}
	CHECK_INT(recorder__close(w, err, sizeof(err)), 0);

	r = rec_reader__open(path, &back, err, sizeof(err));
	CHECK(r != NULL);
	if (!r) {
		fprintf(stderr, "    %s\n", err);
		goto out;
	}
	check_header_eq(&h, &back);
	CHECK(signbit(back.delay_s));
	while ((ret = rec_reader__next(r, &got, msg, sizeof(msg))) == 1) {
		if (n >= N || !sample_eq(&want[n], &got)) {
			test_fail(__FILE__, __LINE__, "sample %d differs", n);
			break;
		}
		n++;
	}
	CHECK_INT(n, N);
	CHECK_INT(ret, 0);
	CHECK_STR(msg, "");
	CHECK_STR(rec_reader__cgroup_path(r, UINT64_MAX), cg);
	CHECK_STR(rec_reader__cgroup_path(r, (__u64)INT64_MAX + 1), "/");
	rec_reader__close(r);
out:
	unlink(path);
	free_samples(want, N);
	sample__free(&bad);
	sample__free(&got);
}

TEST(record_extreme_values_round_trip)
{
	extreme_round_trip(false);
	extreme_round_trip(true);
}

/* Every byte is printable ASCII or '\n', whatever the comm held; lines
 * stay short with 3000 tasks of 16 events; u64 above INT64_MAX is a
 * string, up to it a number. */
TEST(record_text_form)
{
	struct sample s = { 0 };
	char path[256], *data, *line;
	struct rec_header h;
	size_t len, longest = 0, lines = 0, start = 0;

	make_header(&h, MAX_EVENTS);
	make_sample(&s, 1, 3000, MAX_EVENTS);
	s.tasks[0].cpu_ns = INT64_MAX;
	s.tasks[1].cpu_ns = (__u64)INT64_MAX + 1;
	fixture_tmpfile(path, sizeof(path), "test-record", "", 0);
	write_recording(path, false, &h, &s, 1);
	data = read_all(path, &len);
	for (size_t i = 0; i < len; i++) {
		unsigned char b = (unsigned char)data[i];

		if (b == '\n') {
			if (i - start > longest)
				longest = i - start;
			start = i + 1;
			lines++;
			continue;
		}
		if (b < 0x20 || b > 0x7e) {
			test_fail(__FILE__, __LINE__, "byte %#x at offset %zu", b, i);
			break;
		}
	}
	CHECK_INT(lines, 1 + 1 + 3000 + 1);
	CHECK(longest < 8192);
	CHECK(data[len - 1] == '\n');
	data = realloc(data, len + 1);
	data[len] = '\0';
	CHECK(strstr(data, "\"cpu_ns\":9223372036854775807,") != NULL);
	CHECK(strstr(data, "\"cpu_ns\":\"9223372036854775808\",") != NULL);
	line = strstr(data, "\"type\":\"header\"");
	CHECK(line == data + 1);
	free(data);
	unlink(path);
	sample__free(&s);
}

/* What the writer does not store reads back as zero. */
TEST(record_unrecorded_parts_are_zero)
{
	struct sample s = { 0 }, got = { 0 };
	char path[256], err[256], msg[256];
	struct rec_header h, back;
	struct rec_reader *r;

	make_header(&h, 2);
	make_sample(&s, 0, 1, 2);
	s.total.ev[5].count = 99;
	s.tasks[0].ev[2].running = 7;
	memcpy(s.tasks[0].comm, "ab\0garbage", 11);
	fixture_tmpfile(path, sizeof(path), "test-record", "", 0);
	write_recording(path, false, &h, &s, 1);
	r = rec_reader__open(path, &back, err, sizeof(err));
	CHECK(r != NULL);
	if (r) {
		CHECK_INT(rec_reader__next(r, &got, msg, sizeof(msg)), 1);
		CHECK_U64(got.total.ev[5].count, 0);
		CHECK_U64(got.tasks[0].ev[2].running, 0);
		CHECK(!memcmp(got.tasks[0].comm, "ab\0\0\0\0\0\0\0\0\0\0\0\0\0", 16));
		CHECK_U64(got.tasks[0].ev[1].count, s.tasks[0].ev[1].count);
		rec_reader__close(r);
	}
	unlink(path);
	sample__free(&s);
	sample__free(&got);
}

/* ---- fixtures (stable files of format versions 1 and 2) ---- */

/* Version 2 names the owners (the fixture's tid 1 is root's, 812 alice's,
 * 1000 a uid without name, 900 unknown); version 1 knows none. */
static void check_owners(const struct sample *s, int version)
{
	for (size_t i = 0; i < s->nr; i++) {
		const struct task_delta *t = &s->tasks[i];
		const char *want = version < 2 ? "" : t->tid == 1 ? "root" :
				   t->tid == 812 || t->tid == 813 ? "alice" :
				   t->tid == 1000 ? "1001" : "";

		CHECK_STR(t->user, want);
		if (version >= 2 && t->tid == 812)
			CHECK_INT(t->uid, 1000);
	}
}

static void check_basic_fixture(const char *path)
{
	struct rec_header h;
	struct sample s = { 0 };
	char err[256], msg[256];
	struct rec_reader *r = rec_reader__open(path, &h, err, sizeof(err));
	int n = 0;

	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_STR(h.tdtop_version, "0.1.0");
	CHECK_STR(h.cpu_model, "AMD EPYC");
	CHECK_INT(h.ncpus, 2);
	CHECK_INT(h.nr_events, 3);
	CHECK_STR(h.events[1].name, "context-switches");
	CHECK_STR(h.events[1].pmu, "software");
	CHECK_U64(h.events[1].config, 3);
	CHECK_INT(h.events[2].leader, 2);
	CHECK_STR(h.topdown_method, "none");
	CHECK_NEAR(h.delay_s, 1.0, 0);
	CHECK_U64(h.max_tasks, 32768);
	CHECK_STR(h.group_by, "process");
	while (rec_reader__next(r, &s, msg, sizeof(msg)) == 1) {
		n++;
		if (n == 1) {
			CHECK_NEAR(s.ts, 1718000001.25, 0);
			CHECK_INT(s.nr, 3);
			CHECK_STR(s.tasks[1].comm, "my \"app\"");
			CHECK_STR(s.tasks[2].comm, "worker%1");
			CHECK_U64(s.tasks[1].leader_start_ns, 4000000000ULL);
			CHECK_U64(s.tasks[1].cgroup_id, 0);
			CHECK_U64(s.idle.cpu_ns + s.tasks[0].cpu_ns + s.tasks[1].cpu_ns +
					  s.tasks[2].cpu_ns + s.lost.cpu_ns,
				  s.total.cpu_ns);
		}
		if (n == 2) {
			CHECK_U64(s.dropped, 1);
			CHECK(s.tasks[1].exited);
		}
		if (n == 3)
			CHECK_STR(s.tasks[3].comm, "caf\xc3\xa9");
		check_owners(&s, h.version);
	}
	CHECK_INT(n, 3);
	CHECK_STR(msg, "");
	rec_reader__close(r);
	sample__free(&s);
}

TEST(record_fixture_basic)
{
	check_basic_fixture(FIXTURES "basic.jsonl");
	check_basic_fixture(FIXTURES "basic.jsonl.gz");
	check_basic_fixture(FIXTURES "basic-v2.jsonl");
}

/*
 * Reading a fixture and writing it again gives the same bytes: the writer's
 * text form is stable (shortest exact reals, key order), and naming each
 * interval's cgroups from the replay's tree puts the same cgroup lines in
 * the same places.
 */
static bool contains(const char *buf, size_t len, const char *s)
{
	return buf && memmem(buf, len, s, strlen(s));
}

static void rewrite_fixture(const char *fixture, const char *expected, int want_n)
{
	char path[256], err[256], msg[256], *want, *got;
	struct sample s = { 0 };
	size_t want_len, got_len;
	struct cgroup_tree tree;
	struct rec_header h;
	struct recorder *w;
	struct rec_reader *r = rec_reader__open(fixture, &h, err, sizeof(err));
	int n = 0;

	CHECK(r != NULL);
	if (!r)
		return;
	rec_reader__cgroup_tree(r, &tree);
	fixture_tmpfile(path, sizeof(path), "test-record", "", 0);
	w = recorder__open(path, &h, false, err, sizeof(err));
	CHECK(w != NULL);
	while (w && rec_reader__next(r, &s, msg, sizeof(msg)) == 1) {
		CHECK_INT(recorder__write_cgroups(w, &s, &tree, err, sizeof(err)), 0);
		CHECK_INT(recorder__write(w, &s, err, sizeof(err)), 0);
		n++;
	}
	CHECK_INT(n, want_n);
	CHECK_INT(recorder__close(w, err, sizeof(err)), 0);
	rec_reader__close(r);
	got = read_all(path, &got_len);
	if (expected) {
		want = read_all(expected, &want_len);
		CHECK_INT(got_len, want_len);
		if (got_len != want_len || memcmp(got, want, want_len))
			test_fail(__FILE__, __LINE__, "%s written differently", fixture);
		free(want);
	} else {
		CHECK(contains(got, got_len, "\"version\":2,"));
		CHECK(contains(got, got_len, "\"exited\":false,\"uid\":4294967295,\"user\":\"\","));
		CHECK(!contains(got, got_len, "\"uid\":0,"));
	}
	free(got);
	unlink(path);
	sample__free(&s);
}

TEST(record_fixture_rewritten_exactly)
{
	rewrite_fixture(FIXTURES "basic-v2.jsonl", FIXTURES "basic-v2.jsonl", 3);
	rewrite_fixture(FIXTURES "cgroups-v2.jsonl", FIXTURES "cgroups-v2.jsonl", 3);
	/* version 1 read is version 2 written, with every owner unknown */
	rewrite_fixture(FIXTURES "cgroups.jsonl", NULL, 3);
}

static const struct row *row_of(const struct interval *iv, __u64 cgroup_id)
{
	for (size_t i = 0; i < iv->nr_rows; i++)
		if (iv->rows[i].cgroup_id == cgroup_id)
			return &iv->rows[i];
	return NULL;
}

/* A cgroup-mode recording replays with names and the hierarchy. */
TEST(record_fixture_cgroups)
{
	static const char *const names[] = { "cpu-clock", "context-switches" };
	struct sample s = { 0 };
	struct cgroup_tree tree;
	struct view v = { .by = BY_CGROUP, .cg = &tree };
	struct interval iv;
	struct rec_header h;
	const struct row *row;
	char err[256], msg[256];
	struct rec_reader *r = rec_reader__open(FIXTURES "cgroups.jsonl", &h, err, sizeof(err));

	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_STR(h.group_by, "cgroup");
	rec_reader__cgroup_tree(r, &tree);
	CHECK(rec_reader__cgroup_path(r, 1) == NULL);	/* nothing read yet */

	CHECK_INT(rec_reader__next(r, &s, msg, sizeof(msg)), 1);
	CHECK_STR(rec_reader__cgroup_path(r, 1), "/");
	CHECK_STR(rec_reader__cgroup_path(r, 3), "/system.slice/nginx.service");
	CHECK(rec_reader__cgroup_path(r, 7) == NULL);	/* named before interval 2 */
	CHECK_INT(interval__aggregate(&s, &v, 2, names, &iv), 0);
	CHECK_INT(iv.nr_rows, 5);
	row = row_of(&iv, 3);
	CHECK(row && row->cpu_ns == 400000000 && row->nr_threads == 2 && row->depth == 2);
	CHECK(row && row->cgroup && !strcmp(row->cgroup, "/system.slice/nginx.service"));
	row = row_of(&iv, 2);
	CHECK(row && row->cpu_ns == 400000000 && row->depth == 1);
	/* its parent user-1000.slice was not named: charged to user.slice directly */
	row = row_of(&iv, 5);
	CHECK(row && row->cpu_ns == 50000000 && row->depth == 2);
	row = row_of(&iv, 4);
	CHECK(row && row->cpu_ns == 50000000 && row->cgroup && !strcmp(row->cgroup, "/user.slice"));
	row = row_of(&iv, 1);
	CHECK(row && row->cpu_ns == 450000000 && row->depth == 0 && !strcmp(row->cgroup, "/"));
	interval__free_rows(&iv);

	CHECK_INT(rec_reader__next(r, &s, msg, sizeof(msg)), 1);
	CHECK_STR(rec_reader__cgroup_path(r, 7), "/system.slice/caf\xc3\xa9 50%.service");
	CHECK_U64(rec_reader__cgroup_id(r, "/system.slice/caf\xc3\xa9 50%.service"), 7);
	CHECK_INT(interval__aggregate(&s, &v, 2, names, &iv), 0);
	row = row_of(&iv, 2);
	CHECK(row && row->cpu_ns == 600000000 && row->nr_threads == 2);
	interval__free_rows(&iv);

	CHECK_INT(rec_reader__next(r, &s, msg, sizeof(msg)), 1);
	CHECK_STR(rec_reader__cgroup_path(r, 3), "/system.slice/nginx-old.service");
	CHECK_U64(rec_reader__cgroup_id(r, "/system.slice/nginx.service"), 0);
	CHECK_INT(rec_reader__next(r, &s, msg, sizeof(msg)), 0);
	CHECK_STR(msg, "");
	rec_reader__close(r);
	sample__free(&s);
}

TEST(record_fixture_truncated)
{
	struct rec_header h;
	struct sample s = { 0 };
	char err[256], msg[256];
	struct rec_reader *r = rec_reader__open(FIXTURES "truncated.jsonl", &h, err, sizeof(err));
	int n = 0, ret;

	CHECK(r != NULL);
	if (!r)
		return;
	while ((ret = rec_reader__next(r, &s, msg, sizeof(msg))) == 1)
		n++;
	CHECK_INT(ret, 0);
	CHECK_INT(n, 2);
	CHECK_INT(s.nr, 0);
	CHECK_STR(msg, "truncated at line 14: last interval incomplete, ignored");
	/* the end is sticky */
	CHECK_INT(rec_reader__next(r, &s, msg, sizeof(msg)), 0);
	CHECK_STR(msg, "truncated at line 14: last interval incomplete, ignored");
	rec_reader__close(r);
	sample__free(&s);
}

/* ---- truncation and corruption ---- */

/* A small recording in memory: 3 intervals (2, 0 and 2 tasks). */
static char *small_recording(bool gzip, struct sample want[3], size_t *len)
{
	struct rec_header h;
	char path[256], *data;

	make_header(&h, 2);
	h.nr_pids = 0;
	h.cpu_model[0] = '\0';
	make_sample(&want[0], 10, 2, 2);
	make_sample(&want[1], 11, 0, 2);
	make_sample(&want[2], 12, 2, 2);
	fixture_tmpfile(path, sizeof(path), "test-record", "", 0);
	write_recording(path, gzip, &h, want, 3);
	data = read_all(path, len);
	unlink(path);
	return data;
}

TEST(record_truncated_plain_every_offset)
{
	struct sample want[3] = { 0 };
	size_t len, header_end, ends[3], e = 0;
	char *data = small_recording(false, want, &len);
	const char *p = data;

	/* where the header and every interval end */
	header_end = (size_t)((const char *)memchr(data, '\n', len) - data) + 1;
	while ((p = strstr(p, "{\"type\":\"end\"")) && e < 3) {
		ends[e++] = (size_t)((const char *)memchr(p, '\n', len - (size_t)(p - data)) - data) +
			    1;
		p++;
	}
	CHECK_INT(e, 3);
	CHECK_INT(ends[2], len);
	for (size_t off = 0; off <= len; off++) {
		char err[256] = "", msg[256] = "";
		struct rec_header h;
		struct rec_reader *r = rec_reader__open_mem(data, off, &h, err, sizeof(err));
		int ret, got, complete = 0;
		bool boundary = off == header_end;

		if (off < header_end) {
			CHECK(r == NULL);
			CHECK(!strncmp(err, "line 1: ", 8));
			rec_reader__close(r);
			continue;
		}
		CHECK(r != NULL);
		if (!r)
			continue;
		for (int i = 0; i < 3; i++) {
			complete += ends[i] <= off;
			boundary |= ends[i] == off;
		}
		got = read_compare(r, want, 3, &ret, msg, sizeof(msg));
		CHECK_INT(ret, 0);
		CHECK_INT(got, complete);
		if (boundary)
			CHECK_STR(msg, "");
		else
			CHECK(strstr(msg, "last interval incomplete, ignored") != NULL);
		rec_reader__close(r);
	}
	free(data);
	free_samples(want, 3);
}

TEST(record_truncated_gzip_every_offset)
{
	struct sample want[3] = { 0 };
	size_t len;
	char *data = small_recording(true, want, &len);
	bool opened = false;
	int last = 0;

	for (size_t off = 0; off <= len; off++) {
		char err[256] = "", msg[256] = "";
		struct rec_header h;
		struct rec_reader *r = rec_reader__open_mem(data, off, &h, err, sizeof(err));
		int ret, got;

		if (!r) {
			/* only before the whole header is in */
			CHECK(!opened);
			CHECK(!strncmp(err, "line 1: ", 8));
			continue;
		}
		opened = true;
		got = read_compare(r, want, 3, &ret, msg, sizeof(msg));
		CHECK_INT(ret, 0);
		CHECK(got >= last);
		last = got;
		if (off < len)
			CHECK(strncmp(msg, "truncated at line ", 18) == 0);
		else
			CHECK_STR(msg, "");
		rec_reader__close(r);
	}
	CHECK(opened);
	CHECK_INT(last, 3);
	free(data);
	free_samples(want, 3);
}

/*
 * A flipped byte in the compressed data or trailer is caught (by the CRC
 * at the latest), or looks like a cut (a block length now points past the
 * end: a correct prefix and a warning), or changes nothing inflate uses
 * (padding bits).
 */
TEST(record_gzip_corrupt_every_byte)
{
	struct sample want[3] = { 0 };
	size_t len;
	char *data = small_recording(true, want, &len);
	char *bad = malloc(len);
	int errors = 0;

	for (size_t off = 10; off < len; off++) {
		char err[256] = "", msg[256] = "";
		struct rec_header h;
		struct rec_reader *r;
		int ret = -1, got = 0;

		memcpy(bad, data, len);
		bad[off] ^= 0x20;
		r = rec_reader__open_mem(bad, len, &h, err, sizeof(err));
		if (r) {
			struct sample s = { 0 };

			while ((ret = rec_reader__next(r, &s, msg, sizeof(msg))) == 1) {
				if (got < 3 && sample_eq(&want[got], &s))
					got++;
				else
					got = 100;
			}
			sample__free(&s);
			rec_reader__close(r);
		}
		if (ret == -1)
			errors++;
		/* or it looks like a cut: a correct prefix and a warning */
		else if (got > 3 || (msg[0] && strncmp(msg, "truncated at line", 17)) ||
			 (got < 3 && !msg[0]))
			test_fail(__FILE__, __LINE__, "flip at %zu of %zu: %d intervals, \"%s\"", off,
				  len, got, msg);
	}
	/* nearly every byte matters */
	CHECK(errors > (int)(len - 10) * 9 / 10);
	free(bad);
	free(data);
	free_samples(want, 3);
}

static size_t gz_member(const char *in, size_t len, unsigned char *out, size_t cap)
{
	z_stream zs = { 0 };
	size_t n;

	CHECK_INT(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	zs.next_in = (unsigned char *)in;
	zs.avail_in = (unsigned int)len;
	zs.next_out = out;
	zs.avail_out = (unsigned int)cap;
	CHECK_INT(deflate(&zs, Z_FINISH), Z_STREAM_END);
	n = cap - zs.avail_out;
	deflateEnd(&zs);
	return n;
}

TEST(record_gzip_members_and_trailing_data)
{
	struct sample want[3] = { 0 };
	size_t len, split, n1, n2;
	char *data = small_recording(false, want, &len);
	unsigned char *gz = malloc(2 * len + 1024);
	char err[256], msg[256];
	struct rec_header h;
	struct rec_reader *r;
	int ret;

	/* concatenated members read as one stream, split mid-line */
	split = len / 2;
	n1 = gz_member(data, split, gz, len + 512);
	n2 = gz_member(data + split, len - split, gz + n1, len + 512);
	r = rec_reader__open_mem(gz, n1 + n2, &h, err, sizeof(err));
	CHECK(r != NULL);
	if (r) {
		CHECK_INT(read_compare(r, want, 3, &ret, msg, sizeof(msg)), 3);
		CHECK_INT(ret, 0);
		CHECK_STR(msg, "");
		rec_reader__close(r);
	}
	/* anything else after the stream is an error */
	n1 = gz_member(data, len, gz, len + 512);
	memcpy(gz + n1, "junk", 4);
	r = rec_reader__open_mem(gz, n1 + 4, &h, err, sizeof(err));
	CHECK(r != NULL);
	if (r) {
		CHECK_INT(read_compare(r, want, 3, &ret, msg, sizeof(msg)), 3);
		CHECK_INT(ret, -1);
		CHECK_STR(msg, "failed to decompress recording: incorrect header check");
		rec_reader__close(r);
	}
	/* a bad CRC */
	gz[n1 - 8] ^= 1;
	r = rec_reader__open_mem(gz, n1, &h, err, sizeof(err));
	CHECK(r != NULL);
	if (r) {
		CHECK_INT(read_compare(r, want, 3, &ret, msg, sizeof(msg)), 3);
		CHECK_INT(ret, -1);
		CHECK_STR(msg, "failed to decompress recording: incorrect data check");
		rec_reader__close(r);
	}
	/* the trailer missing (a killed compressing recorder) */
	gz[n1 - 8] ^= 1;
	r = rec_reader__open_mem(gz, n1 - 8, &h, err, sizeof(err));
	CHECK(r != NULL);
	if (r) {
		CHECK_INT(read_compare(r, want, 3, &ret, msg, sizeof(msg)), 3);
		CHECK_INT(ret, 0);
		CHECK(strstr(msg, "compressed stream incomplete") != NULL);
		rec_reader__close(r);
	}
	free(gz);
	free(data);
	free_samples(want, 3);
}

/* ---- a recorder killed at a random moment ---- */

static void killed_recorder(bool gzip, useconds_t delay)
{
	char path[256], err[256], msg[256];
	struct rec_header h;
	struct rec_reader *r;
	int pipefd[2], status, got = 0, ret;
	struct sample s = { 0 }, want = { 0 };
	pid_t pid;
	char c;

	fixture_tmpfile(path, sizeof(path), "test-record", "", 0);
	make_header(&h, 4);
	CHECK_INT(pipe(pipefd), 0);
	pid = fork();
	if (pid == 0) {
		struct recorder *rec = recorder__open(path, &h, gzip, err, sizeof(err));

		close(pipefd[0]);
		if (!rec)
			_exit(1);
		for (unsigned int k = 0;; k++) {
			char name[32];

			/* a new cgroup before each interval, and a known one */
			snprintf(name, sizeof(name), "/k%u", k);
			make_sample(&s, k, 1500 + k % 50, 4);
			if (recorder__write_cgroup(rec, k + 1, name, err, sizeof(err)) ||
			    recorder__write_cgroup(rec, 1, "/k0", err, sizeof(err)) ||
			    recorder__write(rec, &s, err, sizeof(err)))
				_exit(1);
			if (k == 2 && write(pipefd[1], "x", 1) != 1)
				_exit(1);
		}
	}
	close(pipefd[1]);
	/* three intervals are out before the kill */
	CHECK_INT(read(pipefd[0], &c, 1), 1);
	close(pipefd[0]);
	usleep(delay);
	kill(pid, SIGKILL);
	CHECK_INT(waitpid(pid, &status, 0), pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

	r = rec_reader__open(path, &h, err, sizeof(err));
	CHECK(r != NULL);
	while (r && (ret = rec_reader__next(r, &s, msg, sizeof(msg))) == 1) {
		const char *cg = rec_reader__cgroup_path(r, (__u64)got + 1);
		char name[32];

		snprintf(name, sizeof(name), "/k%d", got);
		make_sample(&want, (unsigned int)got, 1500 + got % 50, 4);
		if (!sample_eq(&want, &s) || !cg || strcmp(cg, name)) {
			test_fail(__FILE__, __LINE__, "interval %d differs", got);
			break;
		}
		got++;
	}
	if (r)
		CHECK_INT(ret, 0);
	CHECK(got >= 3);
	rec_reader__close(r);
	unlink(path);
	sample__free(&s);
	sample__free(&want);
}

TEST(record_killed_recorder)
{
	static const useconds_t delays[] = { 0, 1000, 5000, 20000, 50000 };

	for (size_t i = 0; i < sizeof(delays) / sizeof(delays[0]); i++) {
		killed_recorder(false, delays[i]);
		killed_recorder(true, delays[i]);
	}
}

/* ---- malformed input ---- */

#define EV0 "{\"name\":\"a\",\"pmu\":\"software\",\"type\":1,\"config\":0,\"config1\":0," \
	    "\"config2\":0,\"scale\":1.0,\"unit\":\"\",\"leader\":0,\"pinned\":false}"
#define EV1 "{\"name\":\"b\",\"pmu\":\"\",\"type\":1,\"config\":3,\"config1\":0," \
	    "\"config2\":0,\"scale\":1.0,\"unit\":\"\",\"leader\":1,\"pinned\":false,\"role\":\"slots\"}"
#define HDR "{\"type\":\"header\",\"format\":\"tdtop-recording\",\"version\":1," \
	    "\"tdtop_version\":\"0.1.0\",\"kernel_release\":\"6.18.0\",\"cpu_model\":\"x\"," \
	    "\"ncpus\":2,\"topdown_method\":\"none\",\"events\":[" EV0 "," EV1 "],\"pmus\":[]," \
	    "\"options\":{\"delay_s\":1.0,\"group_by\":\"process\",\"cgroup\":\"\"," \
	    "\"cgroup_depth\":0,\"max_tasks\":100,\"pids\":[]}}\n"
#define BUCKET(ns) "{\"cpu_ns\":" #ns ",\"ev\":[[1,2,3],[4,5,6]]}"
#define IV(seq, n) "{\"type\":\"interval\",\"seq\":" #seq ",\"ts\":1718000000.5," \
		   "\"interval_s\":1.0,\"ncpus\":2,\"switches\":9,\"dropped\":0,"       \
		   "\"read_errors\":0,\"tasks\":" #n ",\"idle\":" BUCKET(5) ",\"lost\":" \
		   BUCKET(0) ",\"total\":" BUCKET(20) "}\n"
#define TASK(tid) "{\"type\":\"task\",\"tid\":" #tid ",\"pid\":10,\"start_ns\":1," \
		  "\"leader_start_ns\":1,\"cgroup_id\":0,\"comm\":\"c\",\"pcomm\":\"p\",\"exited\":false," \
		  "\"cpu_ns\":7,\"ev\":[[1,1,1],[2,2,2]]}\n"
#define END(seq) "{\"type\":\"end\",\"seq\":" #seq "}\n"
/* A TopDown part for HDR's "pmus" */
#define PART_AS(method, lo, hi, width)                                                    \
	"{\"name\":\"cpu\",\"method\":\"" method "\",\"ev_lo\":" #lo ",\"ev_hi\":" #hi \
	",\"slot_width\":" #width ",\"arm_n2_erratum\":false}"
#define PART PART_AS("perf_metrics", 0, 2, 0)
/* lines: 1 header, 2 interval, 3-4 tasks, 5 end, 6 interval, 7 end */
#define BASE HDR IV(1, 2) TASK(10) TASK(11) END(1) IV(2, 0) END(2)

/* *text* with its first *find* replaced (which must be there). */
static char *subst(const char *text, const char *find, const char *repl)
{
	const char *at = strstr(text, find);
	size_t pre, len;
	char *out;

	CHECK(at != NULL);
	if (!at)
		return strdup(text);
	pre = (size_t)(at - text);
	len = strlen(text) - strlen(find) + strlen(repl);
	out = malloc(len + 1);
	memcpy(out, text, pre);
	strcpy(out + pre, repl);
	strcat(out, at + strlen(find));
	return out;
}

/* Read *len* bytes; returns the error (or "") in *msg* and the number of
 * intervals read before it. */
static int read_mem(const char *data, size_t len, char *msg, size_t msglen)
{
	struct rec_header h;
	struct sample s = { 0 };
	struct rec_reader *r = rec_reader__open_mem(data, len, &h, msg, msglen);
	int n = 0, ret;

	if (!r)
		return -1;
	while ((ret = rec_reader__next(r, &s, msg, msglen)) == 1)
		n++;
	if (ret == 0)
		snprintf(msg, msglen, "OK %s", msg[0] ? "(warning)" : "");
	/* an error sticks */
	if (ret < 0) {
		char again[256];

		CHECK_INT(rec_reader__next(r, &s, again, sizeof(again)), -1);
		CHECK_STR(again, msg);
	}
	rec_reader__close(r);
	sample__free(&s);
	return n;
}

static void expect_msg(const char *data, size_t len, const char *want, int line)
{
	char msg[256] = "";

	read_mem(data, len, msg, sizeof(msg));
	if (strncmp(msg, want, strlen(want)))
		test_fail(__FILE__, line, "got \"%s\", want \"%s...\"", msg, want);
}

#define EXPECT_TEXT(text, want) expect_msg(text, strlen(text), want, __LINE__)

struct bad_case {
	const char *find;
	const char *repl;
	const char *want;
};

static const struct bad_case bad_cases[] = {
	/* header */
	{ "\"version\":1", "\"version\":7",
	  "line 1: recording format version 7 is newer than this tdtop supports (2)" },
	{ "\"version\":1", "\"version\":0",
	  "line 1: field 'version' must be an integer in 1..2147483647" },
	{ "\"version\":1", "\"version\":\"1\"", "line 1: field 'version' must be an integer" },
	{ "\"version\":1,", "", "line 1: field 'version' is missing" },
	{ "\"format\":\"tdtop-recording\"", "\"format\":\"perf\"",
	  "line 1: not a tdtop recording: field 'format' must be \"tdtop-recording\"" },
	{ "\"ncpus\":2,\"topdown", "\"ncpus\":0,\"topdown",
	  "line 1: field 'ncpus' must be an integer in 1..4096" },
	{ "\"tdtop_version\":\"0.1.0\",", "", "line 1: field 'tdtop_version' is missing" },
	{ "\"cpu_model\":\"x\"", "\"cpu_model\":null",
	  "line 1: field 'cpu_model' must be a string of at most 127 bytes" },
	{ "\"topdown_method\":\"none\"", "\"topdown_method\":\"\"",
	  "line 1: field 'topdown_method' must not be empty" },
	{ "\"leader\":1", "\"leader\":2",
	  "line 1: field 'events[1].leader' must be an integer in 0..1" },
	{ "\"config\":3", "\"config\":-3",
	  "line 1: field 'events[1].config' must be a non-negative integer" },
	{ "\"type\":1,", "\"type\":4294967296,",
	  "line 1: field 'events[0].type' must be an integer in 0..4294967295" },
	{ "\"scale\":1.0", "\"scale\":0", "line 1: field 'events[0].scale' must be a finite number > 0" },
	{ "\"scale\":1.0", "\"scale\":\"1\"",
	  "line 1: field 'events[0].scale' must be a finite number >= 0" },
	{ "\"name\":\"a\"", "\"name\":\"\"", "line 1: field 'events[0].name' must not be empty" },
	{ "\"role\":\"slots\"", "\"role\":7", "line 1: field 'events[1].role' must be a string" },
	{ "\"pinned\":false}", "\"pinned\":0}", "line 1: field 'events[0].pinned' must be true or false" },
	{ "\"events\":[", "\"events\":[7,", "line 1: field 'events[0]' must be an object" },
	{ "\"events\":[", "\"events\":{},\"x\":[", "line 1: field 'events' must be an array" },
	{ "\"pmus\":[]", "\"pmus\":[1]", "line 1: field 'pmus[0]' must be an object" },
	{ "\"pmus\":[]", "\"pmus\":{}", "line 1: field 'pmus' must be an array" },
	{ "\"pmus\":[]", "\"pmus\":[" PART "," PART "," PART "," PART "," PART "," PART "," PART
	  "," PART "," PART "]", "line 1: field 'pmus' has 9 elements, at most 8 are allowed" },
	{ "\"pmus\":[]", "\"pmus\":[" PART "," PART_AS("arm", 1, 3, 5) "]",
	  "line 1: field 'pmus[1].ev_hi' must be an integer in 1..2" },
	{ "\"pids\":[]", "\"pids\":[0]",
	  "line 1: field 'options.pids[0]' must be an integer in 1..4194304" },
	{ "\"delay_s\":1.0", "\"delay_s\":-1",
	  "line 1: field 'options.delay_s' must be a finite number >= 0" },
	{ "\"options\":{", "\"options\":[],\"o\":{", "line 1: field 'options' must be an object" },
	{ "\"group_by\":\"process\"", "\"group_by\":\"\"",
	  "line 1: field 'options.group_by' must not be empty" },
	{ "\"cgroup_depth\":0", "\"cgroup_depth\":-1",
	  "line 1: field 'options.cgroup_depth' must be an integer in 0..1024" },
	{ "\"cgroup\":\"\",", "", "line 1: field 'options.cgroup' is missing" },
	/* interval */
	{ "\"seq\":1,\"ts\"", "\"seq\":2,\"ts\"", "line 2: field 'seq' is 2, expected 1" },
	{ "\"ts\":1718000000.5", "\"ts\":-1", "line 2: field 'ts' must be a finite number >= 0" },
	{ "\"ts\":1718000000.5", "\"ts\":\"now\"", "line 2: field 'ts' must be a finite number >= 0" },
	{ "\"ts\":1718000000.5", "\"ts\":1e999", "line 2: invalid JSON" },
	{ "\"interval_s\":1.0", "\"interval_s\":null",
	  "line 2: field 'interval_s' must be a finite number >= 0" },
	{ "\"ncpus\":2,\"switches\"", "\"ncpus\":4097,\"switches\"",
	  "line 2: field 'ncpus' must be an integer in 1..4096" },
	{ "\"switches\":9", "\"switches\":[]", "line 2: field 'switches' must be a non-negative integer" },
	{ "\"dropped\":0,", "", "line 2: field 'dropped' is missing" },
	{ "\"tasks\":2", "\"tasks\":-1", "line 2: field 'tasks' must be an integer in 0..4194304" },
	{ "\"tasks\":2", "\"tasks\":4194305", "line 2: field 'tasks' must be an integer in 0..4194304" },
	{ "\"tasks\":2", "\"tasks\":1", "line 4: more tasks than the interval declares (1)" },
	{ "\"tasks\":2", "\"tasks\":3", "line 5: interval ended after 2 of its 3 tasks" },
	{ "\"idle\":{\"cpu_ns\":5,", "\"idle\":{", "line 2: field 'idle.cpu_ns' is missing" },
	{ "\"idle\":{\"cpu_ns\":5,\"ev\":[[1,2,3],", "\"idle\":{\"cpu_ns\":5,\"ev\":[",
	  "line 2: field 'idle.ev' has 1 events, the header declares 2" },
	{ "\"lost\":{", "\"lost\":7,\"x\":{", "line 2: field 'lost' must be an object" },
	/* task */
	{ "\"tid\":10", "\"tid\":0", "line 3: field 'tid' must be an integer in 1..4194304" },
	{ "\"tid\":10", "\"tid\":4194305", "line 3: field 'tid' must be an integer in 1..4194304" },
	{ "\"pid\":10", "\"pid\":0", "line 3: field 'pid' must be an integer in 1..4194304" },
	{ "\"cpu_ns\":7", "\"cpu_ns\":\"abc\"", "line 3: field 'cpu_ns' must be a non-negative integer" },
	{ "\"cpu_ns\":7", "\"cpu_ns\":-1", "line 3: field 'cpu_ns' must be a non-negative integer" },
	{ "\"cpu_ns\":7", "\"cpu_ns\":1.5", "line 3: field 'cpu_ns' must be a non-negative integer" },
	{ "\"cpu_ns\":7", "\"cpu_ns\":\"-1\"", "line 3: field 'cpu_ns' must be a non-negative integer" },
	{ "\"cpu_ns\":7", "\"cpu_ns\":\"007\"", "line 3: field 'cpu_ns' must be a non-negative integer" },
	{ "\"cpu_ns\":7", "\"cpu_ns\":\"18446744073709551616\"",
	  "line 3: field 'cpu_ns' must be a non-negative integer" },
	{ "\"cpu_ns\":7", "\"cpu_ns\":\"\"", "line 3: field 'cpu_ns' must be a non-negative integer" },
	{ "\"cpu_ns\":7", "\"cpu_ns\":true", "line 3: field 'cpu_ns' must be a non-negative integer" },
	{ "\"cpu_ns\":7", "\"cpu_ns\":18446744073709551616", "line 3: invalid JSON" },
	{ "\"start_ns\":1,", "", "line 3: field 'start_ns' is missing" },
	{ "\"cgroup_id\":0", "\"cgroup_id\":-5",
	  "line 3: field 'cgroup_id' must be a non-negative integer" },
	{ "\"cgroup_id\":0,", "", "line 3: field 'cgroup_id' is missing" },
	{ "\"comm\":\"c\"", "\"comm\":\"abcdefghijklmnop\"",
	  "line 3: field 'comm' must be a string of at most 15 bytes" },
	{ "\"comm\":\"c\"", "\"comm\":\"%00\"", "line 3: field 'comm' must be a string" },
	{ "\"comm\":\"c\"", "\"comm\":\"%4\"", "line 3: field 'comm' must be a string" },
	{ "\"comm\":\"c\"", "\"comm\":\"%zz\"", "line 3: field 'comm' must be a string" },
	{ "\"comm\":\"c\"", "\"comm\":\"\\u00e9\"", "line 3: field 'comm' must be a string" },
	{ "\"comm\":\"c\"", "\"comm\":\"a\\tb\"", "line 3: field 'comm' must be a string" },
	{ "\"comm\":\"c\"", "\"comm\":\"\\u0000\"", "line 3: invalid JSON" },
	{ "\"pcomm\":\"p\"", "\"pcomm\":[]", "line 3: field 'pcomm' must be a string" },
	{ "\"exited\":false,", "", "line 3: field 'exited' is missing" },
	{ "\"exited\":false", "\"exited\":1", "line 3: field 'exited' must be true or false" },
	{ "\"ev\":[[1,1,1],[2,2,2]]", "\"ev\":[[1,1,1]]",
	  "line 3: field 'ev' has 1 events, the header declares 2" },
	{ "\"ev\":[[1,1,1],", "\"ev\":[[1,1],",
	  "line 3: field 'ev[0]' must be [count, enabled, running]" },
	{ "\"ev\":[[1,1,1],", "\"ev\":[[1,1,-1],",
	  "line 3: field 'ev[0][2]' must be a non-negative integer" },
	{ "\"ev\":[[1,1,1],", "\"ev\":7,\"x\":[[1,1,1],", "line 3: field 'ev' must be an array" },
	/* line structure */
	{ "\"type\":\"task\"", "\"type\":\"taks\"", "line 3: unknown line type 'taks'" },
	{ "\"type\":\"task\",", "", "line 3: field 'type' must be a string" },
	{ "\"type\":\"task\"", "\"type\":5", "line 3: field 'type' must be a string" },
	{ "\"tid\":10,", "\"tid\":10,\"tid\":10,", "line 3: invalid JSON" },
	{ "\"tid\":10,", "\"tid\":10,\"x\":{\"y\":{\"z\":[[[[[[[[[[[[[[", "line 3: invalid JSON" },
	{ "{\"type\":\"task\",\"tid\":10", "[{\"type\":\"task\",\"tid\":10",
	  "line 3: invalid JSON" },
	{ TASK(10), "[1]\n", "line 3: not a JSON object" },
	{ TASK(10), "\n", "line 3: empty line" },
	{ TASK(10), "{}\n", "line 3: field 'type' must be a string" },
	{ TASK(10), "{\"type\":\"task\"} {}\n", "line 3: invalid JSON" },
	{ END(1), "{\"type\":\"end\",\"seq\":5}\n", "line 5: field 'seq' is 5, expected 1" },
	{ END(1), "{\"type\":\"end\"}\n", "line 5: field 'seq' is missing" },
	{ END(1), IV(2, 0), "line 5: interval 2 started before interval 1 ended" },
	{ END(1), END(1) HDR, "line 6: a second header (concatenated recordings?)" },
	{ IV(1, 2), TASK(10), "line 2: 'task' line outside an interval" },
	{ IV(1, 2), END(1), "line 2: 'end' line outside an interval" },
	{ HDR, IV(1, 2), "line 1: header missing: first line has type 'interval'" },
	{ HDR, "\n", "line 1: empty line" },
	{ HDR, "hello\n", "line 1: invalid JSON" },
	{ HDR, "\x89PNG\r\n\x1a\n", "line 1: invalid JSON" },
	{ HDR, "{\"type\":\"header\"}\n", "line 1: not a tdtop recording" },
	{ HDR, "{\"type\":\"header\",\"format\":\"tdtop-recording\"\n",
	  "line 1: invalid JSON" },
	{ "\"tdtop_version\":\"0.1.0\"", "\"tdtop_version\":\"\xff\xfe\"",
	  "line 1: invalid JSON" },
};

/* Changes of PART, the header's only TopDown part (of 2 events). */
static const struct bad_case bad_parts[] = {
	{ "\"method\":\"perf_metrics\"", "\"method\":\"none\"",
	  "line 1: field 'pmus[0].method' must be a TopDown method name, not \"none\"" },
	{ "\"method\":\"perf_metrics\"", "\"method\":\"perf-metrics\"",
	  "line 1: field 'pmus[0].method' must be a TopDown method name" },
	{ "\"method\":\"perf_metrics\"", "\"method\":\"\"",
	  "line 1: field 'pmus[0].method' must not be empty" },
	{ "\"method\":\"perf_metrics\",", "", "line 1: field 'pmus[0].method' is missing" },
	{ "\"method\":\"perf_metrics\"", "\"method\":1",
	  "line 1: field 'pmus[0].method' must be a string" },
	{ "\"name\":\"cpu\"", "\"name\":\"\"", "line 1: field 'pmus[0].name' must not be empty" },
	{ "\"name\":\"cpu\",", "", "line 1: field 'pmus[0].name' is missing" },
	{ "\"ev_hi\":2", "\"ev_hi\":3",
	  "line 1: field 'pmus[0].ev_hi' must be an integer in 0..2" },
	{ "\"ev_hi\":2", "\"ev_hi\":17",
	  "line 1: field 'pmus[0].ev_hi' must be an integer in 0..16" },
	{ "\"ev_lo\":0,\"ev_hi\":2", "\"ev_lo\":2,\"ev_hi\":1",
	  "line 1: field 'pmus[0].ev_hi' must be an integer in 2..2" },
	{ "\"ev_lo\":0,\"ev_hi\":2", "\"ev_lo\":3,\"ev_hi\":3",
	  "line 1: field 'pmus[0].ev_lo' must be an integer in 0..2" },
	{ "\"ev_lo\":0", "\"ev_lo\":-1",
	  "line 1: field 'pmus[0].ev_lo' must be an integer in 0..16" },
	{ "\"ev_lo\":0", "\"ev_lo\":\"0\"", "line 1: field 'pmus[0].ev_lo' must be an integer" },
	{ "\"ev_hi\":2,", "", "line 1: field 'pmus[0].ev_hi' is missing" },
	{ "\"slot_width\":0", "\"slot_width\":65",
	  "line 1: field 'pmus[0].slot_width' must be an integer in 0..64" },
	{ "\"slot_width\":0", "\"slot_width\":-1",
	  "line 1: field 'pmus[0].slot_width' must be an integer in 0..64" },
	{ "\"slot_width\":0,", "", "line 1: field 'pmus[0].slot_width' is missing" },
	{ ",\"arm_n2_erratum\":false", "", "line 1: field 'pmus[0].arm_n2_erratum' is missing" },
	{ "\"arm_n2_erratum\":false", "\"arm_n2_erratum\":0",
	  "line 1: field 'pmus[0].arm_n2_erratum' must be true or false" },
};

/* *base* reads fine, and each case's change of it gives its error. */
static void check_cases(const char *base, const struct bad_case *cases, size_t n, int line)
{
	char msg[256];

	CHECK_INT(read_mem(base, strlen(base), msg, sizeof(msg)), 2);
	CHECK_STR(msg, "OK ");
	for (size_t i = 0; i < n; i++) {
		char *text = subst(base, cases[i].find, cases[i].repl);

		read_mem(text, strlen(text), msg, sizeof(msg));
		if (strncmp(msg, cases[i].want, strlen(cases[i].want)))
			test_fail(__FILE__, line, "case %zu (%s -> %s): got \"%s\", want \"%s\"", i,
				  cases[i].find, cases[i].repl, msg, cases[i].want);
		free(text);
	}
}

TEST(record_malformed)
{
	check_cases(BASE, bad_cases, sizeof(bad_cases) / sizeof(bad_cases[0]), __LINE__);
}

TEST(record_malformed_parts)
{
	char *base = subst(BASE, "\"pmus\":[]", "\"pmus\":[" PART "]");

	check_cases(base, bad_parts, sizeof(bad_parts) / sizeof(bad_parts[0]), __LINE__);
	free(base);
}

/* The parts of a hybrid machine: every field read, ranges may be empty. */
TEST(record_header_parts)
{
	static const char text[] =
		"\"pmus\":[" PART_AS("intel_atom", 0, 1, 6) ","
		"{\"name\":\"armv8_pmuv3_0\",\"method\":\"arm\",\"ev_lo\":1,\"ev_hi\":2,"
		"\"slot_width\":64,\"arm_n2_erratum\":true},"
		PART_AS("amd_zen", 2, 2, 8) "]";
	char *base = subst(BASE, "\"pmus\":[]", text), err[256];
	struct rec_header h;
	struct rec_reader *r = rec_reader__open_mem(base, strlen(base), &h, err, sizeof(err));

	CHECK(r != NULL);
	CHECK_INT(h.nr_pmus, 3);
	CHECK_STR(h.pmus[0].name, "cpu");
	CHECK_STR(h.pmus[0].method, "intel_atom");
	CHECK_INT(h.pmus[0].ev_lo, 0);
	CHECK_INT(h.pmus[0].ev_hi, 1);
	CHECK_INT(h.pmus[0].slot_width, 6);
	CHECK(!h.pmus[0].arm_n2_erratum);
	CHECK_STR(h.pmus[1].name, "armv8_pmuv3_0");
	CHECK_STR(h.pmus[1].method, "arm");
	CHECK_INT(h.pmus[1].ev_lo, 1);
	CHECK_INT(h.pmus[1].ev_hi, 2);
	CHECK_INT(h.pmus[1].slot_width, 64);
	CHECK(h.pmus[1].arm_n2_erratum);
	CHECK_STR(h.pmus[2].method, "amd_zen");
	CHECK_INT(h.pmus[2].ev_lo, 2);
	CHECK_INT(h.pmus[2].ev_hi, 2);
	CHECK(!memcmp(&h.pmus[3], &(struct rec_pmu){ 0 }, sizeof(h.pmus[3])));
	rec_reader__close(r);
	free(base);
}

TEST(record_malformed_special)
{
	static const char nul_line[] = HDR IV(1, 1) "{\"type\":\"task\",\0\"tid\":10}\n" END(1);
	char events[4096], text[8192], *big;
	size_t n = 0;
	unsigned int x = 12345;

	EXPECT_TEXT("", "line 1: empty file, header missing");
	EXPECT_TEXT("{\"type\":\"header\",", "line 1: incomplete header line: file truncated or "
		    "not a tdtop recording");
	expect_msg(nul_line, sizeof(nul_line) - 1, "line 3: NUL byte, not a text line", __LINE__);
	expect_msg("\0\0\0\n", 4, "line 1: NUL byte", __LINE__);

	/* binary garbage (a fixed xorshift stream) */
	big = malloc(11 * 1024 * 1024);
	for (size_t i = 0; i < 65536; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		big[i] = (char)x;
	}
	expect_msg(big, 65536, "line 1: ", __LINE__);

	/* more events than there is room for */
	n += (size_t)snprintf(events, sizeof(events), "%s", EV0);
	for (int i = 1; i <= MAX_EVENTS; i++)
		n += (size_t)snprintf(events + n, sizeof(events) - n, ",%s", EV0);
	snprintf(text, sizeof(text),
		 "{\"type\":\"header\",\"format\":\"tdtop-recording\",\"version\":1,"
		 "\"tdtop_version\":\"\",\"kernel_release\":\"\",\"cpu_model\":\"\",\"ncpus\":1,"
		 "\"topdown_method\":\"none\",\"events\":[%s],\"pmus\":[],\"options\":"
		 "{\"delay_s\":1,\"group_by\":\"thread\",\"cgroup\":\"\",\"cgroup_depth\":0,"
		 "\"max_tasks\":1,\"pids\":[]}}\n", events);
	EXPECT_TEXT(text, "line 1: field 'events' has 17 elements, at most 16 are allowed");

	/* a 10 MB line, and one without any newline */
	memcpy(big, HDR, strlen(HDR));
	memset(big + strlen(HDR), ' ', 10 * 1024 * 1024);
	big[strlen(HDR) + 10 * 1024 * 1024] = '\n';
	expect_msg(big, strlen(HDR) + 10 * 1024 * 1024 + 1, "line 2: longer than 1048576 bytes",
		   __LINE__);
	memset(big, '[', 10 * 1024 * 1024);
	expect_msg(big, 10 * 1024 * 1024, "line 1: longer than 1048576 bytes", __LINE__);
	free(big);
}

/* A line of exactly REC_MAX_LINE bytes is fine, one more is not. */
TEST(record_line_limit)
{
	size_t pre = strlen(HDR IV(1, 1)), task = strlen(TASK(10)) - 1;
	size_t len = pre + REC_MAX_LINE + 1 + strlen(END(1));
	char *text = malloc(len + 2), msg[256];

	memcpy(text, HDR IV(1, 1), pre);
	memcpy(text + pre, TASK(10), task);
	memset(text + pre + task, ' ', REC_MAX_LINE - task);
	text[pre + REC_MAX_LINE] = '\n';
	memcpy(text + pre + REC_MAX_LINE + 1, END(1), strlen(END(1)));
	CHECK_INT(read_mem(text, len, msg, sizeof(msg)), 1);
	CHECK_STR(msg, "OK ");

	memmove(text + pre + 1, text + pre, len - pre);
	text[pre] = ' ';
	read_mem(text, len + 1, msg, sizeof(msg));
	CHECK_STR(msg, "line 3: longer than 1048576 bytes");
	free(text);
}

/* Fields a reader does not know are skipped, wherever they are. */
TEST(record_unknown_fields_ignored)
{
	static const char *const at[][2] = {
		{ "\"format\"", "\"zz\":{\"a\":[1,{\"b\":null}]},\"format\"" },
		{ "\"leader\":0", "\"leader\":0,\"zz\":\"x\"" },
		{ "\"options\":{", "\"options\":{\"zz\":1.5," },
		{ "\"seq\":1,\"ts\"", "\"zz\":[],\"seq\":1,\"ts\"" },
		{ "\"cpu_ns\":5,", "\"cpu_ns\":5,\"zz\":false," },
		{ "\"tid\":10,", "\"tid\":10,\"zz\":\"18446744073709551616\"," },
		{ "{\"type\":\"end\",\"seq\":2}", "{\"type\":\"end\",\"seq\":2,\"zz\":{}}" },
	};
	char *text = strdup(BASE), msg[256];
	struct rec_header h;
	struct sample s = { 0 };
	struct rec_reader *r;

	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		char *next = subst(text, at[i][0], at[i][1]);

		free(text);
		text = next;
	}
	/* escapes of printable bytes are accepted too */
	{
		char *next = subst(text, "\"comm\":\"c\"", "\"comm\":\"%63%2a\"");

		free(text);
		text = next;
	}
	r = rec_reader__open_mem(text, strlen(text), &h, msg, sizeof(msg));
	CHECK(r != NULL);
	if (r) {
		CHECK_STR(h.events[1].role, "slots");
		CHECK_STR(h.events[0].role, "");
		CHECK_INT(rec_reader__next(r, &s, msg, sizeof(msg)), 1);
		CHECK_INT(s.nr, 2);
		CHECK_U64(s.idle.cpu_ns, 5);
		CHECK_U64(s.total.ev[1].running, 6);
		CHECK_STR(s.tasks[0].comm, "c*");
		CHECK_INT(rec_reader__next(r, &s, msg, sizeof(msg)), 1);
		CHECK_INT(rec_reader__next(r, &s, msg, sizeof(msg)), 0);
		CHECK_STR(msg, "");
		rec_reader__close(r);
	}
	free(text);
	sample__free(&s);
}

/* ---- the writer's refusals and errors ---- */

TEST(record_writer_refuses_bad_samples)
{
	struct sample good = { 0 }, bad = { 0 }, got = { 0 };
	char path[256], err[256], msg[256];
	struct rec_header h, back;
	struct recorder *w;
	struct rec_reader *r;

	make_header(&h, 2);
	make_sample(&good, 0, 2, 2);
	fixture_tmpfile(path, sizeof(path), "test-record", "", 0);
	w = recorder__open(path, &h, false, err, sizeof(err));
	CHECK(w != NULL);
	if (!w)
		return;
	CHECK_INT(recorder__write(w, &good, err, sizeof(err)), 0);

	make_sample(&bad, 1, 2, 2);
	bad.tasks[1].tid = 0;
	CHECK_INT(recorder__write(w, &bad, err, sizeof(err)), -1);
	CHECK_STR(err, "failed to record interval: task 1 has tid 0 pid 4194304, not in 1..4194304");
	make_sample(&bad, 1, 2, 2);
	memset(bad.tasks[0].pcomm, 'x', TASK_COMM_LEN);
	CHECK_INT(recorder__write(w, &bad, err, sizeof(err)), -1);
	CHECK(strstr(err, "has a name without NUL") != NULL);
	make_sample(&bad, 1, 2, 2);
	bad.ts = NAN;
	CHECK_INT(recorder__write(w, &bad, err, sizeof(err)), -1);
	CHECK(strstr(err, "ts") != NULL);
	make_sample(&bad, 1, 2, 2);
	bad.interval_s = -1;
	CHECK_INT(recorder__write(w, &bad, err, sizeof(err)), -1);
	make_sample(&bad, 1, 2, 2);
	bad.ncpus = 0;
	CHECK_INT(recorder__write(w, &bad, err, sizeof(err)), -1);
	CHECK_STR(err, "failed to record interval: ncpus 0 not in 1..4096");

	/* a refusal writes nothing, so the recording goes on */
	CHECK_INT(recorder__write(w, &good, err, sizeof(err)), 0);
	CHECK_INT(recorder__close(w, err, sizeof(err)), 0);

	r = rec_reader__open(path, &back, err, sizeof(err));
	CHECK(r != NULL);
	if (r) {
		CHECK_INT(rec_reader__next(r, &got, msg, sizeof(msg)), 1);
		CHECK(sample_eq(&good, &got));
		CHECK_INT(rec_reader__next(r, &got, msg, sizeof(msg)), 1);
		CHECK(sample_eq(&good, &got));
		CHECK_INT(rec_reader__next(r, &got, msg, sizeof(msg)), 0);
		rec_reader__close(r);
	}
	unlink(path);
	sample__free(&good);
	sample__free(&bad);
	sample__free(&got);
}

TEST(record_writer_refuses_bad_headers)
{
	struct rec_header h;
	char path[256], err[256];

	fixture_tmpfile(path, sizeof(path), "test-record", "", 0);
	make_header(&h, 6);
	h.ncpus = 0;
	CHECK(recorder__open(path, &h, false, err, sizeof(err)) == NULL);
	CHECK_STR(err, "invalid recording header: field 'ncpus' must be an integer in 1..4096");

	make_header(&h, 6);
	h.events[5].leader = 2;		/* not a leader: its leader is 0 */
	CHECK_INT(rec_header__check(&h, err, sizeof(err)), -1);
	CHECK_STR(err, "field 'events[5].leader' must be the index of a group leader in 0..5");
	h.events[5].leader = 6;
	CHECK_INT(rec_header__check(&h, err, sizeof(err)), -1);

	make_header(&h, 6);
	h.events[3].scale = INFINITY;
	CHECK_INT(rec_header__check(&h, err, sizeof(err)), -1);
	CHECK_STR(err, "field 'events[3].scale' must be a finite number > 0");

	make_header(&h, 6);
	memset(h.events[1].unit, 'u', sizeof(h.events[1].unit));
	CHECK_INT(rec_header__check(&h, err, sizeof(err)), -1);
	CHECK_STR(err, "field 'events[1].unit' must be at most 15 bytes");

	make_header(&h, 6);
	h.pids[2] = 0;
	CHECK_INT(rec_header__check(&h, err, sizeof(err)), -1);
	CHECK_STR(err, "field 'options.pids[2]' must be an integer in 1..4194304");

	make_header(&h, 6);
	h.nr_events = MAX_EVENTS + 1;
	CHECK_INT(rec_header__check(&h, err, sizeof(err)), -1);

	make_header(&h, 6);
	h.pmus[1].slot_width = REC_MAX_SLOT_WIDTH + 1;
	CHECK_INT(rec_header__check(&h, err, sizeof(err)), -1);
	CHECK_STR(err, "field 'pmus[1].slot_width' must be an integer in 0..64");
	h.pmus[1].slot_width = 0;
	CHECK_INT(rec_header__check(&h, err, sizeof(err)), 0);

	make_header(&h, 6);
	strcpy(h.pmus[0].method, "none");
	CHECK_INT(rec_header__check(&h, err, sizeof(err)), -1);
	CHECK_STR(err, "field 'pmus[0].method' must be a TopDown method name, not \"none\"");
	strcpy(h.pmus[0].method, "unknown");
	CHECK_INT(rec_header__check(&h, err, sizeof(err)), -1);
	memset(h.pmus[0].method, 'x', sizeof(h.pmus[0].method));
	CHECK_INT(rec_header__check(&h, err, sizeof(err)), -1);
	CHECK_STR(err, "field 'pmus[0].method' must be at most 31 bytes");

	make_header(&h, 6);
	h.pmus[1].ev_hi = 7;		/* past the 6 events */
	CHECK_INT(rec_header__check(&h, err, sizeof(err)), -1);
	CHECK_STR(err, "field 'pmus[1].ev_hi' must be an integer in 3..6");
	h.pmus[1].ev_hi = 2;		/* below ev_lo */
	CHECK_INT(rec_header__check(&h, err, sizeof(err)), -1);
	h.pmus[1].ev_lo = -1;
	CHECK_INT(rec_header__check(&h, err, sizeof(err)), -1);
	CHECK_STR(err, "field 'pmus[1].ev_lo' must be an integer in 0..6");
	h.pmus[1].ev_lo = h.pmus[1].ev_hi = 6;	/* empty, at the end */
	CHECK_INT(rec_header__check(&h, err, sizeof(err)), 0);

	make_header(&h, 6);
	h.nr_pmus = REC_MAX_PMUS + 1;
	CHECK_INT(rec_header__check(&h, err, sizeof(err)), -1);
	CHECK_STR(err, "field 'pmus' must have at most 8 elements");

	make_header(&h, 6);
	CHECK_INT(rec_header__check(&h, err, sizeof(err)), 0);
	unlink(path);
}

TEST(record_io_errors)
{
	struct rec_header h;
	struct recorder *w;
	char err[256];

	make_header(&h, 2);
	CHECK(recorder__open("/nonexistent/dir/rec", &h, false, err, sizeof(err)) == NULL);
	CHECK_STR(err, "failed to open /nonexistent/dir/rec: No such file or directory");
	CHECK(rec_reader__open("/nonexistent/rec", &h, err, sizeof(err)) == NULL);
	CHECK_STR(err, "failed to open /nonexistent/rec: No such file or directory");
	CHECK(rec_reader__open("/", &h, err, sizeof(err)) == NULL);
	CHECK_STR(err, "failed to read recording: Is a directory");

	/* the header's flush already fails on a full disk */
	w = recorder__open("/dev/full", &h, false, err, sizeof(err));
	CHECK(w == NULL);
	CHECK_STR(err, "failed to write recording: No space left on device");
	w = recorder__open("/dev/full", &h, true, err, sizeof(err));
	CHECK(w == NULL);
	CHECK_STR(err, "failed to write recording: No space left on device");

	CHECK_INT(recorder__close(NULL, err, sizeof(err)), 0);
	rec_reader__close(NULL);
}

/* ---- header helpers ---- */

TEST(record_header_host)
{
	struct rec_header h;
	struct utsname u;
	char path[256];
	FILE *f;

	fixture_tmpfile(path, sizeof(path), "test-record", "", 0);
	f = fopen(path, "w");
	fprintf(f, "processor\t: 0\nvendor_id\t: X\nmodel name\t: Test CPU @ 1.00GHz\n\n"
		   "processor\t: 1\nmodel name\t: Other\n");
	fclose(f);
	rec_header__init_host(&h, path);
	CHECK_STR(h.cpu_model, "Test CPU @ 1.00GHz");
	CHECK_STR(h.tdtop_version, TDTOP_VERSION);
	CHECK(uname(&u) == 0 && !strcmp(h.kernel_release, u.release));
	CHECK_STR(h.topdown_method, "none");
	CHECK_STR(h.group_by, "process");
	CHECK_INT(h.nr_events, 0);

	rec_header__init_host(&h, "/nonexistent/cpuinfo");
	CHECK_STR(h.cpu_model, "");
	unlink(path);
}

TEST(record_header_set_events)
{
	struct event_list el = { 0 };
	struct rec_header h;

	rec_header__init_host(&h, "/nonexistent");
	el.nr = 2;
	strcpy(el.ev[0].name, "slots");
	el.ev[0].type = 4;
	el.ev[0].config = 0x400;
	el.ev[0].scale = 1.0;
	el.ev[0].leader = 0;
	el.ev[0].pinned = true;
	strcpy(el.ev[1].name, "topdown-retiring");
	el.ev[1].type = 4;
	el.ev[1].config = 0x8000;
	el.ev[1].config2 = 5;
	el.ev[1].scale = 2.5;
	strcpy(el.ev[1].unit, "%");
	el.ev[1].leader = 0;
	CHECK_INT(rec_header__set_events(&h, &el), 0);
	CHECK_INT(h.nr_events, 2);
	CHECK_STR(h.events[1].name, "topdown-retiring");
	CHECK_U64(h.events[1].config, 0x8000);
	CHECK_U64(h.events[1].config2, 5);
	CHECK_NEAR(h.events[1].scale, 2.5, 0);
	CHECK_STR(h.events[1].unit, "%");
	CHECK_INT(h.events[1].leader, 0);
	CHECK(h.events[0].pinned);
	CHECK_STR(h.events[0].pmu, "");
	h.ncpus = 2;
	CHECK_INT(rec_header__check(&h, NULL, 0), 0);
	el.nr = MAX_EVENTS + 1;
	CHECK_INT(rec_header__set_events(&h, &el), -1);
}

/* ---- cgroup lines ---- */

#define CG(id, path) "{\"type\":\"cgroup\",\"id\":" id ",\"path\":\"" path "\"}\n"
/* lines: 1 header, 2-3 cgroups, 4 interval, 5-6 tasks, 7 end, 8 cgroup, 9 interval, 10 end */
#define BASE_CG HDR CG("1", "/") CG("7", "/a") IV(1, 2) TASK(10) TASK(11) END(1) \
	CG("8", "/a/b") IV(2, 0) END(2)

/* Each cgroup line counts from the interval that follows it. */
TEST(record_cgroup_lines_read)
{
	static const char tail[] = HDR CG("\"18446744073709551615\"", "/big") CG("3", "/a%2Fb")
		CG("4", "/caf%C3%a9 %25") CG("4", "/caf%C3%a9 %25");
	char msg[256];
	struct rec_header h;
	struct sample s = { 0 };
	struct rec_reader *r = rec_reader__open_mem(BASE_CG, strlen(BASE_CG), &h, msg, sizeof(msg));

	CHECK(r != NULL);
	if (!r)
		return;
	CHECK(rec_reader__cgroup_path(r, 1) == NULL);
	CHECK_INT(rec_reader__next(r, &s, msg, sizeof(msg)), 1);
	CHECK_INT(s.nr, 2);
	CHECK_STR(rec_reader__cgroup_path(r, 1), "/");
	CHECK_STR(rec_reader__cgroup_path(r, 7), "/a");
	CHECK(rec_reader__cgroup_path(r, 8) == NULL);
	CHECK(rec_reader__cgroup_path(r, 0) == NULL);
	CHECK_U64(rec_reader__cgroup_id(r, "/a"), 7);
	CHECK_U64(rec_reader__cgroup_id(r, "/a/b"), 0);
	CHECK_INT(rec_reader__next(r, &s, msg, sizeof(msg)), 1);
	CHECK_STR(rec_reader__cgroup_path(r, 8), "/a/b");
	CHECK_INT(rec_reader__next(r, &s, msg, sizeof(msg)), 0);
	CHECK_STR(msg, "");
	rec_reader__close(r);

	/* complete cgroup lines after the last interval end the file cleanly;
	 * a path is checked after decoding, and a repeated line is harmless */
	r = rec_reader__open_mem(tail, strlen(tail), &h, msg, sizeof(msg));
	CHECK(r != NULL);
	if (r) {
		CHECK_INT(rec_reader__next(r, &s, msg, sizeof(msg)), 0);
		CHECK_STR(msg, "");
		CHECK_STR(rec_reader__cgroup_path(r, UINT64_MAX), "/big");
		CHECK_STR(rec_reader__cgroup_path(r, 3), "/a/b");
		CHECK_STR(rec_reader__cgroup_path(r, 4), "/caf\xc3\xa9 %");
		rec_reader__close(r);
	}
	sample__free(&s);
}

#define BAD_PATH "line 3: field 'path' must be \"/\" and names without empty, \".\" or \"..\" ones"

static const struct bad_case bad_cgroups[] = {
	{ CG("7", "/a"), CG("0", "/a"), "line 3: field 'id' must not be 0" },
	{ CG("8", "/a/b"), CG("0", "/a/b"), "line 8: field 'id' must not be 0" },
	{ "\"id\":7,", "", "line 3: field 'id' is missing" },
	{ "\"id\":7", "\"id\":-7", "line 3: field 'id' must be a non-negative integer" },
	{ "\"id\":7", "\"id\":7.5", "line 3: field 'id' must be a non-negative integer" },
	{ "\"id\":7", "\"id\":\"07\"", "line 3: field 'id' must be a non-negative integer" },
	{ "\"id\":7", "\"id\":null", "line 3: field 'id' must be a non-negative integer" },
	{ ",\"path\":\"/a\"", "", "line 3: field 'path' is missing" },
	{ "\"path\":\"/a\"", "\"path\":7", "line 3: field 'path' must be a string" },
	{ "\"path\":\"/a\"", "\"path\":\"%00\"", "line 3: field 'path' must be a string" },
	{ "\"path\":\"/a\"", "\"path\":\"/a\\tb\"", "line 3: field 'path' must be a string" },
	{ "\"path\":\"/a\"", "\"path\":\"/a%0\"", "line 3: field 'path' must be a string" },
	{ "\"path\":\"/a\"", "\"path\":\"\"", BAD_PATH },
	{ "\"path\":\"/a\"", "\"path\":\"a\"", BAD_PATH },
	{ "\"path\":\"/a\"", "\"path\":\"a/b\"", BAD_PATH },
	{ "\"path\":\"/a\"", "\"path\":\"//\"", BAD_PATH },
	{ "\"path\":\"/a\"", "\"path\":\"//a\"", BAD_PATH },
	{ "\"path\":\"/a\"", "\"path\":\"/a/\"", BAD_PATH },
	{ "\"path\":\"/a\"", "\"path\":\"/a//b\"", BAD_PATH },
	{ "\"path\":\"/a\"", "\"path\":\"/a%2F%2fb\"", BAD_PATH },
	{ "\"path\":\"/a\"", "\"path\":\"/.\"", BAD_PATH },
	{ "\"path\":\"/a\"", "\"path\":\"/..\"", BAD_PATH },
	{ "\"path\":\"/a\"", "\"path\":\"/a/./b\"", BAD_PATH },
	{ "\"path\":\"/a\"", "\"path\":\"/a/../b\"", BAD_PATH },
	{ "\"path\":\"/a\"", "\"path\":\"/a/..\"", BAD_PATH },
	{ "\"path\":\"/a\"", "\"path\":\"/a/%2e\"", BAD_PATH },
	{ "\"type\":\"cgroup\"", "\"type\":\"cgroups\"", "line 2: unknown line type 'cgroups'" },
	{ "\"id\":1,", "\"id\":1,\"id\":2,", "line 2: invalid JSON" },
	{ HDR, CG("1", "/"), "line 1: header missing: first line has type 'cgroup'" },
	{ END(1), CG("9", "/c") END(1), "line 7: 'cgroup' line inside interval 1" },
	{ IV(1, 2), IV(1, 2) CG("9", "/c"), "line 5: 'cgroup' line inside interval 1" },
	{ IV(2, 0), IV(2, 0) CG("9", "/c"), "line 10: 'cgroup' line inside interval 2" },
};

TEST(record_cgroup_malformed)
{
	check_cases(BASE_CG, bad_cgroups, sizeof(bad_cgroups) / sizeof(bad_cgroups[0]), __LINE__);
}

/* Names that are fine: dots inside names, any other byte, the longest. */
TEST(record_cgroup_paths_ok)
{
	static const char *const good[] = { "/", "/a", "/...", "/.a/b.", "/a b/%FF/..c", "/-" };
	char *text, *path = malloc(REC_MAX_CGROUP_PATH + 2), msg[256];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (asprintf(&text, HDR "{\"type\":\"cgroup\",\"id\":5,\"path\":\"%s\"}\n" IV(1, 0)
			     END(1), good[i]) < 0)
			continue;
		CHECK_INT(read_mem(text, strlen(text), msg, sizeof(msg)), 1);
		CHECK_STR(msg, "OK ");
		free(text);
	}

	/* REC_MAX_CGROUP_PATH bytes, each escaped; one more is too many */
	path[0] = '/';
	for (int i = 1; i < REC_MAX_CGROUP_PATH; i++)
		path[i] = i % 64 ? 'x' : '/';
	path[REC_MAX_CGROUP_PATH] = '\0';
	for (int extra = 0; extra < 2; extra++) {
		size_t n = 0, cap = 4 * REC_MAX_CGROUP_PATH + 1024;

		text = malloc(cap);
		n += (size_t)snprintf(text, cap, HDR "{\"type\":\"cgroup\",\"id\":5,\"path\":\"");
		for (int i = 0; i < REC_MAX_CGROUP_PATH + extra; i++) {
			char c = i < REC_MAX_CGROUP_PATH ? path[i] : 'y';

			n += (size_t)snprintf(text + n, cap - n, "%%%02X", (unsigned char)c);
		}
		snprintf(text + n, cap - n, "\"}\n" IV(1, 0) END(1));
		if (extra)
			expect_msg(text, strlen(text),
				   "line 2: field 'path' must be a string of at most 4096 bytes",
				   __LINE__);
		else
			CHECK_INT(read_mem(text, strlen(text), msg, sizeof(msg)), 1);
		if (!extra)
			CHECK_STR(msg, "OK ");
		free(text);
	}
	free(path);
}

/* The table is bounded in distinct ids; renaming a known id is always fine. */
TEST(record_cgroup_reader_bound)
{
	size_t cap = 64 * (REC_MAX_CGROUPS + 16), n;
	char *text = malloc(cap), msg[256];
	size_t body;

	n = (size_t)snprintf(text, cap, "%s", HDR);
	for (int i = 1; i <= REC_MAX_CGROUPS; i++)
		n += (size_t)snprintf(text + n, cap - n,
				      "{\"type\":\"cgroup\",\"id\":%d,\"path\":\"/c%d\"}\n", i, i);
	body = n;
	n += (size_t)snprintf(text + n, cap - n, CG("5", "/renamed") CG("1", "/") IV(1, 0) END(1));
	CHECK_INT(read_mem(text, n, msg, sizeof(msg)), 1);
	CHECK_STR(msg, "OK ");

	n = body + (size_t)snprintf(text + body, cap - body, CG("5", "/renamed")
				    CG("65537", "/one-too-many") IV(1, 0) END(1));
	CHECK_INT(read_mem(text, n, msg, sizeof(msg)), 0);
	CHECK_STR(msg, "line 65539: more than 65536 cgroups");
	free(text);
}

static size_t count_str(const char *text, size_t len, const char *what)
{
	size_t n = 0;

	for (const char *p = text; (p = memmem(p, len - (size_t)(p - text), what, strlen(what)));
	     p++)
		n++;
	return n;
}

/* Known ids are written once per path; refusals leave the recorder going. */
TEST(record_cgroup_writer)
{
	struct sample s = { 0 }, got = { 0 };
	char path[256], err[256], msg[256], *long_path, *data;
	struct rec_header h, back;
	struct recorder *w;
	struct rec_reader *r;
	size_t len;

	make_header(&h, 2);
	make_sample(&s, 0, 2, 2);
	fixture_tmpfile(path, sizeof(path), "test-record", "", 0);
	w = recorder__open(path, &h, false, err, sizeof(err));
	CHECK(w != NULL);
	if (!w)
		return;
	CHECK_INT(recorder__write_cgroup(w, 3, "/a", err, sizeof(err)), 0);
	CHECK_INT(recorder__write_cgroup(w, 3, "/a", err, sizeof(err)), 0);	/* nothing */
	CHECK_INT(recorder__write_cgroup(w, 4, "/a", err, sizeof(err)), 0);	/* a new id */
	CHECK_INT(recorder__write(w, &s, err, sizeof(err)), 0);
	CHECK_INT(recorder__write_cgroup(w, 3, "/b", err, sizeof(err)), 0);	/* renamed */
	CHECK_INT(recorder__write_cgroup(w, 3, "/b", err, sizeof(err)), 0);
	CHECK_INT(recorder__write_cgroup(w, 3, "/a", err, sizeof(err)), 0);	/* and back */

	CHECK_INT(recorder__write_cgroup(w, 0, "/a", err, sizeof(err)), -1);
	CHECK_STR(err, "failed to record cgroup: id 0");
	CHECK_INT(recorder__write_cgroup(w, 5, "a/b", err, sizeof(err)), -1);
	CHECK_STR(err, "failed to record cgroup 5: path is not \"/\" and names without empty, "
		       "\".\" or \"..\" ones");
	CHECK_INT(recorder__write_cgroup(w, 5, "/a//b", err, sizeof(err)), -1);
	CHECK_INT(recorder__write_cgroup(w, 5, "/a/./b", err, sizeof(err)), -1);
	CHECK_INT(recorder__write_cgroup(w, 5, "/a/../b", err, sizeof(err)), -1);
	CHECK_INT(recorder__write_cgroup(w, 5, "/a/", err, sizeof(err)), -1);
	CHECK_INT(recorder__write_cgroup(w, 5, "", err, sizeof(err)), -1);
	long_path = malloc(REC_MAX_CGROUP_PATH + 2);
	memset(long_path, 'x', REC_MAX_CGROUP_PATH + 1);
	long_path[0] = '/';
	long_path[REC_MAX_CGROUP_PATH + 1] = '\0';
	CHECK_INT(recorder__write_cgroup(w, 5, long_path, err, sizeof(err)), -1);
	CHECK_STR(err, "failed to record cgroup 5: path longer than 4096 bytes");
	long_path[REC_MAX_CGROUP_PATH] = '\0';
	long_path[100] = '\n';		/* any byte but NUL and '/' in a name */
	CHECK_INT(recorder__write_cgroup(w, 5, long_path, err, sizeof(err)), 0);

	CHECK_INT(recorder__write(w, &s, err, sizeof(err)), 0);
	CHECK_INT(recorder__close(w, err, sizeof(err)), 0);

	data = read_all(path, &len);
	CHECK_INT(count_str(data, len, "\"type\":\"cgroup\""), 5);
	CHECK_INT(count_str(data, len, "{\"type\":\"cgroup\",\"id\":3,\"path\":\"/a\"}\n"), 2);
	CHECK_INT(count_str(data, len, "{\"type\":\"cgroup\",\"id\":3,\"path\":\"/b\"}\n"), 1);
	CHECK_INT(count_str(data, len, "xxx%0Axxx"), 1);
	free(data);

	r = rec_reader__open(path, &back, err, sizeof(err));
	CHECK(r != NULL);
	if (r) {
		CHECK_INT(rec_reader__next(r, &got, msg, sizeof(msg)), 1);
		CHECK(sample_eq(&s, &got));
		CHECK_STR(rec_reader__cgroup_path(r, 3), "/a");
		CHECK_STR(rec_reader__cgroup_path(r, 4), "/a");
		/* the newest owner of a path */
		CHECK_U64(rec_reader__cgroup_id(r, "/a"), 4);
		CHECK(rec_reader__cgroup_path(r, 5) == NULL);
		CHECK_INT(rec_reader__next(r, &got, msg, sizeof(msg)), 1);
		CHECK(sample_eq(&s, &got));
		CHECK_STR(rec_reader__cgroup_path(r, 3), "/a");
		CHECK_U64(rec_reader__cgroup_id(r, "/a"), 3);
		CHECK_STR(rec_reader__cgroup_path(r, 5), long_path);
		CHECK_INT(rec_reader__next(r, &got, msg, sizeof(msg)), 0);
		rec_reader__close(r);
	}
	free(long_path);
	unlink(path);
	sample__free(&s);
	sample__free(&got);
}

/* The writer refuses what the reader would: one id beyond the bound. */
TEST(record_cgroup_writer_bound)
{
	struct sample s = { 0 }, got = { 0 };
	char path[256], err[256], msg[256], name[32];
	struct rec_header h, back;
	struct recorder *w;
	struct rec_reader *r;
	int fails = 0;

	make_header(&h, 1);
	make_sample(&s, 0, 1, 1);
	fixture_tmpfile(path, sizeof(path), "test-record", "", 0);
	w = recorder__open(path, &h, true, err, sizeof(err));
	CHECK(w != NULL);
	if (!w)
		return;
	for (int i = 1; i <= REC_MAX_CGROUPS; i++) {
		snprintf(name, sizeof(name), "/c%d", i);
		fails += recorder__write_cgroup(w, (__u64)i, name, err, sizeof(err)) != 0;
	}
	CHECK_INT(fails, 0);
	CHECK_INT(recorder__write_cgroup(w, REC_MAX_CGROUPS + 1, "/more", err, sizeof(err)), -1);
	CHECK_STR(err, "failed to record cgroup 65537: more than 65536 cgroups");
	CHECK_INT(recorder__write_cgroup(w, 7, "/c7", err, sizeof(err)), 0);
	CHECK_INT(recorder__write_cgroup(w, 7, "/seven", err, sizeof(err)), 0);
	CHECK_INT(recorder__write(w, &s, err, sizeof(err)), 0);
	CHECK_INT(recorder__close(w, err, sizeof(err)), 0);

	r = rec_reader__open(path, &back, err, sizeof(err));
	CHECK(r != NULL);
	if (r) {
		CHECK_INT(rec_reader__next(r, &got, msg, sizeof(msg)), 1);
		CHECK_STR(rec_reader__cgroup_path(r, REC_MAX_CGROUPS), "/c65536");
		CHECK_STR(rec_reader__cgroup_path(r, 7), "/seven");
		CHECK(rec_reader__cgroup_path(r, REC_MAX_CGROUPS + 1) == NULL);
		CHECK_U64(rec_reader__cgroup_id(r, "/c7"), 0);
		CHECK_U64(rec_reader__cgroup_id(r, "/c4242"), 4242);
		CHECK_INT(rec_reader__next(r, &got, msg, sizeof(msg)), 0);
		CHECK_STR(msg, "");
		rec_reader__close(r);
	}
	unlink(path);
	sample__free(&s);
	sample__free(&got);
}

static int ancestors_of(const struct cgroup_tree *t, __u64 id, __u64 *out, int max)
{
	memset(out, 0xff, sizeof(*out) * 8);
	return t->ancestors(t->ctx, id, out, max);
}

/* Parents through the paths: nearest first, unnamed prefixes skipped. */
TEST(record_cgroup_tree)
{
	static const char text[] =
		HDR CG("1", "/") CG("2", "/a") CG("4", "/a/b/c") CG("5", "/a/b2")
		CG("6", "/x/y") CG("7", "/ab") CG("10", "/a/b/c/d") IV(1, 0) END(1)
		CG("2", "/z") CG("8", "/a") CG("3", "/a/b") IV(2, 0) END(2)
		CG("9", "/a") CG("1", "/gone") IV(3, 0) END(3);
	char msg[256];
	struct cgroup_tree t;
	struct rec_header h;
	struct sample s = { 0 };
	struct rec_reader *r = rec_reader__open_mem(text, strlen(text), &h, msg, sizeof(msg));
	__u64 up[8];

	CHECK(r != NULL);
	if (!r)
		return;
	rec_reader__cgroup_tree(r, &t);
	CHECK_INT(ancestors_of(&t, 4, up, 8), -1);	/* nothing read yet */
	CHECK_INT(rec_reader__next(r, &s, msg, sizeof(msg)), 1);
	CHECK_INT(ancestors_of(&t, 10, up, 8), 3);
	CHECK(up[0] == 4 && up[1] == 2 && up[2] == 1);
	CHECK_INT(ancestors_of(&t, 4, up, 8), 2);	/* "/a/b" has no id */
	CHECK(up[0] == 2 && up[1] == 1);
	CHECK_INT(ancestors_of(&t, 5, up, 8), 2);
	CHECK(up[0] == 2 && up[1] == 1);
	CHECK_INT(ancestors_of(&t, 6, up, 8), 1);
	CHECK_U64(up[0], 1);
	CHECK_INT(ancestors_of(&t, 7, up, 8), 1);	/* "/ab" is not below "/a" */
	CHECK_U64(up[0], 1);
	CHECK_INT(ancestors_of(&t, 2, up, 8), 1);
	CHECK_INT(ancestors_of(&t, 1, up, 8), 0);
	CHECK_INT(ancestors_of(&t, 99, up, 8), -1);
	CHECK_INT(ancestors_of(&t, 0, up, 8), -1);
	CHECK_INT(ancestors_of(&t, 10, up, 1), 1);	/* at most max */
	CHECK_U64(up[0], 4);
	CHECK_U64(up[1], UINT64_MAX);
	CHECK_INT(ancestors_of(&t, 10, up, 0), 0);
	CHECK_STR(t.path(t.ctx, 10), "/a/b/c/d");
	CHECK(t.path(t.ctx, 99) == NULL);

	/* renames move the tree: "/a" is 8 now, "/a/b" is named */
	CHECK_INT(rec_reader__next(r, &s, msg, sizeof(msg)), 1);
	CHECK_INT(ancestors_of(&t, 10, up, 8), 4);
	CHECK(up[0] == 4 && up[1] == 3 && up[2] == 8 && up[3] == 1);
	CHECK_INT(ancestors_of(&t, 2, up, 8), 1);
	CHECK_STR(t.path(t.ctx, 2), "/z");

	/* the newest of two ids with one path is the parent; no root any more */
	CHECK_INT(rec_reader__next(r, &s, msg, sizeof(msg)), 1);
	CHECK_INT(ancestors_of(&t, 4, up, 8), 2);
	CHECK(up[0] == 3 && up[1] == 9);
	CHECK_INT(ancestors_of(&t, 6, up, 8), 0);
	CHECK_INT(ancestors_of(&t, 1, up, 8), 0);
	CHECK_INT(rec_reader__next(r, &s, msg, sizeof(msg)), 0);
	rec_reader__close(r);
	sample__free(&s);
}

/* Many ids, renamed over and over: lookups stay right as the index is
 * rebuilt. */
TEST(record_cgroup_tree_churn)
{
	size_t cap = 80 * 30000, n;
	char *text = malloc(cap), msg[256];
	struct cgroup_tree t;
	struct rec_header h;
	struct sample s = { 0 };
	struct rec_reader *r;
	__u64 up[8];
	int bad = 0;

	n = (size_t)snprintf(text, cap, "%s" CG("1", "/"), HDR);
	/* ids 2..1001 are "/p<i>", then renamed "/q<i>" and back, ten times */
	for (int round = 0; round < 21; round++)
		for (int i = 2; i <= 1001; i++)
			n += (size_t)snprintf(text + n, cap - n,
					      "{\"type\":\"cgroup\",\"id\":%d,\"path\":\"/%c%d\"}"
					      "\n", i, round % 2 ? 'q' : 'p', i);
	/* children: 5000+i is "/p<i>/leaf" */
	for (int i = 2; i <= 1001; i++)
		n += (size_t)snprintf(text + n, cap - n,
				      "{\"type\":\"cgroup\",\"id\":%d,\"path\":\"/p%d/leaf\"}\n",
				      5000 + i, i);
	snprintf(text + n, cap - n, IV(1, 0) END(1));
	r = rec_reader__open_mem(text, strlen(text), &h, msg, sizeof(msg));
	CHECK(r != NULL);
	if (r) {
		rec_reader__cgroup_tree(r, &t);
		CHECK_INT(rec_reader__next(r, &s, msg, sizeof(msg)), 1);
		for (int i = 2; i <= 1001; i++) {
			char want[32];

			snprintf(want, sizeof(want), "/p%d", i);
			bad += rec_reader__cgroup_id(r, want) != (__u64)i;
			snprintf(want, sizeof(want), "/q%d", i);
			bad += rec_reader__cgroup_id(r, want) != 0;
			bad += ancestors_of(&t, 5000 + (__u64)i, up, 8) != 2 || up[0] != (__u64)i ||
			       up[1] != 1;
		}
		CHECK_INT(bad, 0);
		rec_reader__close(r);
	}
	free(text);
	sample__free(&s);
}

/* Each task's cgroup and its ancestors, the root first, once. */
TEST(record_write_cgroups)
{
	static const __u64 ids[] = { 3, 3, 0, 4, 5, 6, 99, 3 };
	struct sample s = { 0 };
	char path[256], err[256], *data;
	struct rec_header h;
	struct recorder *w;
	size_t len;

	make_header(&h, 1);
	make_sample(&s, 0, sizeof(ids) / sizeof(ids[0]), 1);
	for (size_t i = 0; i < s.nr; i++)
		s.tasks[i].cgroup_id = ids[i];
	fixture_tmpfile(path, sizeof(path), "test-record", "", 0);
	w = recorder__open(path, &h, false, err, sizeof(err));
	CHECK(w != NULL);
	if (!w)
		return;
	CHECK_INT(recorder__write_cgroups(w, &s, &fixture_cgroup_tree, err, sizeof(err)), 1);
	CHECK_STR(err, "failed to record cgroup 5: path is not \"/\" and names without empty, "
		       "\".\" or \"..\" ones");
	CHECK_INT(recorder__write(w, &s, err, sizeof(err)), 0);
	/* the next interval: nothing new */
	s.tasks[4].cgroup_id = 4;
	CHECK_INT(recorder__write_cgroups(w, &s, &fixture_cgroup_tree, err, sizeof(err)), 0);
	CHECK_INT(recorder__write(w, &s, err, sizeof(err)), 0);
	CHECK_INT(recorder__close(w, err, sizeof(err)), 0);

	data = read_all(path, &len);
	data = realloc(data, len + 1);
	data[len] = '\0';
	CHECK(strstr(data, "\n" CG("1", "/") CG("2", "/system.slice")
			   CG("3", "/system.slice/nginx.service") CG("4", "/user.slice")
			   "{\"type\":\"interval\",\"seq\":1,") != NULL);
	CHECK_INT(count_str(data, len, "\"type\":\"cgroup\""), 4);
	free(data);
	unlink(path);
	sample__free(&s);
}

/* A recording cut anywhere: cgroup lines up to the cut are read, never a
 * partial interval. */
TEST(record_cgroup_truncated_every_offset)
{
	static const char *const paths[] = { NULL, "/", "/a", "/a/b", "/c" };
	struct sample want[3] = { 0 };
	char path[256], err[256], *data;
	size_t len, ends[32], cg_end[5] = { 0 }, nr_ends = 0, header_end;
	char kind[32];		/* of each line after the header: 'c'group, 'e'nd, other */
	struct rec_header h;
	struct recorder *w;

	make_header(&h, 2);
	for (unsigned int k = 0; k < 3; k++)
		make_sample(&want[k], 20 + k, k == 1 ? 0 : 2, 2);
	fixture_tmpfile(path, sizeof(path), "test-record", "", 0);
	w = recorder__open(path, &h, false, err, sizeof(err));
	CHECK(w != NULL);
	if (!w)
		return;
	CHECK_INT(recorder__write_cgroup(w, 1, paths[1], err, sizeof(err)), 0);
	CHECK_INT(recorder__write_cgroup(w, 2, paths[2], err, sizeof(err)), 0);
	CHECK_INT(recorder__write(w, &want[0], err, sizeof(err)), 0);
	CHECK_INT(recorder__write_cgroup(w, 3, paths[3], err, sizeof(err)), 0);
	CHECK_INT(recorder__write(w, &want[1], err, sizeof(err)), 0);
	CHECK_INT(recorder__write(w, &want[2], err, sizeof(err)), 0);
	CHECK_INT(recorder__write_cgroup(w, 4, paths[4], err, sizeof(err)), 0);
	CHECK_INT(recorder__close(w, err, sizeof(err)), 0);
	data = read_all(path, &len);
	unlink(path);

	/* where each line ends, and which of them may end a file cleanly */
	header_end = (size_t)((const char *)memchr(data, '\n', len) - data) + 1;
	for (size_t start = header_end; start < len && nr_ends < 32;) {
		const char *nl = memchr(data + start, '\n', len - start);
		size_t end = (size_t)(nl - data) + 1;

		kind[nr_ends] = data[start + 9];
		if (kind[nr_ends] == 'c')
			cg_end[data[start + 22] - '0'] = end;
		ends[nr_ends++] = end;
		start = end;
	}
	CHECK_INT(nr_ends, 2 + 4 + 1 + 2 + 4 + 1);
	CHECK(!memcmp(kind, "ccittecieittec", 14));
	for (size_t off = header_end; off <= len; off++) {
		char msg[256] = "";
		struct rec_reader *r = rec_reader__open_mem(data, off, &h, err, sizeof(err));
		int ret, got, complete = 0;
		bool clean = off == header_end;

		CHECK(r != NULL);
		if (!r)
			continue;
		for (size_t i = 0; i < nr_ends; i++) {
			complete += ends[i] <= off && kind[i] == 'e';
			clean |= ends[i] == off && (kind[i] == 'e' || kind[i] == 'c');
		}
		got = read_compare(r, want, 3, &ret, msg, sizeof(msg));
		CHECK_INT(ret, 0);
		CHECK_INT(got, complete);
		if (clean)
			CHECK_STR(msg, "");
		else
			CHECK(strstr(msg, "last interval incomplete, ignored") != NULL);
		for (int id = 1; id <= 4; id++) {
			const char *p = rec_reader__cgroup_path(r, (__u64)id);

			if (cg_end[id] <= off)
				CHECK(p && !strcmp(p, paths[id]));
			else
				CHECK(p == NULL);
		}
		rec_reader__close(r);
	}
	free(data);
	free_samples(want, 3);
}

/* Version 2: every task line names its owner, consistently. */
TEST(record_malformed_owners)
{
	static const struct bad_case cases[] = {
		{ "\"uid\":33,", "", "line 3: field 'uid' is missing" },
		{ "\"uid\":33", "\"uid\":-1", "line 3: field 'uid' must be an integer in 0..4294967295" },
		{ "\"uid\":33", "\"uid\":\"33\"", "line 3: field 'uid' must be an integer" },
		{ ",\"user\":\"www\"", "", "line 3: field 'user' is missing" },
		{ "\"uid\":33", "\"uid\":4294967295",
		  "line 3: field 'user' must be \"\" exactly when 'uid' is 4294967295" },
		{ "\"user\":\"www\"", "\"user\":\"\"",
		  "line 3: field 'user' must be \"\" exactly when 'uid' is 4294967295" },
		{ "\"user\":\"www\"", "\"user\":\"0123456789abcdef0123456789abcdefX\"",
		  "line 3: field 'user' " },
	};
	char *v2 = subst(BASE, "\"version\":1", "\"version\":2");
	char *one = subst(v2, "\"exited\":false,", "\"exited\":false,\"uid\":33,\"user\":\"www\",");
	char *base = subst(one, "\"exited\":false,\"cpu", "\"exited\":false,\"uid\":4294967295,"
			   "\"user\":\"\",\"cpu");

	check_cases(base, cases, sizeof(cases) / sizeof(cases[0]), __LINE__);
	free(base);
	free(one);
	free(v2);
}
