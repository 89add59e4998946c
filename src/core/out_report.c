/*
 * The report renderer (--report): one plain-text block to paste into a
 * mail, no line wider than REPORT_COLS columns -- a head (version, date,
 * command line, device, parameters), one section per test with its text
 * lines, and all verdicts again at the end, where a reader looks first.
 * Tabs become two spaces; a longer line is broken at a space (or, with
 * none, at the width) and continued indented.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/out_impl.h"
#include "core/units.h"

#define REPORT_COLS 72
#define REPORT_INDENT "    "
#define REPORT_VERDICTS 64

static char line[8192];
static char params[1024];
static char *verdicts[REPORT_VERDICTS];
static size_t nverdicts, dropped;

/* Columns of the n bytes at s: UTF-8 continuation bytes take none ("µs"). */
static size_t cols(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* Bytes of s that fill at most max columns, not splitting a character. */
static size_t fit(const char *s, size_t max)
{
	size_t i = 0, c = 0;

	while (s[i] && c < max) {
		i++;
		while (((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		c++;
	}
	return i;
}

/* Where to end a piece of p that must fit room columns: at a space if there is one. */
static size_t cut_at(const char *p, size_t room)
{
	size_t lim = fit(p, room), j = lim;

	if (!p[lim] || p[lim] == ' ')
		return lim;
	while (j > 0 && p[j - 1] != ' ')
		j--;
	if (j > 0 && cols(p, j) > room / 3)
		return j;
	/* A long word (a sim: spec, a path): after a comma or a slash in it, else at the width. */
	for (j = lim; j > 0 && p[j - 1] != ',' && p[j - 1] != '/'; j--)
		;
	return j > 0 && cols(p, j) > room / 3 ? j : lim;
}

/* One logical line, wrapped at REPORT_COLS; continuations indented. */
static void put_wrapped(FILE *f, const char *text)
{
	char buf[sizeof(line)];
	size_t k = 0, indent = strlen(REPORT_INDENT);
	const char *p = buf;
	bool first = true;

	/* Tabs to two spaces. */
	for (const char *s = text; *s && k < sizeof(buf) - 3; s++) {
		if (*s == '\t') {
			buf[k++] = ' ';
			buf[k++] = ' ';
		} else {
			buf[k++] = *s;
		}
	}
	buf[k] = '\0';
	do {
		size_t cut = cut_at(p, REPORT_COLS - (first ? 0 : indent)), n = cut;

		while (n > 0 && p[n - 1] == ' ')
			n--;	/* no blanks at the end of a line */
		fprintf(f, "%s%.*s\n", first ? "" : REPORT_INDENT, (int)n, p);
		p += cut;
		while (*p == ' ')
			p++;
		first = false;
	} while (*p);
}

static void report_run_begin(struct out_state *s, const char *version, int argc,
			     char *const *argv)
{
	char when[64];
	size_t k = (size_t)snprintf(line, sizeof(line), "command:");
	time_t now = time(NULL);
	struct tm tm;

	for (size_t i = 0; i < nverdicts; i++)
		free(verdicts[i]);
	nverdicts = dropped = 0;
	params[0] = '\0';
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
	fprintf(s->f, "flashbench %s report, %s\n", version, when);
	for (int i = 0; i < argc && k < sizeof(line) - 1; i++)
		k += (size_t)snprintf(line + k, sizeof(line) - k, " %s", argv[i]);
	put_wrapped(s->f, line);
}

static void report_device(struct out_state *s, const char *path, const char *kind, uint64_t size,
			  uint32_t sector)
{
	char sz[FB_FMT_LEN];

	snprintf(line, sizeof(line), "device: %s (%s, %s, %u-byte sectors)", path, kind,
		 fmt_size(sz, sizeof(sz), size), (unsigned)sector);
	put_wrapped(s->f, line);
}

/* Gathered into one "parameters:" line, printed before the first test. */
static void report_param(struct out_state *s, const char *name, enum out_type type,
			 const union out_val *v)
{
	static const char *const sizes[] = { "blocksize", "erasesize", "offset", "size",
					     "max-write", "min-size", "max-size" };
	char val[FB_FMT_LEN];
	size_t k = strlen(params);

	(void)s;
	if (type == OT_BOOL) {
		if (!v->b)
			return;
		snprintf(val, sizeof(val), "yes");
	} else if (type == OT_REAL) {
		snprintf(val, sizeof(val), "%g", v->d);
	} else {
		snprintf(val, sizeof(val), "%llu", (unsigned long long)v->u);
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			if (strcmp(name, sizes[i]) == 0)
				fmt_size(val, sizeof(val), v->u);
		if (strcmp(name, "max-time") == 0)
			fmt_time(val, sizeof(val), (double)v->u);
	}
	snprintf(params + k, sizeof(params) - k, "%s%s %s", k ? ", " : "", name, val);
}

static void report_test_begin(struct out_state *s, const char *test)
{
	if (params[0]) {
		snprintf(line, sizeof(line), "parameters: %s", params);
		put_wrapped(s->f, line);
		params[0] = '\0';
	}
	if (strcmp(test, "info") == 0)
		fprintf(s->f, "\n== device facts (--info) ==\n");
	else
		fprintf(s->f, "\n== %s ==\n", test);
}

static void report_row(struct out_state *s, const struct out_table *t, const union out_val *v)
{
	if (s->table != t && t->text_header) {
		t->text_header(line, sizeof(line), v);
		put_wrapped(s->f, line);
	}
	if (t->text)
		t->text(line, sizeof(line), v);
	else
		out_text_default(line, sizeof(line), t, v);
	put_wrapped(s->f, line);
}

/*
 * The verdicts of one step of a search (each probe of --find-open-au) stay
 * in their section: the summary holds the answers, not every step.
 */
static bool a_step(const struct out_verdict *v)
{
	static const char *const steps[] = { "open_au_run", "open_au_run_random" };

	for (size_t i = 0; v && v->name && i < sizeof(steps) / sizeof(steps[0]); i++)
		if (strcmp(v->name, steps[i]) == 0)
			return true;
	return false;
}

static void report_verdict(struct out_state *s, const struct out_verdict *v, const char *text)
{
	snprintf(line, sizeof(line), "%s: %s", v && v->label ? v->label : "verdict", text);
	put_wrapped(s->f, line);
	if (a_step(v))
		return;
	if (nverdicts < REPORT_VERDICTS && (verdicts[nverdicts] = strdup(line)))
		nverdicts++;
	else
		dropped++;
}

static void report_note(struct out_state *s, const char *text)
{
	put_wrapped(s->f, text);
}

static void report_test_end(struct out_state *s, const char *status, const char *reason)
{
	if (strcmp(status, "done") == 0)
		return;
	snprintf(line, sizeof(line), "status: %s%s%s", status, reason ? ": " : "",
		 reason ? reason : "");
	put_wrapped(s->f, line);
}

static void report_run_end(struct out_state *s, int exit_status, const char *status,
			   const char *reason)
{
	fprintf(s->f, "\n== verdicts ==\n");
	if (nverdicts == 0)
		fprintf(s->f, "none\n");
	for (size_t i = 0; i < nverdicts; i++) {
		put_wrapped(s->f, verdicts[i]);
		free(verdicts[i]);
	}
	if (dropped)
		fprintf(s->f, "(%zu more, shown above)\n", dropped);
	nverdicts = dropped = 0;
	snprintf(line, sizeof(line), "end of report: %s%s%s, exit status %d", status,
		 reason ? ": " : "", reason ? reason : "", exit_status);
	fprintf(s->f, "\n");
	put_wrapped(s->f, line);
}

const struct out_renderer out_report_renderer = {
	.run_begin = report_run_begin,
	.device = report_device,
	.param = report_param,
	.test_begin = report_test_begin,
	.row = report_row,
	.verdict = report_verdict,
	.note = report_note,
	.test_end = report_test_end,
	.run_end = report_run_end,
};
