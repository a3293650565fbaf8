// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The exporter's series store: counters accumulated over handmade
 * intervals, series dropped and ranked, bad input refused.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "pmu/tdconfig.h"
#include "exporter/store.h"
#include "exporter_fixture.h"
#include "test.h"

TEST(prom_counters_accumulate_per_cgroup)
{
	struct row r1[] = { cg_row("/", 3000000000ULL, 900, 4),
			    cg_row(NGINX, 1000000000ULL, 300, 2) };
	struct row r2[] = { cg_row("/", 500000000ULL, 100, 1) };
	struct prom_store *s;
	char *t;

	s = store_new(BY_CGROUP, 0, 0);
	if (!s)
		return;
	CHECK_INT(add_rows(s, r1, 2), 0);
	/* multiplexed: counted half the time, so scaled by 2 */
	r2[0].ev[0].running = 500;
	CHECK_INT(add_rows(s, r2, 1), 0);
	CHECK_INT(prom_store__nr_series(s), 2);
	t = render(s, false);
	CHECK(t);
	if (t) {
		CHECK_NEAR(value_of(t, "tdtop_cpu_seconds_total{cgroup=\"/\"} "), 3.5, 1e-12);
		/* no row in the second interval: the cgroup's counter stays */
		CHECK_NEAR(value_of(t, "tdtop_cpu_seconds_total{cgroup=\"" NGINX
				       "\",systemd_unit=\"nginx.service\"} "), 1.0, 1e-12);
		CHECK_NEAR(value_of(t, "tdtop_cycles_total{cgroup=\"/\"} "), 1100, 1e-9);
		CHECK_NEAR(value_of(t, "tdtop_events_total{cgroup=\"/\",event=\"page-faults\"} "),
			   5, 1e-9);
		CHECK_NEAR(value_of(t, "tdtop_intervals_total "), 2, 0);
		/* the TopDown input is not exported, and nothing was TopDown */
		CHECK(!strstr(t, "topdown-retiring"));
		CHECK(!strstr(t, "tdtop_slots_total"));
		CHECK(!strstr(t, "tdtop_instructions_total"));
	}
	free(t);
	prom_store__free(s);
}

TEST(prom_counters_are_monotonic)
{
	struct prom_store *s;
	double last_cpu = 0, last_td = 0, last_ev = 0;

	s = store_new(BY_CGROUP, 0, 0);
	if (!s)
		return;
	for (int i = 0; i < 20; i++) {
		struct row r = cg_row("/a", (__u64)(i % 3) * 1000000, i % 2 ? 0 : 50, i);
		struct interval iv;
		double cpu, td, ev;
		char *t;

		/* a negative fraction (rounding in a formula) must not decrease a counter */
		td_level1(&r.td, 2000 + i, i % 4 ? 0.25 : -0.01, 0.25, 0.25, 0.25);
		if (i == 7)
			r.ev[1] = (struct delta){ 0, 1000, 0 };	/* never ran: NAN, skipped */
		iv_init(&iv, &r, 1);
		iv.topdown = true;
		CHECK_INT(prom_store__add(s, &iv), 0);
		t = render(s, i % 2);
		if (!t) {
			CHECK(t);
			break;
		}
		cpu = value_of(t, "tdtop_cpu_seconds_total{cgroup=\"/a\"} ");
		td = value_of(t, "tdtop_topdown_slots_total{cgroup=\"/a\",category=\"retiring\"} ");
		ev = value_of(t, "tdtop_events_total{cgroup=\"/a\",event=\"page-faults\"} ");
		CHECK(cpu >= last_cpu);
		/* the category shows once it had a valid value: from the second interval */
		if (isnan(td))
			CHECK_INT(i, 0);
		else
			CHECK(td >= last_td);
		CHECK(ev >= last_ev);
		last_cpu = cpu;
		last_td = isnan(td) ? last_td : td;
		last_ev = ev;
		free(t);
	}
	/* 0.25 of every interval's slots but the negative ones (i % 4 == 0) */
	{
		double want = 0;

		for (int i = 0; i < 20; i++)
			if (i % 4)
				want += 0.25 * (2000 + i);
		CHECK_NEAR(last_td, want, 1e-6);
		CHECK_NEAR(last_ev, 190 - 7, 1e-9);
	}
	prom_store__free(s);
}

