// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * One gzip member in two pieces. The body's raw deflate stream ends with a
 * sync flush (byte-aligned, nothing final), so a second, independent raw
 * deflate stream can follow it: its blocks only refer back into its own
 * bytes. The CRC-32 of the whole is combined from the two parts'.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "exporter/gzip.h"

/* ID1 ID2 CM=deflate FLG=0 MTIME=0 XFL=0 OS=Unix */
static const unsigned char member_header[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };

/*
 * Raw deflate of *in* after *prefix* bytes of room, ending with *flush*
 * (Z_SYNC_FLUSH or Z_FINISH). A small window suits a small input.
 */
static int deflate_raw(const void *in, size_t len, int window_bits, int mem_level, int flush,
		       size_t prefix, char **out, size_t *out_len)
{
	z_stream z = {};
	size_t cap;
	char *buf;
	int ret;

	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -window_bits, mem_level,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	/* the bound is for Z_FINISH; a sync flush adds its empty stored block */
	cap = prefix + deflateBound(&z, (uLong)len) + 16;
	buf = malloc(cap);
	if (!buf) {
		deflateEnd(&z);
		return -ENOMEM;
	}
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)buf + prefix;
	z.avail_out = (uInt)(cap - prefix);
	ret = deflate(&z, flush);
	deflateEnd(&z);
	/* a full buffer may hold back part of a flush */
	if ((flush == Z_FINISH && ret != Z_STREAM_END) || (flush != Z_FINISH && ret != Z_OK) ||
	    z.avail_in || !z.avail_out) {
		free(buf);
		return -ENOMEM;
	}
	*out = buf;
	*out_len = cap - z.avail_out;
	return 0;
}

int gz_body__deflate(struct gz_body *gz, const void *body, size_t len)
{
	int ret;

	memset(gz, 0, sizeof(*gz));
	/* zlib counts in unsigned int: a body is far smaller than 4 GiB */
	if (len > UINT32_MAX / 2)
		return -ENOMEM;
	ret = deflate_raw(body, len, 15, 8, Z_SYNC_FLUSH, sizeof(member_header), &gz->data, &gz->len);
	if (ret)
		return ret;
	memcpy(gz->data, member_header, sizeof(member_header));
	gz->crc = (uint32_t)crc32(crc32(0, NULL, 0), body, (uInt)len);
	gz->in_len = len;
	return 0;
}

void gz_body__free(struct gz_body *gz)
{
	free(gz->data);
	memset(gz, 0, sizeof(*gz));
}

static void put_le32(char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (char)(v >> (8 * i));
}

int gz_tail(const struct gz_body *gz, const void *tail, size_t len, char **out,
	    size_t *out_len)
{
	uint32_t crc;
	char *buf;
	size_t n;
	int ret;

	if (len > UINT32_MAX / 2)
		return -ENOMEM;
	ret = deflate_raw(tail, len, 9, 1, Z_FINISH, 0, &buf, &n);
	if (ret)
		return ret;
	/* deflate_raw() left 16 bytes beyond the bound: room for CRC and length */
	crc = (uint32_t)crc32_combine(gz->crc, crc32(crc32(0, NULL, 0), tail, (uInt)len),
				      (z_off_t)len);
	put_le32(buf + n, crc);
	put_le32(buf + n + 4, (uint32_t)(gz->in_len + len));
	*out = buf;
	*out_len = n + 8;
	return 0;
}
