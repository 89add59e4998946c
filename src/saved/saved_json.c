/*
 * The walker of a saved --format=json document (saved_json.h): the
 * frame {"command":[...], "device":{...}, "parameters":{...}, "tests":
 * [{"test":NAME, "records":[{...}, ...]}, ...]} read with core/json.h's
 * tokenizer, in bounded memory whatever the document's size; any other
 * key is skipped whole. A record is read whole or the document is
 * refused: a list holds numbers and nulls only. The device and the
 * parameters are read more loosely -- their arrays and objects skipped --
 * so that a field a later version adds to them leaves old readers working.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "saved/saved_json.h"

/* step()'s "nothing to hand out yet: go on". */
#define SJ_MORE (-1)

void sj_init(struct sj_walk *w, FILE *f, bool headers)
{
	memset(w, 0, sizeof(*w));
	json_reader_init(&w->r, f);
	w->headers = headers;
}

void sj_release(struct sj_walk *w)
{
	free(w->rec.v);
	free(w->words);
	w->rec.v = NULL;
	w->words = NULL;
	w->rec.cap = w->rec.nv = w->wcap = w->wlen = w->nwords = 0;
}

const struct sj_value *sj_field(const struct sj_record *rec, const char *key)
{
	for (size_t i = 0; i < rec->nv; i++)
		if (strcmp(rec->v[i].key, key) == 0)
			return &rec->v[i];
	return NULL;
}

const char *sj_text(const struct sj_record *rec, const char *key)
{
	const struct sj_value *v = sj_field(rec, key);

	return v && v->tok == JT_STRING ? v->text : NULL;
}

static int fail(struct sj_walk *w, const char *why)
{
	snprintf(w->why, sizeof(w->why), "not a flashbench JSON document: %s at line %lu",
		 why, w->r.line);
	w->where = SJ_AT_DONE;
	return SJ_ERROR;
}

/* An array of numbers and nulls (its '[' read) into the record's list. */
static int read_list(struct sj_walk *w, struct sj_value *v)
{
	struct sj_record *rec = &w->rec;
	enum json_tok t;

	v->list_at = rec->nlist;
	v->list_n = 0;
	while ((t = json_next(&w->r)) == JT_NUMBER || t == JT_NULL) {
		if (rec->nlist == SJ_MAX_LIST)
			return -1;
		rec->list[rec->nlist++] = t == JT_NUMBER ? w->r.num : NAN;
		v->list_n++;
	}
	return t == JT_ARRAY_END ? 0 : -1;
}

/* The next field's slot, the array grown as needed (NULL: too many). */
static struct sj_value *new_field(struct sj_record *rec)
{
	if (rec->nv == rec->cap) {
		size_t cap = rec->cap ? 2 * rec->cap : 16;
		struct sj_value *p;

		if (cap > SJ_MAX_FIELDS || !(p = realloc(rec->v, cap * sizeof(*p))))
			return NULL;
		rec->v = p;
		rec->cap = cap;
	}
	return &rec->v[rec->nv++];
}

/* One flat object (its '{' read): its fields into w->rec, in order; a
 * header's arrays skipped, a record's read as lists. */
static int read_object(struct sj_walk *w, bool header)
{
	enum json_tok t;

	w->rec.nv = w->rec.nlist = 0;
	while ((t = json_next(&w->r)) == JT_KEY) {
		struct sj_value *v = new_field(&w->rec);

		if (!v)
			return -1;
		snprintf(v->key, sizeof(v->key), "%.63s", w->r.text);
		v->tok = t = json_next(&w->r);
		if (t == JT_NUMBER)
			v->num = w->r.num;
		else if (t == JT_STRING)
			strcpy(v->text, w->r.text);	/* both JSON_MAX_TEXT */
		else if (t == JT_ARRAY && header) {
			v->list_at = v->list_n = 0;
			if (json_skip(&w->r, t) == JT_ERROR)
				return -1;
		} else if (t == JT_ARRAY && read_list(w, v) < 0)
			return -1;
		else if (t == JT_OBJECT && json_skip(&w->r, t) == JT_ERROR)
			return -1;
		else if (t == JT_ERROR || t == JT_EOF || t == JT_OBJECT_END || t == JT_ARRAY_END)
			return -1;
	}
	return t == JT_OBJECT_END ? 0 : -1;
}

