// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <string.h>
#include <stdio.h>
#include "live.h"

int live__open(struct live *l, const struct collector_opts *o, char *err, size_t errlen)
{
	memset(l, 0, sizeof(*l));
	return collector__open(&l->col, o, err, errlen);
}

int live__next(struct live *l, struct sample *out, char *err, size_t errlen)
{
	int ret = collector__snapshot(l->col, &l->snap);

	if (ret) {
		snprintf(err, errlen, "failed to read the BPF maps: %s", strerror(-ret));
		return -1;
	}
	ret = tracker__update(&l->tracker, &l->snap, collector__ncpus(l->col), out);
	if (ret < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* reported for the last time: free their kernel entries */
	collector__forget(l->col, l->tracker.gone, l->tracker.nr_gone);
	return ret;
}

void live__close(struct live *l)
{
	collector__free(l->col);
	tracker__free(&l->tracker);
	snapshot__free(&l->snap);
	memset(l, 0, sizeof(*l));
}
