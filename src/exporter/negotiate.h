/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The exposition formats' media types, the choice between them, and of gzip. */
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

/*
 * Does an HTTP Accept-Encoding header accept gzip (or x-gzip, or "*"
 * without gzip refused) with a q above 0? NULL or malformed: no.
 */
bool prom_accepts_gzip(const char *accept_encoding);

#endif /* __TDTOP_NEGOTIATE_H */
