/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * gzip for scrapes: the rendered interval compressed once and shared,
 * each scrape's live trailer compressed on its own and appended, so that
 * body and trailer are one gzip member (RFC 1952) to the client.
 */
#ifndef __TDTOP_GZIP_H
#define __TDTOP_GZIP_H

#include <stddef.h>
#include <stdint.h>

struct gz_body {
	char *data;		/* the gzip header and the body's deflate blocks */
	size_t len;
	uint32_t crc;		/* of the uncompressed body */
	size_t in_len;
};

/* Compress *len* bytes, leaving the stream open for a tail. 0 or -ENOMEM. */
int gz_body__deflate(struct gz_body *gz, const void *body, size_t len);

void gz_body__free(struct gz_body *gz);

/*
 * The end of the member begun by *gz*: *tail* compressed, then the CRC-32
 * and length of body and tail together, in a malloc'ed *out*. 0 or -ENOMEM.
 */
int gz_tail(const struct gz_body *gz, const void *tail, size_t len, char **out,
	    size_t *out_len);

#endif /* __TDTOP_GZIP_H */
