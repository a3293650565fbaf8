/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The recording's value encodings (byte strings as %XX-escaped ASCII, u64
 * beyond JSON's safe range as decimal strings) and strict field readers
 * whose errors name the line and the field.
 */
/* Internal to record/. */
#ifndef __TDTOP_RECORD_CODEC_H
#define __TDTOP_RECORD_CODEC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>
#include <linux/types.h>
#include "rows/model.h"
#include "util/json.h"
#include "record/format.h"

/* Where a field is: errors read "line N: field '<prefix><key>' ...". */
struct rec_ctx {
	unsigned long line;	/* 0: not from a file, no "line N: " */
	const char *prefix;	/* "" or e.g. "events[3]." */
	char *err;
	size_t errlen;
};


/* "line N: field '<prefix><name>' <what>"; returns -1. */
int rec_field_err(const struct rec_ctx *c, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- encoding: a value (or a member) of what *w* writes ---- */

/* The longest byte string a recording holds: a cgroup path. */
#define REC_MAX_STR REC_MAX_CGROUP_PATH

/* The bytes of *s* up to its NUL, printable ASCII but '%' as is, every
 * other byte as %XX. At most REC_MAX_STR bytes are written: every string
 * is checked against its field's limit before, so none is cut. */
void rec_put_str(struct json_writer *w, const char *s);
/* An integer up to INT64_MAX, a decimal string above. */
void rec_put_u64(struct json_writer *w, __u64 v);
/* *n* [count, enabled, running] triples. */
void rec_put_deltas(struct json_writer *w, const struct delta *d, int n);
/* json__key() and the value. */
void rec_member_str(struct json_writer *w, const char *key, const char *s);
void rec_member_u64(struct json_writer *w, const char *key, __u64 v);

/* ---- decoding: 0, or -1 with the message in c->err ---- */

/* Value forms, *name* being the whole field name after the prefix. */
int rec_val_u64(const struct rec_ctx *c, const char *name, const json_t *v, __u64 *out);
/* A JSON integer (never a string) in min..max. */
int rec_val_range(const struct rec_ctx *c, const char *name, const json_t *v, __u64 min,
		  __u64 max, __u64 *out);

/* Field forms: look *key* up in *obj*; a missing field is an error. */
int rec_get_u64(const struct rec_ctx *c, const json_t *obj, const char *key, __u64 *out);
int rec_get_range(const struct rec_ctx *c, const json_t *obj, const char *key, __u64 min,
		  __u64 max, __u64 *out);
/* A finite number >= *min* (integers accepted). */
int rec_get_double(const struct rec_ctx *c, const json_t *obj, const char *key, double min,
		   double *out);
int rec_get_bool(const struct rec_ctx *c, const json_t *obj, const char *key, bool *out);
/* Decode an escaped string into *buf* (NUL-terminated, tail zeroed); its
 * decoded length must be below *size*. */
int rec_get_str(const struct rec_ctx *c, const json_t *obj, const char *key, char *buf,
		size_t size);
/* An array of at most *max* elements. */
int rec_get_array(const struct rec_ctx *c, const json_t *obj, const char *key, size_t max,
		  const json_t **out);
/* An object. */
int rec_get_object(const struct rec_ctx *c, const json_t *obj, const char *key,
		   const json_t **out);
/* Exactly *n* [count, enabled, running] triples into d[0..n-1]. */
int rec_get_deltas(const struct rec_ctx *c, const json_t *obj, const char *key, int n,
		   struct delta *d);

/* Decode an escaped string: -1 when it is not canonical or does not fit
 * below *size* decoded bytes, or holds %00. */
int rec_str_decode(const char *s, size_t len, char *buf, size_t size);

#endif /* __TDTOP_RECORD_CODEC_H */
