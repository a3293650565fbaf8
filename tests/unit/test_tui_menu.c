// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The interactive view's menus: sort, users, columns, F9's signal, its confirmation and sending. */
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "test.h"
#include "tui/draw.h"
#include "tui/keys.h"
#include "tui/kill.h"

static const char *const names2[] = { "cpu-clock", "page-faults" };

static void init(struct tui_state *st, bool live)
{
	struct tui_opts o = { .delay_s = 1, .level = 1, .names = names2, .nr_events = 2 };
	char err[128];

	o.view.sort.kind = SORT_CPU;
	CHECK_INT(tui_state__init(st, &o, live, err, sizeof(err)), 0);
	tui_list__set_page(&st->list, 10);
}

/* One process row per PID, called "w<PID>". */
static void set_rows(struct tui_state *st, struct row *rows, const int *pids, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		memset(&rows[i], 0, sizeof(rows[i]));
		rows[i].pid = rows[i].tid = pids[i];
		snprintf(rows[i].comm, sizeof(rows[i].comm), "w%d", pids[i]);
	}
	tui_state__rows(st, rows, n);
}

static const char *item(const struct tui_state *st, size_t i, bool *current)
{
	static char buf[128];

	*current = tui_state__menu_item(st, i, buf, sizeof(buf));
	return buf;
}

TEST(tui_sort_menu_names_events)
{
	struct tui_state st;
	bool current;
	char title[64];

	init(&st, true);
	tui_state__key(&st, KEY_F(6));
	tui_state__menu_title(&st, title, sizeof(title));
	CHECK_STR(title, "Sort by");
	CHECK_STR(item(&st, 0, &current), "pid");
	CHECK(!current);
	CHECK_STR(item(&st, 2, &current), "cpu");
	CHECK(current);
	CHECK_STR(item(&st, 4, &current), "page-faults");
	CHECK_STR(item(&st, 5, &current), "");
	tui_state__key(&st, KEY_END);
	tui_state__key(&st, '\n');
	CHECK_INT(st.sort.kind, SORT_EVENT);
	CHECK_INT(st.sort.event, 1);
	/* the o key opens it too; q closes it without quitting */
	tui_state__key(&st, 'o');
	CHECK_INT(st.mode, TUI_MODE_MENU);
	CHECK(!(tui_state__key(&st, 'q') & TUI_QUIT));
	CHECK_INT(st.mode, TUI_MODE_MAIN);
}

TEST(tui_user_menu_filters)
{
	static const struct tui_user users[] = { { 0, "root" }, { 1000, "alice" } };
	struct tui_state st;
	bool current;
	unsigned int act;

	init(&st, true);
	act = tui_state__key(&st, 'u');
	CHECK(act & TUI_USERS);
	CHECK_INT(st.mode, TUI_MODE_MENU);
	CHECK_INT(st.menu_list.nr, 1);	/* all users, until the loop fills the list */
	tui_state__set_users(&st, users, 2);
	CHECK_INT(st.menu_list.nr, 3);
	CHECK_STR(item(&st, 0, &current), "all users");
	CHECK(current);
	CHECK_STR(item(&st, 2, &current), "alice");
	tui_state__key(&st, KEY_DOWN);
	tui_state__key(&st, KEY_DOWN);
	CHECK(tui_state__key(&st, '\n') & TUI_REBUILD);
	CHECK(st.user_filter);
	CHECK_INT(st.uid, 1000);
	CHECK_STR(st.user_name, "alice");
	/* opened again, the cursor is on the user shown */
	tui_state__key(&st, 'u');
	tui_state__set_users(&st, users, 2);
	CHECK_INT(st.menu_list.cursor, 2);
	CHECK(tui_state__menu_item(&st, 2, (char[64]){ 0 }, 64));
	tui_state__key(&st, KEY_HOME);
	tui_state__key(&st, '\n');
	CHECK(!st.user_filter);
	/* cgroup rows have no owner */
	st.by = BY_CGROUP;
	CHECK(!(tui_state__key(&st, 'u') & TUI_USERS));
	CHECK(st.msg_error);
}

TEST(tui_columns_menu_toggles)
{
	struct tui_state st;
	bool current;

	init(&st, true);
	tui_state__key(&st, KEY_F(2));
	CHECK_INT(st.menu, TUI_MENU_COLUMNS);
	CHECK_INT(st.menu_list.nr, TUI_OPT_NR);
	CHECK(strncmp(item(&st, 0, &current), "[x] USER", 8) == 0);
	/* Enter and space turn columns off and on, the menu stays */
	tui_state__key(&st, '\n');
	CHECK_INT(st.hidden, TUI_HIDE(TUI_OPT_USER));
	CHECK_INT(st.mode, TUI_MODE_MENU);
	CHECK(strncmp(item(&st, 0, &current), "[ ] USER", 8) == 0);
	tui_state__key(&st, KEY_DOWN);
	tui_state__key(&st, ' ');
	CHECK_INT(st.hidden, TUI_HIDE(TUI_OPT_USER) | TUI_HIDE(TUI_OPT_CPU));
	tui_state__key(&st, ' ');
	CHECK_INT(st.hidden, TUI_HIDE(TUI_OPT_USER));
	tui_state__key(&st, 27);
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	CHECK_INT(st.hidden, TUI_HIDE(TUI_OPT_USER));
	CHECK_STR(tui_optional_name(TUI_OPT_RATES), "rates");
	CHECK(tui_optional_name(TUI_OPT_NR) == NULL);
}

