/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The bytes under a recording reader: a file descriptor or a memory
 * buffer, inflated when it starts with the gzip magic, cut into lines of
 * bounded length, for the reader.
 */
/* Internal to record/. */
#ifndef __TDTOP_RECORD_SRC_H
#define __TDTOP_RECORD_SRC_H

#include <stdbool.h>
#include <stddef.h>

struct rec_src;

/* *own*: close *fd* with the source. NULL on ENOMEM or a read error. */
struct rec_src *rec_src__open_fd(int fd, bool own, char *err, size_t errlen);
struct rec_src *rec_src__open_mem(const void *data, size_t len, char *err, size_t errlen);

enum rec_line_ret {
	REC_LINE_ERROR = -1,
	REC_LINE_EOF = 0,	/* clean: the data ended after a '\n' (or was empty) */
	REC_LINE_OK = 1,
	REC_LINE_PARTIAL = 2,	/* the data ended inside a line, which is not returned */
};

/*
 * The next line, without its '\n', valid until the next call. A line over
 * REC_MAX_LINE bytes is an error; at most that much is ever buffered.
 */
enum rec_line_ret rec_src__line(struct rec_src *s, const char **line, size_t *len, char *err,
				size_t errlen);

/* Lines returned so far: the number of the last one. */
unsigned long rec_src__lineno(const struct rec_src *s);

/* The input was gzip and ended before the end of its stream. */
bool rec_src__truncated(const struct rec_src *s);

/* Accepts NULL. */
void rec_src__close(struct rec_src *s);

#endif /* __TDTOP_RECORD_SRC_H */
