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
	char *csv_header;	/* the last CSV header, NULL: none yet */
	char *notice;		/* the last notice written, NULL: none */
	bool started;		/* an interval was written */
};

struct output *output__new(enum output_format fmt, FILE *f)
{
	struct output *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->fmt = fmt;
	o->f = f;
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
	free(o->csv_header);
	free(o->notice);
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

static bool same_notice(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* iv->notice when it is news: in the first interval and when it changed. */
static const char *new_notice(struct output *o, const char *notice)
{
	bool news = !o->started || !same_notice(o->notice, notice);

	o->started = true;
	if (!news)
		return NULL;
	free(o->notice);
	o->notice = notice ? strdup(notice) : NULL;
	return notice;
}

int output__interval(struct output *o, const struct interval *iv)
{
	struct interval shown = *iv;
	int err;

	shown.notice = new_notice(o, iv->notice);
	switch (o->fmt) {
	case OUTPUT_JSON:
		err = output_write_jsonl(o->json, &shown);
		break;
	case OUTPUT_CSV:
		err = output_write_csv(o->f, &shown, &o->csv_header);
		break;
	default:
		err = output_write_text(o->f, &shown);
		break;
	}
	/* fflush() first: buffered writes only fail here. */
	if (fflush(o->f) == EOF || err || ferror(o->f))
		return -1;
	return 0;
}
