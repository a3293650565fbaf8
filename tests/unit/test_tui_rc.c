// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The interactive view's settings file: parsing damaged input, the text, saving, applying. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fixture.h"
#include "test.h"
#include "tui/draw.h"
#include "tui/rc.h"

static const char *const names2[] = { "cpu-clock", "page-faults" };

static int parse(struct tui_rc *rc, const char *text, char *err)
{
	return tui_rc__parse(rc, text, strlen(text), err, 128);
}

TEST(tui_rc_parses_settings)
{
	struct tui_rc rc;
	char err[128];

	CHECK_INT(parse(&rc, "# comment\n\n sort = ipc \nreverse=1\ncolumns=user,ipc,bar\n"
			     "level=2\ndelay=0.5\r\ntree=0\nfuture-key=anything\n", err), 0);
	CHECK_INT(rc.has, TUI_RC_SORT | TUI_RC_REVERSE | TUI_RC_COLUMNS | TUI_RC_LEVEL |
			  TUI_RC_DELAY | TUI_RC_TREE);
	CHECK_STR(rc.sort, "ipc");
	CHECK(rc.reverse);
	CHECK_INT(rc.hidden, TUI_HIDE_ALL & ~(TUI_HIDE(TUI_OPT_USER) | TUI_HIDE(TUI_OPT_IPC) |
					       TUI_HIDE(TUI_OPT_BAR)));
	CHECK_INT(rc.level, 2);
	CHECK_NEAR(rc.delay_s, 0.5, 0);
	CHECK(!rc.tree);
	/* empty: nothing set; no columns listed: all optional ones off */
	CHECK_INT(parse(&rc, "", err), 0);
	CHECK_INT(rc.has, 0);
	CHECK_INT(parse(&rc, "columns=\n", err), 0);
	CHECK_INT(rc.hidden, TUI_HIDE_ALL);
	/* the last of a repeated key wins; no newline at the end is fine */
	CHECK_INT(parse(&rc, "level=1\nlevel=2", err), 0);
	CHECK_INT(rc.level, 2);
}

TEST(tui_rc_damaged_files_are_refused_whole)
{
	static const struct {
		const char *text;
		const char *why;
	} bad[] = {
		{ "sort=cpu\nlevel=3\n", "line 2: level wants 1 or 2, not '3'" },
		{ "just words\n", "line 1: not KEY=VALUE" },
		{ "delay=0\n", "line 1: invalid delay '0'" },
		{ "delay=abc\n", "line 1: invalid delay 'abc'" },
		{ "delay=inf\n", "line 1: invalid delay 'inf'" },
		{ "reverse=yes\n", "line 1: reverse wants 0 or 1, not 'yes'" },
		{ "tree=2\n", "line 1: tree wants 0 or 1, not '2'" },
		{ "columns=user,memory\n", "line 1: unknown column 'memory'" },
		{ "sort=\n", "line 1: invalid sort key" },
		{ "sort=\x1b[2J\n", "line 1: invalid sort key" },
		{ "sort=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
		  "line 1: invalid sort key" },
	};
	char err[128], big[TUI_RC_MAX_SIZE + 2], line[300];
	struct tui_rc rc;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_INT(parse(&rc, bad[i].text, err), -1);
		CHECK(strncmp(err, bad[i].why, strlen(bad[i].why)) == 0);
		/* nothing of a damaged file is used, not even its good lines */
		CHECK_INT(rc.has, 0);
	}
	CHECK_INT(tui_rc__parse(&rc, "sort=cpu\n\0level=1\n", 19, err, sizeof(err)), -1);
	CHECK_STR(err, "holds a NUL byte");
	memset(big, '#', sizeof(big));
	big[sizeof(big) - 1] = '\n';
	CHECK_INT(tui_rc__parse(&rc, big, sizeof(big), err, sizeof(err)), -1);
	CHECK(strstr(err, "larger than") != NULL);
	memset(line, 'x', sizeof(line));
	memcpy(line, "sort=", 5);
	CHECK_INT(tui_rc__parse(&rc, line, sizeof(line), err, sizeof(err)), -1);
	CHECK(strstr(err, "line 1: longer than") != NULL);
	/* random bytes never crash the parser */
	srand(7);
	for (int round = 0; round < 200; round++) {
		char junk[64];

		for (size_t i = 0; i < sizeof(junk); i++)
			junk[i] = (char)(rand() % 96 + 10);
		tui_rc__parse(&rc, junk, sizeof(junk), err, sizeof(err));
	}
}

