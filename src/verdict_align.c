/*
 * The align verdict: see verdict_align.h.
 *
 * The model behind it: a read that straddles a page boundary costs a
 * little extra, one that straddles an erase-block boundary more. So in
 * each family of boundaries (2^n, 3 x 2^n), sorted upwards, the diff
 * sits on a floor, rises at the page size, and steps up a last time at
 * the erase-block size. Every row is an average over several positions
 * that are all odd multiples of the boundary, so a boundary that the
 * erase size divides is a full step, and a boundary of the other family
 * (4 MiB on a 3 MiB card) is only partly raised: some of its positions
 * are erase boundaries, others are not. That is how the two families
 * tell a 1 MiB card from a 3 MiB one: both step at 1 MiB and at 3 MiB,
 * but only on the 1 MiB card are the power-of-two rows fully raised.
 *
 * Every decision keeps a margin and says "uncertain" inside it: a wrong
 * erase size is worse than none.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "stats.h"
#include "units.h"
#include "verdict_align.h"

/* Erase blocks are looked for from here up. */
#define VA_ERASE_MIN (128 * 1024)
/* A step must exceed this fraction of the plain read time: below it, it is noise. */
#define VA_ABS_FRAC 0.02
/* The upper level must be this much above the lower one. */
#define VA_MIN_RATIO 1.25
/* Steps must be this many times the largest negative diff (the noise). */
#define VA_NOISE_STEPS 3
/* More than one row in this many left out as outliers: no erase size. */
#define VA_MAX_LEFT_OUT 4
/* Levels of the two families agree above this fraction, differ below the next. */
#define VA_FULL 0.8
#define VA_PARTIAL 0.6

struct fam {
	size_t n;
	uint64_t b[VA_MAX_ROWS];
	double d[VA_MAX_ROWS];
};

struct step {
	bool clean;		/* one clean step found */
	size_t k;		/* its row */
	double up, lo;		/* medians above and just below */
	bool near;		/* only a blurred rise: steps too close to call */
	uint64_t near_lo, near_hi;
	double near_mid;	/* the diff that lies between the levels */
};

bool va_is_3x(uint64_t b)
{
	return b >= 3 && b % 3 == 0 && ((b / 3) & (b / 3 - 1)) == 0;
}

static bool is_pow2(uint64_t b)
{
	return b && (b & (b - 1)) == 0;
}

static double slice_min(const double *d, size_t from, size_t to)
{
	return stats_min(d + from, to - from);
}

static double slice_max(const double *d, size_t from, size_t to)
{
	double m = d[from];

	for (size_t i = from + 1; i < to; i++)
		if (d[i] > m)
			m = d[i];
	return m;
}

static double slice_med(const double *d, size_t from, size_t to)
{
	return stats_median(d + from, to - from);
}

/* Insert a row keeping the family sorted by boundary (duplicates: first wins). */
static void fam_add(struct fam *f, uint64_t b, double d)
{
	size_t i = f->n;

	if (f->n >= VA_MAX_ROWS)
		return;
	while (i > 0 && f->b[i - 1] > b)
		i--;
	if (i > 0 && f->b[i - 1] == b)
		return;
	memmove(f->b + i + 1, f->b + i, (f->n - i) * sizeof(f->b[0]));
	memmove(f->d + i + 1, f->d + i, (f->n - i) * sizeof(f->d[0]));
	f->b[i] = b;
	f->d[i] = d;
	f->n++;
}

/* Index of the first row at or above b (n when none). */
static size_t fam_index(const struct fam *f, uint64_t b)
{
	size_t i = 0;

	while (i < f->n && f->b[i] < b)
		i++;
	return i;
}

/*
 * The page: the smallest boundary from which every diff lies clearly
 * above every diff below it (a floor must exist). *second gets a further
 * such rise just above it (pages read in pairs), or 0.
 */
static bool find_page(const struct fam *f, double thr, size_t *page, size_t *second)
{
	bool found = false;

	*second = 0;
	for (size_t k = 1; k < f->n && f->b[k] <= VA_PAGE_MAX; k++) {
		double up = slice_min(f->d, k, f->n), lo = slice_max(f->d, 0, k);

		/* Clear of the floor by the noise margin, and at least twice its height. */
		if (up - lo < thr || up < 2 * (lo > thr ? lo : thr))
			continue;
		/* A row left out just below: the page may be the missing boundary. */
		if (f->b[k] != 2 * f->b[k - 1])
			break;
		if (!found) {
			*page = k;
			found = true;
		} else if (k == *page + 1) {
			*second = k;
		}
	}
	return found;
}

