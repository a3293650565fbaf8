// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The interactive view's key handling: sorting, levels, prompts, scrolling, pause. */
#include <curses.h>
#include <string.h>
#include "test.h"
#include "tui/keys.h"

static const char *const names3[] = { "cpu-clock", "context-switches", "page-faults" };

static struct tui_opts opts(bool topdown, bool level2)
{
	struct tui_opts o = {
		.delay_s = 1.0,
		.level = 1,
		.level2_available = level2,
		.names = names3,
		.nr_events = 3,
		.topdown = topdown,
	};

	o.view.sort.kind = SORT_CPU;
	return o;
}

static void init(struct tui_state *st, bool topdown, bool level2, bool live)
{
	struct tui_opts o = opts(topdown, level2);
	char err[128];

	CHECK_INT(tui_state__init(st, &o, live, err, sizeof(err)), 0);
}

static unsigned int type(struct tui_state *st, const char *s)
{
	unsigned int act = 0;

	for (; *s; s++)
		act |= tui_state__key(st, (unsigned char)*s);
	return act;
}

static const char *sort_name(const struct tui_state *st)
{
	return sort_key__name(&st->sort, names3, 3);
}

/* Rows with PIDs pids[0..n) in that order. */
static void set_rows(struct tui_state *st, struct row *rows, const int *pids, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		memset(&rows[i], 0, sizeof(rows[i]));
		rows[i].pid = rows[i].tid = pids[i];
	}
	tui_state__rows(st, rows, n);
}

TEST(tui_sort_cycles_through_topdown_level1)
{
	static const char *const want[] = { "retiring", "bad-spec", "frontend", "backend",
					    "ipc", "pid", "comm", "cpu" };
	struct sort_key keys[TUI_MAX_SORT_KEYS];
	struct tui_state st;

	init(&st, true, true, true);
	CHECK_INT(tui_state__sort_keys(&st, keys, TUI_MAX_SORT_KEYS), 8);
	CHECK_STR(sort_name(&st), "cpu");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		unsigned int act = tui_state__key(&st, '>');

		CHECK(act & TUI_REBUILD);
		CHECK_STR(sort_name(&st), want[i]);
	}
	/* backwards, wrapping at the first key */
	CHECK(tui_state__key(&st, '<') & TUI_REBUILD);
	CHECK_STR(sort_name(&st), "comm");
	tui_state__key(&st, '<');
	CHECK_STR(sort_name(&st), "pid");
	tui_state__key(&st, '<');
	CHECK_STR(sort_name(&st), "ipc");
}

TEST(tui_sort_cycles_through_events_without_topdown)
{
	struct sort_key keys[TUI_MAX_SORT_KEYS];
	struct tui_state st;

	init(&st, false, false, true);
	CHECK_INT(tui_state__sort_keys(&st, keys, TUI_MAX_SORT_KEYS), 6);
	tui_state__key(&st, '>');
	CHECK_INT(st.sort.kind, SORT_EVENT);
	CHECK_STR(sort_name(&st), "cpu-clock");
	tui_state__key(&st, '>');
	tui_state__key(&st, '>');
	CHECK_STR(sort_name(&st), "page-faults");
	tui_state__key(&st, '>');
	CHECK_STR(sort_name(&st), "pid");
	/* the cycle is cut to what the caller has room for */
	CHECK_INT(tui_state__sort_keys(&st, keys, 2), 2);
}

TEST(tui_level2_sort_keys_and_fallback)
{
	struct sort_key keys[TUI_MAX_SORT_KEYS];
	struct tui_state st;
	unsigned int act;

	init(&st, true, true, true);
	act = tui_state__key(&st, '2');
	CHECK(act & TUI_REBUILD);
	CHECK_INT(st.level, 2);
	CHECK_INT(tui_state__sort_keys(&st, keys, TUI_MAX_SORT_KEYS), 16);
	/* cpu -> retiring ... backend -> heavy-ops */
	for (int i = 0; i < 5; i++)
		tui_state__key(&st, '>');
	CHECK_STR(sort_name(&st), "heavy-ops");
	/* back at level 1 a level-2 key has no column: sort by CPU again */
	act = tui_state__key(&st, '1');
	CHECK(act & TUI_REBUILD);
	CHECK_INT(st.level, 1);
	CHECK_STR(sort_name(&st), "cpu");
	/* a level-1 key stays */
	tui_state__key(&st, '2');
	tui_state__key(&st, '>');
	CHECK_STR(sort_name(&st), "retiring");
	tui_state__key(&st, '1');
	CHECK_STR(sort_name(&st), "retiring");
}

TEST(tui_level2_refused_when_unavailable)
{
	struct tui_state st;
	struct tui_opts o = opts(true, false);
	char err[128];
	unsigned int act;

	o.level = 2;
	CHECK_INT(tui_state__init(&st, &o, true, err, sizeof(err)), 0);
	CHECK_INT(st.level, 1);	/* asked for, not available */
	act = tui_state__key(&st, '2');
	CHECK(!(act & TUI_REBUILD));
	CHECK(act & TUI_REDRAW);
	CHECK_INT(st.level, 1);
	CHECK(st.msg_error);
	CHECK(strstr(st.msg, "level 2") != NULL);
	/* the message goes with the next key */
	tui_state__key(&st, KEY_DOWN);
	CHECK_STR(st.msg, "");

	o.level2_why = "start with --level 2";
	CHECK_INT(tui_state__init(&st, &o, true, err, sizeof(err)), 0);
	tui_state__key(&st, '2');
	CHECK_STR(st.msg, "TopDown level 2: start with --level 2");

	init(&st, false, false, true);
	act = tui_state__key(&st, '1');
	CHECK(!(act & TUI_REBUILD));
	CHECK(st.msg_error);

	o.level = 3;
	CHECK_INT(tui_state__init(&st, &o, true, err, sizeof(err)), -1);
	CHECK(strstr(err, "level") != NULL);
}

