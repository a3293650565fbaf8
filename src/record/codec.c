// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Value encodings of recordings and the strict field readers. The parser
 * (jansson) only holds valid UTF-8 and signed 64-bit integers, so comm
 * bytes and large counters need an encoding of their own to survive
 * exactly.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/errmsg.h"
#include "record/codec.h"

int rec_field_err(const struct rec_ctx *c, const char *name, const char *fmt, ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!c->line)
		return errmsg(c->err, c->errlen, -1, "field '%s%s' %s", c->prefix, name, what);
	return errmsg(c->err, c->errlen, -1, "line %lu: field '%s%s' %s", c->line, c->prefix, name,
			what);
}

static bool plain_byte(unsigned char b)
{
	return b >= 0x20 && b <= 0x7e && b != '%';
}

void rec_put_str(struct json_writer *w, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	char buf[3 * REC_MAX_STR];
	size_t n = 0;

	for (size_t i = 0; s[i] && i < REC_MAX_STR; i++) {
		unsigned char b = (unsigned char)s[i];

		if (plain_byte(b)) {
			buf[n++] = (char)b;
		} else {
			buf[n++] = '%';
			buf[n++] = hex[b >> 4];
			buf[n++] = hex[b & 0xf];
		}
	}
	json__string_n(w, buf, n);
}

void rec_put_u64(struct json_writer *w, __u64 v)
{
	char digits[24];

	if (v <= INT64_MAX) {
		json__uint(w, v);
		return;
	}
	snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
	json__string(w, digits);
}

void rec_put_deltas(struct json_writer *w, const struct delta *d, int n)
{
	json__begin_array(w);
	for (int i = 0; i < n; i++) {
		json__begin_array(w);
		rec_put_u64(w, d[i].count);
		rec_put_u64(w, d[i].enabled);
		rec_put_u64(w, d[i].running);
		json__end_array(w);
	}
	json__end_array(w);
}

void rec_member_str(struct json_writer *w, const char *key, const char *s)
{
	json__key(w, key);
	rec_put_str(w, s);
}

void rec_member_u64(struct json_writer *w, const char *key, __u64 v)
{
	json__key(w, key);
	rec_put_u64(w, v);
}

static int hex_val(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

int rec_str_decode(const char *s, size_t len, char *buf, size_t size)
{
	size_t n = 0;

	memset(buf, 0, size);
	for (size_t i = 0; i < len; i++) {
		unsigned char b = (unsigned char)s[i];

		if (b == '%') {
			int hi, lo;

			if (len - i < 3)
				return -1;
			hi = hex_val(s[i + 1]);
			lo = hex_val(s[i + 2]);
			if (hi < 0 || lo < 0 || (hi | lo) == 0)
				return -1;
			b = (unsigned char)(hi << 4 | lo);
			i += 2;
		} else if (!plain_byte(b)) {
			return -1;
		}
		if (n + 1 >= size)
			return -1;
		buf[n++] = (char)b;
	}
	return 0;
}

/* The canonical decimal form of a u64: no sign, no leading zero. */
static bool parse_u64_digits(const char *s, size_t len, __u64 *out)
{
	__u64 v = 0;

	if (len == 0 || len > 20 || (s[0] == '0' && len > 1))
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned int d = (unsigned char)s[i] - '0';

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static bool json_u64(const json_t *v, __u64 *out)
{
	if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);

		if (i < 0)
			return false;
		*out = (__u64)i;
		return true;
	}
	if (json_is_string(v))
		return parse_u64_digits(json_string_value(v), json_string_length(v), out);
	return false;
}

int rec_val_u64(const struct rec_ctx *c, const char *name, const json_t *v, __u64 *out)
{
	if (!json_u64(v, out))
		return rec_field_err(c, name, "must be a non-negative integer");
	return 0;
}