TEST(prom_exited_process_dropped_after_report)
{
	struct row r1[] = { proc_row(100, "busy", 2000000000ULL, false),
			    proc_row(200, "short", 1000000000ULL, true) };
	struct row r2[] = { proc_row(100, "busy", 1000000000ULL, false) };
	struct row r3[] = { proc_row(200, "again", 1000000, false) };
	struct prom_store *s;
	char *t;

	s = store_new(BY_PROCESS, 0, 0);
	if (!s)
		return;
	CHECK_INT(add_rows(s, r1, 2), 0);
	t = render(s, false);
	/* the exit is reported with the final values */
	CHECK_NEAR(value_of(t, "tdtop_cpu_seconds_total{pid=\"200\",comm=\"short\"} "), 1, 0);
	free(t);
	CHECK_INT(add_rows(s, r2, 1), 0);
	CHECK_INT(prom_store__nr_series(s), 1);
	t = render(s, false);
	CHECK(t && !strstr(t, "pid=\"200\""));
	CHECK_NEAR(value_of(t, "tdtop_cpu_seconds_total{pid=\"100\",comm=\"busy\"} "), 3, 0);
	free(t);
	/* a new process with a recycled PID starts from zero */
	CHECK_INT(add_rows(s, r3, 1), 0);
	t = render(s, false);
	CHECK_NEAR(value_of(t, "tdtop_cpu_seconds_total{pid=\"200\",comm=\"again\"} "), 0.001,
		   1e-12);
	free(t);
	prom_store__free(s);
}

TEST(prom_series_ttl_and_renamed_process)
{
	struct row a = cg_row("/gone", 1000000, 1, 1), b = cg_row("/stays", 1000000, 1, 1);
	struct row both[] = { a, b };
	struct prom_store *s;
	char *t;

	s = store_new(BY_CGROUP, 0, 2.0);
	if (!s)
		return;
	CHECK_INT(add_rows(s, both, 2), 0);
	/* 0.5 s intervals: /gone idle for 2 s is kept, for 2.5 s forgotten */
	for (int i = 0; i < 4; i++) {
		CHECK_INT(add_rows(s, &b, 1), 0);
	}
	CHECK_INT(prom_store__nr_series(s), 2);
	CHECK_INT(add_rows(s, &b, 1), 0);
	CHECK_INT(prom_store__nr_series(s), 1);
	t = render(s, false);
	CHECK(t && !strstr(t, "/gone") && strstr(t, "/stays"));
	CHECK_NEAR(value_of(t, "tdtop_series "), 1, 0);
	free(t);
	prom_store__free(s);

	/* exec changes the name: same series, new label */
	{
		struct row p1 = proc_row(5, "sh", 1000000, false), p2 = proc_row(5, "make", 1000000,
										   false);

		s = store_new(BY_PROCESS, 0, 0);
		if (!s)
			return;
		add_rows(s, &p1, 1);
		add_rows(s, &p2, 1);
		t = render(s, false);
		CHECK(t && !strstr(t, "comm=\"sh\""));
		CHECK_NEAR(value_of(t, "tdtop_cpu_seconds_total{pid=\"5\",comm=\"make\"} "), 0.002,
			   1e-12);
		free(t);
		prom_store__free(s);
	}
}

TEST(prom_top_n_by_recent_cpu)
{
	struct row rows[5];
	struct interval iv;
	struct prom_store *s;
	char *t;

	s = store_new(BY_PROCESS, 2, 0);
	if (!s)
		return;
	/* pid 1 was busiest long ago, 3 and 4 are busy now */
	rows[0] = proc_row(1, "old", 100000000000ULL, false);
	iv_init(&iv, rows, 1);
	iv.interval_s = 600;
	CHECK_INT(prom_store__add(s, &iv), 0);
	for (int i = 0; i < 4; i++)
		rows[i] = proc_row(i + 2, "p", (__u64)(i + 1) * 1000000000ULL, false);
	iv_init(&iv, rows, 4);
	iv.interval_s = 600;
	CHECK_INT(prom_store__add(s, &iv), 0);
	CHECK_INT(prom_store__nr_series(s), 5);
	t = render(s, false);
	CHECK(t && strstr(t, "pid=\"5\"") && strstr(t, "pid=\"4\""));
	CHECK(t && !strstr(t, "pid=\"1\"") && !strstr(t, "pid=\"2\"") && !strstr(t, "pid=\"3\""));
	/* hidden series still count: pid 1 keeps its total for when it shows again */
	CHECK_NEAR(value_of(t, "tdtop_series "), 5, 0);
	free(t);
	prom_store__free(s);
}

