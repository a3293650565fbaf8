// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Workloads of known TopDown character for tests/hw/check.sh. Each sets
 * itself up, creates the ready file, then runs one steady loop until the
 * given number of seconds has passed.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_GEN
/* check.sh generates these: many functions called in a shuffled order */
unsigned long gen_run(unsigned long x);
extern const unsigned long gen_nfuncs;
#endif

#define CHUNK (1 << 16)

static volatile sig_atomic_t stop;

static void on_alarm(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* The loop starts now: tell the script, and stop after *secs*. */
static int ready(const char *path, unsigned int secs)
{
	if (path) {
		FILE *f = fopen(path, "w");

		if (!f) {
			fprintf(stderr, "workloads: failed to create %s: %s\n", path,
				strerror(errno));
			return -1;
		}
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
	}
	signal(SIGALRM, on_alarm);
	alarm(secs);
	return 0;
}

/*
 * Retiring: eight independent chains of one-cycle ALU ops. The empty asm
 * keeps each value in a register without adding a dependency between them.
 */
static uint64_t run_alu(void)
{
	uint64_t a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8;

	while (!stop) {
		for (int i = 0; i < CHUNK; i++) {
			a += 0x9e3779b9;
			b ^= 0x7f4a7c15;
			c += 12345;
			d ^= 0x55aa;
			e += 0x1234567;
			f ^= 0x2468ace;
			g += 77;
			h ^= 99;
			__asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f),
				     "+r"(g), "+r"(h));
		}
	}
	return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h;
}

/*
 * Bad speculation: a branch on a random bit is mispredicted half the time.
 * The two different asm statements keep the compiler from turning the
 * branch into a conditional move.
 */
static uint64_t run_branch(void)
{
	uint64_t s = 88172645463325252ULL, x = 0;

	while (!stop) {
		for (int i = 0; i < CHUNK; i++) {
			if (xorshift(&s) & 1) {
				x += s;
				__asm__ volatile("" : "+r"(x));
			} else {
				x ^= s >> 3;
				__asm__ volatile("" : "+r"(x) : "r"(s));
			}
		}
	}
	return x;
}

/*
 * Backend (memory) bound: every load's address is the previous load's
 * value, over one random cycle (Sattolo's shuffle) through *mb* MiB.
 */
static int run_memory(size_t mb, const char *ready_path, unsigned int secs, uint64_t *out)
{
	size_t n = mb * 1024 * 1024 / sizeof(size_t), p = 0;
	uint64_t s = 0x2545f4914f6cdd1dULL;
	size_t *next;

	if (n < 2) {
		fprintf(stderr, "workloads: memory size too small\n");
		return -1;
	}
	next = malloc(n * sizeof(*next));
	if (!next) {
		fprintf(stderr, "workloads: failed to allocate %zu MiB\n", mb);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		next[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = xorshift(&s) % i, t = next[i];

		next[i] = next[j];
		next[j] = t;
	}
	if (ready(ready_path, secs)) {
		free(next);
		return -1;
	}
	while (!stop)
		for (int i = 0; i < CHUNK; i++)
			p = next[p];
	*out = p;
	free(next);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	unsigned int secs = argc > 2 ? (unsigned int)strtoul(argv[2], NULL, 10) : 0;
	const char *ready_path = argc > 3 && argv[3][0] ? argv[3] : NULL;
	size_t mb = argc > 4 ? strtoul(argv[4], NULL, 10) : 256;
	uint64_t sink = 0;

	if (argc < 3 || !secs) {
		fprintf(stderr, "usage: workloads alu|branch|memory|frontend SECONDS "
				"[READY_FILE] [MEMORY_MIB]\n");
		return 2;
	}
	if (!strcmp(mode, "memory")) {
		if (run_memory(mb, ready_path, secs, &sink))
			return 1;
	} else if (!strcmp(mode, "alu") || !strcmp(mode, "branch")) {
		if (ready(ready_path, secs))
			return 1;
		sink = !strcmp(mode, "alu") ? run_alu() : run_branch();
	} else if (!strcmp(mode, "frontend")) {
#ifdef HAVE_GEN
		if (ready(ready_path, secs))
			return 1;
		for (sink = 1; !stop;)
			sink = gen_run(sink);
#else
		fprintf(stderr, "workloads: built without the generated code for 'frontend'\n");
		return 2;
#endif
	} else {
		fprintf(stderr, "workloads: unknown mode '%s'\n", mode);
		return 2;
	}
	/* the result is printed so that no loop is dead code */
	printf("%s done: %llx\n", mode, (unsigned long long)sink);
	return 0;
}