TEST(tui_pid_prompt_accepts_and_rejects)
{
	struct tui_state st;
	unsigned int act;

	init(&st, true, false, true);
	CHECK(tui_state__key(&st, 'p') & TUI_REDRAW);
	CHECK_INT(st.mode, TUI_MODE_PROMPT);
	CHECK_INT(st.prompt, TUI_PROMPT_PID);
	/* keys go to the prompt, not to the table */
	act = type(&st, "12, 34q");
	CHECK(!(act & TUI_QUIT));
	CHECK_STR(st.input, "12, 34q");
	tui_state__key(&st, KEY_BACKSPACE);
	CHECK_STR(st.input, "12, 34");
	act = tui_state__key(&st, '\n');
	CHECK(act & TUI_REBUILD);
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	CHECK_INT(st.nr_pids, 2);
	CHECK_INT(st.pids[0], 12);
	CHECK_INT(st.pids[1], 34);

	/* invalid input keeps the filter and says why */
	type(&st, "p12x\n");
	CHECK_INT(st.nr_pids, 2);
	CHECK(st.msg_error);
	CHECK(strstr(st.msg, "12x") != NULL);
	type(&st, "p0\n");
	CHECK_INT(st.nr_pids, 2);
	type(&st, "p4194305\n");
	CHECK_INT(st.nr_pids, 2);

	/* Esc cancels, Ctrl-U clears the line */
	type(&st, "p77");
	tui_state__key(&st, 27);
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	CHECK_INT(st.nr_pids, 2);
	type(&st, "p77");
	tui_state__key(&st, 21);
	CHECK_STR(st.input, "");
	type(&st, "5\n");
	CHECK_INT(st.nr_pids, 1);
	CHECK_INT(st.pids[0], 5);

	/* empty clears */
	act = type(&st, "p\n");
	CHECK(act & TUI_REBUILD);
	CHECK_INT(st.nr_pids, 0);
}

TEST(tui_comm_prompt_sets_view)
{
	struct tui_state st;
	struct view v;

	init(&st, true, false, true);
	tui_state__view(&st, &v);
	CHECK(v.comm == NULL);
	CHECK(type(&st, "/bash\n") & TUI_REBUILD);
	CHECK_STR(st.comm, "bash");
	tui_state__view(&st, &v);
	CHECK_STR(v.comm, "bash");
	/* longer than a comm can be: refused */
	type(&st, "/abcdefghijklmnop\n");
	CHECK_STR(st.comm, "bash");
	CHECK(st.msg_error);
	/* 15 characters fit */
	type(&st, "/abcdefghijklmno\n");
	CHECK_STR(st.comm, "abcdefghijklmno");
	type(&st, "/\n");
	tui_state__view(&st, &v);
	CHECK(v.comm == NULL);
	/* control characters never enter the line */
	tui_state__key(&st, '/');
	tui_state__key(&st, 1);
	tui_state__key(&st, 0x1b5);
	CHECK_STR(st.input, "");
}

TEST(tui_delay_prompt_validates)
{
	struct tui_state st;
	unsigned int act;

	init(&st, true, false, true);
	act = type(&st, "d0.5\n");
	CHECK(act & TUI_RESCHEDULE);
	CHECK_NEAR(st.delay_s, 0.5, 1e-12);
	CHECK(!st.msg_error);
	act = type(&st, "dabc\n");
	CHECK(!(act & TUI_RESCHEDULE));
	CHECK(st.msg_error);
	CHECK_NEAR(st.delay_s, 0.5, 1e-12);
	type(&st, "d0\n");
	CHECK_NEAR(st.delay_s, 0.5, 1e-12);
	type(&st, "d-1\n");
	CHECK_NEAR(st.delay_s, 0.5, 1e-12);
	type(&st, "dnan\n");
	CHECK_NEAR(st.delay_s, 0.5, 1e-12);
	type(&st, "d1e9\n");
	CHECK_NEAR(st.delay_s, 0.5, 1e-12);
	type(&st, "d\n");
	CHECK_NEAR(st.delay_s, 0.5, 1e-12);
	type(&st, "d2 \n");
	CHECK_NEAR(st.delay_s, 2.0, 1e-12);
	type(&st, "d0.01\n");
	CHECK_NEAR(st.delay_s, 0.01, 1e-12);
}

