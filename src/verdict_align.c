/*
 * The align verdict: see verdict_align.h.
 *
 * The model behind it: a read that straddles a page boundary costs a
 * little extra, one that straddles an erase-block boundary more. So in
 * each family of boundaries (2^n, 3 x 2^n), sorted upwards, the diff
 * sits on a floor, rises at the page size, and rises again at the
 * erase-block size, and stays up above it. Every row is an average over
 * several positions that are all odd multiples of the boundary, so a
 * boundary that the erase size divides is fully raised, and a boundary
 * of the other family (4 MiB on a 3 MiB card) at most partly: some of
 * its positions are erase boundaries, others are not. That is how the
 * two families tell a 1 MiB card from a 3 MiB one: both rise at 1 MiB
 * and at 3 MiB, but only on the 1 MiB card are the power-of-two rows
 * fully raised.
 *
 * Whether a rise is a step is decided in verdict_step.c, against the
 * noise of the table itself. Every decision keeps a margin and says
 * "uncertain" inside it, naming the sizes that compete: a wrong erase
 * size is worse than none.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "stats.h"
#include "units.h"
#include "verdict_align.h"
#include "verdict_align_text.h"
#include "verdict_step.h"

/* Erase blocks are looked for from here up. */
#define VA_ERASE_MIN (128 * 1024)
/* An erase step needs this many rows from it up (the top rows are the noisiest). */
#define VA_MIN_ABOVE 3
/* More than one row in this many left out: no erase size. */
#define VA_MAX_LEFT_OUT 4
/* A second rise above the erase step competes with it when it is at least this part of it. */
#define VA_SECOND 0.25
/* Partly raised rows of the other family: full above this fraction, partial below the next. */
#define VA_FULL 0.8
#define VA_PARTIAL 0.6
/* A plain read this far from its column's median (and this many spreads) is far off. */
#define VA_READ_OFF 0.4
#define VA_READ_SPREADS 6.0

bool va_is_3x(uint64_t b)
{
	return b >= 3 && b % 3 == 0 && ((b / 3) & (b / 3 - 1)) == 0;
}

static bool is_pow2(uint64_t b)
{
	return b && (b & (b - 1)) == 0;
}

/* Median and robust spread of the pre (post) column, rows with a time only. */
static void column(const struct va_row *rows, size_t n, bool post, double *med, double *sd)
{
	double v[VA_MAX_ROWS], dev[VA_MAX_ROWS];
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if ((post ? rows[i].post : rows[i].pre) > 0)
			v[m++] = post ? rows[i].post : rows[i].pre;
	*med = m ? stats_median(v, m) : 0;
	for (size_t i = 0; i < m; i++)
		dev[i] = fabs(v[i] - *med);
	*sd = m ? 1.4826 * stats_median(dev, m) : 0;
}

static bool far_off(double t, double med, double sd)
{
	return t > 0 && med > 0 && fabs(t - med) > fmax(VA_READ_OFF * med, VA_READ_SPREADS * sd);
}

/*
 * The rows that can be used: a row whose plain read is far off its
 * column (a read hit by something else) says nothing about boundaries.
 * Each column is judged on its own, because reads after a boundary are
 * on some cards steadily slower than the ones before it.
 */
static void read_rows(const struct va_row *rows, size_t n, struct vs_fam *p2, struct vs_fam *p3,
		      struct va_verdict *v)
{
	double mpre, spre, mpost, spost, all[2 * VA_MAX_ROWS];
	size_t m = 0;

	column(rows, n, false, &mpre, &spre);
	column(rows, n, true, &mpost, &spost);
	for (size_t i = 0; i < n; i++) {
		if (rows[i].pre > 0)
			all[m++] = rows[i].pre;
		if (rows[i].post > 0)
			all[m++] = rows[i].post;
	}
	v->plain = m ? stats_median(all, m) : 0;
	for (size_t i = 0; i < n; i++) {
		if (far_off(rows[i].pre, mpre, spre) || far_off(rows[i].post, mpost, spost)) {
			if (v->outliers < VA_LEFT_SHOWN)
				v->left[v->outliers] = rows[i].b;
			v->outliers++;
			continue;
		}
		if (is_pow2(rows[i].b))
			vs_add(p2, rows[i].b, rows[i].diff);
		else if (va_is_3x(rows[i].b))
			vs_add(p3, rows[i].b, rows[i].diff);
	}
}

