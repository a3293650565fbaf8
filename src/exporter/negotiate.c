// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* HTTP content negotiation: which exposition format an Accept header asks for. */
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

bool prom_wants_openmetrics(const char *accept)
{
	double q_om = 0, q_text = 0;
	const char *p = accept;

	if (!accept)
		return false;
	while (*p) {
		const char *end = strchr(p, ','), *start, *type_end, *ver, *ver_end;
		double q;

		if (!end)
			end = p + strlen(p);
		start = skip_ws(p, end);
		if (start < end && media_range(start, end, &type_end, &q, &ver, &ver_end)) {
			if (token_is(start, type_end, "application/openmetrics-text")) {
				if (!ver || token_is(ver, ver_end, "1.0.0") ||
				    token_is(ver, ver_end, "0.0.1"))
					q_om = q > q_om ? q : q_om;
			} else if (token_is(start, type_end, "text/plain")) {
				if (!ver || token_is(ver, ver_end, "0.0.4"))
					q_text = q > q_text ? q : q_text;
			} else if (token_is(start, type_end, "*/*") ||
				   token_is(start, type_end, "text/*")) {
				q_text = q > q_text ? q : q_text;
			}
		}
		p = *end ? end + 1 : end;
	}
	return q_om > 0 && q_om >= q_text;
}
