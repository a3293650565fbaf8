// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * HTTP/1.x request heads: finding where one ends within the limits, and
 * parsing it strictly (RFC 9112), since nothing the exporter serves needs a
 * lenient reading of a malformed request.
 */
#include <string.h>
#include <strings.h>
#include "exporter/httpreq.h"

/* Empty lines a request may start with (RFC 9112 2.2): a CRLF after a body. */
static size_t skip_empty_lines(const char *buf, size_t len)
{
	size_t i = 0;

	while (i < len && (buf[i] == '\n' || (buf[i] == '\r' && i + 1 < len && buf[i + 1] == '\n')))
		i += buf[i] == '\r' ? 2 : 1;
	return i;
}

/* The end of the first empty line at or after *from*, or 0. */
static size_t empty_line_end(const char *buf, size_t len, size_t from)
{
	for (const char *p = buf + from; p < buf + len;) {
		const char *nl = memchr(p, '\n', (size_t)(buf + len - p));
		size_t next;

		if (!nl)
			return 0;
		next = (size_t)(nl - buf) + 1;
		if (next < len && buf[next] == '\n')
			return next + 1;
		if (next + 1 < len && buf[next] == '\r' && buf[next + 1] == '\n')
			return next + 2;
		p = nl + 1;
	}
	return 0;
}

long http_head_end(const char *buf, size_t len)
{
	size_t start = skip_empty_lines(buf, len), end;
	const char *nl = start < len ? memchr(buf + start, '\n', len - start) : NULL;

	if (!nl)
		return len - start > HTTP_MAX_LINE ? -414 : len > HTTP_MAX_HEAD ? -431 : 0;
	if ((size_t)(nl - buf) - start > HTTP_MAX_LINE)
		return -414;
	/* the request line's own newline may start the empty line */
	end = empty_line_end(buf, len, (size_t)(nl - buf));
	if (!end)
		return len > HTTP_MAX_HEAD ? -431 : 0;
	return end > HTTP_MAX_HEAD ? -431 : (long)end;
}

/*
 * The next line from *p*, terminated in place; *p* moves past it. NULL
 * for a bare CR or a control character other than HTAB (400).
 */
static char *next_line(char **p, char *end)
{
	char *line = *p, *nl = memchr(line, '\n', (size_t)(end - line)), *stop;

	if (!nl)
		return NULL;
	stop = nl > line && nl[-1] == '\r' ? nl - 1 : nl;
	for (char *c = line; c < stop; c++)
		if ((unsigned char)*c < 0x20 ? *c != '\t' : *c == 0x7f)
			return NULL;
	*stop = '\0';
	*p = nl + 1;
	return line;
}

