/*
 * The CSV renderer: one table per test, each a header line of field
 * names (a list field becomes NAME_1 ... NAME_n) and one line per row,
 * tables separated by an empty line. Everything that is not a row --
 * the command, the device, verdicts, notes, the status -- is a comment
 * line starting with '#', which gnuplot, R and pandas (comment='#') skip.
 */
#include <string.h>

#include "core/out_impl.h"

/* Text inside a "# " line: a line break in a file name would start a row. */
static void csv_inline(FILE *f, const char *t)
{
	for (; *t; t++)
		if (*t == '\n' || *t == '\r')
			fputs(*t == '\n' ? "\\n" : "\\r", f);
		else
			fputc(*t, f);
}

static void csv_run_begin(struct out_state *s, const char *version, int argc, char *const *argv)
{
	fprintf(s->f, "# flashbench %s:", version ? version : "");
	for (int i = 0; i < argc; i++) {
		fputc(' ', s->f);
		csv_inline(s->f, argv[i]);
	}
	fputc('\n', s->f);
}

static void csv_device(struct out_state *s, const char *path, const char *kind, uint64_t size,
		       uint32_t sector)
{
	fputs("# device: ", s->f);
	csv_inline(s->f, path);
	fprintf(s->f, " (%s), %llu bytes, sector %u\n", kind, (unsigned long long)size, sector);
}

static void csv_param(struct out_state *s, const char *name, enum out_type type,
		      const union out_val *v)
{
	fprintf(s->f, "# parameter %s=", name);
	out_put_number(s->f, type, v);
	fputc('\n', s->f);
}

static void csv_test_begin(struct out_state *s, const char *test)
{
	(void)s, (void)test;
}

/* A text cell, quoted when it holds a comma, a quote or a line break. */
static void csv_text(FILE *f, const char *t)
{
	if (!t)
		t = "";
	if (!strpbrk(t, ",\"\n\r")) {
		fputs(t, f);
		return;
	}
	fputc('"', f);
	for (; *t; t++) {
		if (*t == '"')
			fputc('"', f);
		fputc(*t, f);
	}
	fputc('"', f);
}

static bool is_list(enum out_type type)
{
	return type == OT_BPS_LIST || type == OT_REAL_LIST;
}

/* The line of field names (a list field: NAME_1 ... NAME_n). */
void out_csv_names(FILE *f, const struct out_table *t, const union out_val *v)
{
	for (size_t i = 0; i < t->nfields; i++) {
		if (i)
			fputc(',', f);
		if (!is_list(t->fields[i].type)) {
			fputs(t->fields[i].name, f);
			continue;
		}
		for (size_t j = 0; j < v[i].list.n; j++)
			fprintf(f, "%s%s_%zu", j ? "," : "", t->fields[i].name, j + 1);
	}
	fputc('\n', f);
}

static void csv_header(struct out_state *s, const struct out_table *t, const union out_val *v)
{
	fprintf(s->f, "%s# table: %s\n", s->tables ? "\n" : "", t->name);
	out_csv_names(s->f, t, v);
	s->tables++;
}

/* The longest line of numbers: 16 of them, their commas and the line break. */
#define CSV_NUMBERS_MAX (16 * OUT_NUMBER_LEN)

/*
 * A row of numbers only, built in memory at line (CSV_NUMBERS_MAX bytes)
 * and written at once: a row of -s (65,536 of them) then costs a few
 * hundred instructions, not thousands. Its length; 0 for a row with text
 * or a list, or too long a row.
 */
static size_t csv_numbers(char *line, const struct out_table *t, const union out_val *v)
{
	size_t n = 0;

	if (t->nfields > 16)
		return 0;
	for (size_t i = 0; i < t->nfields; i++) {
		enum out_type type = t->fields[i].type;

		if (type == OT_TEXT || type == OT_BOOL || is_list(type))
			return 0;
		if (i)
			line[n++] = ',';
		n += out_fmt_number(line + n, type, &v[i]);
	}
	line[n++] = '\n';
	return n;
}

void out_csv_line(FILE *f, const struct out_table *t, const union out_val *v)
{
	char line[CSV_NUMBERS_MAX];
	size_t n = csv_numbers(line, t, v);

	if (n) {
		fwrite_unlocked(line, 1, n, f);
		return;
	}
	for (size_t i = 0; i < t->nfields; i++) {
		if (i)
			fputc(',', f);
		if (t->fields[i].type == OT_TEXT) {
			csv_text(f, v[i].s);
		} else if (is_list(t->fields[i].type)) {
			for (size_t j = 0; j < v[i].list.n; j++) {
				union out_val e = { .d = v[i].list.v[j] };

				fputs(j ? "," : "", f);
				out_put_number(f, OT_REAL, &e);
			}
		} else {
			out_put_number(f, t->fields[i].type, &v[i]);
		}
	}
	fputc('\n', f);
}

/*
 * Rows (out.c gives those that waited together): their lines gathered, a
 * write for every 8 KiB.
 */
static void csv_rows(struct out_state *s, const struct out_table *t, const union out_val *v,
		     size_t n, size_t stride)
{
	char buf[8192];
	size_t len = 0, l;

	if (s->table != t)
		csv_header(s, t, v);
	for (size_t i = 0; i < n; i++, v = (const union out_val *)((const char *)v + stride)) {
		if (len > sizeof(buf) - CSV_NUMBERS_MAX) {
			fwrite_unlocked(buf, 1, len, s->f);
			len = 0;
		}
		if ((l = csv_numbers(buf + len, t, v))) {
			len += l;
			continue;
		}
		fwrite_unlocked(buf, 1, len, s->f);
		len = 0;
		out_csv_line(s->f, t, v);
	}
	fwrite_unlocked(buf, 1, len, s->f);
}

/* A comment line never breaks: a line break in the text starts a new comment. */
static void csv_comment(FILE *f, const char *prefix, const char *text)
{
	fprintf(f, "# %s", prefix);
	for (; *text; text++) {
		fputc(*text, f);
		if (*text == '\n' && text[1])
			fputs("# ", f);
	}
	fputc('\n', f);
}

static void csv_verdict(struct out_state *s, const struct out_verdict *v, const char *text)
{
	char prefix[64];

	snprintf(prefix, sizeof(prefix), "%s: ", v && v->label ? v->label : "verdict");
	csv_comment(s->f, prefix, text);
}

static void csv_note(struct out_state *s, const char *text)
{
	csv_comment(s->f, "", text);
}

static void csv_test_end(struct out_state *s, const char *status, const char *reason)
{
	(void)s, (void)status, (void)reason;
}

static void csv_run_end(struct out_state *s, int exit_status, const char *status,
			const char *reason)
{
	fprintf(s->f, "# status: %s%s%s, exit status %d\n", status ? status : "done",
		reason ? ": " : "", reason ? reason : "", exit_status);
}

const struct out_renderer out_csv_renderer = {
	.run_begin = csv_run_begin,
	.device = csv_device,
	.param = csv_param,
	.test_begin = csv_test_begin,
	.rows = csv_rows,
	.verdict = csv_verdict,
	.note = csv_note,
	.test_end = csv_test_end,
	.run_end = csv_run_end,
};