TEST(tui_parsers_edge_cases)
{
	char err[128], comm[TASK_COMM_LEN];
	int pids[3];
	size_t nr = 99;
	double d = 7;

	CHECK_INT(tui_parse_pids(" 5 , 6 ", pids, 3, &nr, err, sizeof(err)), 0);
	CHECK_INT(nr, 2);
	CHECK_INT(pids[1], 6);
	CHECK_INT(tui_parse_pids("1,2,3,4", pids, 3, &nr, err, sizeof(err)), -1);
	CHECK(strstr(err, "too many") != NULL);
	CHECK_INT(tui_parse_pids("-3", pids, 3, &nr, err, sizeof(err)), -1);
	CHECK_INT(tui_parse_pids("99999999999999999999", pids, 3, &nr, err, sizeof(err)), -1);
	CHECK_INT(tui_parse_pids("", pids, 3, &nr, err, sizeof(err)), 0);
	CHECK_INT(nr, 0);
	CHECK_INT(tui_parse_delay("1x", &d, err, sizeof(err)), -1);
	CHECK_NEAR(d, 7, 0);
	CHECK_INT(tui_parse_delay("inf", &d, err, sizeof(err)), -1);
	CHECK_INT(tui_parse_delay("86400", &d, err, sizeof(err)), 0);
	CHECK_INT(tui_parse_comm("a\tb", comm, sizeof(comm), err, sizeof(err)), -1);
	CHECK_INT(tui_parse_comm("kworker/0:1", comm, sizeof(comm), err, sizeof(err)), 0);
	CHECK_STR(comm, "kworker/0:1");
	CHECK_INT(tui_parse_comm("toolong", comm, 4, err, sizeof(err)), -1);
}

TEST(tui_scrolling_stays_in_bounds)
{
	struct row rows[100];
	int pids[100];
	struct tui_state st;

	init(&st, true, false, true);
	for (int i = 0; i < 100; i++)
		pids[i] = 1000 + i;
	set_rows(&st, rows, pids, 100);
	tui_list__set_page(&st.list, 10);
	tui_state__key(&st, KEY_UP);
	CHECK_INT(st.list.cursor, 0);
	for (int i = 0; i < 12; i++)
		tui_state__key(&st, KEY_DOWN);
	CHECK_INT(st.list.cursor, 12);
	CHECK_INT(st.list.first, 3);
	tui_state__key(&st, KEY_NPAGE);
	CHECK_INT(st.list.cursor, 22);
	CHECK_INT(st.list.first, 13);
	tui_state__key(&st, KEY_END);
	CHECK_INT(st.list.cursor, 99);
	CHECK_INT(st.list.first, 90);
	tui_state__key(&st, KEY_NPAGE);
	tui_state__key(&st, KEY_DOWN);
	CHECK_INT(st.list.cursor, 99);
	CHECK_INT(st.list.first, 90);
	tui_state__key(&st, KEY_PPAGE);
	CHECK_INT(st.list.cursor, 89);
	CHECK_INT(st.list.first, 80);
	tui_state__key(&st, KEY_HOME);
	CHECK_INT(st.list.cursor, 0);
	CHECK_INT(st.list.first, 0);
	tui_state__key(&st, KEY_PPAGE);
	CHECK_INT(st.list.cursor, 0);

	/* fewer rows than before: the cursor lands on the last */
	tui_state__key(&st, KEY_END);
	set_rows(&st, rows, pids, 3);
	CHECK_INT(st.list.cursor, 2);
	CHECK_INT(st.list.first, 0);
	/* a taller screen shows everything from the top */
	set_rows(&st, rows, pids, 100);
	tui_state__key(&st, KEY_END);
	tui_list__set_page(&st.list, 200);
	CHECK_INT(st.list.first, 0);
	CHECK_INT(st.list.cursor, 99);
	/* no rows at all */
	set_rows(&st, rows, pids, 0);
	tui_state__key(&st, KEY_DOWN);
	tui_state__key(&st, KEY_END);
	CHECK_INT(st.list.cursor, 0);
	CHECK_INT(tui_state__key(&st, '\n'), 0);
	CHECK_INT(st.mode, TUI_MODE_MAIN);
}

TEST(tui_selection_follows_the_task)
{
	static const int before[] = { 10, 20, 30, 40 };
	static const int after[] = { 30, 40, 10, 20 };
	static const int gone[] = { 30, 20, 10 };
	struct row rows[4];
	struct tui_state st;

	init(&st, true, false, true);
	tui_list__set_page(&st.list, 10);
	set_rows(&st, rows, before, 4);
	/* untouched, the cursor stays on the top row whatever it is */
	set_rows(&st, rows, after, 4);
	CHECK_INT(st.list.cursor, 0);
	CHECK_INT(st.sel_pid, 30);
	/* once picked, the task is followed */
	tui_state__key(&st, KEY_DOWN);
	tui_state__key(&st, KEY_DOWN);
	tui_state__rows(&st, rows, 4);
	CHECK_INT(st.sel_pid, 10);
	set_rows(&st, rows, before, 4);
	CHECK_INT(st.list.cursor, 0);
	CHECK_INT(st.sel_pid, 10);
	/* Enter opens the selected process */
	CHECK(tui_state__key(&st, '\n') & TUI_DETAIL);
	CHECK_INT(st.mode, TUI_MODE_DETAIL);
	CHECK_INT(st.detail_pid, 10);
	/* q in the detail view goes back, it does not quit */
	CHECK(!(tui_state__key(&st, 'q') & TUI_QUIT));
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	tui_state__key(&st, '\n');
	tui_state__key(&st, 27);
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	/* the task left: the cursor keeps its line */
	tui_state__key(&st, KEY_END);
	tui_state__rows(&st, rows, 4);
	CHECK_INT(st.sel_pid, 40);
	set_rows(&st, rows, gone, 3);
	CHECK_INT(st.list.cursor, 2);
	CHECK_INT(st.sel_pid, 10);
	/* Home stops following */
	tui_state__key(&st, KEY_HOME);
	tui_state__rows(&st, rows, 3);
	set_rows(&st, rows, after, 4);
	CHECK_INT(st.list.cursor, 0);
	CHECK_INT(st.sel_pid, 30);
}

