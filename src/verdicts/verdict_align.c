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

#include "core/stats.h"
#include "core/units.h"
#include "core/out.h"
#include "verdicts/verdict_align.h"
#include "verdicts/verdict_align_text.h"
#include "verdicts/verdict_step.h"

/* Erase blocks are looked for from here up. */
#define VA_ERASE_MIN (128 * 1024)
/* An erase step needs this many rows from it up (the top rows are the noisiest). */
#define VA_MIN_ABOVE 3
/* More than one row in this many left out: no erase size. */
#define VA_MAX_LEFT_OUT 4
/* A second rise above the erase step competes with it when it is at least this part of it. */
#define VA_SECOND 0.4
/* Partly raised rows of the other family: full above this fraction, partial below the next. */
#define VA_FULL 0.8
#define VA_PARTIAL 0.5
/* A confirming row lies this far up the step, the row below it this far from the top. */
#define VA_ROW_UP 0.65
/* The other family confirms a step when its rows from there up rise this part of it. */
#define VA_CONFIRM_LO 0.75
#define VA_CONFIRM_HI 1.4
/* A plain read this far from its column's median (and this many spreads) is far off:
 * the row is left out... */
#define VA_READ_OFF 0.4
#define VA_READ_SPREADS 6.0
/* ...and this far, disturbed: the row cannot place a step; so is one whose
 * post / pre ratio is this far off that of the rows around it. */
#define VA_READ_SHAKY 0.15
#define VA_READ_LOPSIDED 0.12

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

static bool far_off(double t, double med, double sd, double frac)
{
	return t > 0 && med > 0 && fabs(t - med) > fmax(frac * med, VA_READ_SPREADS * sd);
}

/*
 * Were pre and post of the row slowed (or sped up) alike? Then most
 * likely so was the read between them (the tries of pre, on and post
 * alternate; the original tool took them one after the other), and the
 * row is kept; but a slow episode that spans positions can still have
 * missed the read between them at one: it is disturbed all the same.
 */
static bool evenly_slowed(const struct va_row *r, double mpre, double mpost)
{
	return r->pre > 0 && r->post > 0 && mpre > 0 && mpost > 0 &&
	       fabs(r->pre / mpre - r->post / mpost) <= VA_READ_LOPSIDED;
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
		bool even = evenly_slowed(&rows[i], mpre, mpost);

		if (!even && (far_off(rows[i].pre, mpre, spre, VA_READ_OFF) ||
			      far_off(rows[i].post, mpost, spost, VA_READ_OFF))) {
			if (v->outliers < VA_LEFT_SHOWN)
				v->left[v->outliers] = rows[i].b;
			v->outliers++;
			continue;
		}
		if (is_pow2(rows[i].b))
			vs_add(p2, rows[i].b, rows[i].diff, rows[i].pre, rows[i].post);
		else if (va_is_3x(rows[i].b))
			vs_add(p3, rows[i].b, rows[i].diff, rows[i].pre, rows[i].post);
	}
	vs_disturbed(p2, VA_READ_SHAKY, VA_READ_LOPSIDED);
	vs_disturbed(p3, VA_READ_SHAKY, VA_READ_LOPSIDED);
}

