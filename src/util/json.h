/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A streaming JSON writer to a FILE*: commas and nesting are handled, and
 * strings are always valid JSON whatever bytes they hold.
 *
 * Every JSON tdtop writes goes through this writer: the JSON Lines output,
 * report --diff and the recordings (record/write.c writes each line into
 * a memory FILE and hands it to zlib). jansson is used only to parse, as
 * reading recordings back needs a parser. One writer means one escaping
 * and one number form everywhere, and it suits writing better than
 * jansson: each member streams to the FILE as it comes, with no tree to
 * build and free per line; NaN becomes null and any bytes (a comm is not
 * always UTF-8) a valid string, where jansson refuses both; its numbers
 * are fmt_double()'s, the digits the CSV output prints too, or with
 * json__real() the shortest that read back as exactly the same double.
 */
#ifndef __TDTOP_JSON_H
#define __TDTOP_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Deeper nesting is a misuse (the writer fails). */
#define JSON_MAX_DEPTH 32

struct json_writer;

/* A writer to *f*, which stays owned by the caller. NULL on ENOMEM. */
struct json_writer *json__new(FILE *f);
/* Accepts NULL; does not close the FILE. */
void json__free(struct json_writer *w);

/*
 * In an object every value must follow json__key(); in an array and at
 * the top level values follow each other. Misuse (a value without a key,
 * an unbalanced end, too deep) writes nothing and marks the writer failed.
 */
void json__begin_object(struct json_writer *w);
void json__end_object(struct json_writer *w);
void json__begin_array(struct json_writer *w);
void json__end_array(struct json_writer *w);
void json__key(struct json_writer *w, const char *key);
void json__string(struct json_writer *w, const char *s);
/* *len* bytes of *s*, NUL bytes included (as \u0000). */
void json__string_n(struct json_writer *w, const char *s, size_t len);
void json__int(struct json_writer *w, int64_t v);
void json__uint(struct json_writer *w, uint64_t v);
/* NaN and infinities become null; see fmt_double() for the digits. */
void json__double(struct json_writer *w, double v);
/* A real that reads back as exactly *v*, -0.0 included, and as a real
 * (1.0, not 1): see fmt_real(). NaN and infinities become null. */
void json__real(struct json_writer *w, double v);
void json__bool(struct json_writer *w, bool v);
void json__null(struct json_writer *w);

/* A member of the open object: json__key() and the value in one call. */
void json__member_string(struct json_writer *w, const char *key, const char *s);
void json__member_int(struct json_writer *w, const char *key, int64_t v);
void json__member_uint(struct json_writer *w, const char *key, uint64_t v);
void json__member_double(struct json_writer *w, const char *key, double v);
void json__member_real(struct json_writer *w, const char *key, double v);
void json__member_bool(struct json_writer *w, const char *key, bool v);

/* Ends a top-level value's line (JSON Lines); a misuse when nested. */
void json__newline(struct json_writer *w);

/* Containers currently open. */
int json__depth(const struct json_writer *w);
/* False after a misuse or when the FILE reported a write error. */
bool json__ok(const struct json_writer *w);

/*
 * Escape *len* bytes of *s* as the inside of a JSON string (no quotes):
 * '"' and '\\' backslashed, control bytes and 0x7f as \u00XX (\b \f \n \r
 * \t in short form), each ill-formed UTF-8 subpart as \ufffd, well-formed
 * UTF-8 copied. Writes at most *size* - 1 bytes plus a NUL, never cutting
 * an escape in half, and returns the length the whole escaped string
 * needs (like snprintf).
 */
size_t json_escape(char *buf, size_t size, const char *s, size_t len);

#endif /* __TDTOP_JSON_H */
