// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Pure layout of the interactive view: column choice for a width, cell
 * text, stacked bars, colour thresholds and the cgroup tree's order. No
 * curses calls here.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cgroup/names.h"
#include "rows/metrics.h"
#include "util/format.h"
#include "tui/draw.h"

#define PID_WIDTH 7		/* PID_MAX_LIMIT has 7 digits */
#define CPU_WIDTH 5
#define IPC_WIDTH 5
#define EVENT_MIN_WIDTH 6
#define EVENT_MAX_WIDTH 12
#define TASKS_WIDTH 5

/*
 * Lower ranks leave first when the columns do not fit. GROW_* are no
 * columns: the extra width of one (CGROUP above its minimum, the level-1
 * titles' long form).
 */
enum drop_rank {
	DROP_BAR,
	DROP_RATE,
	GROW_CGROUP,
	GROW_LEVEL1,
	DROP_USER,
	DROP_IPC,
	DROP_L2_RETIRING,	/* level-2 nodes by parent: leave together */
	DROP_L2_BAD_SPEC,
	DROP_L2_FRONTEND,
	DROP_L2_BACKEND,
	DROP_TASKS,
	DROP_COUNT,
	DROP_CPU,
	DROP_LEVEL1,		/* a part of level 1 would read as a breakdown: all or none */
	DROP_TID,
	DROP_NEVER,
};

#define LEVEL1_SHORT_WIDTH 5

static const struct {
	const char *title;	/* column title */
	const char *name;	/* spelled out, for the header and detail view */
	int field;		/* its td_fields[] index: offset and --sort name */
	int width;
	const char *short_title;	/* level 1 in LEVEL1_SHORT_WIDTH cells */
} td_nodes[TUI_TD_NR] = {
	[TUI_TD_RETIRING] = { "Retiring", "Retiring", 0, 8, "Retir" },
	[TUI_TD_BAD_SPEC] = { "Bad Spec", "Bad Speculation", 1, 8, "BadSp" },
	[TUI_TD_FRONTEND] = { "Frontend", "Frontend Bound", 2, 8, "Front" },
	[TUI_TD_BACKEND] = { "Backend", "Backend Bound", 3, 8, "Back" },
	/* five cells, as the short level-1 titles: "100.0" fits */
	[TUI_TD_HEAVY_OPS] = { "Heavy", "Heavy Operations", 4, 5 },
	[TUI_TD_LIGHT_OPS] = { "Light", "Light Operations", 5, 5 },
	[TUI_TD_BR_MISPREDICT] = { "BrMsp", "Branch Mispredicts", 6, 5 },
	[TUI_TD_MACHINE_CLEARS] = { "MClr", "Machine Clears", 7, 5 },
	[TUI_TD_FETCH_LAT] = { "FLat", "Fetch Latency", 8, 5 },
	[TUI_TD_FETCH_BW] = { "FBw", "Fetch Bandwidth", 9, 5 },
	[TUI_TD_MEM_BOUND] = { "MemB", "Memory Bound", 10, 5 },
	[TUI_TD_CORE_BOUND] = { "CoreB", "Core Bound", 11, 5 },
};

const char *tui_td_title(enum tui_td td)
{
	return (unsigned int)td < TUI_TD_NR ? td_nodes[td].title : NULL;
}

const char *tui_td_long_name(enum tui_td td)
{
	return (unsigned int)td < TUI_TD_NR ? td_nodes[td].name : NULL;
}

double tui_td_value(const struct td_result *r, enum tui_td td)
{
	if ((unsigned int)td >= TUI_TD_NR || !r->valid)
		return NAN;
	return td_field_value(r, td_nodes[td].field);
}

enum tui_hl tui_td_hl(enum tui_td td, double frac)
{
	if (isnan(frac))
		return TUI_HL_NONE;
	switch (td) {
	case TUI_TD_RETIRING:
		return frac > 0.7 ? TUI_HL_GOOD : TUI_HL_NONE;
	case TUI_TD_BAD_SPEC:
		return frac > 0.1 ? TUI_HL_BAD : TUI_HL_NONE;
	case TUI_TD_FRONTEND:
	case TUI_TD_BACKEND:
		return frac > 0.2 ? TUI_HL_BAD : TUI_HL_NONE;
	default:
		return TUI_HL_NONE;
	}
}

