/*
 * --analyze FILE: the verdicts for output saved from this tool or from
 * the original flashbench. The file is cut into runs (an align table, an
 * open-au table, a find-fat table) at command lines, script headers,
 * "^C", and wherever a table starts again from the top; each run is
 * judged by the same code as a live run, and the open-au runs of each
 * mode together give the open-AU bracket. Lines that fit nothing are
 * counted and named, never guessed at.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "saved/saved_input.h"
#include "core/out.h"
#include "core/opts.h"
#include "analyze/analyze.h"
#include "analyze/analyze_card.h"
#include "analyze/analyze_lines.h"
#include "analyze/analyze_readahead.h"
#include "verdicts/facts.h"
#include "saved/saved_output.h"
#include "core/units.h"
#include "verdicts/verdict_align.h"
#include "verdicts/verdict_findfat.h"
#include "verdicts/verdict_oafamily.h"
#include "verdicts/verdict_openau.h"
#include "verdicts/verdict_sweep.h"

enum { RUN_NONE, RUN_ALIGN, RUN_OPEN_AU, RUN_FIND_FAT, RUN_READAHEAD };

/* The original's default --blocksize, and ours. */
#define AN_DEFAULT_BS 16384
#define AN_NOTES 4

struct an {
	struct ac_state card;	/* a survey's card (analyze_card.h) */
	/* the run being read */
	int kind;
	unsigned long long first_line;
	struct va_row rows[VA_MAX_ROWS];
	size_t nrows;
	struct oa_run agg, slowest;
	bool all_slowest;
	struct oa_run *cols;		/* find-fat: one per erase block */
	struct an_ra ra;		/* readahead */
	size_t ncol;
	bool interrupted, stopped;
	bool by_signal;		/* interrupted in a live run of this tool */
	char notes[AN_NOTES][320];	/* rows restored or left out */
	unsigned nnotes, restored, left_out;
	/* what the last command line or header said, and our verdict line */
	struct so_line ctx, said;
	/* the line being read */
	unsigned long long line;
	bool line_used, line_skipped, line_cmd, line_rows;
	enum al_why line_why;
	char shell[96];		/* the shell's message that ended the run */
	/* totals */
	unsigned runs;
	struct an_lines lines;
	unsigned long long pending;	/* a command line no table has followed yet */
	uint64_t erase[2];		/* the first two --erasesize values of open-au runs */
	unsigned erase_run[2];
	struct oa_family fam[2];	/* linear, random: the runs with their N */
	unsigned br_runs[2];
	bool br_probe[2];
	struct oa_run base[2];		/* the first run of each mode with N known */
	unsigned base_nr[2];
};

static void note(struct an *a, const char *what, const char *text)
{
	if (a->nnotes < AN_NOTES)
		snprintf(a->notes[a->nnotes++], sizeof(a->notes[0]), "line %llu: %.160s%.120s",
			 a->line, what, text);
}

static void start(struct an *a, int kind)
{
	a->kind = kind;
	a->first_line = a->line;
	a->nrows = 0;
	oa_init(&a->agg, a->ctx.erase);
	oa_init(&a->slowest, a->ctx.erase);
	a->all_slowest = true;
	a->interrupted = a->stopped = a->by_signal = false;
	a->shell[0] = '\0';
	a->nnotes = a->restored = a->left_out = 0;
	memset(&a->said, 0, sizeof(a->said));
}

static void print_notes(const struct an *a)
{
	for (unsigned i = 0; i < a->nnotes; i++)
		out_note("analyze: %s", a->notes[i]);
	if (a->restored + a->left_out > a->nnotes)
		out_note("analyze: %u more rows restored or left out",
			 a->restored + a->left_out - a->nnotes);
}

/*
 * The block size the run should end at: as its command line says, or
 * the default. Not checked (0) for our own output without a command line
 * (our verdict line follows a run that measured every size it could),
 * nor for the probes of --find-open-au.
 */
static uint64_t expected_bs(const struct an *a)
{
	if (a->ctx.is_probe)
		return 0;
	if (a->ctx.blocksize)
		return a->ctx.blocksize;
	return a->ctx.is_flashbench || a->said.kind != SO_VERDICT ? AN_DEFAULT_BS : 0;
}

