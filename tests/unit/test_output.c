// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Batch outputs: a handmade interval in text, JSON Lines and CSV compared
 * with exact expected text; the number and string helpers behind them;
 * write failures (full device, closed pipe) reported as -1.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "util/format.h"
#include "output/output.h"
#include "fixture.h"
#include "test.h"

/* ---- helpers ---- */

static const char *compact(double v)
{
	static char buf[FMT_COMPACT_LEN];

	return fmt_compact(buf, sizeof(buf), v);
}

TEST(fmt_compact_units)
{
	CHECK_STR(compact(0), "0");
	CHECK_STR(compact(7), "7");
	CHECK_STR(compact(1234), "1234");
	CHECK_STR(compact(9999), "9999");
	CHECK_STR(compact(9999.4), "9999");
	CHECK_STR(compact(9999.5), "10.0K");
	CHECK_STR(compact(12345), "12.3K");
	CHECK_STR(compact(123456), "123K");
	CHECK_STR(compact(999499), "999K");
	/* would round to "1000K": the next unit instead */
	CHECK_STR(compact(999500), "1.00M");
	CHECK_STR(compact(4560000), "4.56M");
	CHECK_STR(compact(7.89e9), "7.89G");
	CHECK_STR(compact(1.5e12), "1.50T");
	CHECK_STR(compact(2.5e15), "2.50P");
	CHECK_STR(compact(18446744073709551615.0), "18.4E");
	CHECK_STR(compact(NAN), "-");
	CHECK_STR(compact(INFINITY), "-");
	CHECK_STR(compact(-1), "-");
	/* beyond the last suffix: still bounded, never a crash */
	CHECK(strlen(compact(1e30)) < FMT_COMPACT_LEN);
}

TEST(fmt_fixed_cells)
{
	char buf[16];

	CHECK_STR(fmt_fixed(buf, sizeof(buf), 12.345, 1), "12.3");
	CHECK_STR(fmt_fixed(buf, sizeof(buf), 1.234, 2), "1.23");
	CHECK_STR(fmt_fixed(buf, sizeof(buf), 1234.4, 0), "1234");
	CHECK_STR(fmt_fixed(buf, sizeof(buf), NAN, 1), "-");
	CHECK_STR(fmt_fixed(buf, sizeof(buf), -INFINITY, 2), "-");
	CHECK_STR(fmt_fixed(buf, 3, 12.345, 1), "12");
}

static const char *dbl(double v)
{
	static char buf[FMT_DOUBLE_LEN];

	fmt_double(buf, sizeof(buf), v);
	return buf;
}

TEST(fmt_double_round_trips)
{
	CHECK_STR(dbl(75.0), "75");
	CHECK_STR(dbl(12.5), "12.5");
	CHECK_STR(dbl(0.1), "0.1");
	CHECK_STR(dbl(1e20), "100000000000000000000");
	CHECK_STR(dbl(NAN), "");
	CHECK_STR(dbl(-INFINITY), "");
	CHECK(strtod(dbl(1700000000.123456789), NULL) == 1700000000.123456789);
	CHECK(strtod(dbl(2.0 / 3), NULL) == 2.0 / 3);
	CHECK(strtod(dbl(-4.9e-324), NULL) == -4.9e-324);
	{
		char small[4];

		/* too small a buffer gives "", not a cut number */
		CHECK_INT(fmt_double(small, sizeof(small), 12345), 0);
		CHECK_STR(small, "");
	}
}

TEST(fmt_round_decimals)
{
	/* 0.1 - 0.05 is 0.05000000000000000277: written as 0.05 once rounded */
	CHECK_STR(dbl(fmt_round(0.1 - 0.05, 4)), "0.05");
	CHECK_STR(dbl(fmt_round(0.050000000000000044, 4)), "0.05");
	CHECK_STR(dbl(fmt_round(2.0 / 3, 4)), "0.6667");
	CHECK_STR(dbl(fmt_round(12.345678, 2)), "12.35");
	CHECK_STR(dbl(fmt_round(1700000000.1234567, 6)), "1700000000.123457");
	CHECK_STR(dbl(fmt_round(-0.00004, 4)), "0");
	CHECK_STR(dbl(fmt_round(4000.4, 0)), "4000");
	CHECK_STR(dbl(fmt_round(1e300, 4)), dbl(1e300));
	CHECK(isnan(fmt_round(NAN, 4)));
	CHECK(fmt_round(INFINITY, 2) == INFINITY);
}

