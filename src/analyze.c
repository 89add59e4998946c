/*
 * --analyze FILE: the verdicts for output saved from this tool or from
 * the original flashbench. The file is cut into runs (an align table, an
 * open-au table) at command lines, script headers, "^C", and wherever a
 * table starts again from the top; each run is judged by the same code
 * as a live run, and the open-au runs of each mode together give the
 * open-AU bracket. Lines that fit nothing are counted, never guessed at.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modules.h"
#include "report.h"
#include "saved_output.h"
#include "verdict_align.h"
#include "verdict_openau.h"

enum { RUN_NONE, RUN_ALIGN, RUN_OPEN_AU };

struct an {
	/* the run being read */
	int kind;
	unsigned first_line;
	struct va_row rows[VA_MAX_ROWS];
	size_t nrows;
	struct oa_run agg, slowest;
	bool all_slowest, interrupted;
	/* what the last command line or header said */
	struct so_line ctx;
	/* totals */
	unsigned runs, used, skipped, line;
	struct oa_bracket br[2];	/* linear, random */
	bool br_used[2];
	struct oa_run base[2];		/* the first run of each mode with N known */
	unsigned base_nr[2];
};

static void start(struct an *a, int kind)
{
	a->kind = kind;
	a->first_line = a->line;
	a->nrows = 0;
	oa_init(&a->agg, a->ctx.erase);
	oa_init(&a->slowest, a->ctx.erase);
	a->all_slowest = true;
	a->interrupted = false;
}

static void finish_align(struct an *a)
{
	struct va_verdict v;
	size_t n3 = 0;

	for (size_t i = 0; i < a->nrows; i++)
		n3 += va_is_3x(a->rows[i].b);
	report_line("run %u (line %u): align, %zu rows%s%s", a->runs, a->first_line, a->nrows,
		    n3 ? ", with 3 x 2^n rows" : "", a->interrupted ? ", interrupted" : "");
	va_judge(a->rows, a->nrows, &v);
	va_print(&v);
}

static void finish_open_au(struct an *a)
{
	struct oa_run *r = a->all_slowest ? &a->slowest : &a->agg;
	struct oa_result res;
	bool random = a->ctx.random;
	char nr[32] = "erase blocks: not said";

	a->agg.complete = a->slowest.complete = !a->interrupted;
	if (a->all_slowest)
		oa_classify_pair(&a->agg, &a->slowest, &res);
	else
		oa_classify(r, &res);
	if (a->ctx.nr && a->base_nr[random])
		oa_against(&a->base[random], a->base_nr[random], r, &res);
	else if (a->ctx.nr) {
		a->base[random] = *r;
		a->base_nr[random] = a->ctx.nr;
	}
	if (a->ctx.nr)
		snprintf(nr, sizeof(nr), "%u erase block%s", a->ctx.nr, a->ctx.nr == 1 ? "" : "s");
	report_line("run %u (line %u): open-au, %s, %s, %zu lines%s", a->runs, a->first_line, nr,
		    random ? "random" : "linear", r->n, a->interrupted ? ", interrupted" : "");
	oa_result_print(a->ctx.nr, random, &res);
	if (a->ctx.nr) {
		oa_bracket_add(&a->br[random], a->ctx.nr, res.c);
		a->br_used[random] = true;
	}
}

static void finish(struct an *a)
{
	if (a->kind != RUN_NONE && (a->nrows || a->agg.n)) {
		a->runs++;
		if (a->kind == RUN_ALIGN)
			finish_align(a);
		else
			finish_open_au(a);
	}
	a->kind = RUN_NONE;
	a->nrows = 0;
	a->agg.n = 0;
}

