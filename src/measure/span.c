// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* An interval's length from the CPUs' cuts (see span.h). */
#include "measure/span.h"

/* A charge that read the epoch just before the flip cuts just after it. */
#define CUT_SLACK_NS 1000000ULL

double span__mean_s(const __u64 *prev_cut, const __u64 *cut, int n,
		    const struct span_marks *prev, const struct span_marks *cur)
{
	__u64 flips = cur->flip_ns - prev->flip_ns;
	__u64 lo = cur->pass_ns > prev->flip_ns + CUT_SLACK_NS
			   ? cur->pass_ns - prev->flip_ns - CUT_SLACK_NS : 0;
	__u64 hi = cur->flip_ns - prev->pass_ns + CUT_SLACK_NS;
	double sum = 0;

	if (n <= 0 || cur->flip_ns <= prev->flip_ns)
		return 0;
	for (int cpu = 0; cpu < n; cpu++) {
		__u64 span = flips;

		if (prev_cut[cpu] && cut[cpu] > prev_cut[cpu] &&
		    cut[cpu] - prev_cut[cpu] >= lo && cut[cpu] - prev_cut[cpu] <= hi)
			span = cut[cpu] - prev_cut[cpu];
		sum += (double)span;
	}
	return sum / n / 1e9;
}
