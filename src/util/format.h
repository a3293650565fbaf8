/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Formatting helpers shared by the outputs: locale-independent numbers,
 * compact human counts, table cells, UTF-8 validation.
 */
#ifndef __TDTOP_FORMAT_H
#define __TDTOP_FORMAT_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <linux/types.h>

/* Buffer sizes that always hold fmt_double() / fmt_real() / fmt_compact() results. */
#define FMT_DOUBLE_LEN 32
#define FMT_COMPACT_LEN 16

/*
 * Write finite *v* into *buf* so that strtod() gives it back: integral
 * values below 1e21 without exponent or fraction, others with the fewest
 * of 15..17 significant digits that round-trip. The decimal point is
 * always '.', whatever LC_NUMERIC says. Non-finite values give "".
 * Returns the length written.
 */
int fmt_double(char *buf, size_t size, double v);

/*
 * *v* rounded to *decimals* (0..9) digits after the point, so that
 * fmt_double() writes no more: 0.050000000000000044 becomes 0.05. A
 * value too large for it to matter, and NaN, come back as they are.
 */
double fmt_round(double v, int decimals);

/*
 * *v* as a real that reads back as exactly *v*, also for a parser that
 * tells reals from integers (a JSON one): the fewest of 15..17 significant
 * digits in %g form, with ".0" added where that has neither a point nor an
 * exponent ("1.0", "0.1", "1e+20", "-0.0"). '.' whatever LC_NUMERIC says;
 * non-finite values give "". Returns the length written.
 */
int fmt_real(char *buf, size_t size, double v);

/*
 * Compact human count, at most 5 characters: integers below 10000 as is
 * ("1234"), then three significant digits with an SI suffix K, M, G, T,
 * P, E (powers of 1000: "12.3K", "4.56M", "789G"). Every event uses the
 * same formatter, time-valued ones (cpu-clock, in ns) included, so the
 * columns compare alike. NaN (and other non-finite values) give "-".
 * Returns *buf*.
 */
const char *fmt_compact(char *buf, size_t size, double v);

/*
 * A table cell's number: *v* with *decimals* digits after the point ('.'
 * whatever LC_NUMERIC says), "-" when not finite. Returns *buf*.
 */
const char *fmt_fixed(char *buf, size_t size, double v, int decimals);

/*
 * Length of the well-formed UTF-8 sequence at *s* (1..4), looking at no
 * more than *n* (>= 1) bytes. For an ill-formed one (overlong, surrogate,
 * above U+10FFFF, stray continuation, truncated) returns minus the length
 * of its maximal subpart, the bytes to replace by one U+FFFD (Unicode's
 * recommended practice).
 */
int utf8_seq_len(const unsigned char *s, size_t n);

/*
 * Copy *comm* (at most *len* bytes, stops at NUL) into *dst* for a
 * terminal column: bytes outside printable ASCII become '?', since a
 * control byte could drive the terminal and a multi-byte character would
 * break the column widths.
 */
void fmt_comm_ascii(char *dst, size_t size, const char *comm, size_t len);

/*
 * One CSV field: quoted as RFC 4180 wants, control bytes and invalid
 * UTF-8 written as \\xNN so a field never breaks a line.
 */
void fmt_csv_field(FILE *f, const char *s, size_t len);

/* One CSV number as fmt_double() writes it: an empty field when not finite. */
void fmt_csv_double(FILE *f, double v);

#endif /* __TDTOP_FORMAT_H */