int rec_val_range(const struct rec_ctx *c, const char *name, const json_t *v, __u64 min,
		  __u64 max, __u64 *out)
{
	/* only u64 fields have the string form: these ranges fit a JSON integer */
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    (__u64)json_integer_value(v) < min || (__u64)json_integer_value(v) > max)
		return rec_field_err(c, name, "must be an integer in %llu..%llu",
				     (unsigned long long)min, (unsigned long long)max);
	*out = (__u64)json_integer_value(v);
	return 0;
}

static const json_t *field(const struct rec_ctx *c, const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	if (!v)
		rec_field_err(c, key, "is missing");
	return v;
}

int rec_get_u64(const struct rec_ctx *c, const json_t *obj, const char *key, __u64 *out)
{
	const json_t *v = field(c, obj, key);

	return v ? rec_val_u64(c, key, v, out) : -1;
}

int rec_get_range(const struct rec_ctx *c, const json_t *obj, const char *key, __u64 min,
		  __u64 max, __u64 *out)
{
	const json_t *v = field(c, obj, key);

	return v ? rec_val_range(c, key, v, min, max, out) : -1;
}

int rec_get_double(const struct rec_ctx *c, const json_t *obj, const char *key, double min,
		   double *out)
{
	const json_t *v = field(c, obj, key);

	if (!v)
		return -1;
	if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < min)
		return rec_field_err(c, key, "must be a finite number >= %g", min);
	*out = json_number_value(v);
	return 0;
}

int rec_get_bool(const struct rec_ctx *c, const json_t *obj, const char *key, bool *out)
{
	const json_t *v = field(c, obj, key);

	if (!v)
		return -1;
	if (!json_is_boolean(v))
		return rec_field_err(c, key, "must be true or false");
	*out = json_is_true(v);
	return 0;
}

int rec_get_str(const struct rec_ctx *c, const json_t *obj, const char *key, char *buf,
		size_t size)
{
	const json_t *v = field(c, obj, key);

	if (!v)
		return -1;
	if (!json_is_string(v) ||
	    rec_str_decode(json_string_value(v), json_string_length(v), buf, size))
		return rec_field_err(c, key,
				     "must be a string of at most %zu bytes (printable ASCII, "
				     "other bytes as %%XX)", size - 1);
	return 0;
}

int rec_get_array(const struct rec_ctx *c, const json_t *obj, const char *key, size_t max,
		  const json_t **out)
{
	const json_t *v = field(c, obj, key);

	if (!v)
		return -1;
	if (!json_is_array(v))
		return rec_field_err(c, key, "must be an array");
	if (json_array_size(v) > max)
		return rec_field_err(c, key, "has %zu elements, at most %zu are allowed",
				     json_array_size(v), max);
	*out = v;
	return 0;
}

int rec_get_object(const struct rec_ctx *c, const json_t *obj, const char *key,
		   const json_t **out)
{
	const json_t *v = field(c, obj, key);

	if (!v)
		return -1;
	if (!json_is_object(v))
		return rec_field_err(c, key, "must be an object");
	*out = v;
	return 0;
}

int rec_get_deltas(const struct rec_ctx *c, const json_t *obj, const char *key, int n,
		   struct delta *d)
{
	const json_t *arr;
	char name[64];

	if (rec_get_array(c, obj, key, SIZE_MAX, &arr))
		return -1;
	if (json_array_size(arr) != (size_t)n)
		return rec_field_err(c, key, "has %zu events, the header declares %d",
				     json_array_size(arr), n);
	for (int i = 0; i < n; i++) {
		const json_t *t = json_array_get(arr, (size_t)i);
		__u64 *vals[3] = { &d[i].count, &d[i].enabled, &d[i].running };

		if (!json_is_array(t) || json_array_size(t) != 3) {
			snprintf(name, sizeof(name), "%s[%d]", key, i);
			return rec_field_err(c, name, "must be [count, enabled, running]");
		}
		for (int k = 0; k < 3; k++) {
			snprintf(name, sizeof(name), "%s[%d][%d]", key, i, k);
			if (rec_val_u64(c, name, json_array_get(t, (size_t)k), vals[k]))
				return -1;
		}
	}
	return 0;
}
