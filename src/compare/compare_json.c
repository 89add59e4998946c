/*
 * --compare of a saved --format=json document: walked token by token
 * (saved/saved_json.h) and handed on as the CSV lines --format=csv prints
 * for it -- the command, the device and the parameters as "# " lines,
 * each table's name and columns when they change, a line per row (a list
 * field as NAME_1 ... NAME_n), verdicts and notes as "# " lines -- so
 * that compare_csv.c reads both forms.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_json.h"
#include "saved/saved_json.h"

struct ai_json {
	struct sj_walk w;
	char *out;		/* lines not handed on yet, each ending in '\n' */
	size_t len, at, cap;
	char table[64];		/* the table of the last row */
	char names[2048];	/* its columns */
};

static void put(struct ai_json *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct ai_json *j, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		/* no buffer yet: only measure (NULL + 0 is undefined in C) */
		n = vsnprintf(j->out ? j->out + j->len : NULL, j->cap - j->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < j->cap - j->len) {
			j->len += (size_t)n;
			return;
		}
		{
			size_t cap = (j->cap ? 2 * j->cap : 4096) + (n > 0 ? (size_t)n : 0);
			char *p = realloc(j->out, cap);

			if (!p)
				return;
			j->out = p;
			j->cap = cap;
		}
	}
}

/* A CSV cell: quoted when it holds a comma or a quote. */
static void put_cell(struct ai_json *j, const char *s)
{
	if (!strpbrk(s, ",\"")) {
		put(j, "%s", s);
		return;
	}
	put(j, "\"");
	for (; *s; s++)
		put(j, *s == '"' ? "\"\"" : "%c", *s);
	put(j, "\"");
}

static void put_num(struct ai_json *j, double d)
{
	if (d == floor(d) && fabs(d) < 1e18)
		put(j, "%.0f", d);
	else
		put(j, "%.17g", d);
}

static struct ai_json *cj_open(FILE *f)
{
	struct ai_json *j = calloc(1, sizeof(*j));

	if (j)
		sj_init(&j->w, f, true);
	return j;
}

static void cj_close(struct ai_json *j)
{
	sj_release(&j->w);
	free(j->out);
	free(j);
}

/* A record being turned into a CSV line: its column names and cells. */
struct rec {
	char names[2048], cells[8192];
	size_t nn, nc, count;	/* count: the cells so far (an empty one adds only its comma) */
};

static void add(char *buf, size_t room, size_t *at, const char *s, bool first)
{
	if (*at < room)
		*at += (size_t)snprintf(buf + *at, room - *at, "%s%s", first ? "" : ",", s);
}

static void add_cell(struct rec *r, const char *name, const char *v)
{
	add(r->names, sizeof(r->names), &r->nn, name, r->count == 0);
	add(r->cells, sizeof(r->cells), &r->nc, v, r->count == 0);
	r->count++;
}

/* A list of numbers (null: an empty cell, as in the CSV): NAME_1 ... NAME_n. */
static void add_list(struct rec *r, const struct sj_record *in, const struct sj_value *x)
{
	for (size_t i = 0; i < x->list_n; i++) {
		double d = in->list[x->list_at + i];
		char name[96], v[40] = "";

		if (!isnan(d))
			snprintf(v, sizeof(v), "%.17g", d);
		snprintf(name, sizeof(name), "%s_%zu", x->key, i + 1);
		add_cell(r, name, v);
	}
}

/* A single value as its cell: a number, true/false, a string quoted as CSV is. */
static void add_value(struct ai_json *j, struct rec *r, const struct sj_value *x)
{
	char v[JSON_MAX_TEXT + 8] = "";

	if (x->tok == JT_NUMBER)
		snprintf(v, sizeof(v), "%.17g", x->num);
	else if (x->tok == JT_TRUE || x->tok == JT_FALSE)
		snprintf(v, sizeof(v), "%s", x->tok == JT_TRUE ? "true" : "false");
	else if (x->tok == JT_STRING && !strpbrk(x->text, ",\""))
		snprintf(v, sizeof(v), "%s", x->text);
	else if (x->tok == JT_STRING) {
		size_t at = j->len;

		put_cell(j, x->text);	/* quoted into the line buffer, then taken back */
		snprintf(v, sizeof(v), "%.*s", (int)(j->len - at), j->out + at);
		j->len = at;
	}
	add_cell(r, x->key, v);
}