static int clamp_int(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static const char *event_name(const struct tui_layout *l, int i)
{
	return l->names && l->names[i] ? l->names[i] : "event";
}

static const struct {
	const char *name;	/* in the rc file */
	const char *desc;	/* in the F2 menu */
} optional_cols[TUI_OPT_NR] = {
	[TUI_OPT_USER] = { "user", "USER     the owner of the process" },
	[TUI_OPT_CPU] = { "cpu", "CPU%     time on a CPU over the interval" },
	[TUI_OPT_IPC] = { "ipc", "IPC      instructions per cycle" },
	[TUI_OPT_BAR] = { "bar", "TopDown  the stacked level-1 bar" },
	[TUI_OPT_COUNTS] = { "counts", "events   counts over the interval" },
	[TUI_OPT_RATES] = { "rates", "events/s counts per second" },
	[TUI_OPT_TASKS] = { "tasks", "TASKS    tasks of a cgroup row" },
};

const char *tui_optional_name(enum tui_optional opt)
{
	return (unsigned int)opt < TUI_OPT_NR ? optional_cols[opt].name : NULL;
}

const char *tui_optional_desc(enum tui_optional opt)
{
	return (unsigned int)opt < TUI_OPT_NR ? optional_cols[opt].desc : NULL;
}

/* Every column the layout asks for, each with the rank at which it leaves. */
struct col_set {
	struct tui_col *cols;
	enum drop_rank *rank;
	bool *keep;		/* shown at this width */
	int n;
	unsigned int hidden;
};

static bool shown(const struct col_set *s, enum tui_optional opt)
{
	return !(s->hidden & TUI_HIDE(opt));
}

static void add_col(struct col_set *s, enum drop_rank rank, enum tui_col_id id, int idx,
		    int width, bool left, const char *title)
{
	struct tui_col *c = &s->cols[s->n];

	s->rank[s->n++] = rank;
	c->id = id;
	c->idx = idx;
	c->width = width;
	c->left = left;
	snprintf(c->title, sizeof(c->title), "%.*s", width, title);
}

/* The rate title keeps the "/s" and cuts the name instead. */
static void add_rate_col(struct col_set *s, const char *name, int i)
{
	int len = (int)strlen(name);
	int width = clamp_int(len + 2, EVENT_MIN_WIDTH, EVENT_MAX_WIDTH);
	char title[TUI_TITLE_LEN];

	snprintf(title, sizeof(title), "%.*s/s", width - 2, name);
	add_col(s, DROP_RATE, TUI_COL_RATE, i, width, false, title);
}

/* What names a row: CGROUP and TASKS, or PID, TID, USER and COMM. */
static void add_name_cols(struct col_set *s, const struct tui_layout *l)
{
	if (l->cgroups) {
		add_col(s, DROP_NEVER, TUI_COL_CGROUP, l->cgroup_indent < 0 ? -1 : l->cgroup_indent,
			TUI_CGROUP_MIN, true, "CGROUP");
		if (shown(s, TUI_OPT_TASKS))
			add_col(s, DROP_TASKS, TUI_COL_TASKS, 0, TASKS_WIDTH, false, "TASKS");
		return;
	}
	add_col(s, DROP_NEVER, TUI_COL_PID, 0, PID_WIDTH, false, "PID");
	if (l->threads || l->tree)
		add_col(s, DROP_TID, TUI_COL_TID, 0, PID_WIDTH, false, "TID");
	if (l->user && shown(s, TUI_OPT_USER))
		add_col(s, DROP_USER, TUI_COL_USER, 0, TUI_USER_WIDTH, true, "USER");
	add_col(s, DROP_NEVER, TUI_COL_COMM, l->tree, TASK_COMM_LEN - 1, true, "COMM");
}

/* The nodes of the level (level 1 in its short form), IPC and the bar. */
static void add_topdown_cols(struct col_set *s, const struct tui_layout *l)
{
	for (int i = 0; i < TUI_TD_HEAVY_OPS; i++)
		add_col(s, DROP_LEVEL1, TUI_COL_TD, i, LEVEL1_SHORT_WIDTH, false,
			td_nodes[i].short_title);
	for (int i = TUI_TD_HEAVY_OPS; l->level == 2 && i < TUI_TD_NR; i++)
		add_col(s, DROP_L2_RETIRING + (i - TUI_TD_HEAVY_OPS) / 2, TUI_COL_TD, i,
			td_nodes[i].width, false, td_nodes[i].title);
	if (shown(s, TUI_OPT_IPC))
		add_col(s, DROP_IPC, TUI_COL_IPC, 0, IPC_WIDTH, false, "IPC");
	if (shown(s, TUI_OPT_BAR))
		add_col(s, DROP_BAR, TUI_COL_BAR, 0, TUI_BAR_MIN, true, "TopDown");
}

/* Each event's count, then each one's rate. */
static void add_event_cols(struct col_set *s, const struct tui_layout *l)
{
	int nr_events = clamp_int(l->nr_events, 0, MAX_EVENTS);

	for (int i = 0; i < nr_events && shown(s, TUI_OPT_COUNTS); i++) {
		const char *name = event_name(l, i);
		int width = clamp_int((int)strlen(name), EVENT_MIN_WIDTH, EVENT_MAX_WIDTH);

		add_col(s, DROP_COUNT, TUI_COL_EVENT, i, width, false, name);
	}
	for (int i = 0; i < nr_events && shown(s, TUI_OPT_RATES); i++)
		add_rate_col(s, event_name(l, i), i);
}

static void all_columns(struct col_set *s, const struct tui_layout *l)
{
	add_name_cols(s, l);
	if (shown(s, TUI_OPT_CPU))
		add_col(s, DROP_CPU, TUI_COL_CPU, 0, CPU_WIDTH, false, "CPU%");
	if (l->topdown)
		add_topdown_cols(s, l);
	else
		add_event_cols(s, l);
	for (int i = 0; i < s->n; i++)
		s->keep[i] = s->rank[i] == DROP_NEVER;
}

int tui_columns_width(const struct tui_col *cols, int n)
{
	int w = 0;

	for (int i = 0; i < n; i++)
		w += cols[i].width + (i ? 1 : 0);
	return w;
}

/* Cells left on a line of *width* after the columns kept so far. */
static int room(const struct col_set *s, int width)
{
	int used = -1;

	for (int i = 0; i < s->n; i++)
		if (s->keep[i])
			used += s->cols[i].width + 1;
	return width - used;
}

static struct tui_col *find_col(struct col_set *s, enum tui_col_id id)
{
	for (int i = 0; i < s->n; i++)
		if (s->cols[i].id == id)
			return &s->cols[i];
	return NULL;
}

/* The CGROUP column takes what is left, up to its maximum. */
static void grow_cgroup(struct col_set *s, int width)
{
	struct tui_col *c = find_col(s, TUI_COL_CGROUP);
	int left = room(s, width);

	if (c && left > 0)
		c->width += left < TUI_CGROUP_MAX - c->width ? left : TUI_CGROUP_MAX - c->width;
}

static void level1_titles(struct col_set *s, bool full)
{
	for (int i = 0; i < s->n; i++) {
		struct tui_col *c = &s->cols[i];

		if (s->rank[i] != DROP_LEVEL1)
			continue;
		c->width = full ? td_nodes[c->idx].width : LEVEL1_SHORT_WIDTH;
		snprintf(c->title, sizeof(c->title), "%s",
			 full ? td_nodes[c->idx].title : td_nodes[c->idx].short_title);
	}
}

/* The long level-1 titles when all four are shown and have the room. */
static void grow_level1(struct col_set *s, int width)
{
	int extra = 0;

	for (int i = 0; i < s->n; i++) {
		if (s->rank[i] != DROP_LEVEL1)
			continue;
		if (!s->keep[i])
			return;
		extra += td_nodes[s->cols[i].idx].width - LEVEL1_SHORT_WIDTH;
	}
	if (extra && extra <= room(s, width))
		level1_titles(s, true);
}

/* The bar is last: it takes what is left, up to its maximum, or leaves. */
static bool take_bar(struct col_set *s, int i, int width)
{
	int left = room(s, width) - 1;

	if (left < TUI_BAR_MIN)
		return false;
	s->cols[i].width = left > TUI_BAR_MAX ? TUI_BAR_MAX : left;
	s->keep[i] = true;
	return true;
}

/* All columns of rank *r* if they fit together. */
static void take_group(struct col_set *s, enum drop_rank r, int width)
{
	int need = 0;

	for (int i = 0; i < s->n; i++)
		if (s->rank[i] == r)
			need += s->cols[i].width + 1;
	if (!need || need > room(s, width))
		return;
	for (int i = 0; i < s->n; i++)
		if (s->rank[i] == r)
			s->keep[i] = true;
}

static bool is_group(enum drop_rank r)
{
	return r == DROP_LEVEL1 || (r >= DROP_L2_RETIRING && r <= DROP_L2_BACKEND);
}

static void fit_by_rank(struct col_set *s, int width)
{
	for (int r = DROP_NEVER - 1; r >= 0; r--) {
		if (r == GROW_CGROUP)
			grow_cgroup(s, width);
		else if (r == GROW_LEVEL1)
			grow_level1(s, width);
		else if (is_group(r))
			take_group(s, r, width);
		for (int i = 0; i < s->n && !is_group(r); i++) {
			if (s->rank[i] != (enum drop_rank)r)
				continue;
			if (s->cols[i].id == TUI_COL_BAR)
				take_bar(s, i, width);
			else if (s->cols[i].width + 1 <= room(s, width))
				s->keep[i] = true;
		}
	}
}

/* Scrolled: the fixed columns, then from the *skip*-th other one on while they fit. */
static void fit_scrolled(struct col_set *s, int width, int skip)
{
	bool full = false;

	level1_titles(s, true);
	for (int i = 0; i < s->n && !full; i++) {
		if (s->rank[i] == DROP_NEVER || skip-- > 0)
			continue;
		if (s->cols[i].id == TUI_COL_BAR)
			full = !take_bar(s, i, width);
		else if (s->cols[i].width + 1 <= room(s, width))
			s->keep[i] = true;
		else
			full = true;
	}
	grow_cgroup(s, width);
}

/* The kept columns moved to the front, in display order. */
static int kept(struct col_set *s)
{
	int n = 0;

	for (int i = 0; i < s->n; i++)
		if (s->keep[i])
			s->cols[n++] = s->cols[i];
	return n;
}

static void layout(struct col_set *s, const struct tui_layout *l, int width, int hscroll)
{
	s->n = 0;
	s->hidden = l->hidden;
	all_columns(s, l);
	if (hscroll > 0)
		fit_scrolled(s, width, hscroll);
	else
		fit_by_rank(s, width);
}

int tui_columns(const struct tui_layout *l, int width, struct tui_col *cols)
{
	enum drop_rank rank[TUI_MAX_COLS];
	bool keep[TUI_MAX_COLS];
	struct col_set s = { .cols = cols, .rank = rank, .keep = keep };

	layout(&s, l, width, l->hscroll);
	return kept(&s);
}

/* Whether every column from the *skip*-th scrollable one on is shown. */
static bool all_shown(const struct col_set *s, int skip)
{
	for (int i = 0; i < s->n; i++)
		if (s->rank[i] != DROP_NEVER && skip-- <= 0 && !s->keep[i])
			return false;
	return true;
}

int tui_columns_scroll_max(const struct tui_layout *l, int width)
{
	struct tui_col cols[TUI_MAX_COLS];
	enum drop_rank rank[TUI_MAX_COLS];
	bool keep[TUI_MAX_COLS];
	struct col_set s = { .cols = cols, .rank = rank, .keep = keep };
	int scrollable = 0;

	layout(&s, l, width, 0);
	if (all_shown(&s, 0))
		return 0;
	for (int i = 0; i < s.n; i++)
		scrollable += rank[i] != DROP_NEVER;
	for (int k = 1; k < scrollable; k++) {
		layout(&s, l, width, k);
		if (all_shown(&s, k))
			return k;
	}
	return scrollable > 1 ? scrollable - 1 : 0;
}

bool tui_col__sort_key(const struct tui_col *c, struct sort_key *key)
{
	switch (c->id) {
	case TUI_COL_PID:
	case TUI_COL_TID:
		*key = (struct sort_key){ .kind = SORT_PID, .event = -1 };
		return true;
	case TUI_COL_COMM:
	case TUI_COL_CGROUP:
		*key = (struct sort_key){ .kind = SORT_COMM, .event = -1 };
		return true;
	case TUI_COL_CPU:
		*key = (struct sort_key){ .kind = SORT_CPU, .event = -1 };
		return true;
	case TUI_COL_TD:
		if ((unsigned int)c->idx >= TUI_TD_NR)
			return false;
		return !sort_key__parse(td_fields[td_nodes[c->idx].field].sort, NULL, 0, key);
	case TUI_COL_IPC:
		return !sort_key__parse("ipc", NULL, 0, key);
	case TUI_COL_EVENT:
	case TUI_COL_RATE:
		*key = (struct sort_key){ .kind = SORT_EVENT, .event = c->idx };
		return true;
	case TUI_COL_USER:
	case TUI_COL_TASKS:
	case TUI_COL_BAR:
		return false;
	}
	return false;
}

size_t tui_wrap(const char *s, int width)
{
	size_t len = strlen(s), cut;

	if (width <= 0)
		return 0;
	if (len <= (size_t)width)
		return len;
	for (cut = width; cut > 0 && s[cut] != ' '; cut--)
		;
	return cut ? cut : (size_t)width;
}

const char *tui_pct(char *buf, size_t size, double frac)
{
	return fmt_fixed(buf, size, frac * 100.0, 1);
}

void tui_user_fit(char *buf, size_t size, const char *name, int width)
{
	int len = (int)strlen(name);

	if (len <= width || width < 2)
		snprintf(buf, size, "%.*s", width, name);
	else
		snprintf(buf, size, "%.*s+", width - 1, name);
}

/* Five cells: 1000% and more (ten busy threads) without the decimal. */
static void cpu_cell(char *buf, size_t size, double pct)
{
	fmt_fixed(buf, size, pct, pct < 999.95 ? 1 : 0);
}

static double per_second(const struct interval *iv, double v)
{
	if (!(iv->interval_s > 0) || !isfinite(iv->interval_s))
		return NAN;
	return v / iv->interval_s;
}

/*
 * A flat list: the full path, so that two units of one name in different
 * slices differ; a long one keeps its end, the most specific part.
 */
static void cgroup_path_cell(const struct tui_col *c, const struct row *r, char *buf,
			     size_t size)
{
	const char *path = r->cgroup ? r->cgroup : "?";
	size_t len = strlen(path), width = c->width > 0 ? (size_t)c->width : 0;

	if (size < 3 || width < 3 || len <= width) {
		fmt_comm_ascii(buf, size, path, width);
		return;
	}
	/* ASCII: the screen counts one cell per byte */
	memcpy(buf, "..", 2);
	fmt_comm_ascii(buf + 2, size - 2, path + len - (width - 2), width - 2);
}

/* In the tree: the row's name, indented by its depth below the column's base. */
static void cgroup_cell(const struct tui_col *c, const struct row *r, char *buf, size_t size)
{
	char name[TUI_CGROUP_MAX + 1];
	int indent;

	if (c->idx < 0) {
		cgroup_path_cell(c, r, buf, size);
		return;
	}
	/* deep trees keep half the column for the name */
	indent = clamp_int((r->depth - c->idx) * TUI_CGROUP_INDENT, 0, c->width / 2);
	cgroup_display_name(r->cgroup ? r->cgroup : "?", 0, name, sizeof(name));
	snprintf(buf, size, "%*s%.*s", indent, "", c->width - indent, name);
}

/* A thread below its process in the tree: "`- name". */
static void comm_cell(const struct tui_col *c, const struct row *r, char *buf, size_t size)
{
	char comm[TASK_COMM_LEN];

	fmt_comm_ascii(comm, sizeof(comm), r->comm, sizeof(r->comm));
	snprintf(buf, size, "%s%s", c->idx && r->kind == ROW_THREAD ? " `- " : "", comm);
}

void tui_cell(const struct tui_col *c, const struct interval *iv, const struct row *r,
	      const char *user, char *buf, size_t size)
{
	char tmp[TUI_BAR_MAX + 32];
	int nr = interval__nr_events(iv);

	tmp[0] = '\0';
	switch (c->id) {
	case TUI_COL_CGROUP:
		cgroup_cell(c, r, buf, size);
		return;
	case TUI_COL_TASKS:
		snprintf(tmp, sizeof(tmp), "%d", r->nr_threads);
		break;
	case TUI_COL_PID:
		snprintf(tmp, sizeof(tmp), "%d", r->pid);
		break;
	case TUI_COL_TID:
		if (r->kind == ROW_THREAD)
			snprintf(tmp, sizeof(tmp), "%d", r->tid);
		else
			snprintf(tmp, sizeof(tmp), "-");
		break;
	case TUI_COL_USER:
		tui_user_fit(tmp, sizeof(tmp), user ? user : "?", c->width);
		break;
	case TUI_COL_COMM:
		comm_cell(c, r, tmp, sizeof(tmp));
		break;
	case TUI_COL_CPU:
		cpu_cell(tmp, sizeof(tmp), interval__cpu_pct(iv, r->cpu_ns));
		break;
	case TUI_COL_TD:
		tui_pct(tmp, sizeof(tmp), iv->topdown ? tui_td_value(&r->td, c->idx) : NAN);
		break;
	case TUI_COL_IPC:
		fmt_fixed(tmp, sizeof(tmp), r->ipc, 2);
		break;
	case TUI_COL_EVENT:
		fmt_compact(tmp, sizeof(tmp), c->idx < nr ? delta__scaled(&r->ev[c->idx]) : NAN);
		break;
	case TUI_COL_RATE:
		fmt_compact(tmp, sizeof(tmp),
			    c->idx < nr ? per_second(iv, delta__scaled(&r->ev[c->idx])) : NAN);
		break;
	case TUI_COL_BAR:
		if (iv->topdown && r->td.valid)
			tui_bar(tmp, c->width > TUI_BAR_MAX ? TUI_BAR_MAX : c->width, &r->td);
		else
			snprintf(tmp, sizeof(tmp), "-");
		break;
	}
	snprintf(buf, size, "%.*s", c->width, tmp);
}

static const char bar_letters[] = {
	TUI_BAR_RETIRING, TUI_BAR_BAD_SPEC, TUI_BAR_FRONTEND, TUI_BAR_BACKEND,
};

int tui_bar_td(char c)
{
	for (int i = 0; i < (int)sizeof(bar_letters); i++)
		if (bar_letters[i] == c)
			return i;
	return -1;
}

/*
 * The cells of each level-1 node in a bar of *width*: floor of each share,
 * then the cells the sum is short of to the largest remainders.
 */
static void bar_cells(const struct td_result *td, int width, int cells[4])
{
	double f[4], rem[4], total = 0;
	int used = 0, want;

	for (int i = 0; i < 4; i++) {
		double v = tui_td_value(td, i);

		f[i] = isfinite(v) && v > 0 ? (v > 1 ? 1 : v) : 0;
		total += f[i];
	}
	/* rounding noise can push the sum a little past 1 */
	if (total > 1) {
		for (int i = 0; i < 4; i++)
			f[i] /= total;
		total = 1;
	}
	for (int i = 0; i < 4; i++) {
		double exact = f[i] * width;

		cells[i] = (int)floor(exact);
		rem[i] = exact - cells[i];
		used += cells[i];
	}
	want = (int)lround(total * width);
	while (used < want) {
		int best = 0;

		for (int i = 1; i < 4; i++)
			if (rem[i] > rem[best])
				best = i;
		cells[best]++;
		rem[best] = -1;
		used++;
	}
}

void tui_bar(char *buf, int width, const struct td_result *td)
{
	int cells[4], pos = 0;

	if (width < 0)
		width = 0;
	memset(buf, ' ', width);
	buf[width] = '\0';
	if (!td->valid || !width)
		return;
	bar_cells(td, width, cells);
	for (int i = 0; i < 4; i++)
		for (int k = 0; k < cells[i] && pos < width; k++)
			buf[pos++] = bar_letters[i];
}

void tui_line__init(struct tui_line *l, int width)
{
	l->text[0] = '\0';
	l->len = 0;
	l->width = width < TUI_LINE_LEN ? width : TUI_LINE_LEN - 1;
}

int tui_line__add(struct tui_line *l, const char *sep, const char *fmt, ...)
{
	char field[TUI_LINE_LEN];
	int seplen = l->len ? (int)strlen(sep) : 0, len, at;
	va_list ap;

	va_start(ap, fmt);
	len = vsnprintf(field, sizeof(field), fmt, ap);
	va_end(ap);
	if (len < 0 || l->len + seplen + len > l->width)
		return -1;
	at = l->len + seplen;
	snprintf(l->text + l->len, sizeof(l->text) - l->len, "%s%s", l->len ? sep : "", field);
	l->len = at + len;
	return at;
}

/* Below these the table needs every line and the bar would hold two keys. */
#define KEYBAR_MIN_LINES 10
#define KEYBAR_MIN_COLS 40

bool tui_keybar_shown(int lines, int cols)
{
	return lines >= KEYBAR_MIN_LINES && cols >= KEYBAR_MIN_COLS;
}