/* How far a negative diff of either family lies below its neighbours (verdict_step.h). */
static double most_negative(const struct vs_fam *p2, const struct vs_fam *p3)
{
	return fmax(vs_negative(p2), vs_negative(p3));
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
/* The step height of a rise. */
static double height(const struct vs_step *s)
{
	return s->up - s->down;
}

/*
 * A rise whose row sits between the level below and the median above may
 * be the first of two steps (a staircase): the level from it up to a
 * clean second rise is then a clean step of its own. Both are kept, as
 * two readings (vt_found names both).
 */
static bool staircase(const struct vs_fam *f, size_t lo, struct rise *r)
{
	struct vs_fam *low;
	struct vs_step s1, s2;
	bool two = false;

	if (r->s.k + 2 >= f->n ||
	    !vs_first_rise(f, r->s.k, f->b[r->s.k + 2], VA_MIN_ABOVE, &s2) || s2.flaw != VS_CLEAN)
		return false;
	low = malloc(sizeof(*low));
	if (!low)
		return false;
	*low = *f;
	low->n = s2.k;
	two = vs_test(low, lo, r->s.k, 2, &s1) && s1.flaw == VS_CLEAN &&
	      height(&s2) >= VA_SECOND * height(&s1);
	free(low);
	if (two) {
		r->s = s1;
		r->s.lo = lo;
		r->s2 = s2;
		r->second = true;
	}
	return two;
}

static void erase_rise(const struct vs_fam *f, size_t lo, struct rise *r)
{
	memset(r, 0, sizeof(*r));
	/* (A level has two rows at least: the first candidate is two rows above lo.) */
	r->found = lo + 2 < f->n &&
		   vs_first_rise(f, lo, f->b[lo + 2] > VA_ERASE_MIN ? f->b[lo + 2] : VA_ERASE_MIN,
				 VA_MIN_ABOVE, &r->s);
	/*
	 * (A level that creeps up by a few percent is no second erase block,
	 * nor are the top rows alone: they are measured at the fewest
	 * positions, and scatter the most; nor is the step's own row a level
	 * below a second rise: a level has two rows at least.)
	 */
	if (r->found && r->s.flaw == VS_BETWEEN && staircase(f, lo, r))
		return;
	if (r->found && r->s.flaw == VS_CLEAN && r->s.k + 2 < f->n)
		r->second = vs_first_rise(f, r->s.k, f->b[r->s.k + 2], VA_MIN_ABOVE, &r->s2) &&
			    r->s2.flaw != VS_FEW &&
			    r->s2.up - r->s2.down >= VA_SECOND * (r->s.up - r->s.down);
}

static bool clean(const struct rise *r)
{
	return r->found && r->s.flaw == VS_CLEAN;
}

/* How far rows of f from boundary b up rise over those from lo below it, as a fraction of h. */
static double raised(const struct vs_fam *f, size_t lo, uint64_t b, double h)
{
	size_t i = vs_index(f, b);

	if (i >= f->n || i <= lo || h <= 0)
		return 0;
	return (vs_med(f, i, f->n) - vs_med(f, lo, i)) / h;
}

/* How far chance moves raised(f, lo, b, h) (a fraction of h, like it). */
static double raised_noise(const struct vs_fam *f, size_t lo, uint64_t b, double h)
{
	return h > 0 ? vs_diff_noise(f, lo, vs_index(f, b)) / h : INFINITY;
}

/*
 * A fraction q of a full step, give or take sq (its noise): fully raised
 * (1), partly (-1), or chance could make it either (0). A step is full
 * when it is at least VA_FULL high and clear of half, partial when it is
 * at most VA_PARTIAL and clear of VA_FULL, by twice its noise.
 */
static int fullness(double q, double sq)
{
	if (q >= VA_FULL && q - 2 * sq >= 0.5)
		return 1;
	if (q <= VA_PARTIAL && q + 2 * sq <= VA_FULL)
		return -1;
	return 0;
}

/* Both families step cleanly where a 2^n block of the power-of-two size would make them. */
static void judge_both(const struct ctx *c, const struct rise *r2, const struct rise *r3,
		       struct va_verdict *v)
{
	double h3 = height(&r3->s), q = height(&r2->s) / h3;
	double n2 = vs_diff_noise(c->p2, r2->s.lo, r2->s.k);
	double n3 = vs_diff_noise(c->p3, r3->s.lo, r3->s.k);
	int full = fullness(q, sqrt(n2 * n2 + q * q * n3 * n3) / h3);

	if (full > 0)
		vt_found(c, r2, r3, false, q, v);
	else if (full < 0)
		vt_found(c, r3, r2, true, q, v);
	else
		vt_families(c, r2, r3, q, v);
}

/*
 * Are the rows of f from boundary b up raised as high as a step of
 * height h, with the row at b up and the one below it down (the other
 * family's confirmation of a step of height h, even where that family
 * has no clean step of its own)? *r gets that rise.
 */
static bool confirms(const struct vs_fam *f, size_t lo, uint64_t b, double h, struct rise *r)
{
	size_t k = vs_index(f, b);
	double q;

	memset(r, 0, sizeof(*r));
	if (k >= f->n || f->b[k] != b || k <= lo || f->b[k - 1] != b / 2 || h <= 0)
		return false;
	vs_test(f, lo, k, 0, &r->s);
	r->found = true;
	q = raised(f, lo, b, h);
	if (fullness(q, raised_noise(f, lo, b, h)) <= 0)
		return false;
	/*
	 * (Raised far higher, it is the full step over a partial one: a 3 x 2^n
	 * card. Partly raised rows of a 3 x 2^n card reach at most half: of
	 * the eight positions of a row, three in eight or so are erase
	 * boundaries, never the first.)
	 */
	return q >= VA_CONFIRM_LO && q <= VA_CONFIRM_HI && f->d[k] - r->s.down >= 0.5 * h &&
	       f->d[k - 1] - r->s.down <= 0.5 * h && !f->shaky[k];
}

/* Only the power-of-two family steps cleanly. */
static void judge_pow2(const struct ctx *c, const struct rise *r2, const struct rise *r3,
		       struct va_verdict *v)
{
	uint64_t e = c->p2->b[r2->s.k];
	size_t i3 = vs_index(c->p3, 3 * e);
	struct rise r;

	if (c->p3->n - i3 < VA_MIN_ABOVE || i3 == 0)
		vt_found(c, r2, NULL, false, 1, v);
	else if (r3->found && c->p3->b[r3->s.k] == 3 * e &&
		 height(&r2->s) >= VA_FULL * height(&r3->s) &&
		 height(&r2->s) <= height(&r3->s) / VA_FULL)
		/* The 3 x 2^n rows rise where they must, as high, if not cleanly. */
		vt_found(c, r2, r3, false, height(&r2->s) / height(&r3->s), v);
	else if (confirms(c->p3, c->lo3, 3 * e, height(&r2->s), &r))
		/* They are raised from there, if their own first rise lies elsewhere. */
		vt_found(c, r2, &r, false, 1, v);
	else
		vt_disagree(c, r2, r3, v);
}

/*
 * Only the 3 x 2^n family steps cleanly, at E: the erase block is E, or
 * E/3 (a 2^n block steps the 3 x 2^n rows at three times its size). The
 * power-of-two rows from E/3 up tell which: on a 3 x 2^n card at most a
 * few of their positions are erase boundaries (never the first, an odd
 * multiple of E/3 that 3 does not divide), on a 2^n card all of them.
 */
static void judge_3x(const struct ctx *c, const struct rise *r2, const struct rise *r3,
		     struct va_verdict *v)
{
	uint64_t e = c->p3->b[r3->s.k];
	double q = raised(c->p2, c->lo2, e / 3, height(&r3->s));
	struct rise r;

	if (confirms(c->p2, c->lo2, e / 3, height(&r3->s), &r))
		vt_found(c, r2->found && c->p2->b[r2->s.k] == e / 3 ? r2 : &r, r3, false, q, v);
	else if (fullness(q, raised_noise(c->p2, c->lo2, e / 3, height(&r3->s))) >= 0 &&
		 vs_index(c->p2, e / 3) < c->p2->n)
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
	else if (clean(&r2) && clean(&r3) && c->p2->b[r2.s.k] > c->p3->b[r3.s.k] / 3 &&
		 height(&r2.s) <= VA_PARTIAL * height(&r3.s))
		/* The power-of-two rows partly raised above E/3 of a 3 x 2^n card. */
		judge_3x(c, &r2, &r3, v);
	else if (clean(&r2))
		judge_pow2(c, &r2, &r3, v);
	else if (clean(&r3))
		judge_3x(c, &r2, &r3, v);
	else
		vt_unclear(c, &r2, &r3, v);
}

/*
 * The 3 x 2^n rows must not contradict a page P: the boundaries 3P and
 * up are page boundaries too, 3P/2 is none. Where both rows were
 * measured, 3P lies up the page's rise and 3P/2 on the floor.
 */
static bool page_agrees(const struct vs_fam *p2, size_t page, const struct vs_fam *p3)
{
	uint64_t pg = p2->b[page];
	size_t k = vs_index(p3, 3 * pg);
	double h = vs_med(p2, page, page + 3 < p2->n ? page + 3 : p2->n) - vs_med(p2, 0, page);
	double floor3;

	if (k == 0 || k >= p3->n || p3->b[k] != 3 * pg || p3->b[k - 1] != 3 * pg / 2)
		return true;	/* (nothing to check it with) */
	floor3 = vs_med(p3, 0, k);
	return !p3->shaky[k] && !p3->shaky[k - 1] && p3->d[k] - floor3 >= VA_ROW_UP * h &&
	       p3->d[k - 1] - floor3 <= (1 - VA_ROW_UP) * h;
}

static void judge_page(struct ctx *c, struct va_verdict *v)
{
	size_t page, second;

	if (!vs_page(c->p2, VA_PAGE_MAX, &page, &second) || !page_agrees(c->p2, page, c->p3))
		return;
	vt_page(c->p2, page, second, v);
	/* (Pages read in pairs: the level below the erase step starts at the second rise.) */
	c->lo2 = second ? second : page;
	c->lo3 = vs_index(c->p3, 3 * v->page);
}

/* Rows of both families whose plain reads were disturbed. */
static unsigned shaky_rows(const struct vs_fam *p2, const struct vs_fam *p3)
{
	unsigned n = 0;

	for (size_t i = 0; i < p2->n; i++)
		n += p2->shaky[i];
	for (size_t i = 0; i < p3->n; i++)
		n += p3->shaky[i];
	return n;
}

/* An erase size found in what is left of a table that lost many rows,
 * or whose reads were disturbed in many, rests on too little: say so. */
static void too_many_left_out(const struct ctx *c, struct va_verdict *v, size_t n)
{
	unsigned shaky = shaky_rows(c->p2, c->p3);

	if (v->erase_state == VA_FOUND && v->outliers * VA_MAX_LEFT_OUT > n)
		vt_left_out(v, n, false);
	else if (v->erase_state == VA_FOUND && (v->outliers + shaky) * VA_MAX_LEFT_OUT > n)
		vt_left_out(v, n, true);
}

void va_judge(const struct va_row *rows, size_t n, struct va_verdict *v)
{
	struct vs_fam *p2 = calloc(1, sizeof(*p2)), *p3 = calloc(1, sizeof(*p3));
	struct ctx c = { .p2 = p2, .p3 = p3 };

	memset(v, 0, sizeof(*v));
	if (n > VA_MAX_ROWS)
		n = VA_MAX_ROWS;
	if (n < VA_MIN_ROWS) {
		/* Not a step, not a floor: nothing to tell noise from a change by. */
		free(p2);
		free(p3);
		snprintf(v->erase_why, sizeof(v->erase_why), "too short to judge: %zu row%s; an "
			 "align table needs at least %d", n, n == 1 ? "" : "s", VA_MIN_ROWS);
		v->erase_state = VA_UNCERTAIN;
		return;
	}
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
		too_many_left_out(&c, v, n);
	}
	if (v->erase_state == VA_NONE && v->page_state == VA_NONE)
		vt_no_pattern(&c, rows, n, v);
	free(p2);
	free(p3);
}