static void on_align(struct an *a, const struct so_line *l)
{
	struct va_row r = { .b = l->boundary, .diff = l->diff, .pre = l->pre, .post = l->post };

	/* A table restarts from the top (the next of several runs). */
	if (a->kind == RUN_ALIGN && a->nrows && !va_is_3x(l->boundary) &&
	    !va_is_3x(a->rows[a->nrows - 1].b) && l->boundary >= a->rows[a->nrows - 1].b)
		finish(a);
	if (a->kind != RUN_ALIGN) {
		finish(a);
		start(a, RUN_ALIGN);
	}
	if (a->nrows < VA_MAX_ROWS)
		a->rows[a->nrows++] = r;
}

static void on_rate(struct an *a, const struct so_line *l)
{
	if (a->kind == RUN_OPEN_AU && a->agg.n && l->size >= a->agg.size[a->agg.n - 1]) {
		finish(a);
		a->ctx.nr = 0;	/* a new table without its command: N unknown */
	}
	if (a->kind != RUN_OPEN_AU) {
		finish(a);
		start(a, RUN_OPEN_AU);
	}
	oa_add(&a->agg, l->size, l->rate);
	if (l->slowest > 0)
		oa_add(&a->slowest, l->size, l->slowest);
	else
		a->all_slowest = false;
}

static void on_line(struct an *a, const char *text)
{
	struct so_line l;

	so_classify(text, &l);
	switch (l.kind) {
	case SO_BLANK:
		return;
	case SO_SKIP:
		a->skipped++;
		return;
	case SO_COMMAND:
		finish(a);
		a->ctx = l;
		break;
	case SO_INTERRUPT:
		a->interrupted = a->kind != RUN_NONE;
		break;
	case SO_ALIGN:
		on_align(a, &l);
		break;
	case SO_RATE:
		on_rate(a, &l);
		break;
	}
	a->used++;
}

int analyze_file(const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	struct an *a;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;

	if (!f) {
		fprintf(stderr, "flashbench: --analyze: cannot open '%s': %s\n", path, strerror(errno));
		return FB_EUSAGE;
	}
	a = calloc(1, sizeof(*a));
	if (!a) {
		fclose(f);
		return FB_EDEV;
	}
	oa_bracket_init(&a->br[0]);
	oa_bracket_init(&a->br[1]);
	while ((len = getline(&buf, &cap, f)) >= 0) {
		a->line++;
		buf[strcspn(buf, "\r\n")] = '\0';
		on_line(a, buf);
	}
	finish(a);
	for (int m = 0; m < 2; m++)
		if (a->br_used[m])
			oa_bracket_print(&a->br[m], m == 1, NULL);
	if (a->runs == 0)
		report_line("analyze: no align table or open-au run found in %s", path);
	report_line("analyze: %u of %u lines used, %u skipped", a->used, a->used + a->skipped, a->skipped);
	len = a->runs ? FB_OK : FB_EDEV;
	free(buf);
	free(a);
	if (f != stdin)
		fclose(f);
	return (int)len;
}

int analyze_main(const struct fb_opts *o, int nargs, char **args)
{
	int r;

	if (nargs > 0) {
		fprintf(stderr, "flashbench: --analyze=%s: takes no DEVICE, but got '%s'\n",
			o->analyze, args[0]);
		return FB_EUSAGE;
	}
	if (o->align || o->scatter || o->find_fat || o->open_au || o->interval || o->readahead ||
	    o->find_open_au || o->restore) {
		fprintf(stderr, "flashbench: --analyze=%s: reads saved output and runs no test\n",
			o->analyze);
		return FB_EUSAGE;
	}
	{
		const char *in[] = { o->analyze };
		char err[8448];

		if (report_check_out(o->out, in, 1, err, sizeof(err)) < 0) {
			fprintf(stderr, "flashbench: %s\n", err);
			return FB_EUSAGE;
		}
	}
	if (report_open(o->out) < 0) {
		fprintf(stderr, "flashbench: --out: cannot open '%s': %s\n", o->out, strerror(errno));
		return FB_EUSAGE;
	}
	r = analyze_file(o->analyze);
	if (report_close() < 0 && r == FB_OK)
		r = FB_EDEV;
	return r;
}
