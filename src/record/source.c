// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Input of recording readers. zlib's inflate is driven directly rather
 * than through gzread() so that files and memory buffers (tests, fuzzing)
 * share one code path, and a stream that was cut short (a killed recorder)
 * is told apart from corrupt data.
 */
/* next_in is const: memory input is never written */
#define ZLIB_CONST
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "util/errmsg.h"
#include "util/grow.h"
#include "record/format.h"
#include "record/codec.h"
#include "record/source.h"

#define IN_SIZE (64 * 1024)
#define LINE_BUF_MIN (64 * 1024)
/* a longest line, its '\n' and one byte that proves a line too long */
#define LINE_BUF_MAX ((size_t)REC_MAX_LINE + 2)
/* zlib counts input in unsigned int */
#define MEM_CHUNK (1u << 30)

struct rec_src {
	int fd;			/* -1: reading memory */
	bool own_fd;
	const unsigned char *mem;
	size_t mem_len;
	size_t mem_pos;
	unsigned char *in;	/* what read(2) brought in */
	z_stream zs;		/* next_in/avail_in: raw input not yet used */
	bool gzip;
	bool zinit;
	bool zend;		/* inflate reached the end of a gzip member */
	bool raw_eof;
	bool truncated;
	int zerr;		/* inflate failed after the bytes last returned */
	bool eof;		/* no more decoded bytes */
	char *buf;		/* decoded bytes [start, end); '\n' searched from scan */
	size_t cap;
	size_t start;
	size_t end;
	size_t scan;
	unsigned long lineno;
};

