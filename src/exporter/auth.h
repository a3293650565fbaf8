/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * HTTP basic authentication (RFC 7617) against the web configuration's
 * bcrypt hashes, with the credentials once accepted remembered, and the
 * costly checks paced so that wrong passwords cannot take the server's
 * threads from the scrapes.
 */
#ifndef __TDTOP_AUTH_H
#define __TDTOP_AUTH_H

#include "exporter/webconfig.h"

/* Credentials accepted that are checked again without bcrypt. */
#define AUTH_REMEMBERED 16

enum auth_result {
	AUTH_OK,
	AUTH_DENIED,	/* 401 */
	AUTH_BUSY,	/* 503: another bcrypt check runs, or ran just before */
};

struct basic_auth;

/* For w->users (which must outlive it); NULL on ENOMEM. */
struct basic_auth *basic_auth__new(const struct web_config *w);

/* Accepts NULL. */
void basic_auth__free(struct basic_auth *a);

/*
 * The Authorization field's value (NULL when absent). A bcrypt check runs
 * one at a time, and after one that took t, not before t has passed: at
 * most half of a thread's time, whatever the rate of wrong passwords.
 */
enum auth_result basic_auth__check(struct basic_auth *a, const char *authorization);

#endif /* __TDTOP_AUTH_H */
