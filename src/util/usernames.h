/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* User names of uids, from the passwd database, cached. */
#ifndef __TDTOP_USERNAMES_H
#define __TDTOP_USERNAMES_H

#include <sys/types.h>

/* A name as the passwd database holds it (32 bytes at most), NUL included. */
#define USER_NAME_LEN 33
#define USER_NAMES_CACHED 64

struct user_names {
	struct {
		uid_t uid;
		char name[USER_NAME_LEN];
	} e[USER_NAMES_CACHED];
	int nr;
	int next;		/* round-robin victim once full */
};

/*
 * The name of *uid*, or its number in decimal when the passwd database
 * has none (as top shows it). Valid until USER_NAMES_CACHED other uids
 * were looked up. *u* starts zeroed.
 */
const char *user_names__get(struct user_names *u, uid_t uid);

#endif /* __TDTOP_USERNAMES_H */
