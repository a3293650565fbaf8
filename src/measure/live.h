/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Live measurement as a stream of samples: the collector's snapshots
 * turned into per-interval deltas, with exited tasks freed in the kernel
 * once reported.
 */
#ifndef __TDTOP_LIVE_H
#define __TDTOP_LIVE_H

#include "measure/collector.h"
#include "rows/sample.h"
#include "measure/snapshot.h"
#include "measure/tracker.h"

struct live {
	struct collector *col;
	struct tracker tracker;
	struct snapshot snap;
	__u64 bpf_ns, bpf_runs;	/* when the statistics were switched on */
	bool sampling;		/* the statistics are on for this interval */
	bool init_pid_ns;	/* task ids can be checked with kill(tid, 0) */
	unsigned long intervals;
	unsigned long sweeps;	/* updates so far: which tenth sweep_dead checks */
	double self_cpu_s, mono_s;
	double bpf_ns_per_switch; /* last sampled interval; NAN unknown */
	double self_cpu_pct;
};

/* Load, attach and start counting. -errno with a message in *err*. */
int live__open(struct live *l, const struct collector_opts *o, char *err, size_t errlen);

/*
 * What happened since the previous call: 0 with *out* filled, 1 for the
 * first call (a baseline, nothing to report), -1 with a message in *err*.
 */
int live__next(struct live *l, struct sample *out, char *err, size_t errlen);

void live__close(struct live *l);

#endif /* __TDTOP_LIVE_H */