/* Ends above the block size it should reach: the rest was cut off. */
static bool cut_off(const struct an *a, const struct oa_run *r)
{
	uint64_t bs = expected_bs(a);

	return bs && r->n && r->size[r->n - 1] >= 2 * bs;
}

/* Did the run reach the smallest block size? Not after ^C or "stopped:". */
static bool complete(const struct an *a, const struct oa_run *r)
{
	return !a->interrupted && !a->stopped && r->n && !cut_off(a, r);
}

/* ", interrupted", ", stopped early", ", cut off (...)" */
static void run_tail(const struct an *a, const struct oa_run *r, char *buf, size_t len)
{
	char e[FB_FMT_LEN], b[FB_FMT_LEN];

	snprintf(buf, len, "%s%s%s%s%s", a->interrupted ? ", interrupted" : "",
		 a->interrupted && a->shell[0] ? " (the shell: " : "",
		 a->interrupted ? a->shell : "", a->interrupted && a->shell[0] ? ")" : "",
		 a->stopped ? ", stopped early" : "");
	if (r && !a->interrupted && !a->stopped && cut_off(a, r))
		snprintf(buf, len, ", cut off? (ends at %s; %s %s)",
			 fmt_size(e, sizeof(e), r->size[r->n - 1]),
			 a->ctx.blocksize ? "its command line says --blocksize" :
					    "no --blocksize said, the default is",
			 fmt_size(b, sizeof(b), expected_bs(a)));
}

/* Does the command (or our verdict line) say linear or random? */
static bool mode_said(const struct an *a)
{
	const struct so_line *c = &a->ctx;

	return c->is_flashbench || c->random || c->linear || c->is_probe || a->said.random ||
	       a->said.linear;
}

/* Linear or random: as the command said, else as our verdict line said;
 * linear (the original's default) when neither says. */
static bool random_mode(const struct an *a)
{
	const struct so_line *c = &a->ctx;

	if (c->is_flashbench || c->random || c->linear || c->is_probe)
		return c->random;
	return a->said.random;
}

static void finish_align(struct an *a)
{
	struct va_verdict v;
	size_t n3 = 0;
	char tail[64];

	for (size_t i = 0; i < a->nrows; i++)
		n3 += va_is_3x(a->rows[i].b);
	run_tail(a, NULL, tail, sizeof(tail));
	out_note("run %u (line %llu): align, %zu row%s%s%s", a->runs, a->first_line, a->nrows,
		 a->nrows == 1 ? "" : "s", n3 ? ", with 3 x 2^n rows" : "", tail);
	print_notes(a);
	/* A live -a stopped by a signal judges nothing (the rows below are
	 * missing); its saved output is judged alike. A pasted "^C" is read. */
	if (a->by_signal) {
		out_note("analyze: no verdict on an align table a signal stopped, as the live run");
		return;
	}
	va_judge(a->rows, a->nrows, &v);
	va_print(&v);
}

static void finish_open_au(struct an *a)
{
	struct oa_run *r = a->all_slowest ? &a->slowest : &a->agg;
	struct oa_result res;
	bool random = random_mode(a);
	unsigned nr = a->ctx.nr ? a->ctx.nr : a->said.nr;
	char n[32] = "erase blocks: not said", tail[160];

	a->agg.complete = a->slowest.complete = complete(a, r);
	/* A search probe is judged as the search judges it; a plain run may be too short. */
	if (a->all_slowest)
		oa_classify_pair(&a->agg, &a->slowest, &res);
	else
		vs_open_au(r, &res);
	/* Against one erase block as --find-open-au judges a probe: the slowest
	 * erase block in random order, all of them (less noisy) in linear. */
	const struct oa_run *cmp = a->all_slowest && !random ? &a->agg : r;

	if (nr && a->base_nr[random])
		oa_against(&a->base[random], a->base_nr[random], cmp, &res);
	else if (nr) {
		a->base[random] = *cmp;
		a->base_nr[random] = nr;
	}
	if (nr)
		snprintf(n, sizeof(n), "%u erase block%s", nr, nr == 1 ? "" : "s");
	for (int k = 0; k < 2 && a->ctx.erase; k++)
		if (!a->erase[k] || a->erase[k] == a->ctx.erase) {
			a->erase_run[k] = a->erase[k] ? a->erase_run[k] : a->runs;
			a->erase[k] = a->ctx.erase;
			break;
		}
	run_tail(a, r, tail, sizeof(tail));
	out_note("run %u (line %llu): open-au, %s, %s, %zu line%s%s", a->runs, a->first_line, n,
		 !mode_said(a) ? "mode not said (read as linear)" : random ? "random" : "linear",
		 r->n, r->n == 1 ? "" : "s", tail);
	oa_result_print(nr, random, &res);
	/* (a plain run too short to judge alone says nothing in a family either;
	 * a search's probes are judged together as the search judges them) */
	if (nr && (a->ctx.is_probe || a->all_slowest || r->n >= VS_MIN_LINES)) {
		oaf_add(&a->fam[random], nr, random ? r : &a->agg);	/* as --find-open-au */
		a->br_runs[random]++;
		a->br_probe[random] = a->br_probe[random] || a->ctx.is_probe;
	}
}