/* Enough series to grow the index several times, and drops that refill it. */
TEST(prom_store_finds_series_across_growth_and_drops)
{
	enum { N = 1000 };
	static struct row rows[2 * N];
	struct prom_store *s;
	char *t;

	s = store_new(BY_PROCESS, 0, 0);
	if (!s)
		return;
	for (int i = 0; i < N; i++)
		rows[i] = proc_row(i + 1, "p", 1000000, !(i % 2));
	CHECK_INT(add_rows(s, rows, N), 0);
	CHECK_INT(prom_store__nr_series(s), N);
	/* the odd PIDs exited; the even ones come again, beside N new ones */
	for (int i = 0; i < N / 2; i++)
		rows[i] = proc_row(2 * (i + 1), "p", 1000000, false);
	for (int i = 0; i < N; i++)
		rows[N / 2 + i] = proc_row(N + 1 + i, "q", 1000000, false);
	CHECK_INT(add_rows(s, rows, N / 2 + N), 0);
	CHECK_INT(prom_store__nr_series(s), N / 2 + N);
	t = render(s, false);
	CHECK(t && !strstr(t, "pid=\"1\","));
	CHECK_NEAR(value_of(t, "tdtop_cpu_seconds_total{pid=\"2\",comm=\"p\"} "), 0.002, 1e-12);
	CHECK_NEAR(value_of(t, "tdtop_cpu_seconds_total{pid=\"1000\",comm=\"p\"} "), 0.002,
		   1e-12);
	CHECK_NEAR(value_of(t, "tdtop_cpu_seconds_total{pid=\"2000\",comm=\"q\"} "), 0.001,
		   1e-12);
	free(t);
	prom_store__free(s);
}

TEST(prom_store_rejects_bad_input)
{
	struct row r = cg_row("/", 1, 1, 1);
	static const char *const other[] = { "cycles", "instructions", "topdown-retiring" };
	struct interval iv;
	struct prom_opts o;
	struct prom_store *s;

	opts_init(&o, BY_THREAD);
	CHECK(!prom_store__new(&o));
	s = store_new(BY_CGROUP, 0, 0);
	if (!s)
		return;
	iv_init(&iv, &r, 1);
	CHECK_INT(prom_store__add(s, &iv), 0);
	iv.event_names = other;
	CHECK_INT(prom_store__add(s, &iv), -EINVAL);
	iv.event_names = ev_names;
	iv.nr_events = 2;
	CHECK_INT(prom_store__add(s, &iv), -EINVAL);
	/* rows of the other kind are ignored */
	{
		struct row p = proc_row(9, "x", 1, false);

		CHECK_INT(add_rows(s, &p, 1), 0);
		CHECK_INT(prom_store__nr_series(s), 1);
	}
	prom_store__free(s);
	prom_store__free(NULL);
}

TEST(prom_kinds_from_td_roles_and_names)
{
	int roles[] = { TD_SLOTS, TD_RETIRING, TD_CYCLES, TD_INSTRUCTIONS, TD_NO_ROLE,
			TD_NO_ROLE, TD_NO_ROLE, TD_NO_ROLE, TD_NO_ROLE };
	static const char *const names[] = { "slots", "topdown-retiring", "cycles",
					      "instructions", "page-faults", "cpu-clock",
					      "task-clock", "cpu-clock:u", "cpu-clocks" };
	enum prom_event_kind k[9];

	prom_event_kinds(roles, names, 9, k);
	CHECK_INT(k[0], PROM_EV_SKIP);
	CHECK_INT(k[1], PROM_EV_SKIP);
	CHECK_INT(k[2], PROM_EV_CYCLES);
	CHECK_INT(k[3], PROM_EV_INSTRUCTIONS);
	CHECK_INT(k[4], PROM_EV_GENERIC);
	/* the clocks count nanoseconds: times, kept apart from the counts */
	CHECK_INT(k[5], PROM_EV_TIME);
	CHECK_INT(k[6], PROM_EV_TIME);
	/* a clock with modifiers still counts all time (the kernel ignores them) */
	CHECK_INT(k[7], PROM_EV_TIME);
	CHECK_INT(k[8], PROM_EV_GENERIC);
}

