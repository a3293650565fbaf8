// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Streaming JSON writer: a stack of open containers decides where commas
 * go; string escaping guarantees valid output for arbitrary bytes.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "util/format.h"
#include "util/json.h"

struct json_writer {
	FILE *f;
	int depth;
	bool failed;
	bool after_key;				/* a key awaits its value */
	bool is_object[JSON_MAX_DEPTH];
	bool nonempty[JSON_MAX_DEPTH];		/* a comma precedes the next member */
};

/* The longest escape of one unit: "\u00XX" or "\ufffd", or 4 UTF-8 bytes. */
#define ESC_MAX 6

/* The letter of a two-character escape, 0 when there is none. */
static char short_escape(unsigned char c)
{
	switch (c) {
	case '"':
		return '"';
	case '\\':
		return '\\';
	case '\b':
		return 'b';
	case '\f':
		return 'f';
	case '\n':
		return 'n';
	case '\r':
		return 'r';
	case '\t':
		return 't';
	default:
		return 0;
	}
}

/*
 * Escape the unit (byte or UTF-8 sequence) at *s* into *out*; returns the
 * bytes of *s* consumed and sets *outlen*.
 */
static size_t escape_unit(const unsigned char *s, size_t len, char out[ESC_MAX + 1],
			  size_t *outlen)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char c = s[0];
	char e;
	int n;

	e = short_escape(c);
	if (e) {
		out[0] = '\\';
		out[1] = e;
		*outlen = 2;
		return 1;
	}
	if (c < 0x20 || c == 0x7f) {
		memcpy(out, "\\u00", 4);
		out[4] = hex[c >> 4];
		out[5] = hex[c & 0xf];
		*outlen = 6;
		return 1;
	}
	n = utf8_seq_len(s, len);
	if (n < 0) {
		memcpy(out, "\\ufffd", 6);
		*outlen = 6;
		return (size_t)-n;
	}
	memcpy(out, s, (size_t)n);
	*outlen = (size_t)n;
	return (size_t)n;
}

/* Bytes that need no escaping and are complete characters on their own. */
static bool plain_byte(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

size_t json_escape(char *buf, size_t size, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t need = 0, pos = 0, i = 0;
	bool full = false;

	while (i < len) {
		char unit[ESC_MAX + 1];
		size_t ulen;

		i += escape_unit(p + i, len - i, unit, &ulen);
		if (!full && pos + ulen < size) {
			memcpy(buf + pos, unit, ulen);
			pos += ulen;
		} else {
			full = true;
		}
		need += ulen;
	}
	if (size)
		buf[pos] = '\0';
	return need;
}

struct json_writer *json__new(FILE *f)
{
	struct json_writer *w = calloc(1, sizeof(*w));

	if (w)
		w->f = f;
	return w;
}

void json__free(struct json_writer *w)
{
	free(w);
}

/* Writes the separator a new value needs; false (and failed) on misuse. */
static bool begin_value(struct json_writer *w)
{
	int top = w->depth - 1;

	if (w->failed)
		return false;
	if (top < 0)
		return true;
	if (w->is_object[top]) {
		if (!w->after_key) {
			w->failed = true;
			return false;
		}
		w->after_key = false;
		return true;
	}
	if (w->nonempty[top])
		fputc(',', w->f);
	w->nonempty[top] = true;
	return true;
}

static void write_string(struct json_writer *w, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	fputc('"', w->f);
	while (i < len) {
		char unit[ESC_MAX + 1];
		size_t run = 0, ulen;

		while (i + run < len && plain_byte(p[i + run]))
			run++;
		if (run) {
			fwrite(p + i, 1, run, w->f);
			i += run;
			continue;
		}
		i += escape_unit(p + i, len - i, unit, &ulen);
		fwrite(unit, 1, ulen, w->f);
	}
	fputc('"', w->f);
}

static void begin(struct json_writer *w, bool object)
{
	if (!begin_value(w))
		return;
	if (w->depth == JSON_MAX_DEPTH) {
		w->failed = true;
		return;
	}
	w->is_object[w->depth] = object;
	w->nonempty[w->depth] = false;
	w->depth++;
	fputc(object ? '{' : '[', w->f);
}

static void end(struct json_writer *w, bool object)
{
	if (w->failed)
		return;
	if (!w->depth || w->is_object[w->depth - 1] != object || w->after_key) {
		w->failed = true;
		return;
	}
	w->depth--;
	fputc(object ? '}' : ']', w->f);
}

void json__begin_object(struct json_writer *w)
{
	begin(w, true);
}

void json__end_object(struct json_writer *w)
{
	end(w, true);
}

void json__begin_array(struct json_writer *w)
{
	begin(w, false);
}

void json__end_array(struct json_writer *w)
{
	end(w, false);
}

void json__key(struct json_writer *w, const char *key)
{
	int top = w->depth - 1;

	if (w->failed)
		return;
	if (top < 0 || !w->is_object[top] || w->after_key) {
		w->failed = true;
		return;
	}
	if (w->nonempty[top])
		fputc(',', w->f);
	w->nonempty[top] = true;
	write_string(w, key, strlen(key));
	fputc(':', w->f);
	w->after_key = true;
}

void json__string_n(struct json_writer *w, const char *s, size_t len)
{
	if (begin_value(w))
		write_string(w, s, len);
}

void json__string(struct json_writer *w, const char *s)
{
	json__string_n(w, s, strlen(s));
}

void json__int(struct json_writer *w, int64_t v)
{
	if (begin_value(w))
		fprintf(w->f, "%" PRId64, v);
}

void json__uint(struct json_writer *w, uint64_t v)
{
	if (begin_value(w))
		fprintf(w->f, "%" PRIu64, v);
}

/* *v* in the form *fmt* gives, null where it gives none (NaN, infinities). */
static void write_number(struct json_writer *w, double v,
			 int (*fmt)(char *buf, size_t size, double v))
{
	char buf[FMT_DOUBLE_LEN];

	if (!begin_value(w))
		return;
	if (fmt(buf, sizeof(buf), v))
		fputs(buf, w->f);
	else
		fputs("null", w->f);
}

void json__double(struct json_writer *w, double v)
{
	write_number(w, v, fmt_double);
}

void json__real(struct json_writer *w, double v)
{
	write_number(w, v, fmt_real);
}

void json__bool(struct json_writer *w, bool v)
{
	if (begin_value(w))
		fputs(v ? "true" : "false", w->f);
}

void json__null(struct json_writer *w)
{
	if (begin_value(w))
		fputs("null", w->f);
}

void json__member_string(struct json_writer *w, const char *key, const char *s)
{
	json__key(w, key);
	json__string(w, s);
}

void json__member_int(struct json_writer *w, const char *key, int64_t v)
{
	json__key(w, key);
	json__int(w, v);
}

void json__member_uint(struct json_writer *w, const char *key, uint64_t v)
{
	json__key(w, key);
	json__uint(w, v);
}

void json__member_double(struct json_writer *w, const char *key, double v)
{
	json__key(w, key);
	json__double(w, v);
}

void json__member_real(struct json_writer *w, const char *key, double v)
{
	json__key(w, key);
	json__real(w, v);
}

void json__member_bool(struct json_writer *w, const char *key, bool v)
{
	json__key(w, key);
	json__bool(w, v);
}

void json__newline(struct json_writer *w)
{
	if (w->failed)
		return;
	if (w->depth) {
		w->failed = true;
		return;
	}
	fputc('\n', w->f);
}

int json__depth(const struct json_writer *w)
{
	return w->depth;
}

bool json__ok(const struct json_writer *w)
{
	return !w->failed && !ferror(w->f);
}
