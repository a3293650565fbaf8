// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The interactive view's loop: terminal setup and teardown on every way
 * out, waiting for keys until the next fetch is due, and the samples and
 * rows behind the screen (screen.c draws them).
 */
#include <curses.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "util/macros.h"
#include "util/clock.h"
#include "util/errmsg.h"
#include "tui/tui.h"
#include "tui/draw.h"
#include "tui/keys.h"
#include "tui/kill.h"
#include "tui/order.h"
#include "tui/plain.h"
#include "tui/rc.h"
#include "tui/paint.h"
#include "tui/screen.h"

/* the first interval after a baseline is short: something shows at once */
#define FIRST_INTERVAL_MAX 1.0
/* a signal that lands just before poll() waits at most this long (ms) */
#define MAX_WAIT_MS 500

static volatile sig_atomic_t tui_stop;

static void on_stop_signal(int sig)
{
	tui_stop = 1;
}

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NR_STOP_SIGNALS ((int)ARRAY_SIZE(stop_signals))

/* ---- stderr capture: a write to fd 2 would tear the screen ---- */

struct err_capture {
	int saved;		/* the real stderr, -1 when not captured */
	int fd;
};

static void capture_stderr(struct err_capture *c)
{
	c->saved = -1;
	c->fd = memfd_create("tdtop-stderr", MFD_CLOEXEC);
	if (c->fd < 0) {
		FILE *f = tmpfile();

		c->fd = f ? dup(fileno(f)) : -1;
		if (f)
			fclose(f);
	}
	if (c->fd < 0)
		return;
	fflush(stderr);
	c->saved = dup(STDERR_FILENO);
	if (c->saved < 0 || dup2(c->fd, STDERR_FILENO) < 0) {
		if (c->saved >= 0)
			close(c->saved);
		close(c->fd);
		c->saved = c->fd = -1;
	}
}

static void release_stderr(struct err_capture *c)
{
	char buf[4096];
	ssize_t n;

	if (c->saved < 0)
		return;
	fflush(stderr);
	dup2(c->saved, STDERR_FILENO);
	close(c->saved);
	if (lseek(c->fd, 0, SEEK_SET) == 0) {
		while ((n = read(c->fd, buf, sizeof(buf))) > 0)
			if (write(STDERR_FILENO, buf, n) != n)
				break;
	}
	close(c->fd);
	c->saved = c->fd = -1;
}

/* ---- signals: only a flag, the loop restores the terminal ---- */

