/*
 * --compare of a saved --format=json document: read token by token and
 * handed on as the CSV lines --format=csv prints for it -- the command,
 * the device and the parameters as "# " lines, each table's name and
 * columns when they change, a line per row (a list field as NAME_1 ...
 * NAME_n), verdicts and notes as "# " lines -- so that compare_csv.c
 * reads both forms.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_json.h"
#include "compare/compare_table.h"
#include "core/json.h"

enum where { W_TOP, W_TESTS, W_TEST, W_RECORDS, W_DONE };

struct ai_json {
	struct json_reader r;
	enum where where;
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
		n = vsnprintf(j->out + j->len, j->cap - j->len, fmt, ap);
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
		json_reader_init(&j->r, f);
	return j;
}

static void cj_close(struct ai_json *j)
{
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
static int add_list(struct ai_json *j, struct rec *r, const char *key)
{
	enum json_tok t;
	unsigned i = 0;

	while ((t = json_next(&j->r)) == JT_NUMBER || t == JT_NULL) {
		char name[80], v[40] = "";

		if (t == JT_NUMBER)
			snprintf(v, sizeof(v), "%.17g", j->r.num);
		snprintf(name, sizeof(name), "%s_%u", key, ++i);
		add_cell(r, name, v);
	}
	return t == JT_ARRAY_END ? 0 : -1;
}

/* A single value as its cell: a number, true/false, a string quoted as CSV is. */
static void add_value(struct ai_json *j, struct rec *r, const char *key, enum json_tok t)
{
	char v[JSON_MAX_TEXT + 8] = "";

	if (t == JT_NUMBER)
		snprintf(v, sizeof(v), "%.17g", j->r.num);
	else if (t == JT_TRUE || t == JT_FALSE)
		snprintf(v, sizeof(v), "%s", t == JT_TRUE ? "true" : "false");
	else if (t == JT_STRING && !strpbrk(j->r.text, ",\""))
		snprintf(v, sizeof(v), "%s", j->r.text);
	else if (t == JT_STRING) {
		size_t at = j->len;

		put_cell(j, j->r.text);	/* quoted into the line buffer, then taken back */
		snprintf(v, sizeof(v), "%.*s", (int)(j->len - at), j->out + at);
		j->len = at;
	}
	add_cell(r, key, v);
}

/* A record as lines: a row (its table and columns when they change), a verdict, a note. */
static void record_lines(struct ai_json *j, const struct rec *r, const char *type,
			 const char *table, const char *label, const char *text)
{
	if (strcmp(type, "row") == 0) {
		if (strcmp(table, j->table) != 0 || strcmp(r->names, j->names) != 0) {
			put(j, "# table: %s\n%s\n", table, r->names);
			snprintf(j->table, sizeof(j->table), "%s", table);
			snprintf(j->names, sizeof(j->names), "%s", r->names);
		}
		put(j, "%s\n", r->cells);
	} else if (strcmp(type, "verdict") == 0) {
		put(j, "# %s: %s\n", label, text);
	} else if (text[0]) {
		put(j, "# %s\n", text);
	}
}

/* One record (its '{' read): a row, a verdict or a note, as CSV lines. */
static int record(struct ai_json *j)
{
	static struct rec r;
	char type[16] = "", table[64] = "", label[64] = "verdict", text[JSON_MAX_TEXT] = "";
	enum json_tok t;

	memset(&r, 0, sizeof(r));
	while ((t = json_next(&j->r)) == JT_KEY) {
		char key[64];

		snprintf(key, sizeof(key), "%.63s", j->r.text);
		t = json_next(&j->r);
		if (t == JT_STRING && strcmp(key, "type") == 0)
			snprintf(type, sizeof(type), "%.15s", j->r.text);
		else if (t == JT_STRING && strcmp(key, "table") == 0)
			snprintf(table, sizeof(table), "%.63s", j->r.text);
		else if (t == JT_STRING && strcmp(key, "label") == 0)
			snprintf(label, sizeof(label), "%.63s", j->r.text);
		else if (t == JT_STRING && strcmp(key, "text") == 0)
			snprintf(text, sizeof(text), "%s", j->r.text);
		if (t == JT_ARRAY && add_list(j, &r, key) < 0)
			return -1;
		if (t == JT_OBJECT && json_skip(&j->r, t) == JT_ERROR)
			return -1;
		if (t == JT_NUMBER || t == JT_STRING || t == JT_TRUE || t == JT_FALSE || t == JT_NULL)
			add_value(j, &r, key, t);
	}
	if (t != JT_OBJECT_END)
		return -1;
	record_lines(j, &r, type, table, label, text);
	return 0;
}

