// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A workload with known ground truth for the integration tests: it does a
 * sequence of steps (burn CPU, page faults, context switches, short-lived
 * children, idle threads) and reports what the kernel itself accounted.
 *
 *   workload [--name COMM] [--timeout SECS] [--now] STEP [STEP...]
 *     burn MS [THREADS]     each of THREADS threads (1) spins for MS ms of its own CPU time
 *     faults NPAGES         touch NPAGES fresh anonymous pages (minor faults)
 *     switches N [CHILD]    N pipe round trips with a thread (or a child if CHILD=1)
 *     spawn N [US]          fork N children named "wl-child" that spin US µs (100) and exit
 *     threads N [MS]        start N threads that nap 2 ms at a time for MS ms (0), then block
 *     sleep MS              the main thread sleeps
 *
 * Protocol on stdout, one JSON object per line:
 *   {"phase":"ready",...}  printed at start; then one byte on stdin starts the steps
 *                          (--now: no wait)
 *   {"phase":"done",...}   after the steps: pid, tids, CPU time and rusage taken just
 *                          before and after the steps, child pids
 * Then the process stays alive, every thread blocked, until stdin reaches EOF
 * (or --timeout, 120 s by default, passes), so that an observer sees it before
 * it exits. Threads are never joined: their /proc/PID/task entries stay readable.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 4096
#define MAX_CHILDREN (1 << 20)
#define MAX_STEPS 32
#define SPAWN_BATCH 32
/* room for every child pid (up to 7 digits and a comma) and the rest */
#define OUT_SIZE (MAX_CHILDREN * 8 + (1 << 20))

enum step_kind { STEP_BURN, STEP_FAULTS, STEP_SWITCHES, STEP_SPAWN, STEP_THREADS, STEP_SLEEP };

struct step_def {
	const char *word;
	enum step_kind kind;
	int min_args;
	int max_args;
	long defaults[2];
};

static const struct step_def step_defs[] = {
	{ "burn", STEP_BURN, 1, 2, { 0, 1 } },
	{ "faults", STEP_FAULTS, 1, 1, { 0, 0 } },
	{ "switches", STEP_SWITCHES, 1, 2, { 0, 0 } },
	{ "spawn", STEP_SPAWN, 1, 2, { 0, 100 } },
	{ "threads", STEP_THREADS, 1, 2, { 0, 0 } },
	{ "sleep", STEP_SLEEP, 1, 1, { 0, 0 } },
};

struct step {
	const struct step_def *def;
	long arg[2];
};

