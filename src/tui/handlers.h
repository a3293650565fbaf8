/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the key handlers share: keys.c has the main table's keys, input.c
 * the prompts and the search, menu.c the menus and the F9 confirmation.
 * Each returns TUI_* bits as tui_state__key() does.
 */
/* Internal to tui/. */
#ifndef __TDTOP_TUI_HANDLERS_H
#define __TDTOP_TUI_HANDLERS_H

#include <stdbool.h>
#include "tui/keys.h"

#define KEY_ESC 27
#define KEY_CTRL_U 21

/* The filters changed: the table starts over at its first row. */
unsigned int tui_state__filter_changed(struct tui_state *st);

/* Position of *key* among *keys*, -1 when it is not there. */
int tui_sort_index(const struct sort_key *key, const struct sort_key *keys, int nr);

/* Move the cursor of a list; false for a key that does not move one. */
bool tui_list__key(struct tui_list *l, int key);

/* input.c */
unsigned int tui_state__open_prompt(struct tui_state *st, enum tui_prompt p);
unsigned int tui_state__prompt_key(struct tui_state *st, int key);
/* Jump to the search's match, when one is pending, among the rows shown. */
void tui_state__search(struct tui_state *st, const struct row *rows, size_t nr);

/* menu.c */
unsigned int tui_state__open_menu(struct tui_state *st, enum tui_menu m);
unsigned int tui_state__menu_key(struct tui_state *st, int key);
/* F9 on the selected row: the signal menu, or why not. */
unsigned int tui_state__open_kill(struct tui_state *st);
unsigned int tui_state__confirm_key(struct tui_state *st, int key);

#endif /* __TDTOP_TUI_HANDLERS_H */