TEST(tui_f9_asks_before_signalling)
{
	static const int pids[] = { 4242, 1, 0 };
	struct row rows[3];
	struct tui_state st;
	char text[TUI_MSG_LEN];
	unsigned int act;

	init(&st, true);
	set_rows(&st, rows, pids, 3);
	act = tui_state__key(&st, KEY_F(9));
	CHECK_INT(st.mode, TUI_MODE_MENU);
	CHECK_INT(st.menu, TUI_MENU_SIGNAL);
	tui_state__menu_title(&st, text, sizeof(text));
	CHECK_STR(text, "Send a signal to PID 4242 (w4242)");
	/* SIGTERM first: Enter asks about it at once */
	CHECK_INT(st.menu_list.cursor, 0);
	tui_state__key(&st, '\n');
	CHECK_INT(st.mode, TUI_MODE_CONFIRM);
	CHECK_INT(st.kill_sig, SIGTERM);
	tui_state__confirm_text(&st, text, sizeof(text));
	CHECK_STR(text, "Send SIGTERM to PID 4242 'w4242'? y sends, any other key cancels");
	/* anything but y cancels */
	act = tui_state__key(&st, '\n');
	CHECK(!(act & TUI_KILL));
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	CHECK_STR(st.msg, "SIGTERM not sent");
	/* k, another signal, y */
	tui_state__key(&st, 'k');
	for (int i = 0; i < 4; i++)
		tui_state__key(&st, KEY_DOWN);
	tui_state__key(&st, '\n');
	CHECK_INT(st.kill_sig, SIGKILL);
	act = tui_state__key(&st, 'y');
	CHECK(act & TUI_KILL);
	CHECK_INT(st.kill_pid, 4242);
	CHECK_INT(st.kill_tid, 4242);
	CHECK_STR(st.kill_comm, "w4242");
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	/* a thread row: the process is signalled, its name is the thread's */
	rows[0].kind = ROW_THREAD;
	rows[0].tid = 4243;
	tui_state__rows(&st, rows, 3);
	tui_state__key(&st, KEY_F(9));
	tui_state__key(&st, '\n');
	tui_state__confirm_text(&st, text, sizeof(text));
	CHECK(strstr(text, "to process 4242 (thread 4243 'w4242')") != NULL);
	tui_state__key(&st, 27);
	CHECK_INT(st.mode, TUI_MODE_MAIN);

	/* init, tdtop itself, exited processes: never */
	tui_state__key(&st, KEY_DOWN);
	tui_state__rows(&st, rows, 3);
	CHECK(!(tui_state__key(&st, KEY_F(9)) & TUI_KILL));
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	CHECK(strstr(st.msg, "init") != NULL);
	rows[1].pid = rows[1].tid = getpid();
	tui_state__rows(&st, rows, 3);
	tui_state__key(&st, KEY_F(9));
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	CHECK(strstr(st.msg, "tdtop itself") != NULL);
	rows[1].pid = rows[1].tid = 777;
	rows[1].exited = true;
	tui_state__rows(&st, rows, 3);
	tui_state__key(&st, KEY_F(9));
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	CHECK_STR(st.msg, "PID 777 has exited");

	/* a recording has nothing to signal, a cgroup row is no process */
	init(&st, false);
	set_rows(&st, rows, pids, 3);
	tui_state__key(&st, KEY_F(9));
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	CHECK(st.msg_error);
	init(&st, true);
	st.by = BY_CGROUP;
	tui_state__key(&st, KEY_F(9));
	CHECK_INT(st.mode, TUI_MODE_MAIN);
	CHECK(strstr(st.msg, "Enter") != NULL);
	/* no rows: nothing */
	init(&st, true);
	set_rows(&st, rows, pids, 0);
	CHECK_INT(tui_state__key(&st, KEY_F(9)), 0);
}

TEST(tui_kill_checks_the_name_first)
{
	char err[TUI_MSG_LEN], comm[TASK_COMM_LEN] = "";
	int status = 0;
	pid_t child;
	FILE *f;

	CHECK_INT(tui_kill(1, 1, "init", SIGTERM, err, sizeof(err)), -EPERM);
	CHECK_INT(tui_kill(getpid(), getpid(), "run", SIGTERM, err, sizeof(err)), -EPERM);
	child = fork();
	if (!child) {
		pause();
		_exit(0);
	}
	CHECK(child > 0);
	f = fopen("/proc/self/comm", "r");
	CHECK(f && fgets(comm, sizeof(comm), f));
	if (f)
		fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	/* another name than on screen: the PID was reused, nothing is sent */
	CHECK_INT(tui_kill(child, child, "not-the-same", SIGTERM, err, sizeof(err)), -ESRCH);
	CHECK(strstr(err, "nothing sent") != NULL);
	CHECK_INT(waitpid(child, &status, WNOHANG), 0);
	CHECK_INT(tui_kill(child, child, comm, SIGTERM, err, sizeof(err)), 0);
	CHECK_INT(waitpid(child, &status, 0), child);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	/* gone: said, not sent */
	CHECK(tui_kill(child, child, comm, SIGTERM, err, sizeof(err)) < 0);
	CHECK(strstr(err, "exited") != NULL);
}