/* Remember a blurred rise (the diff at b_mid lies between the levels). */
static void step_blur(struct step *s, uint64_t lo, uint64_t hi, double mid)
{
	s->near = true;
	s->near_lo = lo;
	s->near_hi = hi;
	s->near_mid = mid;
}

/* Test the erase step at row k, its lower window starting at lo_from. */
static bool step_at(const struct fam *f, size_t k, size_t lo_from, double thr, struct step *s)
{
	size_t w = k >= lo_from + 3 ? k - 3 : lo_from;
	double up, lo, h;

	if (w >= k)
		return false;
	up = slice_med(f->d, k, f->n);
	lo = slice_med(f->d, w, k);
	h = up - lo;
	if (h < thr || (lo > 0 && up < VA_MIN_RATIO * lo))
		return false;
	s->k = k;
	s->up = up;
	s->lo = lo;
	/* The levels must not overlap, and the step row must not be a wild outlier. */
	if (slice_min(f->d, k, f->n) - slice_max(f->d, w, k) < 0.5 * h || f->d[k] > up + h) {
		/* (A blur within a few percent of a read is noise, not a rise.) */
		if (h >= 3 * thr && f->d[k] > lo + 0.2 * h && f->d[k] < up - 0.2 * h)
			step_blur(s, f->b[k - 1], f->b[k + 1], f->d[k]);
		return false;
	}
	/* A row left out just below: the step may lie at the missing boundary. */
	if (f->b[k] != 2 * f->b[k - 1]) {
		step_blur(s, f->b[k - 1], f->b[k], f->d[k]);
		return false;
	}
	/* The row just below must sit on the lower level, not between the two. */
	if (f->d[k - 1] - lo > 0.35 * h) {
		if (h < 3 * thr)
			return false;
		step_blur(s, f->b[k - 2 >= w ? k - 2 : k - 1], f->b[k], f->d[k - 1]);
		return false;
	}
	return true;
}

/* The erase step of one family: the highest clean step from VA_ERASE_MIN up. */
static void erase_step(const struct fam *f, size_t lo_from, double thr, struct step *s)
{
	memset(s, 0, sizeof(*s));
	for (size_t k = f->n >= 3 ? f->n - 2 : 0; k >= 1 && f->b[k] >= VA_ERASE_MIN; k--) {
		struct step t;

		memset(&t, 0, sizeof(t));
		if (step_at(f, k, lo_from, thr, &t)) {
			bool near = s->near;
			struct step keep = *s;

			*s = t;
			s->clean = true;
			/* A blurred rise above the clean step casts doubt on it. */
			s->near = near;
			s->near_lo = keep.near_lo;
			s->near_hi = keep.near_hi;
			s->near_mid = keep.near_mid;
			return;
		}
		if (t.near && !s->near)
			step_blur(s, t.near_lo, t.near_hi, t.near_mid);
	}
}

static void levels(char *buf, size_t len, const struct fam *f, const struct step *s)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN], r[48];

	if (s->lo > 0)
		snprintf(r, sizeof(r), "%.3gx", s->up / s->lo);
	else
		snprintf(r, sizeof(r), "+%s", fmt_time(c, sizeof(c), s->up - s->lo));
	snprintf(buf, len, "diff %s from %s up vs %s below: %s", fmt_time(a, sizeof(a), s->up),
		 fmt_size(c, sizeof(c), f->b[s->k]), fmt_time(b, sizeof(b), s->lo), r);
}

static void set_found(struct va_verdict *v, uint64_t e, bool three, const char *why)
{
	v->erase_state = VA_FOUND;
	v->erase = e;
	v->erase_3x = three;
	snprintf(v->erase_why, sizeof(v->erase_why), "%s", why);
}

static void set_doubt(struct va_verdict *v, const char *why)
{
	v->erase_state = VA_UNCERTAIN;
	snprintf(v->erase_why, sizeof(v->erase_why), "%s", why);
}

