// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Whole-file reads with EINTR handled and sizes checked. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/fileio.h"
#include "util/grow.h"

/* Read until end of file or until *room* bytes are in; the count or -errno. */
ssize_t read_full(int fd, char *buf, size_t room)
{
	size_t n = 0;

	while (n < room) {
		ssize_t r = read(fd, buf + n, room - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			break;
		n += r;
	}
	return n;
}

ssize_t read_small_file(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	if (size < 2)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* one byte more than fits tells a file that was too long */
	n = read_full(fd, buf, size - 1);
	if (n == (ssize_t)size - 1) {
		char extra;
		ssize_t r = read_full(fd, &extra, 1);

		if (r)
			n = r < 0 ? r : -E2BIG;
	}
	close(fd);
	if (n < 0) {
		buf[0] = '\0';
		return n;
	}
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		buf[0] = '\0';
		return -EILSEQ;
	}
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return n;
}

int read_whole_file(const char *path, size_t max, char **out, size_t *len)
{
	size_t cap = 0, n = 0;
	char *b = NULL;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t r;

		/* n > max below ends the loop, so this grows to 2 * max at most */
		if (n + 1 >= cap) {
			err = GROW(b, cap, n + 2, 64 * 1024);
			if (err)
				break;
		}
		r = read_full(fd, b + n, cap - 1 - n);
		if (r < 0) {
			err = r;
			break;
		}
		n += r;
		if (n > max) {
			err = -EFBIG;
			break;
		}
		if (n + 1 < cap)
			break;
	}
	close(fd);
	if (err) {
		free(b);
		return err;
	}
	b[n] = '\0';
	*out = b;
	*len = n;
	return 0;
}
