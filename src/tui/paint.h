/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Curses primitives of the drawing files (heading.c, screen.c), internal
 * to tui/: text cut at the screen's edge, the stacked bar in colour, and
 * the attributes a value or a warning earns.
 */
#ifndef __TDTOP_TUI_PAINT_H
#define __TDTOP_TUI_PAINT_H

#include <curses.h>
#include <stdbool.h>
#include "tui/draw.h"

/* Text at (y, x) cut at the right edge; returns the column after it. */
int tui_put(int y, int x, attr_t attr, const char *s);
int tui_putf(int y, int x, attr_t attr, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A stacked bar, each letter on its colour (*color*), else in *base*. */
int tui_put_bar(bool color, int y, int x, attr_t base, const char *bar);

attr_t tui_attr_hl(bool color, enum tui_hl hl);
attr_t tui_attr_warn(bool color);
attr_t tui_attr_sort(bool color);	/* the sorted column's title */
attr_t tui_attr_label(bool color);	/* the key bar's labels */

/* Define the colour pairs; only after start_color(). */
void tui_screen_colors(void);

#endif /* __TDTOP_TUI_PAINT_H */