static void finish_find_fat(struct an *a)
{
	struct ff_result res;
	char tail[160];
	size_t lines = a->ncol ? a->cols[0].n : 0;

	for (size_t i = 0; i < a->ncol; i++)
		a->cols[i].complete = complete(a, &a->cols[0]);
	run_tail(a, a->ncol ? &a->cols[0] : NULL, tail, sizeof(tail));
	out_note("run %u (line %llu): find-fat, %zu erase block%s, %s, %zu line%s%s", a->runs,
		 a->first_line, a->ncol, a->ncol == 1 ? "" : "s",
		 !mode_said(a) ? "mode not said (read as linear)" : random_mode(a) ? "random" : "linear",
		 lines, lines == 1 ? "" : "s", tail);
	print_notes(a);
	ff_judge(a->cols, a->ncol, random_mode(a), &res);
	ff_print(&res);
}

/* A one-column table that our own find-fat verdict line follows. */
static void open_au_as_find_fat(struct an *a)
{
	free(a->cols);
	a->cols = malloc(sizeof(*a->cols));
	if (!a->cols) {
		a->ncol = 0;
		return;
	}
	a->cols[0] = a->agg;
	a->ncol = 1;
	a->kind = RUN_FIND_FAT;
}

static void finish(struct an *a)
{
	if (a->kind == RUN_OPEN_AU && a->said.is_find_fat && !a->ctx.is_open_au)
		open_au_as_find_fat(a);
	if (a->kind != RUN_NONE && (a->nrows || a->agg.n || (a->ncol && a->cols[0].n) ||
				    (a->kind == RUN_READAHEAD && a->ra.t.n))) {
		a->runs++;
		if (a->kind == RUN_ALIGN)
			finish_align(a);
		else if (a->kind == RUN_READAHEAD)
			/* Our direct sweep sizes requests; the others a readahead window. */
			anr_finish(&a->ra, a->runs, !a->ctx.is_readahead || a->ctx.buffered);
		else if (a->kind == RUN_OPEN_AU)
			finish_open_au(a);
		else
			finish_find_fat(a);
	}
	a->kind = RUN_NONE;
	a->nrows = 0;
	a->agg.n = 0;
	free(a->cols);
	a->cols = NULL;
	a->ncol = 0;
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
	if (l->check == SO_INCONSISTENT) {
		a->left_out++;
		a->line_skipped = true;
		a->line_why = AL_ROW;
		note(a, "left out: ", l->note);
		return;
	}
	if (l->check == SO_RESTORED) {
		a->restored++;
		note(a, l->note, ": only that agrees with on - (pre + post) / 2");
	}
	if (a->nrows < VA_MAX_ROWS)
		a->rows[a->nrows++] = r;
}

/* The size of the last line of the current rate table (0: none). */
static uint64_t last_size(const struct an *a)
{
	if (a->kind == RUN_OPEN_AU && a->agg.n)
		return a->agg.size[a->agg.n - 1];
	if (a->kind == RUN_FIND_FAT && a->ncol && a->cols[0].n)
		return a->cols[0].size[a->cols[0].n - 1];
	return 0;
}

static int start_find_fat(struct an *a, size_t ncol)
{
	start(a, RUN_FIND_FAT);
	a->cols = calloc(ncol, sizeof(*a->cols));
	if (!a->cols)
		return -1;
	a->ncol = ncol;
	for (size_t i = 0; i < ncol; i++)
		oa_init(&a->cols[i], a->ctx.erase);
	return 0;
}