TEST(tui_rc_text_round_trips)
{
	struct tui_rc rc = { 0 }, back;
	char text[TUI_RC_TEXT_LEN], err[128];

	rc.has = TUI_RC_SORT | TUI_RC_REVERSE | TUI_RC_COLUMNS | TUI_RC_LEVEL | TUI_RC_DELAY |
		 TUI_RC_TREE;
	snprintf(rc.sort, sizeof(rc.sort), "page-faults");
	rc.reverse = true;
	rc.hidden = TUI_HIDE(TUI_OPT_USER) | TUI_HIDE(TUI_OPT_RATES);
	rc.level = 2;
	rc.delay_s = 0.25;
	rc.tree = true;
	CHECK(tui_rc__format(&rc, text, sizeof(text)) < (int)sizeof(text));
	CHECK(strstr(text, "\ncolumns=cpu,ipc,bar,counts,tasks\n") != NULL);
	CHECK(strstr(text, "\ndelay=0.25\n") != NULL);
	CHECK_INT(tui_rc__parse(&back, text, strlen(text), err, sizeof(err)), 0);
	CHECK_INT(tui_rc__diff(&rc, &back), 0);
	/* only what is present is written */
	rc.has = TUI_RC_TREE;
	tui_rc__format(&rc, text, sizeof(text));
	CHECK(strstr(text, "tree=1\n") != NULL);
	CHECK(strstr(text, "sort=") == NULL);
	/* a small buffer still gets a terminated string */
	CHECK(tui_rc__format(&rc, text, 10) > 10);
	CHECK_INT(strlen(text), 9);
}

TEST(tui_rc_command_line_wins)
{
	struct tui_opts o = { .delay_s = 1, .level = 1, .names = names2, .nr_events = 2 };
	struct tui_rc rc;
	char err[128];

	o.view.sort.kind = SORT_CPU;
	CHECK_INT(parse(&rc, "sort=page-faults\nreverse=1\ndelay=3\nlevel=2\ntree=1\n"
			     "columns=cpu\n", err), 0);
	o.cmdline = TUI_RC_DELAY;
	tui_rc__apply(&rc, &o);
	CHECK_INT(o.view.sort.kind, SORT_EVENT);
	CHECK_INT(o.view.sort.event, 1);
	CHECK(o.reverse && o.tree);
	CHECK_INT(o.hidden, TUI_HIDE_ALL & ~TUI_HIDE(TUI_OPT_CPU));
	CHECK_NEAR(o.delay_s, 1, 0);		/* -d */
	CHECK_INT(o.level, 1);			/* this run cannot show level 2 */
	o.level2_available = true;
	o.cmdline = TUI_RC_SORT;
	o.view.sort.kind = SORT_PID;
	tui_rc__apply(&rc, &o);
	CHECK_INT(o.view.sort.kind, SORT_PID);	/* -s */
	CHECK_INT(o.level, 2);
	CHECK_NEAR(o.delay_s, 3, 0);
	/* a key that names no column of this run is left out */
	CHECK_INT(parse(&rc, "sort=context-switches\n", err), 0);
	o.cmdline = 0;
	tui_rc__apply(&rc, &o);
	CHECK_INT(o.view.sort.kind, SORT_PID);
	CHECK_INT(parse(&rc, "sort=backend\n", err), 0);
	tui_rc__apply(&rc, &o);
	CHECK_INT(o.view.sort.kind, SORT_PID);	/* no TopDown in this run */
}

TEST(tui_rc_keeps_what_changed_on_screen)
{
	struct tui_rc file, start, now, out;
	struct tui_opts o = { .delay_s = 1, .level = 1, .names = names2, .nr_events = 2 };
	struct tui_state st;
	char err[128];

	o.view.sort.kind = SORT_CPU;
	CHECK_INT(parse(&file, "delay=2\nfuture=1\n", err), 0);
	CHECK_INT(tui_state__init(&st, &o, true, err, sizeof(err)), 0);
	tui_rc__from_state(&start, &st);
	CHECK_STR(start.sort, "cpu");
	st.reverse = true;
	tui_rc__from_state(&now, &st);
	CHECK_INT(tui_rc__diff(&start, &now), TUI_RC_REVERSE);
	out = file;
	tui_rc__take(&out, &now, tui_rc__diff(&start, &now));
	CHECK_INT(out.has, TUI_RC_DELAY | TUI_RC_REVERSE);
	CHECK(out.reverse);
	CHECK_NEAR(out.delay_s, 2, 0);
	CHECK_INT(tui_rc__diff(&out, &file), TUI_RC_REVERSE);
}

