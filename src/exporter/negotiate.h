/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The exposition formats' media types, and the choice between them. */
#ifndef __TDTOP_NEGOTIATE_H
#define __TDTOP_NEGOTIATE_H

#include <stdbool.h>

#define PROM_TEXT_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define PROM_OPENMETRICS_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"

/*
 * Does an HTTP Accept header prefer OpenMetrics (1.0.0 or unversioned)
 * to the text format? Media ranges are weighed by their q; NULL, empty or
 * malformed headers give the text format.
 */
bool prom_wants_openmetrics(const char *accept);

#endif /* __TDTOP_NEGOTIATE_H */
