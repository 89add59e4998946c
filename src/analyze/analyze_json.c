/*
 * --analyze of a saved --format=json run: the document, read token by
 * token in bounded memory, turned back into the text lines it stands for
 * -- the command line as a "$ flashbench ..." line, each row through its
 * test's own text function (the test table knows them all), verdicts and
 * notes as their text -- so that the same reader and the same verdicts
 * serve both forms.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze_json.h"
#include "core/json.h"
#include "modules/test.h"

#define AJ_MAX_FIELDS 16
#define AJ_MAX_LIST 4096	/* --fat-nr's limit: the longest list a row has */

/* Where in the document the reader is. */
enum aj_where { AJ_TOP, AJ_TESTS, AJ_TEST, AJ_RECORDS, AJ_DONE };

struct aj_value {
	char key[64];
	enum json_tok tok;		/* JT_NUMBER, JT_STRING, JT_TRUE, JT_FALSE, JT_NULL, JT_ARRAY */
	double num;
	char text[JSON_MAX_TEXT];
	size_t list_at, list_n;		/* JT_ARRAY: its numbers in the record's list */
};

struct ai_json {
	struct json_reader r;
	enum aj_where where;
	struct aj_value v[AJ_MAX_FIELDS];
	size_t nv;
	double list[AJ_MAX_LIST];
	size_t nlist;
};

static struct ai_json *aj_open(FILE *f)
{
	struct ai_json *j = calloc(1, sizeof(*j));

	if (j)
		json_reader_init(&j->r, f);
	return j;
}

static void aj_close(struct ai_json *j)
{
	free(j);
}

static int aj_fail(struct ai_json *j, char *stop, size_t len, const char *why)
{
	snprintf(stop, len, "not a flashbench JSON document: %s at line %lu", why, j->r.line);
	j->where = AJ_DONE;
	return -1;
}

/* An array of numbers (null: NaN) into the record's list; others are skipped. */
static int read_list(struct ai_json *j, struct aj_value *v)
{
	enum json_tok t;

	v->list_at = j->nlist;
	v->list_n = 0;
	while ((t = json_next(&j->r)) != JT_ARRAY_END) {
		if (t == JT_ERROR || t == JT_EOF)
			return -1;
		if (t == JT_OBJECT || t == JT_ARRAY) {
			if (json_skip(&j->r, t) == JT_ERROR)
				return -1;
			continue;
		}
		if (j->nlist < AJ_MAX_LIST && (t == JT_NUMBER || t == JT_NULL)) {
			j->list[j->nlist++] = t == JT_NUMBER ? j->r.num : NAN;
			v->list_n++;
		}
	}
	return 0;
}

/* One flat record object (its '{' read): its fields into j->v. */
static int read_record(struct ai_json *j)
{
	enum json_tok t;

	j->nv = j->nlist = 0;
	while ((t = json_next(&j->r)) == JT_KEY) {
		struct aj_value *v = &j->v[j->nv < AJ_MAX_FIELDS ? j->nv : AJ_MAX_FIELDS - 1];

		snprintf(v->key, sizeof(v->key), "%.63s", j->r.text);	/* our keys are short */
		t = json_next(&j->r);
		v->tok = t;
		if (t == JT_NUMBER)
			v->num = j->r.num;
		else if (t == JT_STRING)
			memcpy(v->text, j->r.text, sizeof(v->text));
		else if (t == JT_ARRAY && read_list(j, v) < 0)
			return -1;
		else if (t == JT_OBJECT && json_skip(&j->r, t) == JT_ERROR)
			return -1;
		else if (t == JT_ERROR || t == JT_EOF || t == JT_OBJECT_END || t == JT_ARRAY_END)
			return -1;
		if (j->nv < AJ_MAX_FIELDS)
			j->nv++;
	}
	return t == JT_OBJECT_END ? 0 : -1;
}

static const struct aj_value *field(const struct ai_json *j, const char *key)
{
	for (size_t i = 0; i < j->nv; i++)
		if (strcmp(j->v[i].key, key) == 0)
			return &j->v[i];
	return NULL;
}

static const char *text_of(const struct ai_json *j, const char *key)
{
	const struct aj_value *v = field(j, key);

	return v && v->tok == JT_STRING ? v->text : NULL;
}

/* The table of that name in the test table; NULL for one this build does not know. */
static const struct out_table *find_table(const char *name)
{
	for (const struct fb_test *const *t = fb_tests; *t; t++)
		for (const struct out_table *const *p = (*t)->tables; p && *p; p++)
			if (strcmp((*p)->name, name) == 0)
				return *p;
	return NULL;
}

