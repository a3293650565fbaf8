// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target: any bytes through the sysfs string parsers of pmu.h
 * (format bit layouts, alias terms, CPU lists, numbers). Beyond not
 * crashing, what they accept must be self-consistent and what they refuse
 * must come with a one-line message and a documented error code.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pmu/pmu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_pmu: broken promise: %s\n", what);
		abort();
	}
}

/* A refusal: a documented code and a non-empty message, on one line
 * unless it quotes a newline of the input. */
static void check_refusal(int ret, const char *err, const char *input, const char *what)
{
	require(ret == -EINVAL || ret == -ERANGE || ret == -E2BIG, what);
	require(err[0] && (!strchr(err, '\n') || strchr(input, '\n')), "error message is one line");
}

static void check_format(const char *s)
{
	struct pmu_format f = { .field = NR_PMU_FIELDS, .mask = 0 };
	char err[256] = "";
	__u64 cfg[NR_PMU_FIELDS] = { 0 };
	int ret = pmu_format__parse(s, &f, err, sizeof(err)), width;

	if (ret) {
		check_refusal(ret, err, s, "format error code");
		return;
	}
	width = pmu_format__width(&f);
	require(f.field >= 0 && f.field < NR_PMU_FIELDS && f.mask, "format field and mask");
	require(width >= 1 && width <= 64, "format width");
	/* the largest value that fits lands on exactly the format's bits */
	require(!pmu_format__apply(&f, "t", width == 64 ? ~0ULL : (1ULL << width) - 1, cfg, err,
				  sizeof(err)) &&
			cfg[f.field] == f.mask,
		"all-ones value fills the mask");
	if (width < 64)
		require(pmu_format__apply(&f, "t", 1ULL << width, cfg, err, sizeof(err)) == -ERANGE,
			"a value one bit too wide is refused");
}

static void check_terms(const char *s)
{
	struct pmu_term terms[PMU_MAX_TERMS];
	char err[256] = "";
	int n = pmu_terms_parse(s, terms, PMU_MAX_TERMS, err, sizeof(err));

	if (n < 0) {
		check_refusal(n, err, s, "terms error code");
		return;
	}
	require(n >= 1 && n <= PMU_MAX_TERMS, "term count");
	for (int i = 0; i < n; i++) {
		const struct pmu_term *t = &terms[i];
		size_t len = strnlen(t->name, PMU_NAME_LEN);

		require(len > 0 && len < PMU_NAME_LEN, "term name length");
		require(strstr(s, t->name) != NULL, "term name comes from the input");
		require(!t->placeholder || t->has_val, "a placeholder has a value");
		require(t->has_val || t->val == 1, "a bare term is 1");
	}
}

static void check_cpulist(const char *s)
{
	struct pmu_cpus cpus;
	char err[256] = "";
	int ret = pmu_cpus__parse(s, &cpus, err, sizeof(err)), bits = 0;

	if (ret) {
		check_refusal(ret, err, s, "cpulist error code");
		return;
	}
	for (int i = 0; i < MAX_CPUS / 64; i++)
		bits += __builtin_popcountll(cpus.bits[i]);
	require(cpus.nr == bits, "CPU count matches the set");
}

static void check_u64(const char *s)
{
	char back[32];
	__u64 v, w;
	int ret = pmu_parse_u64(s, &v);

	if (ret) {
		require(ret == -EINVAL || ret == -ERANGE, "number error code");
		return;
	}
	snprintf(back, sizeof(back), "%llu", (unsigned long long)v);
	require(!pmu_parse_u64(back, &w) && w == v, "decimal round trip");
	snprintf(back, sizeof(back), "%#llx", (unsigned long long)v);
	require(!pmu_parse_u64(v ? back : "0x0", &w) && w == v, "hex round trip");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	check_format(s);
	check_terms(s);
	check_cpulist(s);
	check_u64(s);
	pmu_name_valid(s);
	free(s);
	return 0;
}