/* "command": [...] as the "# flashbench: ..." line of the CSV. */
static int command(struct ai_json *j)
{
	enum json_tok t;
	bool first = true;

	if (json_next(&j->r) != JT_ARRAY)
		return -1;
	put(j, "# flashbench ?: ");
	while ((t = json_next(&j->r)) == JT_STRING) {
		put(j, "%s%s", first ? "" : " ", j->r.text);
		first = false;
	}
	put(j, "\n");
	return t == JT_ARRAY_END ? 0 : -1;
}

/* "device" or "parameters": a flat object, as the CSV's "# " lines. */
static int object(struct ai_json *j, bool device)
{
	char path[1024] = "", kind[64] = "";
	double size = 0;
	enum json_tok t;

	if (json_next(&j->r) != JT_OBJECT)
		return -1;
	while ((t = json_next(&j->r)) == JT_KEY) {
		char key[64];

		snprintf(key, sizeof(key), "%.63s", j->r.text);
		t = json_next(&j->r);
		if (device && t == JT_STRING && strcmp(key, "path") == 0)
			snprintf(path, sizeof(path), "%.1023s", j->r.text);
		else if (device && t == JT_STRING && strcmp(key, "kind") == 0)
			snprintf(kind, sizeof(kind), "%.63s", j->r.text);
		else if (device && t == JT_NUMBER && strcmp(key, "size_bytes") == 0)
			size = j->r.num;
		else if (!device && t == JT_NUMBER) {
			put(j, "# parameter %s=", key);
			put_num(j, j->r.num);
			put(j, "\n");
		} else if ((t == JT_OBJECT || t == JT_ARRAY) && json_skip(&j->r, t) == JT_ERROR)
			return -1;
	}
	if (device)
		put(j, "# device: %s (%s), %.0f bytes\n", path, kind, size);
	return t == JT_OBJECT_END ? 0 : -1;
}

static int fail(struct ai_json *j, char *stop, size_t len, const char *why)
{
	snprintf(stop, len, "not a flashbench JSON document: %s at line %lu", why, j->r.line);
	j->where = W_DONE;
	return -1;
}

/* A key of the document or of a test, and what it holds. */
static int key(struct ai_json *j)
{
	const char *k = j->r.text;
	enum json_tok t;

	if (j->where == W_TOP && strcmp(k, "command") == 0)
		return command(j);
	if (j->where == W_TOP && (strcmp(k, "device") == 0 || strcmp(k, "parameters") == 0))
		return object(j, strcmp(k, "device") == 0);
	if (j->where == W_TOP && strcmp(k, "tests") == 0) {
		j->where = W_TESTS;
		return json_next(&j->r) == JT_ARRAY ? 0 : -1;
	}
	if (j->where == W_TEST && strcmp(k, "records") == 0) {
		j->where = W_RECORDS;
		return json_next(&j->r) == JT_ARRAY ? 0 : -1;
	}
	if (j->where == W_TEST && strcmp(k, "test") == 0) {
		if (json_next(&j->r) != JT_STRING)
			return -1;
		put(j, "# test: %s\n", j->r.text);
		j->table[0] = '\0';
		return 0;
	}
	t = json_next(&j->r);
	return json_skip(&j->r, t) == JT_ERROR ? -1 : 0;
}

/* One step through the document's frame. */
static int step(struct ai_json *j, char *stop, size_t len)
{
	enum json_tok t = json_next(&j->r);

	if (t == JT_ERROR)
		return fail(j, stop, len, j->r.error);
	if (t == JT_EOF) {
		j->where = W_DONE;
		return 0;
	}
	switch (j->where) {
	case W_TOP:
	case W_TEST:
		if (t == JT_OBJECT && j->r.depth == 1)
			return 0;
		if (t == JT_OBJECT_END) {
			j->where = j->where == W_TEST ? W_TESTS : W_DONE;
			return 0;
		}
		if (t != JT_KEY || key(j) < 0)
			return fail(j, stop, len, "an unexpected value");
		return 0;
	case W_TESTS:
		if (t == JT_ARRAY_END)
			j->where = W_TOP;
		else if (t == JT_OBJECT)
			j->where = W_TEST;
		else
			return fail(j, stop, len, "a test that is not an object");
		return 0;
	case W_RECORDS:
		if (t == JT_ARRAY_END)
			j->where = W_TEST;
		else if (t != JT_OBJECT || record(j) < 0)
			return fail(j, stop, len, "a bad record");
		return 0;
	case W_DONE:
		break;
	}
	return 0;
}

static int cj_next(struct ai_json *j, char *buf, size_t len, char *stop, size_t stoplen)
{
	while (j->at == j->len) {
		j->at = j->len = 0;
		if (j->where == W_DONE)
			return 0;
		if (step(j, stop, stoplen) < 0)
			return -1;
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