/* Continue the current rate table, or end it and start one of kind. */
static int rate_run(struct an *a, const struct so_line *l, int kind)
{
	uint64_t last = last_size(a);

	if (a->kind == kind && last && l->size < last) {
		if (kind == RUN_FIND_FAT && l->nrates != a->ncol) {
			note(a, "left out: ", "a row with another number of columns than the table");
			a->left_out++;
			a->line_skipped = true;
			a->line_why = AL_ROW;
			return -1;
		}
		return 0;
	}
	if (a->kind == kind && last) {
		finish(a);
		a->ctx.nr = 0;	/* a new table without its command: N unknown */
	}
	finish(a);
	if (kind == RUN_FIND_FAT)
		return start_find_fat(a, l->nrates);
	start(a, kind);
	return 0;
}

static void on_rate(struct an *a, const struct so_line *l)
{
	bool fat = l->nrates > 1 || (a->ctx.is_find_fat && !a->ctx.is_open_au && !l->slowest);

	if (rate_run(a, l, fat ? RUN_FIND_FAT : RUN_OPEN_AU) < 0)
		return;
	if (fat) {
		for (size_t i = 0; i < a->ncol; i++)
			oa_add(&a->cols[i], l->size, l->rates[i]);
		return;
	}
	oa_add(&a->agg, l->size, l->rate);
	if (l->slowest > 0)
		oa_add(&a->slowest, l->size, l->slowest);
	else
		a->all_slowest = false;
}

/* A readahead table's header: a table starts (its runs said). */
static void on_ra_header(struct an *a, const struct so_line *l)
{
	finish(a);
	start(a, RUN_READAHEAD);
	anr_start(&a->ra, l->runs, a->line);
}

/* A row of a readahead table; false when the line is not one. */
static bool on_ra_row(struct an *a, const struct so_line *l)
{
	int r = 0;

	/* Numbers without a unit are a readahead row only inside its table. */
	if (l->bare && a->kind != RUN_READAHEAD && !a->ctx.is_readahead)
		return false;
	if (a->kind == RUN_READAHEAD && (r = anr_row(&a->ra, l, a->line)) == 0)
		return true;
	if (r == -1) {
		note(a, "left out: ", "a row with another number of runs than the table");
		return false;
	}
	/* A new table: from the top again, or after another kind of run. */
	r = a->kind == RUN_READAHEAD ? (int)a->ra.header_runs : 0;
	finish(a);
	start(a, RUN_READAHEAD);
	anr_start(&a->ra, (unsigned)r, 0);
	if (anr_row(&a->ra, l, a->line) < 0) {
		note(a, "left out: ", "a row with another number of runs than the table");
		return false;
	}
	return true;
}

static void on_record(void *ctx, const struct so_line *l)
{
	struct an *a = ctx;

	switch (l->kind) {
	case SO_BLANK:
		return;
	case SO_SKIP:
		a->line_skipped = true;
		if (l->note[0]) {
			a->line_why = AL_VALUE;
			out_note("analyze: line %llu skipped, not judged: %s", a->line, l->note);
		}
		return;
	case SO_COMMAND:
		finish(a);
		a->ctx = *l;
		if (l->is_flashbench) {
			if (a->pending)
				al_skip(&a->lines, a->pending, AL_COMMAND);
			a->pending = 0;
			a->line_cmd = true;
		}
		break;
	case SO_INTERRUPT:
		if (a->kind != RUN_NONE && l->note[0])
			snprintf(a->shell, sizeof(a->shell), "%.90s", l->note);
		a->interrupted = a->kind != RUN_NONE;
		a->by_signal = a->interrupted && l->is_flashbench;
		break;
	case SO_STOPPED:
		a->stopped = a->kind != RUN_NONE;
		break;
	case SO_VERDICT:
		/* Ours, after the run it judges: the parameters it names. */
		if (a->kind != RUN_NONE)
			a->said = *l;
		break;
	case SO_OURS:
		break;
	case SO_ALIGN:
		on_align(a, l);
		a->line_rows = true;
		break;
	case SO_RATE:
		on_rate(a, l);
		a->line_rows = true;
		break;
	case SO_RA_HEADER:
		on_ra_header(a, l);
		break;
	case SO_RA_ROW:
		if (!on_ra_row(a, l)) {
			a->line_skipped = true;
			a->line_why = l->bare ? AL_TEXT : AL_ROW;
			return;
		}
		a->line_rows = true;
		break;
	}
	/* A table follows the command line waiting for one. */
	if (a->line_rows && a->pending) {
		al_used(&a->lines);
		a->pending = 0;
	}
	a->line_used = true;
}