/* A record as lines: a row (its table and columns when they change), a verdict, a note. */
static void record_lines(struct ai_json *j, const struct sj_record *in)
{
	static struct rec r;	/* 10 KiB, off the stack; cleared for each record */
	const char *type = sj_text(in, "type"), *table = sj_text(in, "table");
	const char *label = sj_text(in, "label"), *text = sj_text(in, "text");

	memset(&r, 0, sizeof(r));
	for (size_t i = 0; i < in->nv; i++) {
		const struct sj_value *x = &in->v[i];

		if (x->tok == JT_ARRAY)
			add_list(&r, in, x);
		else if (x->tok != JT_OBJECT)
			add_value(j, &r, x);
	}
	if (type && strcmp(type, "row") == 0) {
		table = table ? table : "";
		if (strncmp(table, j->table, sizeof(j->table) - 1) != 0 || strcmp(r.names, j->names) != 0) {
			put(j, "# table: %.63s\n%s\n", table, r.names);
			snprintf(j->table, sizeof(j->table), "%.63s", table);
			snprintf(j->names, sizeof(j->names), "%s", r.names);
		}
		put(j, "%s\n", r.cells);
	} else if (type && strcmp(type, "verdict") == 0) {
		put(j, "# %.63s: %s\n", label ? label : "verdict", text ? text : "");
	} else if (text && text[0]) {
		put(j, "# %s\n", text);
	}
}

/* Text inside one line: a line break in it (a file name's) would start another. */
static void put_inline(struct ai_json *j, const char *t)
{
	for (; *t; t++)
		put(j, *t == '\n' ? "\\n" : *t == '\r' ? "\\r" : "%c", *t);
}

/* "command" as the "# flashbench ?: ..." line of the CSV. */
static void command(struct ai_json *j)
{
	const char *word = j->w.words;

	put(j, "# flashbench ?: ");
	for (size_t i = 0; i < j->w.nwords; i++, word += strlen(word) + 1) {
		put(j, "%s", i ? " " : "");
		put_inline(j, word);
	}
	put(j, "\n");
}

/* "device" as the CSV's "# device: " line. */
static void device(struct ai_json *j)
{
	const struct sj_value *size = sj_field(&j->w.rec, "size_bytes");
	const char *path = sj_text(&j->w.rec, "path"), *kind = sj_text(&j->w.rec, "kind");

	put(j, "# device: ");
	put_inline(j, path ? path : "");
	put(j, " (%.63s), %.0f bytes\n", kind ? kind : "", size && size->tok == JT_NUMBER ? size->num : 0);
}

/* "parameters": each number, true or false as a "# parameter NAME=VALUE" line. */
static void parameters(struct ai_json *j)
{
	for (size_t i = 0; i < j->w.rec.nv; i++) {
		const struct sj_value *x = &j->w.rec.v[i];

		if (x->tok == JT_TRUE || x->tok == JT_FALSE)
			put(j, "# parameter %s=%s\n", x->key, x->tok == JT_TRUE ? "true" : "false");
		if (x->tok != JT_NUMBER)
			continue;
		put(j, "# parameter %s=", x->key);
		put_num(j, x->num);
		put(j, "\n");
	}
}

/* The lines of the next event into j->out; 0 at the end, -1 with stop set. */
static int event_lines(struct ai_json *j, char *stop, size_t stoplen)
{
	enum sj_event e;
	int r = sj_read(&j->w, &e, stop, stoplen);

	if (r <= 0)
		return r;
	switch (e) {
	case SJ_COMMAND:
		command(j);
		break;
	case SJ_DEVICE:
		device(j);
		break;
	case SJ_PARAMETERS:
		parameters(j);
		break;
	case SJ_TEST:
		put(j, "# test: %s\n", j->w.name);
		j->table[0] = '\0';
		break;
	case SJ_RECORD:
		record_lines(j, &j->w.rec);
		break;
	default:
		break;	/* SJ_END and SJ_ERROR: sj_read returned them */
	}
	return 1;
}

static int cj_next(struct ai_json *j, char *buf, size_t len, char *stop, size_t stoplen)
{
	int r;

	while (j->at == j->len) {
		j->at = j->len = 0;
		if ((r = event_lines(j, stop, stoplen)) <= 0)
			return r;
	}
	{
		char *nl = memchr(j->out + j->at, '\n', j->len - j->at);
		size_t n = (size_t)(nl - (j->out + j->at));

		snprintf(buf, len, "%.*s", (int)n, j->out + j->at);
		j->at += n + 1;
	}
	return 1;
}

const struct ai_json_source compare_json_source = {
	.open = cj_open,
	.next = cj_next,
	.close = cj_close,
};