TEST(fmt_real_keeps_reals_real)
{
	char buf[FMT_DOUBLE_LEN], small[4];

	CHECK_INT(fmt_real(buf, sizeof(buf), 75.0), 4);
	CHECK_STR(buf, "75.0");
	CHECK_INT(fmt_real(buf, sizeof(buf), 12.5), 4);
	CHECK_STR(buf, "12.5");
	CHECK_INT(fmt_real(buf, sizeof(buf), NAN), 0);
	CHECK_STR(buf, "");
	/* the ".0" must fit too: nothing rather than an integer */
	CHECK_INT(fmt_real(small, sizeof(small), 1.0), 3);
	CHECK_STR(small, "1.0");
	CHECK_INT(fmt_real(small, sizeof(small), 10.0), 0);
	CHECK_STR(small, "");
}

static const char *scaled(__u64 count, __u64 enabled, __u64 running)
{
	static char buf[FMT_DOUBLE_LEN];
	struct delta d = { count, enabled, running };

	delta__format(&d, buf, sizeof(buf));
	return buf;
}

TEST(delta_format_counts)
{
	CHECK_STR(scaled(0, 0, 0), "0");
	CHECK_STR(scaled(1000, 50, 50), "1000");
	/* unscaled counts above 2^53 keep every digit */
	CHECK_STR(scaled(18446744073709551615ull, 7, 7), "18446744073709551615");
	CHECK_STR(scaled(1000, 400, 100), "4000");
	CHECK_STR(scaled(10, 3, 2), "15");
	CHECK_STR(scaled(1, 3, 2), "2");		/* 1.5 rounds away from zero */
	CHECK_STR(scaled(0, 5, 0), "");			/* never ran: NaN */
}

TEST(interval_busy_pct_and_row_type)
{
	struct interval iv = { .interval_s = 2, .ncpus = 4, .total_cpu_ns = 8000000000ull,
			       .idle_cpu_ns = 6000000000ull };
	struct row r = { .kind = ROW_THREAD };

	CHECK(interval__busy_pct(&iv) == 25.0);
	/* more idle than total is no load, not a negative one */
	iv.idle_cpu_ns = 9000000000ull;
	CHECK(interval__busy_pct(&iv) == 0.0);
	iv.ncpus = 0;
	CHECK(isnan(interval__busy_pct(&iv)));
	iv.ncpus = 4;
	iv.interval_s = 0;
	CHECK(isnan(interval__busy_pct(&iv)));
	CHECK_STR(row__type(&r), "thread");
	r.kind = ROW_CGROUP;
	CHECK_STR(row__type(&r), "cgroup");
	r.kind = ROW_PROCESS;
	CHECK_STR(row__type(&r), "process");
}

TEST(utf8_seq_len_cases)
{
#define LEN(lit) utf8_seq_len((const unsigned char *)(lit), sizeof(lit) - 1)
	CHECK_INT(LEN("A"), 1);
	CHECK_INT(LEN("\x7f"), 1);
	CHECK_INT(LEN("\xc2\x80"), 2);
	CHECK_INT(LEN("\xe2\x82\xac"), 3);
	CHECK_INT(LEN("\xf4\x8f\xbf\xbf"), 4);
	CHECK_INT(LEN("\x80"), -1);
	CHECK_INT(LEN("\xc1\xbf"), -1);
	CHECK_INT(LEN("\xe0\x9f\x80"), -1);
	CHECK_INT(LEN("\xed\xa0\x80"), -1);
	CHECK_INT(LEN("\xf0\x8f\x80\x80"), -1);
	CHECK_INT(LEN("\xf4\x90\x80\x80"), -1);
	CHECK_INT(LEN("\xf8\x88\x80\x80\x80"), -1);
	CHECK_INT(LEN("\xe2\x82"), -2);
	CHECK_INT(LEN("\xe2\x82x"), -2);
	CHECK_INT(LEN("\xf0\x9d\x84"), -3);
	CHECK_INT(LEN("\xc3"), -1);
#undef LEN
}

TEST(fmt_comm_ascii_sanitises)
{
	char out[TASK_COMM_LEN];
	const char full[TASK_COMM_LEN] = "0123456789abcdef";	/* no NUL */

	fmt_comm_ascii(out, sizeof(out), "a\x01\x1b[2J\xc3\xa9\x7fz", 16);
	CHECK_STR(out, "a??[2J???z");
	fmt_comm_ascii(out, sizeof(out), full, sizeof(full));
	CHECK_STR(out, "0123456789abcde");
	fmt_comm_ascii(out, 4, "kworker", 7);
	CHECK_STR(out, "kwo");
}

