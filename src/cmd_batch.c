// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tdtop in batch mode: the interval loop, each interval's rows to stdout as text, JSON or CSV. */
#include <stdio.h>
#include "commands.h"
#include "output/output.h"
#include "startup.h"
#include "util/errmsg.h"

/* 1 when the reader went away: the run is over, quietly. */
static int batch_emit(void *out, const struct interval *iv, char *err, size_t errlen)
{
	return output__interval(out, iv) ? 1 : 0;
}

int cmd_batch(const struct options *o, const char *sysfs, char *err, size_t errlen)
{
	struct output *out = NULL;
	struct session s;
	int ret;

	ret = session__open(&s, o, sysfs, err, errlen);
	if (!ret)
		ret = session__start(&s, o, sysfs, err, errlen);
	if (ret)
		goto out;
	session__print_notice(&s);
	out = output__new(o->format, stdout);
	if (!out) {
		ret = errmsg(err, errlen, EXIT_RUNTIME, "out of memory");
		goto out;
	}
	ret = session__run_rows(&s, o, batch_emit, out, err, errlen);
out:
	session__close(&s);
	output__free(out);
	return ret;
}
