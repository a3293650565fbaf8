// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Formatting helpers shared by the outputs: numbers that parse back the
 * same in any locale, compact human counts, UTF-8 checks.
 */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/format.h"

/*
 * A program that calls setlocale(LC_ALL, "") (curses does for UTF-8)
 * gets "1,5" from printf in many locales, which breaks JSON and CSV.
 */
static void fix_decimal_point(char *buf)
{
	const char *dp = localeconv()->decimal_point;
	size_t dlen;
	char *p;

	if (!dp || !strcmp(dp, ".") || !*dp)
		return;
	dlen = strlen(dp);
	p = strstr(buf, dp);
	if (!p)
		return;
	*p = '.';
	memmove(p + 1, p + dlen, strlen(p + dlen) + 1);
}

/*
 * The fewest of 15..17 significant digits that strtod() reads back as *v*:
 * any double of at most 15 digits prints as those digits at precision 15.
 */
static int shortest_g(char *buf, size_t size, double v)
{
	int len = 0;

	for (int prec = 15; prec <= 17; prec++) {
		len = snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return len;
}

/* *len* as snprintf() returned it: the length of *buf* with the decimal
 * point fixed, or 0 and "" when it did not fit. */
static int finish_number(char *buf, size_t size, int len)
{
	if (len < 0 || (size_t)len >= size) {
		buf[0] = '\0';
		return 0;
	}
	fix_decimal_point(buf);
	return (int)strlen(buf);
}

/* Whether *v* is a number to print into *buf*; "" for NaN and infinities. */
static bool number_to_print(char *buf, size_t size, double v)
{
	if (!size)
		return false;
	buf[0] = '\0';
	return isfinite(v);
}

int fmt_double(char *buf, size_t size, double v)
{
	int len;

	if (!number_to_print(buf, size, v))
		return 0;
	if (v == trunc(v) && fabs(v) < 1e21)
		/* avoid "-0", which some consumers read as a float */
		len = snprintf(buf, size, "%.0f", v == 0 ? 0.0 : v);
	else
		len = shortest_g(buf, size, v);
	return finish_number(buf, size, len);
}

int fmt_real(char *buf, size_t size, double v)
{
	int len;

	if (!number_to_print(buf, size, v))
		return 0;
	len = finish_number(buf, size, shortest_g(buf, size, v));
	if (len && !strpbrk(buf, ".e")) {
		if ((size_t)len + 2 >= size) {
			buf[0] = '\0';
			return 0;
		}
		memcpy(buf + len, ".0", 3);
		len += 2;
	}
	return len;
}

double fmt_round(double v, int decimals)
{
	static const double pow10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
	double scale = pow10[decimals < 0 ? 0 : decimals > 9 ? 9 : decimals];

	/* past 2^53 every double is an integer: nothing to round */
	if (!isfinite(v) || fabs(v) * scale >= 9007199254740992.0)
		return v;
	return round(v * scale) / scale;
}

const char *fmt_compact(char *buf, size_t size, double v)
{
	static const char suffix[] = "KMGTPE";
	double s = v;
	int i;

	if (!size)
		return buf;
	if (!isfinite(v) || v < 0) {
		snprintf(buf, size, "-");
		return buf;
	}
	if (v < 9999.5) {
		snprintf(buf, size, "%.0f", v);
		return buf;
	}
	/* Step up while three significant digits would round to 1000. */
	for (i = 0; i < (int)sizeof(suffix) - 2; i++) {
		s /= 1000.0;
		if (s < 999.5)
			break;
	}
	if (i == (int)sizeof(suffix) - 2)
		s /= 1000.0;
	if (s < 9.995)
		snprintf(buf, size, "%.2f%c", s, suffix[i]);
	else if (s < 99.95)
		snprintf(buf, size, "%.1f%c", s, suffix[i]);
	else
		snprintf(buf, size, "%.0f%c", s, suffix[i]);
	fix_decimal_point(buf);
	return buf;
}

const char *fmt_fixed(char *buf, size_t size, double v, int decimals)
{
	if (!size)
		return buf;
	if (isfinite(v))
		snprintf(buf, size, "%.*f", decimals, v);
	else
		snprintf(buf, size, "-");
	fix_decimal_point(buf);
	return buf;
}

int utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	int need;

	if (c < 0x80)
		return 1;
	if (c < 0xc2)		/* continuation byte or overlong 2-byte lead */
		return -1;
	if (c < 0xe0) {
		need = 1;
	} else if (c < 0xf0) {
		need = 2;
		if (c == 0xe0)		/* overlong */
			lo = 0xa0;
		else if (c == 0xed)	/* UTF-16 surrogates */
			hi = 0x9f;
	} else if (c < 0xf5) {
		need = 3;
		if (c == 0xf0)		/* overlong */
			lo = 0x90;
		else if (c == 0xf4)	/* above U+10FFFF */
			hi = 0x8f;
	} else {
		return -1;
	}
	for (int i = 1; i <= need; i++) {
		if ((size_t)i >= n || s[i] < lo || s[i] > hi)
			return -i;
		lo = 0x80;
		hi = 0xbf;
	}
	return need + 1;
}

void fmt_comm_ascii(char *dst, size_t size, const char *comm, size_t len)
{
	size_t i;

	if (!size)
		return;
	for (i = 0; i < len && i + 1 < size && comm[i]; i++) {
		unsigned char c = comm[i];

		dst[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	dst[i] = '\0';
}

/*
 * A field's bytes that a line-oriented reader must not see raw: control
 * bytes and 0x7f become \xNN, and so do bytes that are not well-formed
 * UTF-8 (the file stays valid UTF-8). '\\' is doubled so every escape
 * reads back unambiguously. Well-formed UTF-8 is copied. The escapes hold
 * no comma, quote or space, so the quoting decision can be made on the
 * raw bytes (RFC 4180: quote a field holding a comma, a quote or edge
 * spaces, double the quotes inside; CR and LF never reach the file raw).
 */
void fmt_csv_field(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	bool quote;
	size_t i = 0;

	if (!len)
		return;
	quote = memchr(s, ',', len) || memchr(s, '"', len) || s[0] == ' ' || s[len - 1] == ' ';
	if (quote)
		fputc('"', f);
	while (i < len) {
		int n = utf8_seq_len(p + i, len - i);

		if (p[i] == '\\' || p[i] == '"') {
			fputc(p[i], f);
			fputc(p[i], f);
			i++;
		} else if (n < 0 || p[i] < 0x20 || p[i] == 0x7f) {
			fprintf(f, "\\x%02x", p[i]);
			i++;
		} else {
			fwrite(p + i, 1, (size_t)n, f);
			i += (size_t)n;
		}
	}
	if (quote)
		fputc('"', f);
}

void fmt_csv_double(FILE *f, double v)
{
	char num[FMT_DOUBLE_LEN];

	fmt_double(num, sizeof(num), v);
	fputs(num, f);
}
