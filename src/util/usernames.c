// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* User names of uids: getpwuid_r() once per uid, the last ones kept. */
#include <pwd.h>
#include <stdio.h>
#include "util/usernames.h"

const char *user_names__get(struct user_names *u, uid_t uid)
{
	struct passwd pw, *res = NULL;
	char buf[4096];
	int i;

	for (i = 0; i < u->nr; i++)
		if (u->e[i].uid == uid)
			return u->e[i].name;
	if (u->nr < USER_NAMES_CACHED) {
		i = u->nr++;
	} else {
		i = u->next;
		u->next = (u->next + 1) % USER_NAMES_CACHED;
	}
	u->e[i].uid = uid;
	if (!getpwuid_r(uid, &pw, buf, sizeof(buf), &res) && res)
		snprintf(u->e[i].name, sizeof(u->e[i].name), "%s", res->pw_name);
	else
		snprintf(u->e[i].name, sizeof(u->e[i].name), "%u", (unsigned int)uid);
	return u->e[i].name;
}