/* The most negative diff of both families (as a positive number), or 0. */
static double most_negative(const struct vs_fam *p2, const struct vs_fam *p3)
{
	double neg = 0;

	for (size_t i = 0; i < p2->n; i++)
		neg = fmax(neg, -p2->d[i]);
	for (size_t i = 0; i < p3->n; i++)
		neg = fmax(neg, -p3->d[i]);
	return neg;
}

/* Noise, then single spikes and dips left out, then the noise of what is left. */
static void settle(struct vs_fam *f, double neg, struct va_verdict *v)
{
	unsigned room = v->outliers < VA_LEFT_SHOWN ? VA_LEFT_SHOWN - v->outliers : 0;

	vs_noise(f, neg);
	v->outliers += vs_despike(f, v->left + (VA_LEFT_SHOWN - room), room);
	vs_noise(f, neg);
}

/* The erase rise of one family from row lo up, and a competing one above it. */
static void erase_rise(const struct vs_fam *f, size_t lo, struct rise *r)
{
	memset(r, 0, sizeof(*r));
	r->found = vs_first_rise(f, lo, VA_ERASE_MIN, VA_MIN_ABOVE, &r->s);
	/* (A level that creeps up by a few percent near the top is no second erase block.) */
	if (r->found && r->s.flaw == VS_CLEAN && r->s.k + 1 < f->n)
		r->second = vs_first_rise(f, r->s.k, f->b[r->s.k + 1], VA_MIN_ABOVE, &r->s2) &&
			    r->s2.up - r->s2.down >= VA_SECOND * (r->s.up - r->s.down);
}

static bool clean(const struct rise *r)
{
	return r->found && r->s.flaw == VS_CLEAN;
}

/* The step height of a rise. */
static double height(const struct vs_step *s)
{
	return s->up - s->down;
}

/* How far rows of f from boundary b up rise over those from lo below it, as a fraction of h. */
static double raised(const struct vs_fam *f, size_t lo, uint64_t b, double h)
{
	size_t i = vs_index(f, b);

	if (i >= f->n || i <= lo || h <= 0)
		return 0;
	return (vs_med(f, i, f->n) - vs_med(f, lo, i)) / h;
}

/* Both families step cleanly where a 2^n block of the power-of-two size would make them. */
static void judge_both(const struct ctx *c, const struct rise *r2, const struct rise *r3,
		       struct va_verdict *v)
{
	double q = height(&r2->s) / height(&r3->s);

	if (q >= VA_FULL)
		vt_found(c, r2, r3, false, q, v);
	else if (q <= VA_PARTIAL)
		vt_found(c, r3, r2, true, q, v);
	else
		vt_families(c, r2, r3, q, v);
}

/* Only the power-of-two family steps cleanly. */
static void judge_pow2(const struct ctx *c, const struct rise *r2, const struct rise *r3,
		       struct va_verdict *v)
{
	uint64_t e = c->p2->b[r2->s.k];
	size_t i3 = vs_index(c->p3, 3 * e);

	if (c->p3->n - i3 < VA_MIN_ABOVE || i3 == 0)
		vt_found(c, r2, NULL, false, 1, v);
	else if (r3->found && c->p3->b[r3->s.k] == 3 * e && r3->s.flaw == VS_OVERLAP &&
		 height(&r2->s) >= VA_FULL * height(&r3->s))
		vt_found(c, r2, r3, false, height(&r2->s) / height(&r3->s), v);
	else
		vt_disagree(c, r2, r3, v);
}

/* Only the 3 x 2^n family steps cleanly: are the power-of-two rows from E/3 up fully raised? */
static void judge_3x(const struct ctx *c, const struct rise *r3, struct va_verdict *v)
{
	uint64_t e = c->p3->b[r3->s.k];
	double q = raised(c->p2, c->lo2, e / 3, height(&r3->s));

	if (q >= VA_PARTIAL)
		vt_partial(c, r3, q, v);
	else
		vt_found(c, r3, NULL, true, q, v);
}