/* cpu-clock in seconds of its own metric; tdtop_events_total holds counts only. */
TEST(prom_clock_events_are_seconds)
{
	static const char *const names[] = { "cpu-clock", "page-faults", "task-clock" };
	struct row r = cg_row("/", 1000000000ULL, 1500000000ULL, 7);
	struct interval iv;
	struct prom_opts o;
	struct prom_store *s;
	char *t;

	opts_init(&o, BY_CGROUP);
	o.event_kind[0] = PROM_EV_TIME;
	o.event_kind[2] = PROM_EV_TIME;
	s = prom_store__new(&o);
	if (!s) {
		CHECK(s);
		return;
	}
	r.ev[2] = (struct delta){ 250000000ULL, 1000, 1000 };
	iv_init(&iv, &r, 1);
	iv.event_names = names;
	CHECK_INT(prom_store__add(s, &iv), 0);
	t = render(s, false);
	CHECK_NEAR(value_of(t, "tdtop_event_seconds_total{cgroup=\"/\",event=\"cpu-clock\"} "),
		   1.5, 1e-12);
	CHECK_NEAR(value_of(t, "tdtop_event_seconds_total{cgroup=\"/\",event=\"task-clock\"} "),
		   0.25, 1e-12);
	CHECK_NEAR(value_of(t, "tdtop_events_total{cgroup=\"/\",event=\"page-faults\"} "), 7, 0);
	CHECK(t && !strstr(t, "tdtop_events_total{cgroup=\"/\",event=\"cpu-clock\"}"));
	free(t);
	t = render(s, true);
	CHECK(t && strstr(t, "# TYPE tdtop_event_seconds counter\n"
			  "# UNIT tdtop_event_seconds seconds\n"));
	free(t);
	prom_store__free(s);
}

/* --by comm: processes of one name in one series, which their exits do not end. */
TEST(prom_series_per_command_name)
{
	struct row r1[] = { proc_row(10, "nginx", 1000000000ULL, false),
			    proc_row(11, "nginx", 500000000ULL, true),
			    proc_row(12, "sshd", 250000000ULL, false) };
	struct row r2[] = { proc_row(13, "nginx", 250000000ULL, true) };
	struct prom_opts o;
	struct prom_store *s;
	char *t;

	opts_init(&o, BY_PROCESS);
	o.by_comm = true;
	s = prom_store__new(&o);
	if (!s) {
		CHECK(s);
		return;
	}
	CHECK_INT(add_rows(s, r1, 3), 0);
	CHECK_INT(prom_store__nr_series(s), 2);
	CHECK_INT(add_rows(s, r2, 1), 0);
	CHECK_INT(add_rows(s, r2, 0), 0);
	CHECK_INT(prom_store__nr_series(s), 2);
	t = render(s, false);
	CHECK_NEAR(value_of(t, "tdtop_cpu_seconds_total{comm=\"nginx\"} "), 1.75, 1e-12);
	CHECK_NEAR(value_of(t, "tdtop_cpu_seconds_total{comm=\"sshd\"} "), 0.25, 1e-12);
	CHECK_NEAR(value_of(t, "tdtop_events_total{comm=\"nginx\",event=\"page-faults\"} "), 30,
		   0);
	CHECK(t && !strstr(t, "pid="));
	free(t);
	prom_store__free(s);
}

/* What cannot be exported is said, with the reason, once it is known. */
TEST(prom_unavailable_metrics)
{
	struct row r = cg_row("/", 1000000, 1, 1);
	struct interval iv;
	struct prom_store *s;
	char *t;

	s = store_new(BY_CGROUP, 0, 0);
	if (!s)
		return;
	CHECK_INT(prom_store__unavailable(s), 0);
	iv_init(&iv, &r, 1);
	CHECK_INT(prom_store__add(s, &iv), 0);
	/* the first interval turns the BPF statistics on: none yet is no verdict */
	CHECK_INT(prom_store__unavailable(s), 0);
	CHECK_INT(prom_store__add(s, &iv), 0);
	CHECK_INT(prom_store__unavailable(s), 1u << PROM_NA_BPF_STATS);
	t = render(s, false);
	CHECK(t && strstr(t, "# TYPE tdtop_metric_unavailable gauge\n"
			  "tdtop_metric_unavailable{metric=\"tdtop_bpf_seconds_per_switch\","
			  "reason=\"bpf_stats_refused\"} 1\n"));
	free(t);
	iv.bpf_ns_per_switch = 120;
	CHECK_INT(prom_store__add(s, &iv), 0);
	CHECK_INT(prom_store__unavailable(s), 0);
	t = render(s, true);
	CHECK(t && !strstr(t, "tdtop_metric_unavailable"));
	free(t);
	/* without a TopDown method, the slots metrics */
	iv.method = "none";
	CHECK_INT(prom_store__add(s, &iv), 0);
	CHECK_INT(prom_store__unavailable(s), 1u << PROM_NA_SLOTS | 1u << PROM_NA_TOPDOWN);
	t = render(s, false);
	CHECK(t && strstr(t, "tdtop_metric_unavailable{metric=\"tdtop_topdown_slots_total\","
			  "reason=\"no_topdown\"} 1\n"));
	free(t);
	prom_store__free(s);
}