static int install_signals(struct sigaction *old)
{
	/* SA_RESTART keeps a screen update whole; poll() still returns at
	 * once, as the kernel never restarts it */
	struct sigaction sa = { .sa_handler = on_stop_signal, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	tui_stop = 0;
	for (int i = 0; i < NR_STOP_SIGNALS; i++) {
		if (sigaction(stop_signals[i], &sa, &old[i])) {
			while (i--)
				sigaction(stop_signals[i], &old[i], NULL);
			return -1;
		}
	}
	return 0;
}

static void restore_signals(const struct sigaction *old)
{
	for (int i = 0; i < NR_STOP_SIGNALS; i++)
		sigaction(stop_signals[i], &old[i], NULL);
}

/* ---- data ---- */

static int build(struct tui *t, const struct view *v, int level, struct interval *iv)
{
	if (pipeline__build(t->src->pipe, &t->smp[t->shown], v, level, iv))
		return errmsg(t->err, t->errlen, -1, "failed to build the rows: out of memory");
	return 0;
}

static bool owned(void *arg, const struct row *r)
{
	struct tui *t = arg;
	uid_t uid;

	return tui_users__owner(t->users, r->pid, r->user, r->uid, t->src->live, t->fetched,
				&uid) && uid == t->st.uid;
}

/* What the build does not do: the other order, the owner and path filters, the cgroup tree. */
static int arrange(struct tui *t, struct interval *iv, const struct view *v, size_t top)
{
	const struct tui_state *st = &t->st;

	if (st->reverse)
		tui_rows_reverse(iv->rows, iv->nr_rows, &v->sort);
	if (v->by == BY_CGROUP) {
		iv->nr_rows = tui_cgroup_filter(iv->rows, iv->nr_rows, st->cg_filter);
		if (st->tree && tui_cgroup_tree(iv->rows, iv->nr_rows))
			return errmsg(t->err, t->errlen, -1, "failed to order the cgroups: out of memory");
	} else if (st->user_filter) {
		iv->nr_rows = rows__filter(iv->rows, iv->nr_rows, owned, t);
	}
	iv->nr_rows = rows__top(iv->rows, iv->nr_rows, top);
	return 0;
}

/* The process tree: each process's threads below it, in the same order. */
static int add_threads(struct tui *t, struct view v, int level)
{
	struct interval th = { 0 };
	struct row *rows;
	size_t nr;
	int ret = -1;

	v.by = BY_THREAD;
	if (build(t, &v, level, &th))
		return -1;
	if (arrange(t, &th, &v, 0))
		goto out;
	if (tui_process_tree(t->iv.rows, t->iv.nr_rows, th.rows, th.nr_rows, &rows, &nr)) {
		errmsg(t->err, t->errlen, -1, "failed to add the threads: out of memory");
		goto out;
	}
	free(t->iv.rows);
	t->iv.rows = rows;
	t->iv.nr_rows = nr;
	ret = 0;
out:
	interval__free_rows(&th);
	return ret;
}

static void free_detail(struct tui *t)
{
	if (!t->have_det)
		return;
	interval__free_rows(&t->det_proc);
	interval__free_rows(&t->det_threads);
	t->have_det = false;
}

/* The selected process alone and its threads, at level 2 where there is one. */
static int build_detail(struct tui *t)
{
	int level = t->st.level2_available ? 2 : t->st.level;
	struct view v = t->st.base;

	free_detail(t);
	if (t->shown < 0)
		return 0;
	v.by = BY_PROCESS;
	v.pids = &t->st.detail_pid;
	v.nr_pids = 1;
	v.top = 0;
	v.sort = (struct sort_key){ .kind = SORT_CPU, .event = -1 };
	if (build(t, &v, level, &t->det_proc))
		return -1;
	v.by = BY_THREAD;
	v.sort = t->st.sort;
	if (build(t, &v, level, &t->det_threads)) {
		interval__free_rows(&t->det_proc);
		return -1;
	}
	if (t->st.reverse)
		tui_rows_reverse(t->det_threads.rows, t->det_threads.nr_rows, &v.sort);
	t->have_det = true;
	t->st.detail.nr = t->det_threads.nr_rows;
	tui_list__clamp(&t->st.detail);
	return 0;
}

static int rebuild(struct tui *t)
{
	struct view v;

	if (t->shown < 0)
		return 0;
	if (t->have_iv)
		interval__free_rows(&t->iv);
	t->have_iv = false;
	tui_state__view(&t->st, &v);
	/* --top after the order and the filters of the view */
	v.top = 0;
	if (build(t, &v, t->st.level, &t->iv))
		return -1;
	if (arrange(t, &t->iv, &v, t->st.top) ||
	    (t->st.tree && v.by == BY_PROCESS && add_threads(t, v, t->st.level))) {
		interval__free_rows(&t->iv);
		return -1;
	}
	t->have_iv = true;
	tui_state__rows(&t->st, t->iv.rows, t->iv.nr_rows);
	if (t->st.mode == TUI_MODE_DETAIL || t->st.back == TUI_MODE_DETAIL)
		return build_detail(t);
	return 0;
}

/* ---- what keys ask of the loop ---- */

static int user_cmp(const void *a, const void *b)
{
	return strcmp(((const struct tui_user *)a)->name, ((const struct tui_user *)b)->name);
}

/* The u menu: the owners of the tasks of the interval shown, by name. */
static void fill_users(struct tui *t)
{
	struct tui_user users[TUI_MAX_USERS];
	const struct sample *s = t->shown >= 0 ? &t->smp[t->shown] : NULL;
	size_t nr = 0;

	for (size_t i = 0; s && i < s->nr && nr < TUI_MAX_USERS; i++) {
		const struct task_delta *task = &s->tasks[i];
		bool seen = false;
		uid_t uid;

		if (!tui_users__owner(t->users, (int)task->pid, task->user, task->uid, t->src->live,
				      t->fetched, &uid))
			continue;
		for (size_t k = 0; k < nr && !seen; k++)
			seen = users[k].uid == uid;
		if (seen)
			continue;
		users[nr].uid = uid;
		snprintf(users[nr].name, sizeof(users[nr].name), "%s",
			 t->src->live ? tui_users__name(t->users, uid) : task->user);
		nr++;
	}
	qsort(users, nr, sizeof(users[0]), user_cmp);
	tui_state__set_users(&t->st, users, nr);
}

static void send_signal(struct tui *t)
{
	struct tui_state *st = &t->st;
	char err[TUI_MSG_LEN];

	if (tui_kill(st->kill_pid, st->kill_tid, st->kill_comm, st->kill_sig, err, sizeof(err)))
		tui_state__msg(st, true, "%s", err);
	else
		tui_state__msg(st, false, "%s sent to PID %d", tui_signal_name(st->kill_sig),
			       st->kill_pid);
}

static void schedule(struct tui *t, double from, double delay)
{
	double now = mono_s();

	t->next_fetch = from + delay;
	/* late (a slow fetch, a suspended terminal): start over from now */
	if (t->next_fetch < now)
		t->next_fetch = now;
}

/* One interval: 0, 1 at the end of the data, -1 on error. */
static int fetch(struct tui *t)
{
	int into = t->shown < 0 ? 0 : !t->shown;
	double started = mono_s();
	int ret;

	ret = t->src->fetch(t->src->arg, &t->smp[into], t->err, t->errlen);
	if (ret == TUI_FETCH_ERROR || ret < 0) {
		if (!t->err[0])
			snprintf(t->err, t->errlen, "failed to read the next interval");
		return -1;
	}
	if (ret == TUI_FETCH_END) {
		t->eof = true;
		if (!t->st.msg[0])
			snprintf(t->st.msg, sizeof(t->st.msg), "end of the recording: q quits");
		return 1;
	}
	if (ret == TUI_FETCH_BASELINE) {
		schedule(t, started, t->st.delay_s < FIRST_INTERVAL_MAX ? t->st.delay_s
									 : FIRST_INTERVAL_MAX);
		t->last_fetch = started;
		return 0;
	}
	t->fetched++;
	t->last_fetch = started;
	schedule(t, t->next_fetch > 0 ? t->next_fetch : started, t->st.delay_s);
	if (t->src->self_cost)
		t->self_cpu = t->src->self_cost(t->src->arg, &t->self_ns);
	if (t->st.paused && t->shown >= 0) {
		t->fresh = true;
		return 0;
	}
	t->shown = into;
	t->fresh = false;
	return rebuild(t);
}

/* ---- terminal ---- */

static SCREEN *screen_open(struct tui *t)
{
	const char *no_color = getenv("NO_COLOR");
	SCREEN *scr;

	if (t->plain) {
		scr = tui_plain_open();
		if (!scr)
			snprintf(t->err, t->errlen, "failed to start the plain text view (try -b)");
		return scr;
	}
	scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		snprintf(t->err, t->errlen, "failed to start the terminal UI (try -b)");
		return NULL;
	}
	set_term(scr);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	/* https://no-color.org: present and not empty */
	t->color = t->o->color && !(no_color && no_color[0]) && has_colors();
	if (t->color)
		tui_screen_colors();
	return scr;
}

