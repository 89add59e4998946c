/* JSON writing and bounded-memory reading: see json.h. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"

/* Length of the UTF-8 sequence at s (1-4), 0 when it is not valid UTF-8. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
		 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;

	if (n == 2 && s[0] < 0xc2)
		return 0;	/* overlong */
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

void json_put_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		size_t n = utf8_len(p);

		if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p++);
		} else if (*p == '\n') {
			fputs("\\n", f), p++;
		} else if (*p == '\t') {
			fputs("\\t", f), p++;
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
		} else if (n == 0) {
			/* A byte that is not UTF-8 (a path): U+FFFD keeps the document valid. */
			fputs("\\ufffd", f), p++;
		} else {
			fwrite(p, 1, n, f);
			p += n;
		}
	}
	fputc('"', f);
}

void json_put_double(FILE *f, double d)
{
	char buf[40];

	if (!isfinite(d)) {
		fputs("null", f);
		return;
	}
	/* Whole numbers (times in ns, averages of them) without a fraction. */
	if (d == floor(d) && fabs(d) < 9.007199254740992e15)
		snprintf(buf, sizeof(buf), "%.0f", d);
	else
		snprintf(buf, sizeof(buf), "%.17g", d);
	fputs(buf, f);
}

void json_reader_init(struct json_reader *r, FILE *f)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->line = 1;
}

static int get(struct json_reader *r)
{
	int c = getc(r->f);

	if (c == '\n')
		r->line++;
	return c;
}