TEST(output_format_parse_names)
{
	enum output_format fmt = OUTPUT_TEXT;

	CHECK_INT(output_format_parse("json", &fmt), 0);
	CHECK_INT(fmt, OUTPUT_JSON);
	CHECK_INT(output_format_parse("csv", &fmt), 0);
	CHECK_INT(fmt, OUTPUT_CSV);
	CHECK_INT(output_format_parse("text", &fmt), 0);
	CHECK_INT(fmt, OUTPUT_TEXT);
	CHECK_INT(output_format_parse("JSON", &fmt), -1);
	CHECK_INT(output_format_parse("", &fmt), -1);
	CHECK_INT(output_format_parse("jsonl", &fmt), -1);
	CHECK_INT(output_format_parse(NULL, &fmt), -1);
	CHECK_INT(fmt, OUTPUT_TEXT);
}

/* ---- a handmade interval ---- */

static const char *const names2[] = { "cpu-clock", "instructions" };

static void set_delta(struct delta *d, __u64 count, __u64 enabled, __u64 running)
{
	d->count = count;
	d->enabled = enabled;
	d->running = running;
}

/*
 * Two CPUs over 2 s: cpu-clock counted all the time, instructions 25% of
 * it (scaled x4); one process exited, one event never ran for it.
 */
static void make_interval(struct interval *iv, struct row rows[2])
{
	memset(iv, 0, sizeof(*iv));
	memset(rows, 0, 2 * sizeof(*rows));
	iv->ts = 1700000000.5;		/* 2023-11-14 22:13:20.5 UTC */
	iv->interval_s = 2.0;
	iv->ncpus = 2;
	iv->nr_events = 2;
	iv->event_names = names2;
	iv->bpf_ns_per_switch = NAN;
	iv->self_cpu_pct = NAN;
	set_delta(&iv->totals[0], 1500000000, 4000000000, 4000000000);
	set_delta(&iv->totals[1], 1000000, 4000000000, 1000000000);
	set_delta(&iv->idle[0], 1000000000, 4000000000, 4000000000);
	set_delta(&iv->idle[1], 0, 100, 0);
	iv->total_cpu_ns = 4000000000;
	iv->idle_cpu_ns = 1000000000;
	iv->dropped = 3;
	iv->switches = 1234;

	rows[0].kind = ROW_PROCESS;
	rows[0].pid = rows[0].tid = 100;
	strcpy(rows[0].comm, "bash");
	rows[0].nr_threads = 2;
	rows[0].cpu_ns = 1500000000;
	set_delta(&rows[0].ev[0], 1500000000, 1000, 1000);
	set_delta(&rows[0].ev[1], 300000, 1000, 250);

	rows[1].kind = ROW_PROCESS;
	rows[1].pid = rows[1].tid = 200;
	strcpy(rows[1].comm, "we,ird \"x\"");
	rows[1].nr_threads = 1;
	rows[1].exited = true;
	rows[1].cpu_ns = 250000000;
	set_delta(&rows[1].ev[0], 1234, 10, 10);
	set_delta(&rows[1].ev[1], 0, 5, 0);

	iv->nr_rows = 2;
	iv->rows = rows;
}

static const char *const names1[] = { "cpu/event=0x3c,umask=0/" };

/* Thread rows with hostile comms, one event whose name needs CSV quotes. */
static void make_thread_interval(struct interval *iv, struct row rows[2])
{
	memset(iv, 0, sizeof(*iv));
	memset(rows, 0, 2 * sizeof(*rows));
	iv->ts = 1700000003;
	iv->interval_s = 1.0;
	iv->ncpus = 1;
	iv->nr_events = 1;
	iv->event_names = names1;
	iv->row_kind = ROW_THREAD;
	iv->bpf_ns_per_switch = 250;	/* live: tdtop's own cost shown */
	iv->self_cpu_pct = NAN;
	set_delta(&iv->totals[0], 20000, 50, 50);
	iv->total_cpu_ns = 1000000000;
	iv->idle_cpu_ns = 1000000000;
	iv->switches = 7;

	rows[0].kind = ROW_THREAD;
	rows[0].pid = 100;
	rows[0].tid = 101;
	memcpy(rows[0].comm, "a\x01" "b\xff\\\xc3\xa9", 7);
	rows[0].cpu_ns = 125000000;
	set_delta(&rows[0].ev[0], 20000, 50, 50);

	rows[1].kind = ROW_THREAD;
	rows[1].pid = 100;
	rows[1].tid = 100;
	strcpy(rows[1].comm, " lead");
	set_delta(&rows[1].ev[0], 0, 0, 0);

	iv->nr_rows = 2;
	iv->rows = rows;
}

/* Local time is shown in text: pin it to UTC for the test, then restore. */
struct tz_saved {
	char *old;
};

