/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Growing arrays by doubling, with the size arithmetic checked. */
#ifndef __TDTOP_GROW_H
#define __TDTOP_GROW_H

#include <stddef.h>

/*
 * Make room for at least *need* elements of *size* bytes in the array whose
 * pointer is at *pp* (any pointer type; it is copied, not cast) and whose
 * capacity is *cap*: doubles from *min_cap*. 0, or -ENOMEM when memory runs
 * out or the byte count would overflow; the array is unchanged then.
 */
int grow(void *pp, size_t *cap, size_t need, size_t size, size_t min_cap);

/* grow() for an array p with capacity cap (a size_t) */
#define GROW(p, cap, need, min_cap) grow(&(p), &(cap), (need), sizeof(*(p)), (min_cap))

#endif /* __TDTOP_GROW_H */
