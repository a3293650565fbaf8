/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The per-format writers behind output__interval(): the rest of tdtop
 * goes through output.h. They do not flush.
 */
/* Internal to output/. */
#ifndef __TDTOP_OUTPUT_FORMATS_H
#define __TDTOP_OUTPUT_FORMATS_H

#include <stdio.h>
#include "rows/model.h"

struct json_writer;

int output_write_text(FILE *f, const struct interval *iv);
int output_write_jsonl(struct json_writer *w, const struct interval *iv);
/*
 * *header* holds the CSV header written last (malloc'ed), NULL before the
 * first: a header is (re)written when the columns differ.
 */
int output_write_csv(FILE *f, const struct interval *iv, char **header);

#endif /* __TDTOP_OUTPUT_FORMATS_H */