TEST(tui_rc_save_is_atomic_and_follows_no_link)
{
	char path[128], sub[128], victim[128], text[512], err[256];
	struct tui_rc rc = { .has = TUI_RC_LEVEL | TUI_RC_TREE, .level = 2, .tree = true }, back;
	char *dir = fixture_new("rc");
	struct stat sb;

	if (!dir)
		return;
	/* the directories are made as needed */
	snprintf(path, sizeof(path), "%s/cfg/tdtop/tdtoprc", dir);
	CHECK_INT(tui_rc__load(&back, path, err, sizeof(err)), 1);
	CHECK_INT(tui_rc__save(&rc, path, err, sizeof(err)), 0);
	CHECK_INT(tui_rc__load(&back, path, err, sizeof(err)), 0);
	CHECK_INT(tui_rc__diff(&rc, &back), 0);
	snprintf(sub, sizeof(sub), "%s/cfg/tdtop", dir);
	CHECK_INT(stat(sub, &sb), 0);
	CHECK_INT(sb.st_mode & 0777, 0700);
	/* a link at the file's place is replaced; where it pointed is untouched */
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	CHECK_INT(close(open(victim, O_WRONLY | O_CREAT, 0600)), 0);
	CHECK_INT(unlink(path), 0);
	CHECK_INT(symlink(victim, path), 0);
	CHECK_INT(tui_rc__save(&rc, path, err, sizeof(err)), 0);
	CHECK_INT(lstat(path, &sb), 0);
	CHECK(S_ISREG(sb.st_mode));
	fixture_read(victim, text, sizeof(text));
	CHECK_STR(text, "");
	fixture_read(path, text, sizeof(text));
	CHECK(strstr(text, "level=2\n") != NULL);
	/* no temporary file is left behind */
	snprintf(sub, sizeof(sub), "%s/cfg/tdtop/.tdtoprc.%d", dir, (int)getpid());
	CHECK(access(sub, F_OK) != 0);
	/* the directory itself must not be a link */
	snprintf(sub, sizeof(sub), "%s/linked", dir);
	CHECK_INT(symlink(dir, sub), 0);
	snprintf(path, sizeof(path), "%s/linked/tdtoprc", dir);
	CHECK_INT(tui_rc__save(&rc, path, err, sizeof(err)), -1);
	CHECK(strstr(err, "not a directory") != NULL);
	/* a directory or a FIFO at the file's place is not read */
	snprintf(path, sizeof(path), "%s/cfg/tdtop", dir);
	CHECK_INT(tui_rc__load(&back, path, err, sizeof(err)), -1);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	CHECK_INT(mkfifo(path, 0600), 0);
	CHECK_INT(tui_rc__load(&back, path, err, sizeof(err)), -1);
	CHECK(strstr(err, "not a regular file") != NULL);
	/* a damaged file names itself */
	snprintf(path, sizeof(path), "%s/damaged", dir);
	CHECK_INT(tui_rc__save(&(struct tui_rc){ 0 }, path, err, sizeof(err)), 0);
	fixture_read(path, text, sizeof(text));
	CHECK(text[0] == '#');
	{
		int fd = open(path, O_WRONLY | O_APPEND);

		CHECK(write(fd, "tree=maybe\n", 11) == 11);
		close(fd);
	}
	CHECK_INT(tui_rc__load(&back, path, err, sizeof(err)), -1);
	CHECK(strstr(err, "damaged: line 2: tree wants 0 or 1") != NULL);
	fixture_remove(dir);
}

TEST(tui_rc_path_from_the_environment)
{
	char *xdg = getenv("XDG_CONFIG_HOME") ? strdup(getenv("XDG_CONFIG_HOME")) : NULL;
	char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	char path[256];

	setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
	CHECK_INT(tui_rc__path(path, sizeof(path)), 0);
	CHECK_STR(path, "/x/cfg/tdtop/tdtoprc");
	/* relative: ignored, as the XDG spec says */
	setenv("XDG_CONFIG_HOME", "cfg", 1);
	setenv("HOME", "/home/u", 1);
	CHECK_INT(tui_rc__path(path, sizeof(path)), 0);
	CHECK_STR(path, "/home/u/.config/tdtop/tdtoprc");
	unsetenv("XDG_CONFIG_HOME");
	CHECK_INT(tui_rc__path(path, 10), -1);
	if (xdg)
		setenv("XDG_CONFIG_HOME", xdg, 1);
	if (home)
		setenv("HOME", home, 1);
	else
		unsetenv("HOME");
	free(xdg);
	free(home);
}
