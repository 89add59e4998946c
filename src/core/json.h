/*
 * JSON, the small part flashbench needs: writing strings and numbers
 * (the output layer), and reading a document token by token in bounded
 * memory (--analyze of a saved --format=json run, whatever its size).
 */
#ifndef FB_JSON_H
#define FB_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A string with quotes, every control character and non-UTF-8 byte escaped. */
void json_put_string(FILE *f, const char *s);
/* A number that reads back as the same double; null when not finite. */
void json_put_double(FILE *f, double d);

enum json_tok {
	JT_EOF, JT_ERROR,
	JT_OBJECT, JT_OBJECT_END, JT_ARRAY, JT_ARRAY_END,
	JT_KEY,		/* an object's key: text in r->text */
	JT_STRING,	/* a string value: text in r->text */
	JT_NUMBER,	/* r->num (r->text holds the literal) */
	JT_TRUE, JT_FALSE, JT_NULL,
};

#define JSON_MAX_DEPTH 64
#define JSON_MAX_TEXT 4096

struct json_reader {
	FILE *f;
	char text[JSON_MAX_TEXT];	/* longer strings are cut, r->cut set */
	bool cut;
	double num;
	int depth;
	/* per level: 1 object, 2 array; and whether a value is awaited */
	unsigned char kind[JSON_MAX_DEPTH];
	unsigned char want_key[JSON_MAX_DEPTH];
	unsigned char after_item[JSON_MAX_DEPTH];
	const char *error;	/* what was wrong, for JT_ERROR */
	unsigned long line;	/* 1-based line of the last token */
};

void json_reader_init(struct json_reader *r, FILE *f);
/* The next token; JT_ERROR (r->error set) on anything that is not JSON. */
enum json_tok json_next(struct json_reader *r);
/* Skip the value that starts with token t (its nested values too). */
enum json_tok json_skip(struct json_reader *r, enum json_tok t);

#endif