/* Both families step where a 2^n or a 3 x 2^n block makes them: which is it? */
static void judge_both(const struct fam *p2, const struct step *s2, const struct fam *p3,
		       const struct step *s3, struct va_verdict *v)
{
	char lv[160], why[512], a[FB_FMT_LEN], b[FB_FMT_LEN];
	uint64_t e = p2->b[s2->k];
	double q = (s2->up - s2->lo) / (s3->up - s3->lo);

	levels(lv, sizeof(lv), p2, s2);
	fmt_size(a, sizeof(a), e);
	fmt_size(b, sizeof(b), 3 * e);
	if (q >= VA_FULL) {
		snprintf(why, sizeof(why), "%s; the 3 x 2^n rows agree: step at %s", lv, b);
		set_found(v, e, false, why);
	} else if (q <= VA_PARTIAL) {
		levels(lv, sizeof(lv), p3, s3);
		snprintf(why, sizeof(why), "%s; the power-of-two rows from %s rise only %.0f%% of "
			 "that", lv, a, 100 * q);
		set_found(v, 3 * e, true, why);
	} else {
		snprintf(why, sizeof(why), "%s or %s: the power-of-two rows from %s rise %.0f%% "
			 "of the 3 x 2^n step at %s", a, b, a, 100 * q, b);
		set_doubt(v, why);
	}
}

/* Only the power-of-two family steps cleanly. */
static void judge_pow2(const struct fam *p2, const struct step *s2, const struct fam *p3,
		       const struct step *s3, struct va_verdict *v)
{
	char lv[160], why[512], a[FB_FMT_LEN], b[FB_FMT_LEN];
	uint64_t e = p2->b[s2->k];
	size_t i3 = fam_index(p3, 3 * e);

	levels(lv, sizeof(lv), p2, s2);
	fmt_size(a, sizeof(a), e);
	fmt_size(b, sizeof(b), 3 * e);
	if (p3->n < 3 || i3 + 2 > p3->n) {
		snprintf(why, sizeof(why), "%s; %s", lv, p3->n ? "too few 3 x 2^n rows to check"
			 : "power-of-two rows only");
		set_found(v, e, false, why);
	} else if (!s3->clean) {
		snprintf(why, sizeof(why), "power-of-two rows step at %s (%s), but the 3 x 2^n "
			 "rows show no clean step at %s", a, lv, b);
		set_doubt(v, why);
	} else {
		snprintf(why, sizeof(why), "power-of-two rows step at %s, but the 3 x 2^n rows "
			 "at %s, not at %s", a, fmt_size(lv, sizeof(lv), p3->b[s3->k]), b);
		set_doubt(v, why);
	}
}

/* Only the 3 x 2^n family steps cleanly: are the power-of-two rows above E/3 partly raised? */
static void judge_3x(const struct fam *p2, size_t from2, const struct fam *p3,
		     const struct step *s3, struct va_verdict *v)
{
	char lv[160], why[512], a[FB_FMT_LEN];
	uint64_t e = p3->b[s3->k];
	size_t i2 = fam_index(p2, e / 3), w = i2 >= from2 + 3 ? i2 - 3 : from2;
	double q = 0;

	levels(lv, sizeof(lv), p3, s3);
	if (i2 < p2->n && w < i2)
		q = (slice_med(p2->d, i2, p2->n) - slice_med(p2->d, w, i2)) / (s3->up - s3->lo);
	fmt_size(a, sizeof(a), e / 3);
	if (q >= VA_PARTIAL) {
		char b[FB_FMT_LEN];

		snprintf(why, sizeof(why), "%s or %s: the 3 x 2^n rows step at %s (%s), but the "
			 "power-of-two rows from %s are raised %.0f%% of that", a,
			 fmt_size(b, sizeof(b), e), b, lv, a, 100 * q);
		set_doubt(v, why);
		return;
	}
	snprintf(why, sizeof(why), "%s; the power-of-two rows from %s rise only %.0f%% of that", lv,
		 a, 100 * q);
	set_found(v, e, true, why);
}