/* RFC 9110 tchar: what a method or field name is made of. */
static bool is_tchar(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

static bool is_token(const char *s, const char *end)
{
	if (s == end)
		return false;
	for (; s < end; s++)
		if (!is_tchar((unsigned char)*s))
			return false;
	return true;
}

/* The path of an origin-form ("/p?q") or absolute-form ("http://h/p") target. */
static char *target_path(char *target)
{
	char *p;

	if (*target == '/' || !strcmp(target, "*"))
		return target;
	if (strncasecmp(target, "http://", 7) && strncasecmp(target, "https://", 8))
		return NULL;
	p = strchr(strstr(target, "//") + 2, '/');
	/* "http://host" names the root; its path is "/" */
	return p ? p : (char *)"/";
}

static int parse_request_line(struct http_request *rq, char *line)
{
	char *sp1 = strchr(line, ' '), *sp2, *target, *q;
	size_t args = 1;

	if (!sp1 || !is_token(line, sp1))
		return -400;
	sp2 = strchr(sp1 + 1, ' ');
	if (!sp2 || sp2 == sp1 + 1 || strchr(sp2 + 1, ' '))
		return -400;
	*sp1 = *sp2 = '\0';
	rq->method = !strcmp(line, "GET") ? HTTP_GET : !strcmp(line, "HEAD") ? HTTP_HEAD
									      : HTTP_OTHER;
	if (strncmp(sp2 + 1, "HTTP/", 5) || strlen(sp2 + 1) != 8 || sp2[7] != '.' ||
	    sp2[6] < '0' || sp2[6] > '9' || sp2[8] < '0' || sp2[8] > '9')
		return -400;
	if (sp2[6] != '1')
		return -505;
	/* a later 1.x is read as the 1.1 it builds on (RFC 9110 2.5) */
	rq->minor = sp2[8] > '0';
	target = target_path(sp1 + 1);
	if (!target)
		return -400;
	q = strchr(target, '?');
	if (q) {
		*q++ = '\0';
		for (const char *a = strchr(q, '&'); a; a = strchr(a + 1, '&'))
			args++;
		if (args > HTTP_MAX_ARGS)
			return -414;
	}
	rq->path = target;
	return 0;
}

/* "name: value" with the value's surrounding whitespace dropped. */
static int parse_field(struct http_field *f, char *line)
{
	char *colon = strchr(line, ':'), *v, *end;

	/* no whitespace before the colon (RFC 9112 5.1), no obsolete line folding */
	if (!colon || !is_token(line, colon))
		return -400;
	*colon = '\0';
	v = colon + 1;
	while (*v == ' ' || *v == '\t')
		v++;
	end = v + strlen(v);
	while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	f->name = line;
	f->value = v;
	return 0;
}

static bool has_token(const char *list, const char *token)
{
	size_t n = strlen(token);

	for (const char *p = list; *p;) {
		p += strspn(p, " \t,");
		if (!strncasecmp(p, token, n) && strchr(" \t,", p[n]))
			return true;
		p += strcspn(p, ",");
	}
	return false;
}

/* What the fields say about the request as a whole. */
static int check_fields(struct http_request *rq)
{
	const char *cl = NULL;
	int hosts = 0;

	for (size_t i = 0; i < rq->nr_fields; i++) {
		const struct http_field *f = &rq->fields[i];

		if (!strcasecmp(f->name, "Host")) {
			hosts++;
		} else if (!strcasecmp(f->name, "Content-Length")) {
			if (!*f->value || f->value[strspn(f->value, "0123456789")] ||
			    (cl && strcmp(cl, f->value)))
				return -400;
			cl = f->value;
			rq->has_body |= f->value[strspn(f->value, "0")] != '\0';
		} else if (!strcasecmp(f->name, "Transfer-Encoding")) {
			rq->has_body = true;
		} else if (!strcasecmp(f->name, "Connection") && has_token(f->value, "close")) {
			rq->keep_alive = false;
		}
	}
	/* RFC 9112 3.2: HTTP/1.1 needs exactly one Host */
	if (hosts > 1 || (rq->minor == 1 && !hosts))
		return -400;
	/* the body is not read, so nothing after it can be */
	if (rq->has_body)
		rq->keep_alive = false;
	return 0;
}

int http_request__parse(struct http_request *rq, char *buf, size_t len)
{
	char *p = buf + skip_empty_lines(buf, len), *end = buf + len, *line;
	int ret;

	memset(rq, 0, sizeof(*rq));
	line = next_line(&p, end);
	if (!line)
		return -400;
	ret = parse_request_line(rq, line);
	if (ret)
		return ret;
	rq->keep_alive = rq->minor == 1;
	while ((line = next_line(&p, end)) && *line) {
		if (rq->nr_fields == HTTP_MAX_FIELDS)
			return -431;
		ret = parse_field(&rq->fields[rq->nr_fields++], line);
		if (ret)
			return ret;
	}
	if (!line)
		return -400;
	return check_fields(rq);
}

const char *http_request__field(const struct http_request *rq, const char *name, char *buf,
				size_t size)
{
	const char *one = NULL;
	size_t len = 0, n = 0;

	for (size_t i = 0; i < rq->nr_fields; i++) {
		if (!strcasecmp(rq->fields[i].name, name)) {
			one = rq->fields[i].value;
			n++;
		}
	}
	if (n < 2)
		return one;
	for (size_t i = 0; i < rq->nr_fields; i++) {
		const char *v = rq->fields[i].value;
		size_t vlen = strlen(v), sep = len ? 2 : 0;

		if (strcasecmp(rq->fields[i].name, name))
			continue;
		if (len + sep + vlen >= size)
			return NULL;
		memcpy(buf + len, ", ", sep);
		memcpy(buf + len + sep, v, vlen);
		len += sep + vlen;
	}
	buf[len] = '\0';
	return buf;
}