TEST(tui_pause_and_step)
{
	struct tui_state st;
	unsigned int act;

	init(&st, true, false, true);
	act = tui_state__key(&st, ' ');
	CHECK(act & TUI_RESCHEDULE);
	CHECK(st.paused);
	CHECK(strstr(st.msg, "collecting") != NULL);
	act = tui_state__key(&st, 'n');
	CHECK(!(act & TUI_STEP));
	CHECK(st.msg_error);
	tui_state__key(&st, ' ');
	CHECK(!st.paused);

	/* a recording steps one interval and stays paused */
	init(&st, true, false, false);
	act = tui_state__key(&st, 'n');
	CHECK(act & TUI_STEP);
	CHECK(st.paused);
	act = tui_state__key(&st, 'n');
	CHECK(act & TUI_STEP);
	CHECK(st.paused);
	tui_state__key(&st, ' ');
	CHECK(!st.paused);
}

TEST(tui_help_quit_threads_resize)
{
	struct tui_state st;
	struct view v;
	unsigned int act;

	init(&st, true, false, true);
	CHECK(tui_state__key(&st, 'h') & TUI_REDRAW);
	CHECK_INT(st.mode, TUI_MODE_HELP);
	/* a resize is not a key press */
	CHECK_INT(tui_state__key(&st, KEY_RESIZE), TUI_REDRAW);
	CHECK_INT(st.mode, TUI_MODE_HELP);
	/* any key closes help, q too, without quitting */
	act = tui_state__key(&st, 'q');
	CHECK(!(act & TUI_QUIT));
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	tui_state__key(&st, '?');
	CHECK_INT(st.mode, TUI_MODE_HELP);
	tui_state__key(&st, 'x');
	CHECK_INT(st.mode, TUI_MODE_MAIN);

	CHECK(tui_state__key(&st, 't') & TUI_REBUILD);
	tui_state__view(&st, &v);
	CHECK_INT(v.by, BY_THREAD);
	tui_state__key(&st, 'H');
	tui_state__view(&st, &v);
	CHECK_INT(v.by, BY_PROCESS);

	type(&st, "d12");
	CHECK_INT(tui_state__key(&st, KEY_RESIZE), TUI_REDRAW);
	CHECK_STR(st.input, "12");
	tui_state__key(&st, 27);
	CHECK_INT(tui_state__key(&st, ERR), 0);
	CHECK(tui_state__key(&st, 'q') & TUI_QUIT);
}

TEST(tui_state_init_copies_the_view)
{
	static const int pids[] = { 7, 8 };
	struct tui_opts o = opts(false, false);
	struct tui_state st;
	struct view v;
	char err[128];

	o.view.pids = pids;
	o.view.nr_pids = 2;
	o.view.comm = "sshd";
	o.view.top = 5;
	o.view.by = BY_THREAD;
	o.view.sort = (struct sort_key){ .kind = SORT_EVENT, .event = 1 };
	CHECK_INT(tui_state__init(&st, &o, true, err, sizeof(err)), 0);
	tui_state__view(&st, &v);
	CHECK(v.pids != pids);
	CHECK_INT(v.nr_pids, 2);
	CHECK_INT(v.pids[1], 8);
	CHECK_STR(v.comm, "sshd");
	CHECK_INT(v.top, 5);
	CHECK_INT(v.by, BY_THREAD);
	CHECK_STR(sort_key__name(&v.sort, names3, 3), "context-switches");
	/* the cgroup filter stays in every view */
	o.view.within = 42;
	o.view.cgroup_depth = 3;
	CHECK_INT(tui_state__init(&st, &o, true, err, sizeof(err)), 0);
	type(&st, "t/x\n");
	tui_state__view(&st, &v);
	CHECK_INT(v.within, 42);
	CHECK_INT(v.cgroup_depth, 3);
	CHECK_INT(v.by, BY_PROCESS);
	CHECK_STR(v.comm, "x");
	o.view.nr_pids = TUI_MAX_PIDS + 1;
	CHECK_INT(tui_state__init(&st, &o, true, err, sizeof(err)), -1);
	o.view.nr_pids = 0;
	o.view.by = BY_CGROUP;
	CHECK_INT(tui_state__init(&st, &o, true, err, sizeof(err)), -1);
	CHECK(strstr(err, "cgroup") != NULL);
}

/* ---- the cgroup view ---- */

/* The keys never walk the tree: a tree that answers nothing is enough. */
static int no_ancestors(void *ctx, __u64 id, __u64 *out, int max)
{
	return -1;
}

static const char *no_path(void *ctx, __u64 id)
{
	return NULL;
}

static const struct cgroup_tree no_tree = { .ancestors = no_ancestors, .path = no_path };

static void init_cg(struct tui_state *st, enum group_by by, bool available)
{
	struct tui_opts o = opts(true, false);
	char err[128];

	o.view.by = by;
	o.view.cg = available ? &no_tree : NULL;
	o.cgroups_available = available;
	CHECK_INT(tui_state__init(st, &o, true, err, sizeof(err)), 0);
}