static void tz_utc(struct tz_saved *s)
{
	const char *tz = getenv("TZ");

	s->old = tz ? strdup(tz) : NULL;
	setenv("TZ", "UTC", 1);
	tzset();
}

static void tz_restore(struct tz_saved *s)
{
	if (s->old)
		setenv("TZ", s->old, 1);
	else
		unsetenv("TZ");
	tzset();
	free(s->old);
}

/* Write the intervals in *fmt* and return the text (caller frees). */
static char *render(enum output_format fmt, const struct interval *a, const struct interval *b)
{
	struct output *o;
	struct fixture_mem m;
	char *text;

	fixture_mem_open(&m);
	o = output__new(fmt, m.f);
	CHECK(o != NULL);
	if (!o) {
		fixture_mem_close(&m);
		return strdup("");
	}
	CHECK_INT(output__interval(o, a), 0);
	if (b)
		CHECK_INT(output__interval(o, b), 0);
	output__free(o);
	fclose(m.f);
	text = m.buf;
	return text;
}

TEST(output_text_interval)
{
	struct interval iv, iv2;
	struct row rows[2], rows2[2];
	struct tz_saved tz;
	char *out;

	make_interval(&iv, rows);
	make_thread_interval(&iv2, rows2);
	tz_utc(&tz);
	out = render(OUTPUT_TEXT, &iv, &iv2);
	tz_restore(&tz);
	CHECK_STR(out,
		  "tdtop - 22:13:20 interval 2.00s, 2 CPUs, 2 rows, switches 1234\n"
		  "Totals: busy 75.0%, cpu-clock 1.50G, instructions 4.00M\n"
		  "warning: dropped 3 slices: task map full (raise --max-tasks)\n"
		  "warning: counted 25.0% of the time (multiplexed), counts scaled\n"
		  "    PID COMM              CPU% cpu-clock instructions\n"
		  "    100 bash              75.0     1.50G        1.20M\n"
		  "    200 we,ird \"x\"        12.5      1234            - (exited)\n"
		  "\n"
		  "tdtop - 22:13:23 interval 1.00s, 1 CPUs, 2 rows, switches 7\n"
		  "Totals: busy 0.0%, cpu/event=0x3c,umask=0/ 20.0K\n"
		  "    PID     TID COMM              CPU% cpu/event=0x3c,umask=0/\n"
		  "    100     101 a?b?\\??           12.5                   20.0K\n"
		  "    100     100  lead              0.0                       0\n"
		  "\n");
	free(out);
}

TEST(output_text_mixed_rows_and_unknowns)
{
	struct interval iv;
	struct row rows[2];
	struct tz_saved tz;
	char *out;

	make_interval(&iv, rows);
	/* a thread row among process rows: processes show "-" as TID */
	rows[1].kind = ROW_THREAD;
	rows[1].tid = 201;
	rows[1].exited = false;
	iv.interval_s = 0;		/* no length: percentages unknown */
	iv.ts = NAN;
	iv.dropped = 0;
	iv.read_errors = 2;
	set_delta(&iv.totals[1], 5, 5, 5);
	tz_utc(&tz);
	out = render(OUTPUT_TEXT, &iv, NULL);
	tz_restore(&tz);
	CHECK_STR(out,
		  "tdtop - --:--:-- interval 0.00s, 2 CPUs, 2 rows, switches 1234\n"
		  "Totals: busy -, cpu-clock 1.50G, instructions 5\n"
		  "warning: 2 counter reads failed\n"
		  "    PID     TID COMM              CPU% cpu-clock instructions\n"
		  "    100       - bash                 -     1.50G        1.20M\n"
		  "    200     201 we,ird \"x\"           -      1234            -\n"
		  "\n");
	free(out);
}