static void screen_close(struct tui *t, SCREEN *scr)
{
	if (t->plain) {
		tui_plain_close(scr);
		return;
	}
	endwin();
	delscreen(scr);
}

/* A frame; in plain mode printed as text, at the terminal's size of the moment. */
static void draw(struct tui *t)
{
	if (t->plain)
		tui_plain_resize();
	tui__draw(t);
	if (t->plain)
		tui_plain_print(stdout);
}

/* The next key typed, ERR when there is none. */
static int next_key(struct tui *t)
{
	if (t->plain)
		return tui_plain_key(&t->input, t->st.mode == TUI_MODE_PROMPT);
	return getch();
}

/* Wait for a key until the next fetch; false when the terminal went away. */
static bool wait_input(struct tui *t)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	bool fetching = !t->eof && (t->st.live || !t->st.paused);
	int ms = MAX_WAIT_MS;

	if (fetching) {
		double left_ms = (t->next_fetch - mono_s()) * 1000;

		if (left_ms < MAX_WAIT_MS)
			ms = left_ms > 0 ? (int)ceil(left_ms) : 0;
	}
	if (poll(&pfd, 1, ms) < 0)
		return true;	/* EINTR: a signal; the loop looks at the flags */
	/* a hung-up terminal also reads as ready: take its last keys, then stop */
	t->hangup = pfd.revents & (POLLHUP | POLLERR | POLLNVAL);
	/* plain mode reads lines itself; Ctrl-D ends it as q does */
	if (t->plain && pfd.revents & POLLIN && tui_plain_read(&t->input, STDIN_FILENO))
		t->hangup = true;
	return !t->hangup || (pfd.revents & POLLIN);
}