/* No clean step: say what there is. */
static void judge_none(const struct fam *p2, const struct step *s2, const struct step *s3,
		       size_t from2, struct va_verdict *v)
{
	const struct step *s = s2->near ? s2 : s3;
	char why[512], a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN], d[FB_FMT_LEN];
	size_t i = fam_index(p2, VA_ERASE_MIN);

	if (s->near) {
		snprintf(why, sizeof(why), "the diff rises between %s and %s, but not in one clean "
			 "step (%s lies between the levels)", fmt_size(a, sizeof(a), s->near_lo),
			 fmt_size(b, sizeof(b), s->near_hi), fmt_time(c, sizeof(c), s->near_mid));
		set_doubt(v, why);
	} else if (v->page_state == VA_FOUND) {
		if (i < from2)
			i = from2;
		if (i < p2->n)
			snprintf(why, sizeof(why), "no clean step above the page size (diffs from %s "
				 "up lie between %s and %s)", fmt_size(a, sizeof(a), p2->b[i]),
				 fmt_time(c, sizeof(c), slice_min(p2->d, i, p2->n)),
				 fmt_time(d, sizeof(d), slice_max(p2->d, i, p2->n)));
		else
			snprintf(why, sizeof(why), "no rows above the page size");
		set_doubt(v, why);
	}
}

static void judge_erase(const struct fam *p2, const struct step *s2, const struct fam *p3,
			const struct step *s3, size_t from2, struct va_verdict *v)
{
	if (s2->clean && s3->clean && p3->b[s3->k] == 3 * p2->b[s2->k])
		judge_both(p2, s2, p3, s3, v);
	else if (s2->clean)
		judge_pow2(p2, s2, p3, s3, v);
	else if (s3->clean)
		judge_3x(p2, from2, p3, s3, v);
	else
		judge_none(p2, s2, s3, from2, v);
	/* A further blurred rise above the step: a staircase, not one erase block. */
	if (v->erase_state == VA_FOUND && (v->erase_3x ? s3->near : s2->near || s3->near)) {
		/* (Partly raised power-of-two rows are expected on a 3 x 2^n card.) */
		const struct step *s = v->erase_3x || !s2->near ? s3 : s2;
		char why[512], a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN];

		snprintf(why, sizeof(why), "a step at %s, and another, blurred rise between %s "
			 "and %s", fmt_size(a, sizeof(a), v->erase), fmt_size(b, sizeof(b), s->near_lo),
			 fmt_size(c, sizeof(c), s->near_hi));
		set_doubt(v, why);
	}
}

static void page_text(struct va_verdict *v, const struct fam *p2, size_t k, size_t second)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN];
	int n;

	v->page_state = VA_FOUND;
	v->page = p2->b[k];
	n = snprintf(v->page_why, sizeof(v->page_why), "diff %s or more from %s up vs at most %s "
		     "below", fmt_time(a, sizeof(a), slice_min(p2->d, k, p2->n)),
		     fmt_size(b, sizeof(b), p2->b[k]), fmt_time(c, sizeof(c), slice_max(p2->d, 0, k)));
	if (second && n > 0 && (size_t)n < sizeof(v->page_why))
		snprintf(v->page_why + n, sizeof(v->page_why) - (size_t)n, "; another step at %s: "
			 "pages read in pairs?", fmt_size(a, sizeof(a), p2->b[second]));
}

static void no_pattern(struct va_verdict *v, const struct va_row *rows, size_t n, double thr)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN];
	double lo = 0, hi = 0;

	for (size_t i = 0; i < n; i++) {
		if (i == 0 || rows[i].diff < lo)
			lo = rows[i].diff;
		if (i == 0 || rows[i].diff > hi)
			hi = rows[i].diff;
	}
	v->no_pattern = true;
	v->erase_state = VA_NONE;
	if (n == 0)
		snprintf(v->erase_why, sizeof(v->erase_why), "no rows");
	else
		snprintf(v->erase_why, sizeof(v->erase_why), "no boundary above which every diff "
			 "is clearly larger than below (diffs from %s to %s, plain reads %s)",
			 fmt_time(a, sizeof(a), lo), fmt_time(b, sizeof(b), hi),
			 thr > 0 ? fmt_time(c, sizeof(c), thr / VA_ABS_FRAC) : "unknown");
}

/*
 * A row with one read far off (an outlier of the device, or of the
 * system) says nothing: a plain read much slower than the typical one,
 * or a diff that no boundary can explain (more than 3 reads' worth, or
 * clearly negative).
 */
static bool outlier(const struct va_row *r, double t)
{
	if (t <= 0)
		return false;
	return r->pre > 1.25 * t || r->post > 1.25 * t || r->diff > 3 * t || r->diff < -0.25 * t;
}

