/*
 * --compare: the checks that inputs match, the pairing of rows by key
 * and the summary verdict of a test (see compare.h). The records
 * themselves are written by compare_out.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/compare_judge.h"
#include "compare/compare_pair.h"
#include "core/opts.h"
#include "core/stats.h"
#include "core/units.h"

static int pair_order(const void *x, const void *y)
{
	const struct cp_pair *a = x, *b = y;

	return a->order < b->order ? -1 : a->order > b->order;
}

static int by_key(const void *x, const void *y)
{
	const struct ci_row *const *a = x, *const *b = y;

	return strcmp((*a)->key, (*b)->key);
}

/* b's rows sorted by key, so that a's find theirs in log n: n log n in all. */
static const struct ci_row **sorted_rows(const struct ci_table *b, size_t nb)
{
	const struct ci_row **s = malloc((nb + 1) * sizeof(*s));

	for (size_t j = 0; s && j < nb; j++)
		s[j] = &b->rows[j];
	if (s && nb)
		qsort(s, nb, sizeof(*s), by_key);
	return s;
}

size_t cp_pairs(const struct ci_table *a, const struct ci_table *b, struct cp_pair **out)
{
	size_t na = a ? a->nrows : 0, nb = b ? b->nrows : 0, n = 0;
	struct cp_pair *p = calloc(na + nb + 1, sizeof(*p));
	const struct ci_row **s = sorted_rows(b, nb);
	bool *paired = calloc(nb + 1, sizeof(*paired));

	*out = p;
	if (!p || !s || !paired) {
		free(s);
		free(paired);
		return 0;
	}
	for (size_t i = 0; i < na; i++) {
		const struct ci_row *key = &a->rows[i], **f = nb ? bsearch(&key, s, nb, sizeof(*s),
									   by_key) : NULL;

		p[n].a = key;
		p[n].order = key->order;
		if (f && !paired[*f - b->rows]) {
			p[n].b = *f;
			paired[*f - b->rows] = true;
		}
		n++;
	}
	for (size_t j = 0; j < nb; j++)
		if (!paired[j]) {
			p[n].b = &b->rows[j];
			p[n].order = b->rows[j].order + (a && a->kind->key_type == CK_TEXT ? 1e9 : 0);
			n++;
		}
	free(s);
	free(paired);
	for (size_t i = 0; i < n; i++)
		if (p[i].a && p[i].b) {
			cj_judge(p[i].a->v, p[i].a->n, p[i].b->v, p[i].b->n, &p[i].j);
			cj_digits(&p[i].j, p[i].a->step, p[i].b->step);
		}
	if ((a ? a->kind : b->kind)->key_type != CK_TEXT)
		qsort(p, n, sizeof(*p), pair_order);
	return n;
}

/* ---- the summary of a test ---- */

/* "slower" or "faster" (or "lower", "higher" where neither is better). */
static const char *direction(const struct ci_kind *k, double change)
{
	if (k->better == 0)
		return change < 0 ? "lower" : "higher";
	return (change < 0) == (k->better > 0) ? "slower" : "faster";
}

struct tally {
	unsigned paired, told, sig, up, down, few_a, few_b;
	double change[CI_MAX_RUNS * 64];
	size_t nchange;
	unsigned needed[256];
	size_t nneeded;
	const struct cp_pair *first, *last;
};

static void count(const struct cp_pair *p, size_t n, struct tally *t)
{
	memset(t, 0, sizeof(*t));
	t->few_a = t->few_b = CI_MAX_RUNS;
	for (size_t i = 0; i < n; i++) {
		const struct cj_row *j = &p[i].j;

		if (!p[i].a || !p[i].b)
			continue;
		t->paired++;
		t->few_a = j->na < t->few_a ? (unsigned)j->na : t->few_a;
		t->few_b = j->nb < t->few_b ? (unsigned)j->nb : t->few_b;
		if (j->result == CJ_CANNOT_TELL) {
			if (j->runs_needed >= CJ_MIN_RUNS && j->runs_needed <= CJ_MAX_ESTIMATE &&
			    t->nneeded < 256)
				t->needed[t->nneeded++] = j->runs_needed;
			continue;
		}
		t->told++;
		if (j->result != CJ_SIGNIFICANT || !isfinite(j->change_pct))
			continue;
		t->sig++;
		t->up += j->change_pct > 0;
		t->down += j->change_pct < 0;
		if (t->nchange < sizeof(t->change) / sizeof(t->change[0]))
			t->change[t->nchange++] = fabs(j->change_pct);
		if (!t->first)
			t->first = &p[i];
		t->last = &p[i];
	}
}

