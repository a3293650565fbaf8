// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * HTTP content negotiation: which exposition format an Accept header asks
 * for, and whether Accept-Encoding takes gzip.
 */
#include <string.h>
#include <strings.h>
#include "exporter/negotiate.h"

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static const char *trim_end(const char *start, const char *end)
{
	while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	return end;
}

static bool token_is(const char *s, const char *end, const char *want)
{
	size_t n = strlen(want);

	return (size_t)(end - s) == n && !strncasecmp(s, want, n);
}

/* RFC 9110 qvalue: 0, 1 or a fraction of at most three digits. */
static bool parse_q(const char *s, const char *end, double *q)
{
	double v = 0, scale = 0.1;

	if (s == end || (*s != '0' && *s != '1'))
		return false;
	v = *s++ - '0';
	if (s < end && *s == '.') {
		s++;
		for (int i = 0; s < end && i < 3 && *s >= '0' && *s <= '9'; i++, s++) {
			v += (*s - '0') * scale;
			scale /= 10;
		}
	}
	if (s != end || v > 1)
		return false;
	*q = v;
	return true;
}

/*
 * One media range: its type and the q and version parameters. False when
 * it does not parse (then it is ignored).
 */
static bool media_range(const char *s, const char *end, const char **type_end, double *q,
			const char **ver, const char **ver_end)
{
	const char *p = memchr(s, ';', (size_t)(end - s));

	*type_end = trim_end(s, p ? p : end);
	*q = 1;
	*ver = *ver_end = NULL;
	while (p) {
		const char *name = skip_ws(p + 1, end), *eq, *val, *next;

		next = memchr(name, ';', (size_t)(end - name));
		eq = memchr(name, '=', (size_t)((next ? next : end) - name));
		if (!eq)
			return false;
		val = skip_ws(eq + 1, next ? next : end);
		if (token_is(name, trim_end(name, eq), "q")) {
			if (!parse_q(val, trim_end(val, next ? next : end), q))
				return false;
		} else if (token_is(name, trim_end(name, eq), "version")) {
			*ver = val;
			*ver_end = trim_end(val, next ? next : end);
		}
		p = next;
	}
	return true;
}

/*
 * Each element of a comma-separated list that parses as a media range or
 * coding with parameters, given to *fn*; malformed ones are ignored.
 */
static void each_range(const char *list, void (*fn)(void *ctx, const char *s, const char *end,
						    double q, const char *ver,
						    const char *ver_end),
		       void *ctx)
{
	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ','), *start, *type_end, *ver, *ver_end;
		double q;

		if (!end)
			end = p + strlen(p);
		start = skip_ws(p, end);
		if (start < end && media_range(start, end, &type_end, &q, &ver, &ver_end))
			fn(ctx, start, type_end, q, ver, ver_end);
		p = *end ? end + 1 : end;
	}
}

struct format_q {
	double om, text;
};

static void weigh_format(void *ctx, const char *s, const char *end, double q, const char *ver,
			 const char *ver_end)
{
	struct format_q *w = ctx;

	if (token_is(s, end, "application/openmetrics-text")) {
		if (!ver || token_is(ver, ver_end, "1.0.0") || token_is(ver, ver_end, "0.0.1"))
			w->om = q > w->om ? q : w->om;
	} else if (token_is(s, end, "text/plain")) {
		if (!ver || token_is(ver, ver_end, "0.0.4"))
			w->text = q > w->text ? q : w->text;
	} else if (token_is(s, end, "*/*") || token_is(s, end, "text/*")) {
		w->text = q > w->text ? q : w->text;
	}
}

bool prom_wants_openmetrics(const char *accept)
{
	struct format_q w = {};

	each_range(accept, weigh_format, &w);
	return w.om > 0 && w.om >= w.text;
}

/* q of gzip itself (-1 unnamed) and of "*" */
struct gzip_q {
	double gzip, any;
};

static void weigh_coding(void *ctx, const char *s, const char *end, double q, const char *ver,
			 const char *ver_end)
{
	struct gzip_q *w = ctx;

	if (token_is(s, end, "gzip") || token_is(s, end, "x-gzip"))
		w->gzip = q > w->gzip ? q : w->gzip;
	else if (token_is(s, end, "*"))
		w->any = q > w->any ? q : w->any;
}

bool prom_accepts_gzip(const char *accept_encoding)
{
	struct gzip_q w = { -1, 0 };

	each_range(accept_encoding, weigh_coding, &w);
	return w.gzip > 0 || (w.gzip < 0 && w.any > 0);
}
