// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Process owners for the interactive view: PID -> uid from /proc/PID,
 * uid -> name from the user database, both cached. Direct-mapped by PID:
 * only the rows on screen, or the tasks of one interval, are looked up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "util/usernames.h"
#include "tui/users.h"

/* uids of PIDs are looked up again after this many intervals (setuid, PID reuse) */
#define USER_TTL 16
#define USER_SLOTS 4096

struct pid_user {
	int pid;		/* 0: free slot */
	bool known;		/* false: /proc/PID was gone */
	uid_t uid;
	long stamp;		/* interval number of the lookup */
};

struct tui_users {
	struct pid_user slot[USER_SLOTS];
	struct user_names names;
};

struct tui_users *tui_users__new(void)
{
	return calloc(1, sizeof(struct tui_users));
}

void tui_users__free(struct tui_users *u)
{
	free(u);
}

const char *tui_users__name(struct tui_users *u, uid_t uid)
{
	return user_names__get(&u->names, uid);
}

bool tui_users__uid(struct tui_users *u, int pid, long now, uid_t *uid)
{
	struct pid_user *p = &u->slot[(unsigned int)pid % USER_SLOTS];
	char path[32];
	struct stat sb;

	if (p->pid != pid || now - p->stamp > USER_TTL) {
		snprintf(path, sizeof(path), "/proc/%d", pid);
		p->pid = pid;
		p->stamp = now;
		p->known = !stat(path, &sb);
		p->uid = p->known ? sb.st_uid : 0;
	}
	*uid = p->uid;
	return p->known;
}

const char *tui_users__of(struct tui_users *u, int pid, long now)
{
	uid_t uid;

	return tui_users__uid(u, pid, now, &uid) ? tui_users__name(u, uid) : "?";
}

void tui_users__forget(struct tui_users *u, int pid)
{
	struct pid_user *p = &u->slot[(unsigned int)pid % USER_SLOTS];

	if (p->pid == pid)
		p->pid = 0;
}

bool tui_users__owner(struct tui_users *u, int pid, const char *user, __u32 uid, bool live,
		      long now, uid_t *out)
{
	if (live)
		return tui_users__uid(u, pid, now, out);
	*out = uid;
	return user[0] != '\0';
}

const char *tui_users__row(struct tui_users *u, const struct row *r, bool live, long now)
{
	if (live)
		return tui_users__of(u, r->pid, now);
	return r->user[0] ? r->user : "-";
}
