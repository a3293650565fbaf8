/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Macros every folder may use. */
#ifndef __TDTOP_MACROS_H
#define __TDTOP_MACROS_H

/* Number of elements of the array *a* (not of a pointer). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* __TDTOP_MACROS_H */
