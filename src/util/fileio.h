/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Whole-file reads for sysfs, procfs and cgroupfs: strict about size, since
 * a value cut short would be parsed as a different, valid one.
 */
#ifndef __TDTOP_FILEIO_H
#define __TDTOP_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Up to *room* bytes from *fd*, reads interrupted by a signal retried:
 * fewer only at the end of the file. The count, or -errno.
 */
ssize_t read_full(int fd, char *buf, size_t room);

/*
 * A small file into *buf* (NUL-terminated), trailing whitespace removed.
 * Its length, or -errno: -E2BIG when it has more than size - 1 bytes,
 * -EILSEQ when it holds a NUL byte (no attribute file does).
 */
ssize_t read_small_file(const char *path, char *buf, size_t size);

/* A whole file of at most *max* bytes into a new buffer (NUL-terminated,
 * free() it): 0, or -EFBIG when larger, -ENOMEM, -errno. */
int read_whole_file(const char *path, size_t max, char **buf, size_t *len);

#endif /* __TDTOP_FILEIO_H */