static int skip_space(struct json_reader *r)
{
	int c;

	while ((c = get(r)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		;
	return c;
}

static enum json_tok fail(struct json_reader *r, const char *why)
{
	r->error = why;
	return JT_ERROR;
}

/* Append one byte to r->text, or mark it cut. */
static void put_text(struct json_reader *r, size_t *n, int c)
{
	if (*n + 1 < sizeof(r->text))
		r->text[(*n)++] = (char)c;
	else
		r->cut = true;
}

static void put_utf8(struct json_reader *r, size_t *n, unsigned cp)
{
	if (cp < 0x80) {
		put_text(r, n, (int)cp);
	} else if (cp < 0x800) {
		put_text(r, n, 0xc0 | (cp >> 6));
		put_text(r, n, 0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		put_text(r, n, 0xe0 | (cp >> 12));
		put_text(r, n, 0x80 | ((cp >> 6) & 0x3f));
		put_text(r, n, 0x80 | (cp & 0x3f));
	} else {
		put_text(r, n, 0xf0 | (cp >> 18));
		put_text(r, n, 0x80 | ((cp >> 12) & 0x3f));
		put_text(r, n, 0x80 | ((cp >> 6) & 0x3f));
		put_text(r, n, 0x80 | (cp & 0x3f));
	}
}

static int hex4(struct json_reader *r, unsigned *cp)
{
	*cp = 0;
	for (int i = 0; i < 4; i++) {
		int c = get(r), d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (c | 0x20) - 'a' + 10;
		else
			return -1;
		*cp = *cp * 16 + (unsigned)d;
	}
	return 0;
}

static enum json_tok read_string(struct json_reader *r, enum json_tok t)
{
	static const char esc_in[] = "\"\\/bfnrt", esc_out[] = "\"\\/\b\f\n\r\t";
	size_t n = 0;
	int c;

	r->cut = false;
	while ((c = get(r)) != '"') {
		if (c == EOF || c == '\n' || (c >= 0 && c < 0x20))
			return fail(r, "unterminated string");
		if (c == '\\') {
			const char *e;
			unsigned cp;

			c = get(r);
			if (c == 'u') {
				if (hex4(r, &cp) < 0)
					return fail(r, "bad \\u escape");
				put_utf8(r, &n, cp);
				continue;
			}
			if (c == EOF || !(e = strchr(esc_in, c)))
				return fail(r, "bad escape");
			c = esc_out[e - esc_in];
		}
		put_text(r, &n, c);
	}
	r->text[n] = '\0';
	return t;
}

static enum json_tok read_number(struct json_reader *r, int c)
{
	size_t n = 0;
	char *end;

	while (c != EOF && strchr("+-0123456789.eE", c)) {
		if (n + 1 >= 64)
			return fail(r, "number too long");
		r->text[n++] = (char)c;
		c = get(r);
	}
	if (c != EOF)
		ungetc(c, r->f);
	if (c == '\n')
		r->line--;
	r->text[n] = '\0';
	r->num = strtod(r->text, &end);
	if (n == 0 || *end)
		return fail(r, "bad number");
	return JT_NUMBER;
}

static enum json_tok read_word(struct json_reader *r, int c)
{
	static const struct { const char *w; enum json_tok t; } words[] = {
		{ "true", JT_TRUE }, { "false", JT_FALSE }, { "null", JT_NULL },
	};

	for (size_t i = 0; i < 3; i++) {
		if (c != words[i].w[0])
			continue;
		for (const char *p = words[i].w + 1; *p; p++)
			if (get(r) != *p)
				return fail(r, "bad literal");
		return words[i].t;
	}
	return fail(r, "unexpected character");
}

/* Open or close a level. */
static enum json_tok push(struct json_reader *r, int kind, enum json_tok t)
{
	if (r->depth >= JSON_MAX_DEPTH)
		return fail(r, "nested too deeply");
	r->kind[r->depth] = (unsigned char)kind;
	r->want_key[r->depth] = kind == 1;
	r->after_item[r->depth] = 0;
	r->depth++;
	return t;
}

static enum json_tok pop(struct json_reader *r, int kind, enum json_tok t)
{
	if (r->depth == 0 || r->kind[r->depth - 1] != kind)
		return fail(r, "mismatched bracket");
	r->depth--;
	return t;
}

/* Separators between items: ',' and ':' are checked here, not returned. */
static int separator(struct json_reader *r, int c, bool *is_key)
{
	int d = r->depth - 1;

	*is_key = false;
	if (d < 0)
		return c;
	if (r->kind[d] == 1 && c != '}') {
		if (r->want_key[d]) {
			if (r->after_item[d]) {
				if (c != ',')
					return -2;
				c = skip_space(r);
			}
			*is_key = true;
			r->want_key[d] = 0;
			return c;
		}
		/* a value: after its key's ':' */
		r->want_key[d] = 1;
		r->after_item[d] = 1;
		return c;
	}
	if (r->kind[d] == 2 && c != ']') {
		if (r->after_item[d]) {
			if (c != ',')
				return -2;
			c = skip_space(r);
		}
		r->after_item[d] = 1;
	}
	return c;
}

enum json_tok json_next(struct json_reader *r)
{
	bool is_key;
	int c = skip_space(r);

	if (c == EOF)
		return r->depth ? fail(r, "unexpected end") : JT_EOF;
	if ((c = separator(r, c, &is_key)) == -2)
		return fail(r, "missing ','");
	if (is_key) {
		if (c != '"' || read_string(r, JT_KEY) != JT_KEY)
			return fail(r, "expected a key");
		if (skip_space(r) != ':')
			return fail(r, "missing ':'");
		return JT_KEY;
	}
	switch (c) {
	case '{': return push(r, 1, JT_OBJECT);
	case '[': return push(r, 2, JT_ARRAY);
	case '}': return pop(r, 1, JT_OBJECT_END);
	case ']': return pop(r, 2, JT_ARRAY_END);
	case '"': return read_string(r, JT_STRING);
	}
	if (c == '-' || (c >= '0' && c <= '9'))
		return read_number(r, c);
	return read_word(r, c);
}

enum json_tok json_skip(struct json_reader *r, enum json_tok t)
{
	int depth;

	if (t != JT_OBJECT && t != JT_ARRAY)
		return t;
	depth = r->depth;
	while (r->depth >= depth) {
		t = json_next(r);
		if (t == JT_ERROR || t == JT_EOF)
			return t == JT_EOF ? fail(r, "unexpected end") : t;
	}
	return t;
}
