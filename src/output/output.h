/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Batch outputs: one struct interval at a time as plain text, JSON Lines
 * or CSV, flushed after every interval so pipes see it at once.
 */
#ifndef __TDTOP_OUTPUT_H
#define __TDTOP_OUTPUT_H

#include <stdio.h>
#include "rows/model.h"

/*
 * The JSON and CSV contract (docs/output.md): the "schema" of every
 * interval, raised when a field is renamed, removed or changes meaning,
 * and the decimals each kind of number is rounded to.
 */
#define OUTPUT_SCHEMA 1
#define OUTPUT_DEC_FRACTION 4	/* TopDown fractions, running shares */
#define OUTPUT_DEC_RATIO 4	/* IPC, slots after / before */
#define OUTPUT_DEC_PCT 2	/* percentages */
#define OUTPUT_DEC_SECONDS 6	/* ts, interval_s: microseconds */
#define OUTPUT_DEC_NS 1		/* tdtop's cost per context switch */

enum output_format {
	OUTPUT_TEXT,
	OUTPUT_JSON,
	OUTPUT_CSV,
};

struct output;

/* A writer of *fmt* to *f* (not closed by output__free()). NULL on ENOMEM. */
struct output *output__new(enum output_format fmt, FILE *f);

/*
 * Write one interval: its header (text), interval object (JSON) or, the
 * first time and whenever the columns change, the column header (CSV),
 * then iv->rows in their order. iv->notice is written in the first
 * interval and when it changes, not again while it stays the same.
 * Returns -1 when writing failed (e.g. EPIPE, ENOSPC), else 0.
 */
int output__interval(struct output *o, const struct interval *iv);

/* Accepts NULL. */
void output__free(struct output *o);

/* "text", "json" or "csv" into *fmt*: 0, else -1. */
int output_format_parse(const char *s, enum output_format *fmt);

#endif /* __TDTOP_OUTPUT_H */
