/*
 * A saved --format=json document, walked token by token in bounded
 * memory: its frame -- the command, the device, the parameters, each
 * test and its records -- handed out one event at a time. The two
 * readers of saved JSON say only what an event becomes: --analyze's
 * (analyze/analyze_json.c) the text lines the run printed, --compare's
 * (compare/compare_json.c) the CSV lines --format=csv prints.
 */
#ifndef FB_SAVED_JSON_H
#define FB_SAVED_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/json.h"

/* The most fields of one record, numbers in its lists (--fat-nr's limit),
 * and bytes of the command's words: a document beyond them is refused. */
#define SJ_MAX_FIELDS 1024
#define SJ_MAX_LIST 4096
#define SJ_MAX_COMMAND (1u << 20)

enum sj_event {
	SJ_END,		/* the document is over (also after SJ_ERROR) */
	SJ_ERROR,	/* not a flashbench JSON document: why in w->why */
	SJ_COMMAND,	/* "command": w->nwords words in w->words, each ending in NUL */
	SJ_DEVICE,	/* "device": its fields in w->rec (headers only) */
	SJ_PARAMETERS,	/* "parameters": its fields in w->rec (headers only) */
	SJ_TEST,	/* a test's "test": its name in w->name (headers only) */
	SJ_RECORD,	/* a record of a test: its fields in w->rec */
};

/* A field of a flat object, as the document holds it. */
struct sj_value {
	char key[64];		/* cut to 63 bytes: our keys are short */
	enum json_tok tok;	/* JT_NUMBER, JT_STRING, JT_TRUE, JT_FALSE, JT_NULL,
				   JT_ARRAY (a record's: numbers; the device's and the
				   parameters': skipped, list_n 0), JT_OBJECT (skipped) */
	double num;		/* JT_NUMBER */
	char text[JSON_MAX_TEXT];	/* JT_STRING */
	size_t list_at, list_n;	/* JT_ARRAY: its numbers in the record's list; null: NaN */
};

/* A flat object: a record, the device, the parameters; its fields in order. */
struct sj_record {
	struct sj_value *v;
	size_t nv, cap;
	double list[SJ_MAX_LIST];
	size_t nlist;
};

enum sj_where { SJ_AT_TOP, SJ_AT_TESTS, SJ_AT_TEST, SJ_AT_RECORDS, SJ_AT_DONE };

struct sj_walk {
	struct json_reader r;
	enum sj_where where;
	bool headers;			/* hand out SJ_DEVICE, SJ_PARAMETERS, SJ_TEST */
	struct sj_record rec;
	char *words;			/* SJ_COMMAND */
	size_t nwords, wlen, wcap;
	char name[JSON_MAX_TEXT];	/* SJ_TEST */
	char why[160];			/* SJ_ERROR */
};

/* Start w on the document in f; headers: see above. sj_release frees
 * what the walk took (w itself is the caller's: a reader embeds it). */
void sj_init(struct sj_walk *w, FILE *f, bool headers);
enum sj_event sj_next(struct sj_walk *w);
/* sj_next for a reader's next(): 1 with an event to emit in *e, 0 at the
 * end, -1 with the reason in stop (struct ai_json_source's contract). */
int sj_read(struct sj_walk *w, enum sj_event *e, char *stop, size_t stoplen);
void sj_release(struct sj_walk *w);

/* The record's first field of that name (NULL: none), and its text if a string. */
const struct sj_value *sj_field(const struct sj_record *rec, const char *key);
const char *sj_text(const struct sj_record *rec, const char *key);

#endif