/* What the kernel accounted for this process at one moment. */
struct snapshot {
	uint64_t cpu_ns;	/* CLOCK_PROCESS_CPUTIME_ID */
	struct rusage self;
	struct rusage children;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int tids[MAX_THREADS];
static int nr_tids;
static int pending;		/* threads that have not finished their step yet */
static int child_pids[MAX_CHILDREN];
static int nr_children;
/* Pre-touched so that printing the report adds no page faults. */
static char out[OUT_SIZE];
static size_t out_len;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("workload: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int gettid_(void)
{
	return (int)syscall(SYS_gettid);
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ull, .tv_nsec = ns % 1000000000ull };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Spin until the calling thread has used ns of CPU time. */
static void spin_thread_cpu(uint64_t ns)
{
	uint64_t end = clock_ns(CLOCK_THREAD_CPUTIME_ID) + ns;

	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		;
}

static void emit(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (out_len >= OUT_SIZE)
		die("report too long");
	va_start(ap, fmt);
	n = vsnprintf(out + out_len, OUT_SIZE - out_len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= OUT_SIZE - out_len)
		die("report too long");
	out_len += n;
}

static void flush_out(void)
{
	size_t off = 0;

	while (off < out_len) {
		ssize_t n = write(STDOUT_FILENO, out + off, out_len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			exit(1);	/* the reader is gone: nothing to report to */
		off += n;
	}
	out_len = 0;
}

static void take_snapshot(struct snapshot *s)
{
	s->cpu_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	getrusage(RUSAGE_SELF, &s->self);
	getrusage(RUSAGE_CHILDREN, &s->children);
}

static void emit_rusage(const char *key, const struct rusage *ru)
{
	uint64_t user = ru->ru_utime.tv_sec * 1000000000ull + ru->ru_utime.tv_usec * 1000ull;
	uint64_t sys = ru->ru_stime.tv_sec * 1000000000ull + ru->ru_stime.tv_usec * 1000ull;

	emit("\"%s\":{\"utime_ns\":%llu,\"stime_ns\":%llu,\"minflt\":%ld,\"majflt\":%ld,"
	     "\"nvcsw\":%ld,\"nivcsw\":%ld}", key, (unsigned long long)user,
	     (unsigned long long)sys, ru->ru_minflt, ru->ru_majflt, ru->ru_nvcsw, ru->ru_nivcsw);
}

static void emit_snapshot(const char *key, const struct snapshot *s)
{
	emit("\"%s\":{\"cpu_ns\":%llu,", key, (unsigned long long)s->cpu_ns);
	emit_rusage("self", &s->self);
	emit(",");
	emit_rusage("children", &s->children);
	emit("}");
}

static void emit_ints(const char *key, const int *v, int n)
{
	int i;

	emit("\"%s\":[", key);
	for (i = 0; i < n; i++)
		emit(i ? ",%d" : "%d", v[i]);
	emit("]");
}

static void register_tid(int tid)
{
	pthread_mutex_lock(&lock);
	if (nr_tids < MAX_THREADS)
		tids[nr_tids++] = tid;
	pthread_mutex_unlock(&lock);
}

static void step_finished(void)
{
	pthread_mutex_lock(&lock);
	pending--;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
}

/* Threads outlive their step so that /proc/PID/task keeps their counters. */
static void *park_forever(void)
{
	for (;;)
		pause();
	return NULL;
}

static void wait_pending(void)
{
	pthread_mutex_lock(&lock);
	while (pending > 0)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
}

static void start_thread(void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	pthread_t t;
	int err;

	pthread_attr_init(&attr);
	/* Small stacks: the threads step starts thousands of them. */
	pthread_attr_setstacksize(&attr, 64 * 1024);
	pthread_mutex_lock(&lock);
	pending++;
	pthread_mutex_unlock(&lock);
	err = pthread_create(&t, &attr, fn, arg);
	if (err)
		die("failed to create thread: %s", strerror(err));
	pthread_attr_destroy(&attr);
}

static void *burn_thread(void *arg)
{
	uint64_t ns = (uint64_t)(uintptr_t)arg;

	register_tid(gettid_());
	spin_thread_cpu(ns);
	step_finished();
	return park_forever();
}

static void do_burn(long ms, long nthreads)
{
	long i;

	for (i = 0; i < nthreads; i++)
		start_thread(burn_thread, (void *)(uintptr_t)(ms * 1000000ull));
	wait_pending();
}

static void do_faults(long npages)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)npages * page;
	volatile char *p;
	long i;

	if (npages <= 0)
		return;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("failed to map %zu bytes: %s", len, strerror(errno));
	/* One fault per page, not one per huge page. */
	madvise((void *)p, len, MADV_NOHUGEPAGE);
	for (i = 0; i < npages; i++)
		p[i * page] = 1;
	/* Kept mapped: unmapping costs nothing in faults but would muddy the CPU time. */
}

struct pingpong {
	int to_peer[2];
	int from_peer[2];
	long rounds;
};

static void pong(struct pingpong *pp)
{
	char c;
	long i;

	for (i = 0; i < pp->rounds; i++) {
		if (read(pp->to_peer[0], &c, 1) != 1 || write(pp->from_peer[1], &c, 1) != 1)
			die("pipe ping-pong failed: %s", strerror(errno));
	}
}

static void *pong_thread(void *arg)
{
	register_tid(gettid_());
	pong(arg);
	step_finished();
	return park_forever();
}

static void do_switches(long rounds, long use_child)
{
	struct pingpong pp = { .rounds = rounds };
	pid_t child = -1;
	char c = 'x';
	long i;

	if (pipe(pp.to_peer) || pipe(pp.from_peer))
		die("failed to create pipes: %s", strerror(errno));
	if (use_child) {
		child = fork();
		if (child < 0)
			die("failed to fork: %s", strerror(errno));
		if (child == 0) {
			pong(&pp);
			_exit(0);
		}
		if (nr_children < MAX_CHILDREN)
			child_pids[nr_children++] = child;
	} else {
		start_thread(pong_thread, &pp);
	}
	for (i = 0; i < rounds; i++) {
		if (write(pp.to_peer[1], &c, 1) != 1 || read(pp.from_peer[0], &c, 1) != 1)
			die("pipe ping-pong failed: %s", strerror(errno));
	}
	if (use_child)
		waitpid(child, NULL, 0);
	else
		wait_pending();
	close(pp.to_peer[0]);
	close(pp.to_peer[1]);
	close(pp.from_peer[0]);
	close(pp.from_peer[1]);
}

static void reap_one(void)
{
	while (waitpid(-1, NULL, 0) < 0) {
		if (errno != EINTR)
			die("failed to wait for a child: %s", strerror(errno));
	}
}

/* A few children at a time: many exits per interval, but no fork bomb. */
static void do_spawn(long n, long us)
{
	long i, alive = 0;

	for (i = 0; i < n; i++) {
		pid_t pid;

		if (alive == SPAWN_BATCH) {
			reap_one();
			alive--;
		}
		pid = fork();
		if (pid < 0)
			die("failed to fork: %s", strerror(errno));
		if (pid == 0) {
			prctl(PR_SET_NAME, "wl-child", 0, 0, 0);
			spin_thread_cpu(us * 1000ull);
			_exit(0);
		}
		alive++;
		if (nr_children < MAX_CHILDREN)
			child_pids[nr_children++] = pid;
	}
	while (alive-- > 0)
		reap_one();
}

static void *nap_thread(void *arg)
{
	uint64_t end = clock_ns(CLOCK_MONOTONIC) + (uint64_t)(uintptr_t)arg;

	register_tid(gettid_());
	while (clock_ns(CLOCK_MONOTONIC) < end)
		sleep_ns(2000000);
	step_finished();
	return park_forever();
}

static void do_threads(long n, long ms)
{
	long i;

	for (i = 0; i < n; i++)
		start_thread(nap_thread, (void *)(uintptr_t)(ms * 1000000ull));
	wait_pending();
}

static void run_step(const struct step *s)
{
	switch (s->def->kind) {
	case STEP_BURN:
		do_burn(s->arg[0], s->arg[1]);
		break;
	case STEP_FAULTS:
		do_faults(s->arg[0]);
		break;
	case STEP_SWITCHES:
		do_switches(s->arg[0], s->arg[1]);
		break;
	case STEP_SPAWN:
		do_spawn(s->arg[0], s->arg[1]);
		break;
	case STEP_THREADS:
		do_threads(s->arg[0], s->arg[1]);
		break;
	case STEP_SLEEP:
		sleep_ns(s->arg[0] * 1000000ull);
		break;
	}
}

static int parse_long(const char *s, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || end == s || *end || *v < 0 ? -1 : 0;
}

static const struct step_def *find_step(const char *word)
{
	size_t i;

	for (i = 0; i < sizeof(step_defs) / sizeof(step_defs[0]); i++) {
		if (!strcmp(step_defs[i].word, word))
			return &step_defs[i];
	}
	return NULL;
}

/* Steps are words each followed by up to max_args numbers. */
static int parse_steps(int argc, char **argv, struct step *steps)
{
	int i = 0, n = 0;

	while (i < argc) {
		const struct step_def *def = find_step(argv[i]);
		struct step *s = &steps[n];
		int k;

		if (!def)
			die("unknown step '%s'", argv[i]);
		if (n == MAX_STEPS)
			die("too many steps");
		s->def = def;
		s->arg[0] = def->defaults[0];
		s->arg[1] = def->defaults[1];
		i++;
		for (k = 0; k < def->max_args && i < argc; k++, i++) {
			if (parse_long(argv[i], &s->arg[k])) {
				if (find_step(argv[i]))
					break;
				die("bad number '%s' for step %s", argv[i], def->word);
			}
		}
		if (k < def->min_args)
			die("step %s needs %d argument(s)", def->word, def->min_args);
		n++;
	}
	if (!n)
		die("usage: workload [--name COMM] [--timeout SECS] [--now] STEP [STEP...]");
	return n;
}

/* Blocks until one byte (1) or EOF (0) arrives on stdin. */
static int wait_stdin(void)
{
	char c;
	ssize_t n;

	do {
		n = read(STDIN_FILENO, &c, 1);
	} while (n < 0 && errno == EINTR);
	return n > 0;
}

static void report_done(const struct snapshot *before, const struct snapshot *after)
{
	emit("{\"phase\":\"done\",\"pid\":%d,", (int)getpid());
	pthread_mutex_lock(&lock);
	emit_ints("tids", tids, nr_tids);
	pthread_mutex_unlock(&lock);
	emit(",");
	emit_ints("child_pids", child_pids, nr_children);
	emit(",");
	emit_snapshot("before", before);
	emit(",");
	emit_snapshot("after", after);
	emit("}\n");
	flush_out();
}

int main(int argc, char **argv)
{
	static struct step steps[MAX_STEPS];
	struct snapshot before, after;
	const char *name = NULL;
	long timeout = 120;
	int go_now = 0, nsteps, i;

	while (argc > 1 && !strncmp(argv[1], "--", 2)) {
		if (!strcmp(argv[1], "--now")) {
			go_now = 1;
			argv++, argc--;
		} else if (!strcmp(argv[1], "--name") && argc > 2) {
			name = argv[2];
			argv += 2, argc -= 2;
		} else if (!strcmp(argv[1], "--timeout") && argc > 2 &&
			   !parse_long(argv[2], &timeout)) {
			argv += 2, argc -= 2;
		} else {
			die("bad option '%s'", argv[1]);
		}
	}
	nsteps = parse_steps(argc - 1, argv + 1, steps);

	/* A test that dies must not leave the workload behind. */
	alarm(timeout);
	memset(out, ' ', sizeof(out));
	if (name)
		prctl(PR_SET_NAME, name, 0, 0, 0);
	tids[nr_tids++] = gettid_();

	emit("{\"phase\":\"ready\",\"pid\":%d}\n", (int)getpid());
	flush_out();
	if (!go_now && !wait_stdin())
		return 1;

	take_snapshot(&before);
	for (i = 0; i < nsteps; i++)
		run_step(&steps[i]);
	take_snapshot(&after);
	report_done(&before, &after);

	while (wait_stdin())
		;
	/* _exit: no atexit or stdio work that would add faults after the report */
	_exit(0);
}
