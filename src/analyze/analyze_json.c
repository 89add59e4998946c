/*
 * --analyze of a saved --format=json run: the document, walked token by
 * token in bounded memory (saved/saved_json.h), turned back into the text
 * lines it stands for -- the command line as a "$ flashbench ..." line,
 * each row through its test's own text function (the test table knows
 * them all), verdicts and notes as their text -- so that the same reader
 * and the same verdicts serve both forms.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze_json.h"
#include "saved/saved_json.h"
#include "modules/test.h"

#define AJ_MAX_FIELDS 16	/* the most fields of a table this reader turns into text */

/* The walk, and nothing else: each event becomes at most one line. */
struct ai_json {
	struct sj_walk w;
};

static struct ai_json *aj_open(FILE *f)
{
	struct ai_json *j = malloc(sizeof(*j));

	if (j)
		sj_init(&j->w, f, false);
	return j;
}

static void aj_close(struct ai_json *j)
{
	sj_release(&j->w);
	free(j);
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
static int row_line(const struct sj_record *rec, char *buf, size_t len)
{
	const char *name = sj_text(rec, "table");
	const struct out_table *t = name ? find_table(name) : NULL;
	union out_val v[AJ_MAX_FIELDS];

	if (!t || t->nfields > AJ_MAX_FIELDS || !t->text)
		return 0;
	for (size_t i = 0; i < t->nfields; i++) {
		const struct sj_value *x = sj_field(rec, t->fields[i].name);
		enum out_type ty = t->fields[i].type;

		if (!x)
			return 0;
		if (ty == OT_BPS_LIST || ty == OT_REAL_LIST) {
			if (x->tok != JT_ARRAY)
				return 0;
			v[i].list.v = rec->list + x->list_at;
			v[i].list.n = x->list_n;
		} else if (ty == OT_TEXT) {
			v[i].s = x->tok == JT_STRING ? x->text : "";
		} else if (ty == OT_BOOL) {
			v[i].b = x->tok == JT_TRUE;
		} else if (x->tok != JT_NUMBER && x->tok != JT_NULL) {
			return 0;
		} else if (ty == OT_BYTES || ty == OT_COUNT) {
			if (x->tok == JT_NUMBER && !(x->num < 0x1p64))
				return 0;	/* no size or count: casting it is undefined */
			v[i].u = x->tok == JT_NUMBER && x->num >= 0 ? (uint64_t)x->num : 0;
		} else {
			v[i].d = x->tok == JT_NUMBER ? x->num : NAN;
		}
	}
	t->text(buf, len, v);
	return 1;
}

/* A record as its text line: a row, a verdict ("LABEL: TEXT"), a note. 0: none. */
static int record_line(const struct sj_record *rec, char *buf, size_t len)
{
	const char *type = sj_text(rec, "type"), *text = sj_text(rec, "text");
	const char *label = sj_text(rec, "label");

	if (!type)
		return 0;
	if (strcmp(type, "row") == 0)
		return row_line(rec, buf, len);
	if (!text)
		return 0;
	if (strcmp(type, "verdict") == 0)
		snprintf(buf, len, "%s: %s", label ? label : "verdict", text);
	else
		snprintf(buf, len, "%s", text);
	return 1;
}

/* The command's words as the "$ ./flashbench -a ..." line. */
static void command_line(const struct sj_walk *w, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "$");
	const char *word = w->words;

	for (size_t i = 0; i < w->nwords; i++, word += strlen(word) + 1)
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, " %s", word);
}

/* The next line: 1 with it in buf, 0 at the end, -1 with stop set. */
static int aj_next(struct ai_json *j, char *buf, size_t len, char *stop, size_t stoplen)
{
	enum sj_event e;
	int r;

	while ((r = sj_read(&j->w, &e, stop, stoplen)) == 1) {
		if (e == SJ_COMMAND) {
			command_line(&j->w, buf, len);
			return 1;
		}
		if (e == SJ_RECORD && record_line(&j->w.rec, buf, len))
			return 1;
	}
	return r;
}

const struct ai_json_source analyze_json_source = {
	.open = aj_open,
	.next = aj_next,
	.close = aj_close,
};