/* Cgroup rows: ids 100, 101, ... with the given paths. */
static void set_cg_rows(struct tui_state *st, struct row *rows, char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		memset(&rows[i], 0, sizeof(rows[i]));
		rows[i].kind = ROW_CGROUP;
		rows[i].cgroup_id = 100 + i;
		rows[i].cgroup = paths[i];
	}
	tui_state__rows(st, rows, n);
}

TEST(tui_c_toggles_the_cgroup_view)
{
	struct tui_state st;
	struct view v;
	unsigned int act;

	init_cg(&st, BY_PROCESS, true);
	type(&st, "/bash\n");
	act = tui_state__key(&st, 'c');
	CHECK(act & TUI_REBUILD);
	CHECK(!st.msg_error);
	tui_state__view(&st, &v);
	CHECK_INT(v.by, BY_CGROUP);
	CHECK(v.cg == &no_tree);
	/* the command filter is not a cgroup filter */
	CHECK(v.comm == NULL);
	CHECK_INT(tui_state__key(&st, 'c') & TUI_REBUILD, TUI_REBUILD);
	tui_state__view(&st, &v);
	CHECK_INT(v.by, BY_PROCESS);
	CHECK_STR(v.comm, "bash");

	/* c goes back to threads when it left threads */
	tui_state__key(&st, 't');
	tui_state__key(&st, 'c');
	CHECK_INT(st.by, BY_CGROUP);
	tui_state__key(&st, 'c');
	CHECK_INT(st.by, BY_THREAD);

	/* t and H leave the cgroup view for threads and processes */
	tui_state__key(&st, 'c');
	CHECK(tui_state__key(&st, 't') & TUI_REBUILD);
	CHECK_INT(st.by, BY_THREAD);
	tui_state__key(&st, 'c');
	CHECK(tui_state__key(&st, 'H') & TUI_REBUILD);
	CHECK_INT(st.by, BY_PROCESS);
	tui_state__key(&st, 'c');
	tui_state__key(&st, 'H');
	CHECK_INT(st.by, BY_PROCESS);

	/* started in the cgroup view */
	init_cg(&st, BY_CGROUP, true);
	CHECK_INT(st.by, BY_CGROUP);
	tui_state__key(&st, 'c');
	CHECK_INT(st.by, BY_PROCESS);
}

TEST(tui_c_without_cgroups_says_how)
{
	struct tui_opts o = opts(true, false);
	struct tui_state st;
	char err[128];
	unsigned int act;

	init_cg(&st, BY_PROCESS, false);
	act = tui_state__key(&st, 'c');
	CHECK(!(act & TUI_REBUILD));
	CHECK(act & TUI_REDRAW);
	CHECK_INT(st.by, BY_PROCESS);
	CHECK(st.msg_error);
	CHECK_STR(st.msg, "start tdtop with --by cgroup or -c PATH for the cgroup view");
	tui_state__key(&st, KEY_DOWN);
	CHECK_STR(st.msg, "");

	/* the source's reason, e.g. a recording without cgroups */
	o.cgroups_why = "the recording has no cgroups";
	CHECK_INT(tui_state__init(&st, &o, false, err, sizeof(err)), 0);
	tui_state__key(&st, 'c');
	CHECK_STR(st.msg, "the recording has no cgroups");
	/* available without a tree is not available */
	o.cgroups_available = true;
	CHECK_INT(tui_state__init(&st, &o, false, err, sizeof(err)), 0);
	tui_state__key(&st, 'c');
	CHECK_INT(st.by, BY_PROCESS);
	o.view.by = BY_CGROUP;
	CHECK_INT(tui_state__init(&st, &o, false, err, sizeof(err)), -1);
	CHECK(strstr(err, "cgroup") != NULL);
}

TEST(tui_cgroup_sort_keys_have_no_pid)
{
	struct sort_key keys[TUI_MAX_SORT_KEYS];
	struct tui_state st;

	init_cg(&st, BY_PROCESS, true);
	tui_state__key(&st, '<');
	tui_state__key(&st, '<');
	CHECK_STR(sort_name(&st), "pid");
	/* the pid order becomes the name order, which draws the tree */
	tui_state__key(&st, 'c');
	CHECK_STR(sort_name(&st), "comm");
	CHECK_INT(tui_state__sort_keys(&st, keys, TUI_MAX_SORT_KEYS), 7);
	CHECK_INT(keys[0].kind, SORT_COMM);
	tui_state__key(&st, '<');
	CHECK_STR(sort_name(&st), "ipc");
	tui_state__key(&st, '>');
	tui_state__key(&st, '>');
	CHECK_STR(sort_name(&st), "cpu");
}