TEST(output_json_interval)
{
	struct interval iv, iv2;
	struct row rows[2], rows2[2];
	char *out;

	make_interval(&iv, rows);
	make_thread_interval(&iv2, rows2);
	out = render(OUTPUT_JSON, &iv, &iv2);
	CHECK_STR(out,
		  "{\"type\":\"interval\",\"schema\":1,\"ts\":1700000000.5,\"interval_s\":2,\"ncpus\":2,"
		  "\"totals\":{\"cpu-clock\":1500000000,\"instructions\":4000000},"
		  "\"idle\":{\"cpu-clock\":1000000000,\"instructions\":null},"
		  "\"lost\":{\"cpu-clock\":0,\"instructions\":0},"
		  "\"cpu_ns\":{\"total\":4000000000,\"idle\":1000000000,\"lost\":0},"
		  "\"running\":{\"cpu-clock\":1,\"instructions\":0.25},"
		  "\"raw\":{\"cpu-clock\":{\"count\":1500000000,\"enabled\":4000000000,"
		  "\"running\":4000000000},\"instructions\":{\"count\":1000000,"
		  "\"enabled\":4000000000,\"running\":1000000000}},"
		  "\"dropped\":3,\"read_errors\":0,\"switches\":1234,\"method\":\"none\"}\n"
		  "{\"type\":\"process\",\"pid\":100,\"comm\":\"bash\",\"cpu_ns\":1500000000,"
		  "\"cpu_pct\":75,\"threads\":2,"
		  "\"counts\":{\"cpu-clock\":1500000000,\"instructions\":1200000}}\n"
		  "{\"type\":\"process\",\"pid\":200,\"comm\":\"we,ird \\\"x\\\"\","
		  "\"cpu_ns\":250000000,\"cpu_pct\":12.5,\"threads\":1,\"exited\":true,"
		  "\"counts\":{\"cpu-clock\":1234,\"instructions\":null}}\n"
		  /* nothing multiplexed: no "raw" */
		  "{\"type\":\"interval\",\"schema\":1,\"ts\":1700000003,\"interval_s\":1,\"ncpus\":1,"
		  "\"totals\":{\"cpu/event=0x3c,umask=0/\":20000},"
		  "\"idle\":{\"cpu/event=0x3c,umask=0/\":0},"
		  "\"lost\":{\"cpu/event=0x3c,umask=0/\":0},"
		  "\"cpu_ns\":{\"total\":1000000000,\"idle\":1000000000,\"lost\":0},"
		  "\"running\":{\"cpu/event=0x3c,umask=0/\":1},"
		  "\"dropped\":0,\"read_errors\":0,\"switches\":7,"
		  "\"self\":{\"bpf_ns_per_switch\":250,\"cpu_pct\":null},\"method\":\"none\"}\n"
		  "{\"type\":\"thread\",\"pid\":100,\"tid\":101,"
		  "\"comm\":\"a\\u0001b\\ufffd\\\\\xc3\xa9\",\"cpu_ns\":125000000,"
		  "\"cpu_pct\":12.5,\"counts\":{\"cpu/event=0x3c,umask=0/\":20000}}\n"
		  "{\"type\":\"thread\",\"pid\":100,\"tid\":100,\"comm\":\" lead\",\"cpu_ns\":0,"
		  "\"cpu_pct\":0,\"counts\":{\"cpu/event=0x3c,umask=0/\":0}}\n");
	free(out);
}

/* The interval columns of make_interval()'s events: cpu-clock, instructions. */
#define CSV_IV2 \
	"ts,type,schema,interval_s,ncpus,totals.cpu-clock,totals.instructions," \
	"idle.cpu-clock,idle.instructions,lost.cpu-clock,lost.instructions," \
	"cpu_ns.total,cpu_ns.idle,cpu_ns.lost,running.cpu-clock,running.instructions," \
	"raw.cpu-clock.count,raw.cpu-clock.enabled,raw.cpu-clock.running," \
	"raw.instructions.count,raw.instructions.enabled,raw.instructions.running," \
	"dropped,read_errors,switches,self.bpf_ns_per_switch,self.cpu_pct,method,notice,"
#define CSV_LINES2 \
	"1700000000.5,interval,1,2,2,1500000000,4000000,1000000000,,0,0," \
	"4000000000,1000000000,0,1,0.25,1500000000,4000000000,4000000000," \
	"1000000,4000000000,1000000000,3,0,1234,,,none,,,,,,,,,\n" \
	"1700000000.5,process,,,,,,,,,,,,,,,,,,,,,,,,,,,,100,bash,1500000000,75,2,0," \
	"1500000000,1200000\n" \
	"1700000000.5,process,,,,,,,,,,,,,,,,,,,,,,,,,,,,200,\"we,ird \"\"x\"\"\",250000000," \
	"12.5,1,1,1234,\n"