/* "command": ["./flashbench", "-a", ...] into w->words (at most SJ_MAX_COMMAND bytes). */
static int read_command(struct sj_walk *w)
{
	enum json_tok t;

	w->nwords = w->wlen = 0;
	if (json_next(&w->r) != JT_ARRAY)
		return -1;
	while ((t = json_next(&w->r)) == JT_STRING) {
		size_t n = strlen(w->r.text) + 1;

		if (w->wlen + n > SJ_MAX_COMMAND)
			return -1;
		if (w->wlen + n > w->wcap) {
			size_t cap = 2 * (w->wlen + n);
			char *p = realloc(w->words, cap);

			if (!p)
				return -1;
			w->words = p;
			w->wcap = cap;
		}
		memcpy(w->words + w->wlen, w->r.text, n);
		w->wlen += n;
		w->nwords++;
	}
	return t == JT_ARRAY_END ? 0 : -1;
}

/* A key of the document or of a test (its text in w->r.text), and what it holds. */
static int key(struct sj_walk *w)
{
	bool top = w->where == SJ_AT_TOP, test = w->where == SJ_AT_TEST;
	const char *k = w->r.text;
	enum json_tok t;

	if (top && strcmp(k, "command") == 0)
		return read_command(w) < 0 ? fail(w, "a bad command") : SJ_COMMAND;
	if (top && w->headers && (strcmp(k, "device") == 0 || strcmp(k, "parameters") == 0)) {
		int ev = strcmp(k, "device") == 0 ? SJ_DEVICE : SJ_PARAMETERS;

		if (json_next(&w->r) != JT_OBJECT || read_object(w, true) < 0)
			return fail(w, ev == SJ_DEVICE ? "a bad device" : "bad parameters");
		return ev;
	}
	if (top && strcmp(k, "tests") == 0) {
		w->where = SJ_AT_TESTS;
		return json_next(&w->r) == JT_ARRAY ? SJ_MORE : fail(w, "bad tests");
	}
	if (test && strcmp(k, "records") == 0) {
		w->where = SJ_AT_RECORDS;
		return json_next(&w->r) == JT_ARRAY ? SJ_MORE : fail(w, "bad records");
	}
	if (test && w->headers && strcmp(k, "test") == 0) {
		if (json_next(&w->r) != JT_STRING)
			return fail(w, "a bad test name");
		strcpy(w->name, w->r.text);
		return SJ_TEST;
	}
	t = json_next(&w->r);
	return json_skip(&w->r, t) == JT_ERROR ? fail(w, w->r.error) : SJ_MORE;
}

/* One step through the document's frame: an event, or SJ_MORE. */
static int step(struct sj_walk *w)
{
	enum json_tok t = json_next(&w->r);

	if (t == JT_ERROR)
		return fail(w, w->r.error);
	if (t == JT_EOF) {
		w->where = SJ_AT_DONE;
		return SJ_END;
	}
	switch (w->where) {
	case SJ_AT_TOP:
	case SJ_AT_TEST:
		if (t == JT_OBJECT && w->r.depth == 1)
			return SJ_MORE;	/* the document itself */
		if (t == JT_OBJECT_END) {
			w->where = w->where == SJ_AT_TEST ? SJ_AT_TESTS : SJ_AT_DONE;
			return SJ_MORE;
		}
		return t == JT_KEY ? key(w) : fail(w, "a value without a key");
	case SJ_AT_TESTS:
		if (t == JT_ARRAY_END)
			w->where = SJ_AT_TOP;
		else if (t == JT_OBJECT)
			w->where = SJ_AT_TEST;
		else
			return fail(w, "a test that is not an object");
		return SJ_MORE;
	case SJ_AT_RECORDS:
		if (t == JT_ARRAY_END) {
			w->where = SJ_AT_TEST;
			return SJ_MORE;
		}
		if (t != JT_OBJECT || read_object(w, false) < 0)
			return fail(w, "a bad record");
		return SJ_RECORD;
	case SJ_AT_DONE:
		break;
	}
	return SJ_END;
}

enum sj_event sj_next(struct sj_walk *w)
{
	int e;

	while (w->where != SJ_AT_DONE)
		if ((e = step(w)) != SJ_MORE)
			return (enum sj_event)e;
	return SJ_END;
}

int sj_read(struct sj_walk *w, enum sj_event *e, char *stop, size_t stoplen)
{
	*e = sj_next(w);
	if (*e == SJ_ERROR)
		snprintf(stop, stoplen, "%s", w->why);
	return *e == SJ_END ? 0 : *e == SJ_ERROR ? -1 : 1;
}