/* Drop rows that stick out above both neighbours by half a read: a slow "on" read. */
static unsigned drop_spikes(struct fam *f, double t)
{
	unsigned dropped = 0;

	if (t <= 0)
		return 0;
	for (size_t k = 0; k < f->n && f->n >= 3; k++) {
		double left = k > 0 ? f->d[k - 1] : f->d[k + 1];
		double right = k + 1 < f->n ? f->d[k + 1] : f->d[k - 1];

		if (f->d[k] - (left > right ? left : right) > 0.5 * t) {
			memmove(f->b + k, f->b + k + 1, (f->n - k - 1) * sizeof(f->b[0]));
			memmove(f->d + k, f->d + k + 1, (f->n - k - 1) * sizeof(f->d[0]));
			f->n--;
			dropped++;
			k--;
		}
	}
	return dropped;
}

/* The largest negative diff among the rows kept: how far noise alone moves a diff. */
static double noise_level(const struct fam *p2, const struct fam *p3)
{
	double worst = 0;

	for (size_t i = 0; i < p2->n; i++)
		if (-p2->d[i] > worst)
			worst = -p2->d[i];
	for (size_t i = 0; i < p3->n; i++)
		if (-p3->d[i] > worst)
			worst = -p3->d[i];
	return worst;
}

/* An erase size found in what is left of a table that lost many rows to
 * outliers rests on too little: say so instead. */
static void too_many_left_out(struct va_verdict *v, size_t n)
{
	char why[sizeof(v->erase_why)], a[FB_FMT_LEN];

	if (v->erase_state != VA_FOUND || v->outliers * VA_MAX_LEFT_OUT <= n)
		return;
	snprintf(why, sizeof(why), "%s, but %u of %zu rows were left out as too noisy "
		 "(try a larger --count)", fmt_size(a, sizeof(a), v->erase), v->outliers, n);
	set_doubt(v, why);
}

void va_judge(const struct va_row *rows, size_t n, struct va_verdict *v)
{
	struct fam *p2 = calloc(1, sizeof(*p2)), *p3 = calloc(1, sizeof(*p3));
	double pre[VA_MAX_ROWS], thr = 0;
	size_t np = 0, page = 0, second = 0, from2 = 0, from3 = 0;
	struct step s2, s3;

	memset(v, 0, sizeof(*v));
	if (!p2 || !p3) {
		free(p2);
		free(p3);
		set_doubt(v, "out of memory");
		return;
	}
	for (size_t i = 0; i < n && i < VA_MAX_ROWS; i++)
		if (rows[i].pre > 0)
			pre[np++] = rows[i].pre;
	if (np)
		thr = VA_ABS_FRAC * stats_median(pre, np);
	if (thr <= 0) {
		/* No read took any time: the original printed failed reads as 0. */
		no_pattern(v, rows, n < VA_MAX_ROWS ? n : VA_MAX_ROWS, 0);
		free(p2);
		free(p3);
		return;
	}
	for (size_t i = 0; i < n && i < VA_MAX_ROWS; i++) {
		if (outlier(&rows[i], thr / VA_ABS_FRAC)) {
			v->outliers++;
			continue;
		}
		if (is_pow2(rows[i].b))
			fam_add(p2, rows[i].b, rows[i].diff);
		else if (va_is_3x(rows[i].b))
			fam_add(p3, rows[i].b, rows[i].diff);
	}
	v->outliers += drop_spikes(p2, thr / VA_ABS_FRAC) + drop_spikes(p3, thr / VA_ABS_FRAC);
	/* A negative diff is pure noise: no step smaller than thrice it counts. */
	if (thr < VA_NOISE_STEPS * noise_level(p2, p3))
		thr = VA_NOISE_STEPS * noise_level(p2, p3);
	if (find_page(p2, thr, &page, &second)) {
		page_text(v, p2, page, second);
		from2 = page;
		from3 = fam_index(p3, 3 * v->page);
	}
	erase_step(p2, from2, thr, &s2);
	erase_step(p3, from3, thr, &s3);
	judge_erase(p2, &s2, p3, &s3, from2, v);
	too_many_left_out(v, n < VA_MAX_ROWS ? n : VA_MAX_ROWS);
	if (v->erase_state == VA_NONE && v->page_state == VA_NONE)
		no_pattern(v, rows, n < VA_MAX_ROWS ? n : VA_MAX_ROWS, thr);
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
	if (v->outliers)
		report_line("verdict: %u row%s left out: a read in %s was far off (try a larger --count)",
			    v->outliers, v->outliers == 1 ? "" : "s", v->outliers == 1 ? "it" : "them");
}