TEST(tui_enter_opens_a_cgroup_and_esc_returns)
{
	char p0[] = "/", p1[] = "/system.slice", p2[] = "/system.slice/nginx.service";
	char *paths[] = { p0, p1, p2 };
	static const int pids[] = { 500, 501 };
	struct row rows[3], procs[2];
	struct tui_state st;
	struct view v;
	unsigned int act;

	init_cg(&st, BY_CGROUP, true);
	st.base.within = 7;	/* -c PATH */
	set_cg_rows(&st, rows, paths, 3);
	tui_state__key(&st, KEY_DOWN);
	tui_state__key(&st, KEY_DOWN);
	set_cg_rows(&st, rows, paths, 3);
	CHECK_INT(st.list.cursor, 2);
	CHECK_U64(st.sel_cg, 102);
	CHECK_STR(st.sel_cg_name, "nginx.service");

	act = tui_state__key(&st, '\n');
	CHECK(act & TUI_REBUILD);
	CHECK(!(act & TUI_DETAIL));
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	tui_state__view(&st, &v);
	CHECK_INT(v.by, BY_PROCESS);
	CHECK_U64(v.within, 102);
	CHECK_STR(st.cg_name, "nginx.service");
	CHECK(strstr(st.msg, "nginx.service") != NULL);
	CHECK_INT(st.list.cursor, 0);

	/* the cgroup rows still on screen until the rebuild are not the selection */
	tui_state__rows(&st, rows, 3);
	set_rows(&st, procs, pids, 2);
	CHECK_INT(st.list.nr, 2);

	/* Enter on a process opens its detail; Esc back to the processes in the cgroup */
	tui_state__key(&st, KEY_DOWN);
	set_rows(&st, procs, pids, 2);
	CHECK(tui_state__key(&st, '\n') & TUI_DETAIL);
	CHECK_INT(st.detail_pid, 501);
	tui_state__key(&st, 27);
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	tui_state__view(&st, &v);
	CHECK_U64(v.within, 102);
	/* t shows the threads in the cgroup */
	tui_state__key(&st, 't');
	tui_state__view(&st, &v);
	CHECK_INT(v.by, BY_THREAD);
	CHECK_U64(v.within, 102);

	/* Esc: the cgroup rows again, the one opened under the cursor */
	act = tui_state__key(&st, 27);
	CHECK(act & TUI_REBUILD);
	tui_state__view(&st, &v);
	CHECK_INT(v.by, BY_CGROUP);
	CHECK_U64(v.within, 7);
	CHECK_INT(st.cg_within, 0);
	set_cg_rows(&st, rows, paths, 3);
	CHECK_INT(st.list.cursor, 2);
	/* c leaves the cgroup view for threads, the grouping last used */
	tui_state__key(&st, 'c');
	CHECK_INT(st.by, BY_THREAD);
	/* Esc outside a cgroup does nothing */
	CHECK_INT(tui_state__key(&st, 27), 0);

	/* c inside a cgroup goes back to the cgroup rows too */
	tui_state__key(&st, 'c');
	set_cg_rows(&st, rows, paths, 3);
	tui_state__key(&st, KEY_DOWN);
	set_cg_rows(&st, rows, paths, 3);
	tui_state__key(&st, KEY_ENTER);
	CHECK_U64(st.cg_within, 101);
	tui_state__key(&st, 'c');
	CHECK_INT(st.by, BY_CGROUP);
	CHECK_INT(st.cg_within, 0);
	set_cg_rows(&st, rows, paths, 3);
	CHECK_INT(st.list.cursor, 1);

	/* a row without a cgroup id would open every process */
	tui_state__key(&st, KEY_HOME);
	rows[0].cgroup_id = 0;
	tui_state__rows(&st, rows, 3);
	CHECK_INT(tui_state__key(&st, '\n') & TUI_REBUILD, 0);
	CHECK(st.msg_error);
	CHECK_INT(st.by, BY_CGROUP);

	/* no rows, nothing to open */
	set_cg_rows(&st, rows, paths, 0);
	CHECK_INT(tui_state__key(&st, '\n'), 0);
	CHECK_INT(st.by, BY_CGROUP);
}

TEST(tui_cgroup_name_filter_is_the_path)
{
	struct tui_state st;
	struct view v;
	unsigned int act;

	init_cg(&st, BY_CGROUP, true);
	tui_state__key(&st, '/');
	CHECK_INT(st.prompt, TUI_PROMPT_PATH);
	/* longer than a command name: a path filter may be */
	act = type(&st, "system.slice/nginx.service\n");
	CHECK(act & TUI_REBUILD);
	CHECK(!st.msg_error);
	CHECK_STR(st.cg_filter, "system.slice/nginx.service");
	CHECK_STR(st.comm, "");
	tui_state__view(&st, &v);
	CHECK(v.comm == NULL);
	/* the process view keeps its own filter */
	type(&st, "c/ssh\n");
	CHECK_STR(st.comm, "ssh");
	CHECK_STR(st.cg_filter, "system.slice/nginx.service");
	type(&st, "c/\n");
	CHECK_STR(st.cg_filter, "");
	CHECK_STR(st.comm, "ssh");
}

/* ---- htop's keys ---- */

/* Rows with PIDs pids[i] and names comms[i]. */
static void set_named_rows(struct tui_state *st, struct row *rows, const char *const *comms,
			   size_t n)
{
	for (size_t i = 0; i < n; i++) {
		memset(&rows[i], 0, sizeof(rows[i]));
		rows[i].pid = rows[i].tid = 100 + (int)i;
		snprintf(rows[i].comm, sizeof(rows[i].comm), "%s", comms[i]);
	}
	tui_state__rows(st, rows, n);
}

