// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The output object: picks the format and dispatches each interval to it. */
#include <stdlib.h>
#include <string.h>
#include "util/macros.h"
#include "util/json.h"
#include "output/formats.h"
#include "output/output.h"

struct output {
	enum output_format fmt;
	FILE *f;
	struct json_writer *json;
	int csv_columns;	/* shape of the last CSV header, -1: none yet */
};

struct output *output__new(enum output_format fmt, FILE *f)
{
	struct output *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->fmt = fmt;
	o->f = f;
	o->csv_columns = -1;
	if (fmt == OUTPUT_JSON) {
		o->json = json__new(f);
		if (!o->json) {
			free(o);
			return NULL;
		}
	}
	return o;
}

void output__free(struct output *o)
{
	if (!o)
		return;
	json__free(o->json);
	free(o);
}

int output_format_parse(const char *s, enum output_format *fmt)
{
	static const struct {
		const char *name;
		enum output_format fmt;
	} formats[] = {
		{ "text", OUTPUT_TEXT },
		{ "json", OUTPUT_JSON },
		{ "csv", OUTPUT_CSV },
	};

	for (size_t i = 0; s && i < ARRAY_SIZE(formats); i++) {
		if (!strcmp(s, formats[i].name)) {
			*fmt = formats[i].fmt;
			return 0;
		}
	}
	return -1;
}

int output__interval(struct output *o, const struct interval *iv)
{
	int err;

	switch (o->fmt) {
	case OUTPUT_JSON:
		err = output_jsonl__write(o->json, iv);
		break;
	case OUTPUT_CSV:
		err = output_csv__write(o->f, iv, &o->csv_columns);
		break;
	default:
		err = output_text__write(o->f, iv);
		break;
	}
	/* fflush() first: buffered writes only fail here. */
	if (fflush(o->f) == EOF || err || ferror(o->f))
		return -1;
	return 0;
}