TEST(output_csv_interval)
{
	struct interval iv, iv2;
	struct row rows[2], rows2[2];
	char *out;

	make_interval(&iv, rows);
	make_thread_interval(&iv2, rows2);
	out = render(OUTPUT_CSV, &iv, &iv);
	/* the header once for the same columns; an interval line before its rows */
	CHECK_STR(out, CSV_IV2 "pid,comm,cpu_ns,cpu_pct,threads,exited,counts.cpu-clock,"
		  "counts.instructions\n" CSV_LINES2 CSV_LINES2);
	free(out);

	/* other columns get their own header: thread rows have a tid, no threads */
	out = render(OUTPUT_CSV, &iv, &iv2);
	CHECK_STR(out, CSV_IV2 "pid,comm,cpu_ns,cpu_pct,threads,exited,counts.cpu-clock,"
		  "counts.instructions\n" CSV_LINES2
		  "ts,type,schema,interval_s,ncpus,\"totals.cpu/event=0x3c,umask=0/\","
		  "\"idle.cpu/event=0x3c,umask=0/\",\"lost.cpu/event=0x3c,umask=0/\","
		  "cpu_ns.total,cpu_ns.idle,cpu_ns.lost,\"running.cpu/event=0x3c,umask=0/\","
		  "\"raw.cpu/event=0x3c,umask=0/.count\",\"raw.cpu/event=0x3c,umask=0/.enabled\","
		  "\"raw.cpu/event=0x3c,umask=0/.running\",dropped,read_errors,switches,"
		  "self.bpf_ns_per_switch,self.cpu_pct,method,notice,pid,tid,comm,cpu_ns,cpu_pct,"
		  "exited,\"counts.cpu/event=0x3c,umask=0/\"\n"
		  "1700000003,interval,1,1,1,20000,0,0,1000000000,1000000000,0,1,20000,50,50,"
		  "0,0,7,250,,none,,,,,,,,\n"
		  "1700000003,thread,,,,,,,,,,,,,,,,,,,,,100,101,a\\x01b\\xff\\\\\xc3\xa9,"
		  "125000000,12.5,0,20000\n"
		  "1700000003,thread,,,,,,,,,,,,,,,,,,,,,100,100,\" lead\",0,0,0,0\n");
	free(out);
}

TEST(output_bad_input_does_not_crash)
{
	struct interval iv;
	struct row rows[2];
	char *out;

	make_interval(&iv, rows);
	iv.event_names = NULL;
	iv.nr_events = 99;		/* clamped to MAX_EVENTS */
	iv.rows = NULL;			/* nr_rows without rows */
	out = render(OUTPUT_CSV, &iv, NULL);
	CHECK(strstr(out, ",totals.event0,totals.event1,") != NULL);
	CHECK(strstr(out, ",counts.event15\n") != NULL);
	CHECK(strstr(out, "event16") == NULL);
	free(out);
	out = render(OUTPUT_JSON, &iv, NULL);
	CHECK(strstr(out, "\"event15\":") != NULL);
	CHECK(strchr(out, '\n') == out + strlen(out) - 1);	/* no row lines */
	free(out);
	iv.nr_events = -1;
	out = render(OUTPUT_TEXT, &iv, NULL);
	CHECK(strstr(out, "    PID COMM              CPU%\n") != NULL);
	free(out);
	output__free(NULL);
}

TEST(output_write_error_full_device)
{
	enum output_format fmts[] = { OUTPUT_TEXT, OUTPUT_JSON, OUTPUT_CSV };
	struct interval iv;
	struct row rows[2];

	make_interval(&iv, rows);
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		FILE *f = fopen("/dev/full", "w");
		struct output *o;

		CHECK(f != NULL);
		if (!f)
			return;
		o = output__new(fmts[i], f);
		CHECK_INT(output__interval(o, &iv), -1);
		output__free(o);
		fclose(f);
	}
}

TEST(output_write_error_closed_pipe)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	struct interval iv;
	struct row rows[2];
	struct output *o;
	int fds[2];
	FILE *f;

	make_interval(&iv, rows);
	CHECK_INT(pipe(fds), 0);
	sigaction(SIGPIPE, &ign, &old);
	close(fds[0]);
	f = fdopen(fds[1], "w");
	CHECK(f != NULL);
	if (f) {
		o = output__new(OUTPUT_JSON, f);
		errno = 0;
		CHECK_INT(output__interval(o, &iv), -1);
		CHECK_INT(errno, EPIPE);
		/* the error sticks: later intervals fail too, nothing hangs */
		CHECK_INT(output__interval(o, &iv), -1);
		output__free(o);
		fclose(f);
	}
	sigaction(SIGPIPE, &old, NULL);
}

TEST(output_flushes_each_interval)
{
	struct interval iv;
	struct row rows[2];
	struct output *o;
	char buf[4096] = "";
	FILE *f;

	make_interval(&iv, rows);
	/* a fully buffered stream: the text is there only if it was flushed */
	f = fmemopen(buf, sizeof(buf), "w");
	CHECK(f != NULL);
	if (!f)
		return;
	setvbuf(f, NULL, _IOFBF, 8192);
	o = output__new(OUTPUT_CSV, f);
	CHECK_INT(output__interval(o, &iv), 0);
	CHECK(strstr(buf, ",200,\"we,ird \"\"x\"\"\",") != NULL);
	output__free(o);
	fclose(f);
}