/* Nothing could be judged: what to run instead. */
static const char *cannot_tell(const struct ci_kind *k, const struct tally *t, bool from_text,
			       char *text, size_t len)
{
	char runs[64];
	double need[256];
	unsigned rerun = 5;

	if (t->few_a == 1 && t->few_b == 1)
		snprintf(runs, sizeof(runs), "one run each");
	else if (t->few_a == t->few_b)
		snprintf(runs, sizeof(runs), "%u runs each", t->few_a);
	else
		snprintf(runs, sizeof(runs), "%u run%s in A, %u in the other", t->few_a,
			 t->few_a == 1 ? "" : "s", t->few_b);
	for (size_t i = 0; i < t->nneeded; i++)
		need[i] = t->needed[i];
	if (t->nneeded)
		rerun = (unsigned)ceil(stats_median(need, t->nneeded));
	rerun = rerun < 5 ? 5 : rerun > FB_MAX_RUNS ? FB_MAX_RUNS : rerun;
	if (k->has_runs && from_text && k->text_median)
		snprintf(text, len, "cannot tell: %s -- %s's text keeps one value a row (the median "
			 "of its runs): rerun with --runs=%u --format=csv (or json), which keep every run",
			 runs, k->option, rerun);
	else if (k->has_runs)
		snprintf(text, len, "cannot tell: %s -- rerun with --runs=%u", runs, rerun);
	else
		snprintf(text, len, "cannot tell: %s -- %s takes no --runs: save %u runs of it in "
			 "each file (text or CSV one after another: a row repeated is another run)", runs,
			 k->option, rerun);
	return "cannot_tell";
}

const char *compare_summary_pairs(const struct ci_kind *k, const struct cp_pair *p, size_t n,
				  char name, bool from_text, char *text, size_t len)
{
	struct tally *t = malloc(sizeof(*t));
	const char *result;
	char few[64] = "";
	unsigned need;

	if (!t) {
		snprintf(text, len, "cannot tell: out of memory");
		return "cannot_tell";
	}
	count(p, n, t);
	if (t->told && t->told < t->paired)
		snprintf(few, sizeof(few), "; %u with too few runs", t->paired - t->told);
	need = t->told ? cj_rows_needed(t->told) : 0;
	if (!t->paired) {
		snprintf(text, len, "cannot tell: no row in common");
		result = "cannot_tell";
	} else if (!t->told) {
		result = cannot_tell(k, t, from_text, text, len);
	} else if (t->sig < need) {
		snprintf(text, len, "no real difference (%u of %u rows significant%s%s)", t->sig,
			 t->told, t->sig ? ", as many as chance gives" : "", few);
		result = "no_difference";
	} else if (t->up && t->down) {
		snprintf(text, len, "%c differs: %s in %u rows, %s in %u (%u of %u rows significant%s)",
			 name, direction(k, 1), t->up, direction(k, -1), t->down, t->sig, t->told, few);
		result = "mixed";
	} else {
		char range[128];

		const char *what = k->key_type == CK_COUNT ? "depth " : "";

		if (t->first == t->last)
			snprintf(range, sizeof(range), "at %s%s", what, t->first->a->key);
		else
			snprintf(range, sizeof(range), "from %s%s to %s", what, t->first->a->key,
				 t->last->a->key);
		snprintf(text, len, "%c is %.1f%% %s %s (%u of %u rows significant%s)", name,
			 stats_median(t->change, t->nchange), direction(k, t->up ? 1 : -1), range,
			 t->sig, t->told, few);
		result = "different";
	}
	free(t);
	return result;
}

const char *compare_summary(const struct ci_table *a, const struct ci_table *b, char name,
			    char *text, size_t len)
{
	struct cp_pair *p;
	size_t n = cp_pairs(a, b, &p);
	const char *r = compare_summary_pairs(a->kind, p, n, name, false, text, len);

	free(p);
	return r;
}

/* ---- inputs that cannot be compared ---- */

static char *size_text(char *buf, size_t len, uint64_t v)
{
	return fmt_size(buf, len, v);
}

/*
 * What a test measures, beyond its sizes: reads or writes, linear or
 * random, the open AUs of -O. Runs that differ in it are different
 * experiments, whatever their rows look like.
 */