/* A row record as its text line; 0 when a field is missing (the row is skipped). */
static int row_line(const struct ai_json *j, char *buf, size_t len)
{
	const char *name = text_of(j, "table");
	const struct out_table *t = name ? find_table(name) : NULL;
	union out_val v[AJ_MAX_FIELDS];

	if (!t || t->nfields > AJ_MAX_FIELDS || !t->text)
		return 0;
	for (size_t i = 0; i < t->nfields; i++) {
		const struct aj_value *x = field(j, t->fields[i].name);
		enum out_type ty = t->fields[i].type;

		if (!x)
			return 0;
		if (ty == OT_BPS_LIST || ty == OT_REAL_LIST) {
			if (x->tok != JT_ARRAY)
				return 0;
			v[i].list.v = j->list + x->list_at;
			v[i].list.n = x->list_n;
		} else if (ty == OT_TEXT) {
			v[i].s = x->tok == JT_STRING ? x->text : "";
		} else if (ty == OT_BOOL) {
			v[i].b = x->tok == JT_TRUE;
		} else if (x->tok != JT_NUMBER && x->tok != JT_NULL) {
			return 0;
		} else if (ty == OT_BYTES || ty == OT_COUNT) {
			v[i].u = x->num >= 0 ? (uint64_t)x->num : 0;
		} else {
			v[i].d = x->tok == JT_NUMBER ? x->num : NAN;
		}
	}
	t->text(buf, len, v);
	return 1;
}

/* A record as its text line: a row, a verdict ("LABEL: TEXT"), a note. 0: none. */
static int record_line(const struct ai_json *j, char *buf, size_t len)
{
	const char *type = text_of(j, "type"), *text = text_of(j, "text");
	const char *label = text_of(j, "label");

	if (!type)
		return 0;
	if (strcmp(type, "row") == 0)
		return row_line(j, buf, len);
	if (!text)
		return 0;
	if (strcmp(type, "verdict") == 0)
		snprintf(buf, len, "%s: %s", label ? label : "verdict", text);
	else
		snprintf(buf, len, "%s", text);
	return 1;
}

/* "command": ["./flashbench", "-a", ...] as the "$ ./flashbench -a ..." line. */
static int command_line(struct ai_json *j, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "$");
	enum json_tok t;

	if (json_next(&j->r) != JT_ARRAY)
		return -1;
	while ((t = json_next(&j->r)) == JT_STRING)
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, " %s", j->r.text);
	return t == JT_ARRAY_END ? 1 : -1;
}

/* One step through the document's frame; 1 with a line in buf, 0 to go on, -1. */
static int step(struct ai_json *j, char *buf, size_t len, char *stop, size_t stoplen)
{
	enum json_tok t = json_next(&j->r);

	if (t == JT_ERROR)
		return aj_fail(j, stop, stoplen, j->r.error);
	if (t == JT_EOF) {
		j->where = AJ_DONE;
		return 0;
	}
	switch (j->where) {
	case AJ_TOP:
	case AJ_TEST:
		if (t == JT_OBJECT && j->r.depth == 1)
			return 0;	/* the document itself */
		if (t == JT_OBJECT_END) {
			j->where = j->where == AJ_TEST ? AJ_TESTS : AJ_DONE;
			return 0;
		}
		if (t != JT_KEY)
			return aj_fail(j, stop, stoplen, "a value without a key");
		if (j->where == AJ_TOP && strcmp(j->r.text, "command") == 0)
			return command_line(j, buf, len) < 0
			       ? aj_fail(j, stop, stoplen, "a bad command") : 1;
		if (j->where == AJ_TOP && strcmp(j->r.text, "tests") == 0) {
			j->where = AJ_TESTS;
			return json_next(&j->r) == JT_ARRAY ? 0 : aj_fail(j, stop, stoplen, "bad tests");
		}
		if (j->where == AJ_TEST && strcmp(j->r.text, "records") == 0) {
			j->where = AJ_RECORDS;
			return json_next(&j->r) == JT_ARRAY ? 0
			       : aj_fail(j, stop, stoplen, "bad records");
		}
		t = json_next(&j->r);
		return json_skip(&j->r, t) == JT_ERROR ? aj_fail(j, stop, stoplen, j->r.error) : 0;
	case AJ_TESTS:
		if (t == JT_ARRAY_END)
			j->where = AJ_TOP;
		else if (t == JT_OBJECT)
			j->where = AJ_TEST;
		else
			return aj_fail(j, stop, stoplen, "a test that is not an object");
		return 0;
	case AJ_RECORDS:
		if (t == JT_ARRAY_END) {
			j->where = AJ_TEST;
			return 0;
		}
		if (t != JT_OBJECT || read_record(j) < 0)
			return aj_fail(j, stop, stoplen, "a bad record");
		return record_line(j, buf, len);
	case AJ_DONE:
		break;
	}
	return 0;
}

static int aj_next(struct ai_json *j, char *buf, size_t len, char *stop, size_t stoplen)
{
	int r;

	while (j->where != AJ_DONE)
		if ((r = step(j, buf, len, stop, stoplen)) != 0)
			return r;
	return 0;
}

const struct ai_json_source analyze_json_source = {
	.open = aj_open,
	.next = aj_next,
	.close = aj_close,
};
