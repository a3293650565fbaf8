// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>
#include "rows/model.h"

double delta_scaled(const struct delta *d)
{
	if (d->running == d->enabled)
		return (double)d->count;
	if (!d->running)
		return d->count ? (double)d->count : NAN;
	return (double)d->count * ((double)d->enabled / (double)d->running);
}

double delta_running_share(const struct delta *d)
{
	if (!d->enabled || d->running >= d->enabled)
		return 1.0;
	return (double)d->running / (double)d->enabled;
}