static int check_experiment(const struct ci_input *a, const struct ci_input *b, char name,
			    char *err, size_t len)
{
	const char *what = NULL, *sa = "", *sb = "";
	char na[24], nb[24];

	if (a->write && b->write && a->write != b->write)
		what = "--write", sa = a->write == CI_YES ? "with it" : "without",
		sb = b->write == CI_YES ? "with --write" : "without --write";
	else if (a->random && b->random && a->random != b->random)
		what = "--random", sa = a->random == CI_YES ? "random" : "linear",
		sb = b->random == CI_YES ? "with --random" : "without --random (linear)";
	else if (a->open_au_nr && b->open_au_nr && a->open_au_nr != b->open_au_nr) {
		snprintf(na, sizeof(na), "with %u", a->open_au_nr);
		snprintf(nb, sizeof(nb), "with --open-au-nr=%u", b->open_au_nr);
		what = "--open-au-nr", sa = na, sb = nb;
	}
	if (!what && a->log_interval && b->log_interval && a->log_interval != b->log_interval) {
		fmt_time(na, sizeof(na), a->log_interval);
		fmt_time(nb, sizeof(nb), b->log_interval);
		snprintf(err, len, "--compare: %c (%s) was run with --log-interval=%s, A (%s) with %s: "
			 "rows of different intervals (--log-interval)", name, b->path, nb, a->path, na);
		return FB_EUSAGE;
	}
	if (!what)
		return FB_OK;
	snprintf(err, len, "--compare: %c (%s) was run %s, A (%s) %s: different experiments (%s)",
		 name, b->path, sb, a->path, sa, what);
	return FB_EUSAGE;
}

static int check_one(const struct ci_input *a, const struct ci_input *b, char name, char *err,
		     size_t len)
{
	char va[64], vb[64];
	bool common = false, bs = false, es = false;
	int r;

	for (size_t i = 0; i < b->ntables; i++) {
		const struct ci_kind *k = b->tables[i].kind;

		if (!ci_table_of(a, k))
			continue;
		common = true;
		bs = bs || k->uses_blocksize;
		es = es || k->uses_erasesize;
	}
	if (!common) {
		snprintf(err, len, "--compare: %c (%s) holds %s, A (%s) %s: different tests", name,
			 b->path, b->ntables ? b->tables[0].kind->option : "no rows of a test",
			 a->path, a->ntables ? a->tables[0].kind->option : "no rows of a test");
		return FB_EUSAGE;
	}
	if (a->dev_size && b->dev_size && a->dev_size != b->dev_size) {
		snprintf(err, len, "--compare: %c (%s) is of a device of %s, A (%s) of %s: "
			 "different devices", name, b->path, size_text(vb, sizeof(vb), b->dev_size),
			 a->path, size_text(va, sizeof(va), a->dev_size));
		return FB_EUSAGE;
	}
	if (bs && a->blocksize && b->blocksize && a->blocksize != b->blocksize) {
		snprintf(err, len, "--compare: %c (%s) was run with --blocksize=%s, A (%s) with %s: "
			 "different block sizes", name, b->path,
			 size_text(vb, sizeof(vb), b->blocksize), a->path,
			 size_text(va, sizeof(va), a->blocksize));
		return FB_EUSAGE;
	}
	if ((r = check_experiment(a, b, name, err, len)) != FB_OK)
		return r;
	if (es && a->erasesize && b->erasesize && a->erasesize != b->erasesize) {
		snprintf(err, len, "--compare: %c (%s) was run with --erasesize=%s, A (%s) with %s: "
			 "different erase sizes", name, b->path,
			 size_text(vb, sizeof(vb), b->erasesize), a->path,
			 size_text(va, sizeof(va), a->erasesize));
		return FB_EUSAGE;
	}
	return FB_OK;
}

int compare_check(const struct ci_input *in, size_t n, char *err, size_t len)
{
	int r;

	if (!in[0].ntables) {
		snprintf(err, len, "--compare: A (%s) holds no rows of a test that can be compared "
			 "(%s)", in[0].path, in[0].ignored[0] ? in[0].ignored
			 : in[0].rows_ignored ? "find-fat or find-open-au rows only" : "none found");
		return FB_EUSAGE;
	}
	for (size_t i = 1; i < n; i++)
		if ((r = check_one(&in[0], &in[i], (char)('A' + i), err, len)) != FB_OK)
			return r;
	return FB_OK;
}