static int apply(struct tui *t, unsigned int act)
{
	if (act & TUI_RESCHEDULE) {
		if (t->last_fetch > 0)
			schedule(t, t->last_fetch, t->st.delay_s);
		/* resumed: the interval read while paused shows at once */
		if (!t->st.paused && t->fresh) {
			t->shown = !t->shown;
			t->fresh = false;
			act |= TUI_REBUILD;
		}
	}
	if (act & TUI_STEP && !t->eof) {
		t->next_fetch = 0;
		if (fetch(t) < 0)
			return -1;
		if (t->fresh) {
			t->shown = !t->shown;
			t->fresh = false;
			act |= TUI_REBUILD;
		}
	}
	if (act & TUI_USERS)
		fill_users(t);
	if (act & TUI_KILL)
		send_signal(t);
	if (act & TUI_REBUILD && rebuild(t))
		return -1;
	if (act & TUI_DETAIL && build_detail(t))
		return -1;
	return 0;
}

static int loop(struct tui *t)
{
	bool redraw = true;

	while (!tui_stop) {
		unsigned int act = 0;
		int key;

		if (!t->eof && (t->st.live || !t->st.paused) && mono_s() >= t->next_fetch) {
			if (fetch(t) < 0)
				return -1;
			redraw = true;
			if (t->o->iterations > 0 && t->fetched >= t->o->iterations) {
				draw(t);
				return 0;
			}
		}
		if (redraw)
			draw(t);
		redraw = false;
		if (!wait_input(t))
			return 0;	/* the terminal is gone: nothing to show any more */
		/* bounded: a dead terminal may never run out of "keys" */
		for (int n = 0; n < 256 && !tui_stop && (key = next_key(t)) != ERR; n++) {
			if (key == KEY_RESIZE)
				clearok(curscr, TRUE);
			act |= tui_state__key(&t->st, key);
			if (act & TUI_QUIT)
				return 0;
			/* an Enter after a cursor move must open the row under the cursor */
			if (t->have_iv)
				tui_state__rows(&t->st, t->iv.rows, t->iv.nr_rows);
		}
		if (t->hangup)
			return 0;
		if (apply(t, act))
			return -1;
		redraw = act & TUI_REDRAW;
	}
	return 0;
}

