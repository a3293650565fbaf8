// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Task owners for recordings: the uid of PROC/TID and its name, looked up
 * once per task (a tid used again is looked up again), unknown once gone.
 */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "measure/owners.h"
#include "test.h"

static void add(struct sample *s, __u32 tid, __u64 start_ns)
{
	struct task_delta *t = sample__add(s);

	t->tid = tid;
	t->pid = tid;
	t->start_ns = start_ns;
}

static void make_dir(const char *root, __u32 tid)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%u", root, tid);
	CHECK_INT(mkdir(path, 0755), 0);
}

static void remove_dir(const char *root, __u32 tid)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%u", root, tid);
	CHECK_INT(rmdir(path), 0);
}

TEST(owners_from_proc_once_per_task)
{
	char root[] = "/tmp/tdtop-owners-XXXXXX";
	struct passwd *pw = getpwuid(getuid());
	char me[USER_NAME_LEN];
	struct sample s = { 0 };
	struct owners *o;

	snprintf(me, sizeof(me), "%s", pw ? pw->pw_name : "");
	if (!pw)
		snprintf(me, sizeof(me), "%u", (unsigned int)getuid());
	CHECK(mkdtemp(root) != NULL);
	make_dir(root, 10);
	make_dir(root, 11);
	o = owners__new(root);
	CHECK(o != NULL);
	if (!o)
		return;
	add(&s, 10, 100);
	add(&s, 11, 110);
	add(&s, 12, 120);	/* gone before it could be looked up */
	CHECK_INT(owners__fill(o, &s), 0);
	CHECK_STR(s.tasks[0].user, me);
	CHECK_INT(s.tasks[0].uid, getuid());
	CHECK_STR(s.tasks[1].user, me);
	CHECK_STR(s.tasks[2].user, "");
	/* known tasks are not looked up again; a tid used again is */
	remove_dir(root, 10);
	remove_dir(root, 11);
	s.nr = 0;
	add(&s, 10, 100);
	add(&s, 11, 999);
	CHECK_INT(owners__fill(o, &s), 0);
	CHECK_STR(s.tasks[0].user, me);
	CHECK_STR(s.tasks[1].user, "");
	owners__free(o);
	owners__free(NULL);
	sample__free(&s);
	CHECK_INT(rmdir(root), 0);
}

TEST(owners_sweep_keeps_the_running)
{
	char root[] = "/tmp/tdtop-owners-XXXXXX";
	struct sample s = { 0 };
	struct owners *o;

	CHECK(mkdtemp(root) != NULL);
	make_dir(root, 1);
	o = owners__new(root);
	CHECK(o != NULL);
	if (!o)
		return;
	add(&s, 1, 1);
	CHECK_INT(owners__fill(o, &s), 0);
	remove_dir(root, 1);
	/* thousands of short-lived tasks come and go; task 1 keeps running */
	for (__u32 round = 0; round < 40; round++) {
		s.nr = 0;
		add(&s, 1, 1);
		for (__u32 i = 0; i < 200; i++)
			add(&s, 1000 + round * 200 + i, 5);
		CHECK_INT(owners__fill(o, &s), 0);
		CHECK(s.tasks[0].user[0] != '\0');
	}
	owners__free(o);
	sample__free(&s);
	CHECK_INT(rmdir(root), 0);
}