TEST(tui_function_keys)
{
	struct tui_state st;
	struct view v;

	init(&st, true, true, true);
	CHECK(tui_state__key(&st, KEY_F(1)) & TUI_REDRAW);
	CHECK_INT(st.mode, TUI_MODE_HELP);
	tui_state__key(&st, 'x');
	CHECK(tui_state__key(&st, KEY_F(10)) & TUI_QUIT);
	/* F4 is the name filter; in the cgroup view it filters paths */
	tui_state__key(&st, KEY_F(4));
	CHECK_INT(st.prompt, TUI_PROMPT_COMM);
	type(&st, "sshd\n");
	tui_state__view(&st, &v);
	CHECK_STR(v.comm, "sshd");
	tui_state__key(&st, '\\');
	CHECK_INT(st.prompt, TUI_PROMPT_COMM);
	tui_state__key(&st, 27);
	/* F6: a menu of the sort keys with the cursor on the current one */
	CHECK(tui_state__key(&st, KEY_F(6)) & TUI_REDRAW);
	CHECK_INT(st.mode, TUI_MODE_MENU);
	CHECK_INT(st.menu, TUI_MENU_SORT);
	CHECK_INT(st.menu_list.nr, 8);
	CHECK_INT(st.menu_list.cursor, 2);	/* pid, comm, cpu */
	tui_state__key(&st, KEY_DOWN);
	CHECK(tui_state__key(&st, '\n') & TUI_REBUILD);
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	CHECK_STR(sort_name(&st), "retiring");
	/* Esc leaves the menu as it was */
	tui_state__key(&st, KEY_F(6));
	tui_state__key(&st, KEY_HOME);
	CHECK(!(tui_state__key(&st, 27) & TUI_REBUILD));
	CHECK_STR(sort_name(&st), "retiring");
	CHECK_INT(st.mode, TUI_MODE_MAIN);
}

TEST(tui_invert_and_cpu_sort)
{
	struct tui_state st;
	unsigned int act;

	init(&st, true, false, true);
	act = tui_state__key(&st, 'I');
	CHECK(act & TUI_REBUILD);
	CHECK(st.reverse);
	CHECK_STR(st.msg, "sort cpu, reversed");
	tui_state__key(&st, 'I');
	CHECK(!st.reverse);
	/* P: by CPU; P again: the other way round */
	tui_state__key(&st, '<');
	CHECK_STR(sort_name(&st), "comm");
	tui_state__key(&st, 'I');
	CHECK(tui_state__key(&st, 'P') & TUI_REBUILD);
	CHECK_STR(sort_name(&st), "cpu");
	CHECK(!st.reverse);
	tui_state__key(&st, 'P');
	CHECK(st.reverse);
	/* M: no memory column, and the status line says so */
	act = tui_state__key(&st, 'M');
	CHECK(!(act & TUI_REBUILD));
	CHECK(st.msg_error);
	CHECK(strstr(st.msg, "no memory column") != NULL);
	CHECK_STR(sort_name(&st), "cpu");
}

TEST(tui_f5_tree_and_t)
{
	struct tui_state st;
	struct view v;

	init(&st, true, false, true);
	CHECK(tui_state__key(&st, KEY_F(5)) & TUI_REBUILD);
	CHECK(st.tree);
	tui_state__view(&st, &v);
	CHECK_INT(v.by, BY_PROCESS);
	/* t still swaps processes and threads, as a flat list */
	tui_state__key(&st, 't');
	CHECK(!st.tree);
	CHECK_INT(st.by, BY_THREAD);
	/* the tree from threads shows processes with their threads */
	tui_state__key(&st, KEY_F(5));
	CHECK(st.tree);
	CHECK_INT(st.by, BY_PROCESS);
	tui_state__key(&st, 'T');
	CHECK(!st.tree);
	CHECK_INT(st.by, BY_PROCESS);
	tui_state__key(&st, 'T');
	tui_state__key(&st, 'H');
	CHECK(!st.tree);
	CHECK_INT(st.by, BY_THREAD);
}

TEST(tui_f3_search_jumps_to_matches)
{
	static const char *const comms[] = { "bash", "sshd", "Xorg", "ssh-agent", "bash" };
	struct row rows[5];
	struct tui_state st;

	init(&st, true, false, true);
	tui_list__set_page(&st.list, 10);
	set_named_rows(&st, rows, comms, 5);
	tui_state__key(&st, KEY_F(3));
	CHECK_INT(st.mode, TUI_MODE_PROMPT);
	CHECK_INT(st.prompt, TUI_PROMPT_SEARCH);
	/* each letter jumps, from the selected row on, ignoring case */
	tui_state__key(&st, 's');
	tui_state__rows(&st, rows, 5);
	CHECK_INT(st.list.cursor, 0);	/* bash */
	tui_state__key(&st, 's');
	tui_state__rows(&st, rows, 5);
	CHECK_INT(st.list.cursor, 1);
	type(&st, "h-");
	tui_state__rows(&st, rows, 5);
	CHECK_INT(st.list.cursor, 3);
	CHECK(!st.search_failed);
	/* F3 again: the next match, round the end */
	tui_state__key(&st, 21);	/* Ctrl-U */
	type(&st, "BASH");
	tui_state__rows(&st, rows, 5);
	CHECK_INT(st.list.cursor, 4);
	tui_state__key(&st, KEY_F(3));
	tui_state__rows(&st, rows, 5);
	CHECK_INT(st.list.cursor, 0);
	CHECK_INT(st.sel_pid, 100);
	/* no match: the cursor stays and the prompt says so */
	tui_state__key(&st, 'x');
	tui_state__rows(&st, rows, 5);
	CHECK_INT(st.list.cursor, 0);
	CHECK(st.search_failed);
	tui_state__key(&st, '\n');
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	CHECK(st.msg_error);
	/* the match is followed as the rows change */
	tui_state__key(&st, KEY_F(3));
	type(&st, "xorg");
	tui_state__key(&st, '\n');
	tui_state__rows(&st, rows, 5);
	CHECK_INT(st.sel_pid, 102);
	set_named_rows(&st, rows, (const char *const[]){ "a", "b", "c", "d", "e" }, 5);
	CHECK_INT(st.list.cursor, 2);
	/* F3 on an empty line searches the last text again */
	set_named_rows(&st, rows, comms, 5);
	tui_state__key(&st, KEY_HOME);
	tui_state__rows(&st, rows, 5);
	tui_state__key(&st, KEY_F(3));
	tui_state__key(&st, KEY_F(3));
	CHECK_STR(st.input, "xorg");
	tui_state__rows(&st, rows, 5);
	CHECK_INT(st.list.cursor, 2);
	tui_state__key(&st, 27);
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	/* cgroup rows match their path */
	rows[0].kind = ROW_CGROUP;
	rows[0].cgroup = (char *)"/system.slice/Nginx.service";
	CHECK(tui_row_matches(&rows[0], "nginx"));
	rows[0].cgroup = NULL;
	CHECK(!tui_row_matches(&rows[0], "nginx"));
}