TEST(output_fmemopen_too_small_fails)
{
	struct interval iv;
	struct row rows[2];
	struct output *o;
	char buf[64];
	FILE *f;

	make_interval(&iv, rows);
	f = fmemopen(buf, sizeof(buf), "w");
	CHECK(f != NULL);
	if (!f)
		return;
	o = output__new(OUTPUT_TEXT, f);
	CHECK_INT(output__interval(o, &iv), -1);
	output__free(o);
	fclose(f);
}

/* ---- the contract: columns, rounding, the notice ---- */

/* The comma-separated names of a CSV header line (quotes honoured), in *names*. */
static int csv_names(const char *line, char names[][96], int max)
{
	int n = 0;

	while (*line && *line != '\n' && n < max) {
		size_t len = 0;
		bool quoted = *line == '"';

		if (quoted)
			line++;
		while (*line && (quoted ? *line != '"' : *line != ',' && *line != '\n')) {
			if (len + 1 < 96)
				names[n][len++] = *line;
			line++;
		}
		if (quoted && *line == '"')
			line++;
		names[n++][len] = '\0';
		if (*line == ',')
			line++;
	}
	return n;
}

static bool has_name(char names[][96], int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

static int nr_duplicates(char names[][96], int n)
{
	int dup = 0;

	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			dup += !strcmp(names[i], names[j]);
	return dup;
}

static const char *const td_names[] = { "slots", "topdown-retiring" };

/* A level-2 TopDown interval whose first event is called "slots", as on Intel. */
static void make_topdown_interval(struct interval *iv, struct row rows[2])
{
	make_interval(iv, rows);
	iv->event_names = td_names;
	iv->topdown = true;
	iv->level = 2;
	iv->method = "perf_metrics";
	iv->td = (struct td_result){ .valid = true, .slots = 4000.4, .retiring = 0.7,
				     .bad_speculation = 0.05 + 1e-17 * 4.4,
				     .frontend_bound = 0.15, .backend_bound = 0.1,
				     .heavy_ops = NAN, .light_ops = NAN,
				     .branch_mispredicts = NAN, .machine_clears = NAN,
				     .fetch_latency = NAN, .fetch_bandwidth = NAN,
				     .memory_bound = NAN, .core_bound = NAN,
				     .smt_contention = NAN };
	iv->ipc = 1.23456789;
	rows[0].td = iv->td;
	rows[0].td.bad_speculation = 0.1 - 0.05;	/* 0.05000000000000000277 */
	rows[0].ipc = 2.0 / 3;
	rows[1].td = (struct td_result){ .valid = false, .slots = NAN };
	rows[1].ipc = NAN;
	iv->bpf_ns_per_switch = 123.456;
	iv->self_cpu_pct = 0.123456;
}

TEST(output_csv_no_duplicate_columns)
{
	char names[128][96];
	struct interval iv;
	struct row rows[2];
	char *out;
	int n;

	make_topdown_interval(&iv, rows);
	out = render(OUTPUT_CSV, &iv, NULL);
	n = csv_names(out, names, 128);
	CHECK_INT(nr_duplicates(names, n), 0);
	/* the event "slots" and the breakdown's slots are two columns */
	CHECK(has_name(names, n, "counts.slots"));
	CHECK(has_name(names, n, "totals.slots"));
	CHECK(has_name(names, n, "slots"));
	CHECK(has_name(names, n, "topdown.bad_speculation"));
	CHECK(has_name(names, n, "topdown.memory_bound"));
	CHECK(has_name(names, n, "level"));
	CHECK(!has_name(names, n, "topdown.smt_contention"));
	/* floats rounded to what they mean */
	CHECK(strstr(out, "0.050000") == NULL);
	CHECK(strstr(out, ",0.7,0.05,0.15,0.1,,,,,,,,,4000,1.2346\n") != NULL);
	CHECK(strstr(out, ",0.7,0.05,0.15,0.1,,,,,,,,,4000,0.6667\n") != NULL);
	CHECK(strstr(out, ",123.5,0.12,perf_metrics,2,") != NULL);
	free(out);
	/* AMD: SMT contention gets a column */
	iv.smt_contention = true;
	out = render(OUTPUT_CSV, &iv, NULL);
	n = csv_names(out, names, 128);
	CHECK(has_name(names, n, "topdown.smt_contention"));
	free(out);
}

TEST(output_json_rounds)
{
	struct interval iv;
	struct row rows[2];
	char *out;

	make_topdown_interval(&iv, rows);
	iv.level = 1;
	iv.ts = 1700000000.1234567;
	out = render(OUTPUT_JSON, &iv, NULL);
	CHECK(strstr(out, "\"ts\":1700000000.123457,") != NULL);
	CHECK(strstr(out, "\"self\":{\"bpf_ns_per_switch\":123.5,\"cpu_pct\":0.12}") != NULL);
	CHECK(strstr(out, "\"topdown\":{\"retiring\":0.7,\"bad_speculation\":0.05,"
		      "\"frontend_bound\":0.15,\"backend_bound\":0.1},\"slots\":4000,"
		      "\"ipc\":1.2346}") != NULL);
	CHECK(strstr(out, "\"ipc\":0.6667}") != NULL);
	/* a row that could not be measured: every field there, null */
	CHECK(strstr(out, "\"topdown\":{\"retiring\":null,\"bad_speculation\":null,"
		      "\"frontend_bound\":null,\"backend_bound\":null},\"slots\":null,"
		      "\"ipc\":null}") != NULL);
	free(out);
}

static const char *const cg_names[] = { "cpu-clock" };

TEST(output_csv_cgroup_columns)
{
	char names[64][96];
	struct interval iv;
	struct row rows[1];
	char path[] = "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
		      "0f1e2d3c_4b5a_6978_8796_a5b4c3d2e1f0.slice/"
		      "cri-containerd-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope";
	char *out, *line;
	int n;

	memset(&iv, 0, sizeof(iv));
	memset(rows, 0, sizeof(rows));
	iv.ts = 1;
	iv.interval_s = 1;
	iv.ncpus = 1;
	iv.nr_events = 1;
	iv.event_names = cg_names;
	iv.row_kind = ROW_CGROUP;
	iv.cgroups = true;
	iv.bpf_ns_per_switch = iv.self_cpu_pct = NAN;
	rows[0].kind = ROW_CGROUP;
	rows[0].cgroup = path;
	rows[0].cgroup_id = 77;
	rows[0].depth = 4;
	rows[0].nr_threads = 3;
	rows[0].cpu_ns = 500000000;
	iv.rows = rows;
	iv.nr_rows = 1;
	out = render(OUTPUT_CSV, &iv, NULL);
	n = csv_names(out, names, 64);
	CHECK_INT(nr_duplicates(names, n), 0);
	for (const char *const *k = (const char *const[]){ "cgroup", "cgroup_id", "container",
							   "runtime", "pod", "qos", "unit",
							   "depth", "tasks", NULL }; *k; k++)
		CHECK(has_name(names, n, *k));
	/* a cgroup's task count is not a thread count, and it has no pid */
	CHECK(!has_name(names, n, "threads"));
	CHECK(!has_name(names, n, "pid"));
	CHECK(!has_name(names, n, "exited"));
	line = strstr(out, "\n1,cgroup,");
	CHECK(line != NULL);
	if (line)
		CHECK(strstr(line, ",77,0123456789ab,containerd,0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0,"
			      "burstable,cri-containerd-0123456789abcdef0123456789abcdef"
			      "0123456789abcdef0123456789abcdef.scope,500000000,50,4,3,0\n") != NULL);
	free(out);
}

/* Two intervals with *a* and then *b* as notice, in *fmt*. */
static char *render_notices(enum output_format fmt, const char *a, const char *b)
{
	struct interval iv, iv2;
	struct row rows[2], rows2[2];
	char *out;

	make_interval(&iv, rows);
	make_interval(&iv2, rows2);
	iv.notice = a;
	iv2.notice = b;
	out = render(fmt, &iv, &iv2);
	return out;
}

static int count_of(const char *s, const char *what)
{
	int n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

TEST(output_notice_once)
{
	char same[] = "TopDown unavailable: no core PMU; counting cycles instead";
	struct tz_saved tz;
	char *out;

	tz_utc(&tz);
	/* the same text (another copy of it): written in the first interval only */
	out = render_notices(OUTPUT_TEXT, "TopDown unavailable: no core PMU; counting cycles instead",
			     same);
	CHECK_INT(count_of(out, "note: TopDown unavailable"), 1);
	free(out);
	out = render_notices(OUTPUT_TEXT, "first", "second");
	CHECK_INT(count_of(out, "note: first\n"), 1);
	CHECK_INT(count_of(out, "note: second\n"), 1);
	free(out);
	tz_restore(&tz);
	out = render_notices(OUTPUT_JSON, same, same);
	CHECK_INT(count_of(out, "\"notice\":"), 1);
	free(out);
	out = render_notices(OUTPUT_JSON, NULL, same);
	CHECK_INT(count_of(out, "\"notice\":"), 1);
	free(out);
	out = render_notices(OUTPUT_CSV, same, same);
	CHECK_INT(count_of(out, same), 1);
	free(out);
}