/* Make raw input available in zs: 1, 0 at its end, -1 on error. */
static int raw_more(struct rec_src *s, char *err, size_t errlen)
{
	ssize_t n;

	if (s->zs.avail_in)
		return 1;
	if (s->raw_eof)
		return 0;
	if (s->fd < 0) {
		size_t left = s->mem_len - s->mem_pos;

		if (!left) {
			s->raw_eof = true;
			return 0;
		}
		s->zs.next_in = s->mem + s->mem_pos;
		s->zs.avail_in = left > MEM_CHUNK ? MEM_CHUNK : (unsigned int)left;
		s->mem_pos += s->zs.avail_in;
		return 1;
	}
	do {
		n = read(s->fd, s->in, IN_SIZE);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return errmsg(err, errlen, -1, "failed to read recording: %s", strerror(errno));
	if (n == 0) {
		s->raw_eof = true;
		return 0;
	}
	s->zs.next_in = s->in;
	s->zs.avail_in = (unsigned int)n;
	return 1;
}

/* Decide plain or gzip from the first two bytes, reading until there are
 * two (a pipe may deliver one at a time). */
static int detect(struct rec_src *s, char *err, size_t errlen)
{
	size_t have = 0;

	if (s->fd < 0) {
		if (raw_more(s, err, errlen) < 0)
			return -1;
		s->gzip = s->zs.avail_in >= 2 && s->zs.next_in[0] == 0x1f &&
			  s->zs.next_in[1] == 0x8b;
	} else {
		while (have < 2) {
			ssize_t n = read(s->fd, s->in + have, IN_SIZE - have);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				return errmsg(err, errlen, -1, "failed to read recording: %s",
						strerror(errno));
			if (n == 0)
				break;
			have += (size_t)n;
		}
		s->gzip = have >= 2 && s->in[0] == 0x1f && s->in[1] == 0x8b;
		s->zs.next_in = s->in;
		s->zs.avail_in = (unsigned int)have;
		if (!have)
			s->raw_eof = true;
	}
	if (!s->gzip)
		return 0;
	/* 16: a gzip wrapper, not zlib or raw deflate */
	if (inflateInit2(&s->zs, 15 + 16) != Z_OK)
		return errmsg(err, errlen, -1, "failed to read recording: out of memory");
	s->zinit = true;
	return 0;
}

static ssize_t read_plain(struct rec_src *s, char *dst, size_t len, char *err, size_t errlen)
{
	int r = raw_more(s, err, errlen);
	size_t n;

	if (r <= 0)
		return r;
	n = len < s->zs.avail_in ? len : s->zs.avail_in;
	memcpy(dst, s->zs.next_in, n);
	s->zs.next_in += n;
	s->zs.avail_in -= (unsigned int)n;
	return (ssize_t)n;
}

static ssize_t read_gzip(struct rec_src *s, char *dst, size_t len, char *err, size_t errlen)
{
	unsigned int room = len > UINT32_MAX ? UINT32_MAX : (unsigned int)len;

	if (s->zerr)
		goto fail;
	for (;;) {
		int r = raw_more(s, err, errlen), ret;
		size_t got;

		if (r < 0)
			return -1;
		if (s->zend) {
			if (!r)
				return 0;
			/* gzip members may be concatenated; anything else fails the
			 * header check of the next one */
			inflateReset(&s->zs);
			s->zend = false;
		}
		if (!r) {
			s->truncated = true;
			return 0;
		}
		s->zs.next_out = (unsigned char *)dst;
		s->zs.avail_out = room;
		ret = inflate(&s->zs, Z_NO_FLUSH);
		got = room - s->zs.avail_out;
		if (ret == Z_STREAM_END)
			s->zend = true;
		else if (ret != Z_OK && ret != Z_BUF_ERROR)
			s->zerr = ret;
		/* what came out before the damage is delivered first */
		if (got)
			return (ssize_t)got;
		if (s->zerr)
			goto fail;
	}
fail:
	return errmsg(err, errlen, -1, "failed to decompress recording: %s",
			s->zs.msg ? s->zs.msg : zError(s->zerr));
}

static struct rec_src *src_new(char *err, size_t errlen)
{
	struct rec_src *s = calloc(1, sizeof(*s));

	if (s)
		s->buf = malloc(LINE_BUF_MIN);
	if (!s || !s->buf) {
		free(s);
		errmsg(err, errlen, -1, "failed to read recording: out of memory");
		return NULL;
	}
	s->cap = LINE_BUF_MIN;
	s->fd = -1;
	return s;
}

struct rec_src *rec_src__open_fd(int fd, bool own, char *err, size_t errlen)
{
	struct rec_src *s = src_new(err, errlen);

	if (!s) {
		if (own)
			close(fd);
		return NULL;
	}
	s->fd = fd;
	s->own_fd = own;
	s->in = malloc(IN_SIZE);
	if (!s->in) {
		errmsg(err, errlen, -1, "failed to read recording: out of memory");
		rec_src__close(s);
		return NULL;
	}
	if (detect(s, err, errlen)) {
		rec_src__close(s);
		return NULL;
	}
	return s;
}

struct rec_src *rec_src__open_mem(const void *data, size_t len, char *err, size_t errlen)
{
	struct rec_src *s = src_new(err, errlen);

	if (!s)
		return NULL;
	s->mem = data;
	s->mem_len = data ? len : 0;
	if (detect(s, err, errlen)) {
		rec_src__close(s);
		return NULL;
	}
	return s;
}

/* Read more decoded bytes after [start, end): 1, 0 at the end, -1. */
static int fill(struct rec_src *s, char *err, size_t errlen)
{
	size_t room;
	ssize_t n;

	if (s->start) {
		memmove(s->buf, s->buf + s->start, s->end - s->start);
		s->end -= s->start;
		s->scan -= s->start;
		s->start = 0;
	}
	if (s->end == s->cap && GROW(s->buf, s->cap, s->end + 1, LINE_BUF_MIN))
		return errmsg(err, errlen, -1, "failed to read recording: out of memory");
	/* the array doubles past LINE_BUF_MAX; what is buffered stays within */
	room = (s->cap < LINE_BUF_MAX ? s->cap : LINE_BUF_MAX) - s->end;
	if (s->gzip)
		n = read_gzip(s, s->buf + s->end, room, err, errlen);
	else
		n = read_plain(s, s->buf + s->end, room, err, errlen);
	if (n < 0)
		return -1;
	s->end += (size_t)n;
	return n > 0;
}

enum rec_line_ret rec_src__line(struct rec_src *s, const char **line, size_t *len, char *err,
				size_t errlen)
{
	for (;;) {
		char *nl = memchr(s->buf + s->scan, '\n', s->end - s->scan);
		int r;

		if (nl) {
			*line = s->buf + s->start;
			*len = (size_t)(nl - *line);
			s->start = s->scan = (size_t)(nl - s->buf) + 1;
			s->lineno++;
			if (*len > REC_MAX_LINE)
				break;
			return REC_LINE_OK;
		}
		s->scan = s->end;
		if (s->end - s->start > REC_MAX_LINE) {
			s->lineno++;
			break;
		}
		if (s->eof)
			return s->end > s->start ? REC_LINE_PARTIAL : REC_LINE_EOF;
		r = fill(s, err, errlen);
		if (r < 0)
			return REC_LINE_ERROR;
		if (!r)
			s->eof = true;
	}
	errmsg(err, errlen, -1, "line %lu: longer than %d bytes", s->lineno, REC_MAX_LINE);
	return REC_LINE_ERROR;
}

unsigned long rec_src__lineno(const struct rec_src *s)
{
	return s->lineno;
}

bool rec_src__truncated(const struct rec_src *s)
{
	return s->truncated;
}

void rec_src__close(struct rec_src *s)
{
	if (!s)
		return;
	if (s->zinit)
		inflateEnd(&s->zs);
	if (s->own_fd)
		close(s->fd);
	free(s->in);
	free(s->buf);
	free(s);
}