TEST(tui_esc_clears_filters_then_leaves)
{
	struct tui_state st;
	struct view v;
	unsigned int act;

	init(&st, true, false, true);
	type(&st, "/bash\n");
	type(&st, "p7\n");
	act = tui_state__key(&st, 27);
	CHECK(act & TUI_REBUILD);
	CHECK_STR(st.comm, "");
	CHECK_STR(st.msg, "filter cleared");
	/* the PIDs stay: p with nothing clears them */
	tui_state__view(&st, &v);
	CHECK_INT(v.nr_pids, 1);
	CHECK_INT(tui_state__key(&st, 27), 0);
	/* the user filter goes too */
	st.user_filter = true;
	CHECK(tui_state__key(&st, 27) & TUI_REBUILD);
	CHECK(!st.user_filter);
}

TEST(tui_left_right_scroll_columns)
{
	struct tui_state st;

	init(&st, true, false, true);
	/* nothing to scroll: said, not done */
	CHECK_INT(tui_state__key(&st, KEY_RIGHT), TUI_REDRAW);
	CHECK_INT(st.hscroll, 0);
	CHECK_STR(st.msg, "every column is on screen");
	CHECK_INT(tui_state__key(&st, KEY_LEFT), 0);
	st.hscroll_max = 2;
	tui_state__key(&st, KEY_RIGHT);
	tui_state__key(&st, KEY_RIGHT);
	CHECK_INT(st.hscroll, 2);
	tui_state__key(&st, KEY_RIGHT);
	CHECK_INT(st.hscroll, 2);
	CHECK_STR(st.msg, "the last column is on screen");
	tui_state__key(&st, KEY_LEFT);
	CHECK_INT(st.hscroll, 1);
	/* in the detail view Left goes back */
	st.mode = TUI_MODE_DETAIL;
	tui_state__key(&st, KEY_LEFT);
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	CHECK_INT(st.hscroll, 1);
}

TEST(tui_help_scrolls_with_the_arrows)
{
	struct tui_state st;

	init(&st, true, false, true);
	tui_state__key(&st, KEY_F(1));
	st.help.nr = 12;	/* what the drawing sets: lines beyond the screen */
	tui_list__set_page(&st.help, 5);
	CHECK_INT(tui_state__key(&st, KEY_DOWN), TUI_REDRAW);
	CHECK_INT(st.mode, TUI_MODE_HELP);
	tui_state__key(&st, KEY_NPAGE);
	CHECK_INT(st.help.cursor, 6);
	tui_state__key(&st, KEY_END);
	CHECK_INT(st.help.cursor, 11);
	/* another key closes it; opened again it starts at the top */
	tui_state__key(&st, 'x');
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	tui_state__key(&st, 'h');
	CHECK_INT(st.help.cursor, 0);
	tui_state__key(&st, KEY_LEFT);
	CHECK_INT(st.mode, TUI_MODE_MAIN);
}

TEST(tui_empty_views_say_why)
{
	struct tui_state st;

	init(&st, true, false, true);
	CHECK_STR(tui_state__empty_text(&st), "no task ran");
	type(&st, "/x\n");
	CHECK_STR(tui_state__empty_text(&st), "no task matches the filter");
	tui_state__key(&st, 27);
	st.user_filter = true;
	CHECK_STR(tui_state__empty_text(&st), "no task matches the filter");
	st.user_filter = false;
	st.cg_within = 9;
	CHECK_STR(tui_state__empty_text(&st), "no task of this cgroup ran in this interval");
	/* cgroup rows: none charged yet, never a process table's words */
	init_cg(&st, BY_CGROUP, true);
	CHECK(strstr(tui_state__empty_text(&st), "no cgroups charged yet") == tui_state__empty_text(&st));
	type(&st, "/a.slice\n");
	CHECK_STR(tui_state__empty_text(&st), "no cgroup matches the filter");
}

TEST(tui_note_on_the_status_line_at_start)
{
	struct tui_opts o = opts(false, false);
	struct tui_state st;
	char err[128];

	o.note = "-s backend: TopDown is not measured; sorted by cpu";
	CHECK_INT(tui_state__init(&st, &o, true, err, sizeof(err)), 0);
	CHECK_STR(st.msg, "-s backend: TopDown is not measured; sorted by cpu");
	CHECK(st.msg_error);
	/* gone with the next key */
	type(&st, ">");
	CHECK(strstr(st.msg, "backend") == NULL);
}