static void on_line(struct an *a, const struct ai_input *in)
{
	a->line = in->line;
	a->line_used = a->line_skipped = a->line_cmd = a->line_rows = false;
	a->line_why = AL_TEXT;
	if (in->cut || in->nul) {
		a->line_skipped = true;	/* not a line of saved output */
		a->line_why = AL_NOT_TEXT;
	} else {
		so_scan(in->buf, on_record, a);
		ac_line(&a->card, in->buf);
	}
	if (a->line_skipped)
		al_skip(&a->lines, a->line, a->line_why);
	else if (a->line_cmd && !a->line_rows)
		a->pending = a->line;	/* used if a table follows it */
	else if (a->line_used)
		al_used(&a->lines);
}

/* Open-AU runs of one card measured with two erase sizes do not compare
 * (a judged family says so itself, with its modes: oaf_note_modes). */
static void erase_sizes(const struct an *a, bool judged)
{
	char x[FB_FMT_LEN], y[FB_FMT_LEN];

	if (a->erase[1] && !judged)
		out_note("analyze: the runs used two different --erasesize values: %s (from run %u) "
			 "and %s (from run %u)", fmt_size(x, sizeof(x), a->erase[0]), a->erase_run[0],
			 fmt_size(y, sizeof(y), a->erase[1]), a->erase_run[1]);
}

static void conclude(struct an *a, const struct ai_input *in)
{
	bool judged = false;

	finish(a);
	/* A bracket needs several runs, or a search that prints one itself. */
	for (int m = 0; m < 2; m++)
		if (a->br_runs[m] >= 2 || (a->br_runs[m] && a->br_probe[m])) {
			struct oaf_verdict v;

			judged = true;
			oaf_judge(&a->fam[m], &v);
			oaf_print(&v, m == 1);
		}
	oaf_note_modes(&a->fam[0], &a->fam[1]);
	ac_end(&a->card);
	if (in->stop[0])
		out_note("analyze: stopped reading at line %llu: %s; this is not saved output",
			 in->line, in->stop);
	erase_sizes(a, judged);
	if (a->runs == 0)
		out_note("analyze: no align, open-au, find-fat or readahead table found in %s",
			 in->path);
	if (a->pending)
		al_skip(&a->lines, a->pending, AL_COMMAND);
	al_summary(&a->lines);
}

/* Read it all and print the verdicts. FB_OK; FB_EUSAGE: no run; FB_EDEV: a read
 * error; FB_EINTR: a signal. */
int analyze_input(struct ai_input *in)
{
	struct an *a = calloc(1, sizeof(*a));
	int r;

	if (!a)
		return FB_EDEV;
	vf_reset();	/* the verdicts of this input only (--advise reads them) */
	ac_reset(&a->card);
	oaf_init(&a->fam[0]);
	oaf_init(&a->fam[1]);
	a->fam[1].random = true;
	while (ai_next(in) > 0)
		on_line(a, in);
	if (in->stop[0])
		al_skip(&a->lines, in->line, AL_NOT_TEXT);	/* the line that made it stop */
	conclude(a, in);
	/* Exit codes as in every mode: a read error 1, nothing usable 2 (as
	 * --compare refuses such an input), a signal 130. */
	r = in->interrupted ? FB_EINTR : in->err ? FB_EDEV : a->runs ? FB_OK : FB_EUSAGE;
	if (in->interrupted)
		out_note("interrupted by signal %d: the lines above are all that was read",
			 in->interrupted);
	if (in->err)
		fprintf(stderr, "flashbench: --analyze: reading '%s' at line %llu: %s\n", in->path,
			in->line, strerror(in->err));
	finish(a);
	free(a);
	return r;
}

int analyze_file(const char *path)
{
	struct ai_input *in = NULL;
	char err[4200];
	int r;

	if (ai_open(&in, path, err, sizeof(err)) != FB_OK) {
		fprintf(stderr, "flashbench: %s\n", err);
		return FB_EUSAGE;
	}
	r = analyze_input(in);
	ai_close(in);
	return r;
}
