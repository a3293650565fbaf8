// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The -p processes from PROC/PID/stat: named while they live, gone once
 * missing or a zombie (and gone for good); all gone ends a run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "measure/targets.h"
#include "test.h"

static void put_stat(const char *root, int pid, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d", root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/stat", root, pid);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void drop_stat(const char *root, int pid)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%d/stat", root, pid);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%d", root, pid);
	rmdir(path);
}

TEST(targets_live_named_then_gone)
{
	char root[] = "/tmp/tdtop-targets-XXXXXX";
	const int pids[] = { 10, 20, 30 };
	struct targets t;

	CHECK(mkdtemp(root) != NULL);
	put_stat(root, 10, "10 (my (odd) name) S 1 10 10 0 -1\n");
	put_stat(root, 20, "20 (sleeper) S 1 20 20 0 -1\n");
	CHECK_INT(targets__init(&t, root, pids, 3), 0);
	CHECK_STR(t.absent.comm(t.absent.ctx, 10), "my (odd) name");
	CHECK_STR(t.absent.comm(t.absent.ctx, 20), "sleeper");
	CHECK(t.absent.comm(t.absent.ctx, 30) == NULL);	/* no such process */
	CHECK(t.absent.comm(t.absent.ctx, 99) == NULL);	/* not a target */
	CHECK(!targets__all_gone(&t));
	/* a zombie runs no more */
	put_stat(root, 20, "20 (sleeper) Z 1 20 20 0 -1\n");
	targets__refresh(&t);
	CHECK(t.absent.comm(t.absent.ctx, 20) == NULL);
	CHECK(!targets__all_gone(&t));
	drop_stat(root, 10);
	targets__refresh(&t);
	CHECK(targets__all_gone(&t));
	/* the PID used again later is another process */
	put_stat(root, 10, "10 (other) R 1 10 10 0 -1\n");
	targets__refresh(&t);
	CHECK(targets__all_gone(&t));
	targets__free(&t);
	drop_stat(root, 10);
	drop_stat(root, 20);
	CHECK_INT(rmdir(root), 0);
	/* no -p: never "all gone" */
	CHECK_INT(targets__init(&t, root, NULL, 0), 0);
	CHECK(!targets__all_gone(&t));
	targets__free(&t);
}