/* The screen up for the loop; the terminal, stderr and signals restored on every way out. */
static int run_screen(struct tui *t)
{
	struct sigaction old[NR_STOP_SIGNALS];
	struct err_capture cap;
	SCREEN *scr;
	int ret;

	if (install_signals(old))
		return errmsg(t->err, t->errlen, -1, "failed to install signal handlers: %s",
			      strerror(errno));
	capture_stderr(&cap);
	scr = screen_open(t);
	if (scr && t->plain)
		printf("tdtop: %s: plain text, a screen per interval; type a key and Enter "
		       "(h help, q quit)\n\n", t->plain_why);
	ret = scr ? loop(t) : -1;
	if (scr)
		screen_close(t, scr);
	release_stderr(&cap);
	restore_signals(old);
	return ret;
}

/* ---- settings ---- */

/* The settings file: where it is, what it held, and what the view started with. */
struct settings {
	char path[4096];
	int loaded;		/* tui_rc__load()'s; -2: no home, no file */
	struct tui_rc file;
	struct tui_rc start;
	char why[TUI_MSG_LEN + 4096];
};

static void settings_load(struct settings *s, struct tui_opts *o)
{
	s->loaded = tui_rc__path(s->path, sizeof(s->path)) ? -2
			: tui_rc__load(&s->file, s->path, s->why, sizeof(s->why));
	if (!s->loaded)
		tui_rc__apply(&s->file, o);
	else
		memset(&s->file, 0, sizeof(s->file));
}

/*
 * What the user changed on screen goes into the file, next to what it
 * held; what the command line chose and nobody changed stays out. Only
 * on a normal end (*quit*). A damaged file is left as it is, and *note*
 * says so.
 */
static void settings_save(struct settings *s, const struct tui_state *st, bool quit, char *note,
			  size_t notelen)
{
	struct tui_rc now, out = s->file;
	char err[TUI_MSG_LEN + 4096];

	if (s->loaded == -1) {
		errmsg(note, notelen, 0, "settings ignored, the file is left as it is: %s", s->why);
		return;
	}
	if (s->loaded == -2 || !quit)
		return;
	tui_rc__from_state(&now, st);
	tui_rc__take(&out, &now, tui_rc__diff(&s->start, &now));
	if (tui_rc__diff(&out, &s->file) && tui_rc__save(&out, s->path, err, sizeof(err)))
		errmsg(note, notelen, 0, "settings not saved: %s", err);
}

int tui_run(const struct tui_source *src, const struct tui_opts *opts, char *err, size_t errlen,
	    char *note, size_t notelen)
{
	struct tui_opts o = *opts;
	struct settings set;
	struct tui t = {
		.src = src,
		.o = &o,
		.shown = -1,
		.self_cpu = NAN,
		.self_ns = NAN,
		.err = err,
		.errlen = errlen,
	};
	int ret;

	err[0] = '\0';
	note[0] = '\0';
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return errmsg(err, errlen, -ENOTTY,
			      "the interactive view needs a terminal (use -b for text output)");
	t.plain = tui_plain_needed(t.plain_why, sizeof(t.plain_why));
	settings_load(&set, &o);
	if (tui_state__init(&t.st, &o, src->live, err, errlen))
		return -EINVAL;
	tui_rc__from_state(&set.start, &t.st);
	t.users = tui_users__new();
	if (!t.users)
		return errmsg(err, errlen, -ENOMEM, "out of memory");
	ret = run_screen(&t);
	settings_save(&set, &t.st, !ret, note, notelen);
	if (t.have_iv)
		interval__free_rows(&t.iv);
	free_detail(&t);
	sample__free(&t.smp[0]);
	sample__free(&t.smp[1]);
	tui_users__free(t.users);
	return ret ? -1 : 0;
}