void va_print(const struct va_verdict *v)
{
	char a[FB_FMT_LEN];

	struct out_verdict e = { .name = "erase_block", .unit = "bytes" };
	struct out_verdict p = { .name = "page", .result = "named", .has_value = true,
				 .value = v->page, .unit = "bytes" };

	if (v->no_pattern) {
		e.result = "none";
		out_verdict(&e, "no clear pattern: %s", v->erase_why);
	} else if (v->erase_state == VA_FOUND) {
		e.result = "named";
		e.has_value = true;
		e.value = v->erase;
		out_verdict(&e, "erase block %s%s (%s)", fmt_size(a, sizeof(a), v->erase),
			    v->erase_3x ? ", a 3 x 2^n size" : "", v->erase_why);
	} else if (v->erase_state == VA_UNCERTAIN) {
		e.result = "uncertain";
		out_verdict(&e, "erase block uncertain: %s", v->erase_why);
	}
	if (v->page_state == VA_FOUND)
		out_verdict(&p, "page %s (%s)", fmt_size(a, sizeof(a), v->page), v->page_why);
	if (v->outliers) {
		char list[VA_LEFT_SHOWN * (FB_FMT_LEN + 2) + 8] = "";
		size_t used = 0;

		for (unsigned i = 0; i < v->outliers && i < VA_LEFT_SHOWN; i++)
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "",
						 fmt_size(a, sizeof(a), v->left[i]));
		if (v->outliers > VA_LEFT_SHOWN)
			snprintf(list + used, sizeof(list) - used, ", ...");
		out_verdict(&(struct out_verdict){ .name = "rows_left_out", .result = "left_out",
						   .has_value = true, .value = v->outliers,
						   .unit = "count" },
			    "%u row%s left out (%s): a read or the diff in %s sticks out "
			    "(try a larger --count)", v->outliers, v->outliers == 1 ? "" : "s", list,
			    v->outliers == 1 ? "it" : "them");
	}
}