static void judge_erase(const struct ctx *c, struct va_verdict *v)
{
	struct rise r2, r3;

	erase_rise(c->p2, c->lo2, &r2);
	erase_rise(c->p3, c->lo3, &r3);
	if (clean(&r2) && clean(&r3) && c->p3->b[r3.s.k] == 3 * c->p2->b[r2.s.k])
		judge_both(c, &r2, &r3, v);
	else if (clean(&r2))
		judge_pow2(c, &r2, &r3, v);
	else if (clean(&r3))
		judge_3x(c, &r3, v);
	else
		vt_unclear(c, &r2, &r3, v);
}

static void judge_page(struct ctx *c, struct va_verdict *v)
{
	size_t page, second;

	if (!vs_page(c->p2, VA_PAGE_MAX, &page, &second))
		return;
	vt_page(c->p2, page, second, v);
	/* (Pages read in pairs: the level below the erase step starts at the second rise.) */
	c->lo2 = second ? second : page;
	c->lo3 = vs_index(c->p3, 3 * v->page);
}

/* An erase size found in what is left of a table that lost many rows
 * rests on too little: say so instead. */
static void too_many_left_out(struct va_verdict *v, size_t n)
{
	if (v->erase_state == VA_FOUND && v->outliers * VA_MAX_LEFT_OUT > n)
		vt_left_out(v, n);
}

void va_judge(const struct va_row *rows, size_t n, struct va_verdict *v)
{
	struct vs_fam *p2 = calloc(1, sizeof(*p2)), *p3 = calloc(1, sizeof(*p3));
	struct ctx c = { .p2 = p2, .p3 = p3 };

	memset(v, 0, sizeof(*v));
	if (n > VA_MAX_ROWS)
		n = VA_MAX_ROWS;
	if (!p2 || !p3) {
		free(p2);
		free(p3);
		snprintf(v->erase_why, sizeof(v->erase_why), "out of memory");
		v->erase_state = VA_UNCERTAIN;
		return;
	}
	read_rows(rows, n, p2, p3, v);
	if (v->plain > 0) {
		double neg = most_negative(p2, p3);

		settle(p2, neg, v);
		settle(p3, neg, v);
		v->noise = p2->noise;
		judge_page(&c, v);
		judge_erase(&c, v);
		too_many_left_out(v, n);
	}
	if (v->erase_state == VA_NONE && v->page_state == VA_NONE)
		vt_no_pattern(&c, rows, n, v);
	free(p2);
	free(p3);
}

void va_print(const struct va_verdict *v)
{
	char a[FB_FMT_LEN];

	if (v->no_pattern)
		report_line("verdict: no clear pattern: %s", v->erase_why);
	else if (v->erase_state == VA_FOUND)
		report_line("verdict: erase block %s%s (%s)", fmt_size(a, sizeof(a), v->erase),
			    v->erase_3x ? ", a 3 x 2^n size" : "", v->erase_why);
	else if (v->erase_state == VA_UNCERTAIN)
		report_line("verdict: erase block uncertain: %s", v->erase_why);
	if (v->page_state == VA_FOUND)
		report_line("verdict: page %s (%s)", fmt_size(a, sizeof(a), v->page), v->page_why);
	if (v->outliers) {
		char list[VA_LEFT_SHOWN * (FB_FMT_LEN + 2) + 8] = "";
		size_t used = 0;

		for (unsigned i = 0; i < v->outliers && i < VA_LEFT_SHOWN; i++)
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "",
						 fmt_size(a, sizeof(a), v->left[i]));
		if (v->outliers > VA_LEFT_SHOWN)
			snprintf(list + used, sizeof(list) - used, ", ...");
		report_line("verdict: %u row%s left out (%s): a read or the diff in %s sticks out "
			    "(try a larger --count)", v->outliers, v->outliers == 1 ? "" : "s", list,
			    v->outliers == 1 ? "it" : "them");
	}
}
