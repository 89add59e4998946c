/*
 * The words of the align verdict: see verdict_align_text.h. Every
 * verdict shows its evidence: the levels on both sides of a step, the
 * noise they were judged against, and, when it is uncertain, the sizes
 * that compete.
 */
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "verdicts/verdict_align_text.h"

#define WHY_LEN 640

static void set_found(struct va_verdict *v, uint64_t e, bool three, const char *why)
{
	v->erase_state = VA_FOUND;
	v->erase = e;
	v->erase_3x = three;
	snprintf(v->erase_why, sizeof(v->erase_why), "%s", why);
}

static void set_doubt(struct va_verdict *v, uint64_t c0, uint64_t c1, const char *why)
{
	v->erase_state = VA_UNCERTAIN;
	v->cand[0] = c0;
	v->cand[1] = c1;
	snprintf(v->erase_why, sizeof(v->erase_why), "%s", why);
}

/* "noise 13.6µs", or "noise-free" for a table without any. */
static char *noise_text(char *buf, size_t len, const struct vs_fam *f, double noise)
{
	char a[FB_FMT_LEN];

	if (f->raw <= 0 && noise <= f->floor)
		snprintf(buf, len, "noise-free");
	else
		snprintf(buf, len, "noise %s", fmt_time(a, sizeof(a), noise));
	return buf;
}

/* "diff 682µs from 4MiB up vs 576µs below: 1.18x, noise 18.2µs" */
static char *step_text(char *buf, size_t len, const struct vs_fam *f, const struct vs_step *s)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN], r[48], n[48];

	if (s->down > 0)
		snprintf(r, sizeof(r), "%.3gx", s->up / s->down);
	else
		snprintf(r, sizeof(r), "+%s", fmt_time(c, sizeof(c), s->up - s->down));
	snprintf(buf, len, "diff %s from %s up vs %s below: %s, %s", fmt_time(a, sizeof(a), s->up),
		 fmt_size(c, sizeof(c), f->b[s->k]), fmt_time(b, sizeof(b), s->down), r,
		 noise_text(n, sizeof(n), f, s->noise));
	return buf;
}

/* A second clean rise above the first: two readings, neither named. */
static void two_steps(const struct vs_fam *f, const struct rise *r, struct va_verdict *v)
{
	char why[WHY_LEN], e1[200], e2[200], a[FB_FMT_LEN], b[FB_FMT_LEN];
	uint64_t lo = f->b[r->s.k], hi = f->b[r->s2.k];

	snprintf(why, sizeof(why), "%s or %s: the diffs rise at %s (%s) and again at %s (%s)",
		 fmt_size(a, sizeof(a), lo), fmt_size(b, sizeof(b), hi), a,
		 step_text(e1, sizeof(e1), f, &r->s), b, step_text(e2, sizeof(e2), f, &r->s2));
	set_doubt(v, lo, hi, why);
}

void vt_found(const struct ctx *c, const struct rise *main, const struct rise *other, bool three,
	      double q, struct va_verdict *v)
{
	const struct vs_fam *f = three ? c->p3 : c->p2, *g = three ? c->p2 : c->p3;
	char why[WHY_LEN], lv[200], a[FB_FMT_LEN];
	uint64_t e = f->b[main->s.k];

	if (main->second) {
		two_steps(f, main, v);
		return;
	}
	step_text(lv, sizeof(lv), f, &main->s);
	if (main->s.flaw != VS_CLEAN)
		snprintf(lv + strlen(lv), sizeof(lv) - strlen(lv), ", a rise if not a clean step");
	if (three)
		snprintf(why, sizeof(why), "%s; the power-of-two rows from %s rise only %.0f%% of that",
			 lv, fmt_size(a, sizeof(a), e / 3), 100 * q);
	else if (other && other->s.flaw == VS_CLEAN)
		snprintf(why, sizeof(why), "%s; the 3 x 2^n rows agree: step at %s", lv,
			 fmt_size(a, sizeof(a), g->b[other->s.k]));
	else if (other)
		snprintf(why, sizeof(why), "%s; the 3 x 2^n rows agree: they rise at %s, if not "
			 "cleanly, as high", lv, fmt_size(a, sizeof(a), g->b[other->s.k]));
	else
		snprintf(why, sizeof(why), "%s; %s", lv, g->n ? "too few 3 x 2^n rows to check"
			 : "power-of-two rows only");
	set_found(v, e, three, why);
}

void vt_families(const struct ctx *c, const struct rise *r2, const struct rise *r3, double q,
		 struct va_verdict *v)
{
	char why[WHY_LEN], lv[200], a[FB_FMT_LEN], b[FB_FMT_LEN];
	uint64_t e = c->p2->b[r2->s.k];

	snprintf(why, sizeof(why), "%s or %s: the power-of-two rows from %s rise %.0f%% of the "
		 "3 x 2^n step (%s)", fmt_size(a, sizeof(a), e), fmt_size(b, sizeof(b), 3 * e), a,
		 100 * q, step_text(lv, sizeof(lv), c->p3, &r3->s));
	set_doubt(v, e, 3 * e, why);
}

void vt_disagree(const struct ctx *c, const struct rise *r2, const struct rise *r3,
		 struct va_verdict *v)
{
	char why[WHY_LEN], l2[200], l3[200], a[FB_FMT_LEN], b[FB_FMT_LEN];
	uint64_t e = c->p2->b[r2->s.k];

	step_text(l2, sizeof(l2), c->p2, &r2->s);
	fmt_size(a, sizeof(a), e);
	if (!r3->found) {
		snprintf(why, sizeof(why), "%s?: the power-of-two rows step at %s (%s), but the "
			 "3 x 2^n rows show no step at %s", a, a, l2, fmt_size(b, sizeof(b), 3 * e));
		set_doubt(v, e, 0, why);
		return;
	}
	fmt_size(b, sizeof(b), c->p3->b[r3->s.k]);
	snprintf(why, sizeof(why), "%s or %s: the power-of-two rows step at %s (%s), the 3 x 2^n "
		 "rows rise at %s%s (%s)", a, b, a, l2, b, r3->s.flaw == VS_CLEAN ? "" :
		 ", not cleanly", step_text(l3, sizeof(l3), c->p3, &r3->s));
	set_doubt(v, e, c->p3->b[r3->s.k], why);
}

void vt_partial(const struct ctx *c, const struct rise *r3, double q, struct va_verdict *v)
{
	char why[WHY_LEN], lv[200], a[FB_FMT_LEN], b[FB_FMT_LEN];
	uint64_t e = c->p3->b[r3->s.k];

	snprintf(why, sizeof(why), "%s or %s: the 3 x 2^n rows step at %s (%s), but the "
		 "power-of-two rows from %s are raised %.0f%% of that", fmt_size(a, sizeof(a), e / 3),
		 fmt_size(b, sizeof(b), e), b, step_text(lv, sizeof(lv), c->p3, &r3->s), a, 100 * q);
	set_doubt(v, e / 3, e, why);
}

/* "(the table has no rows below 2MiB: cut off?)" when no floor was measured. */
static char *cut_text(char *buf, size_t len, const struct vs_fam *f)
{
	char a[FB_FMT_LEN];

	buf[0] = '\0';
	if (f->n && f->b[0] > VA_PAGE_MAX)
		snprintf(buf, len, "; the table has no rows below %s (cut off?)",
			 fmt_size(a, sizeof(a), f->b[0]));
	return buf;
}

/* Why a rise of family f is not a step, with the sizes that compete. */
static void flawed(const struct vs_fam *f, const struct vs_step *s, const char *fam,
		   struct va_verdict *v)
{
	char why[WHY_LEN], lv[200], a[FB_FMT_LEN], b[FB_FMT_LEN], d[FB_FMT_LEN], x[FB_FMT_LEN];
	char cut[80];
	size_t k = s->k;
	bool row_low = f->d[k] - s->down < 0.65 * (s->up - s->down);

	step_text(lv, sizeof(lv), f, s);
	fmt_size(a, sizeof(a), f->b[k]);
	switch (s->flaw) {
	case VS_FEW:
		if (f->b[0] > VA_PAGE_MAX && k > 1) {
			/* Cut off at the bottom, flat up to a rise at the top: two readings. */
			snprintf(why, sizeof(why), "%s or less, or %s?: the %s rows are flat from %s, "
				 "the smallest row (cut off?), and rise at %s (%s), but only %zu row%s from "
				 "there up", fmt_size(b, sizeof(b), f->b[0]), a, fam, b, a, lv, f->n - k,
				 f->n - k == 1 ? "" : "s");
			set_doubt(v, f->b[0], f->b[k], why);
			break;
		}
		snprintf(why, sizeof(why), "%s?: the %s rows rise at %s (%s), but only %zu row%s from "
			 "there up%s", a, fam, a, lv, f->n - k, f->n - k == 1 ? "" : "s",
			 cut_text(cut, sizeof(cut), f));
		set_doubt(v, f->b[k], 0, why);
		break;
	case VS_MISSING:
		snprintf(why, sizeof(why), "%s to %s: the %s rows rise at %s (%s), but the rows "
			 "between %s and %s are missing", fmt_size(b, sizeof(b), 2 * f->b[k - 1]), a,
			 fam, a, lv, fmt_size(d, sizeof(d), f->b[k - 1]), a);
		set_doubt(v, 2 * f->b[k - 1], f->b[k], why);
		break;
	case VS_BETWEEN: {
		size_t i = row_low ? k : k - 1;
		uint64_t lo = f->b[i], hi = row_low && k + 1 < f->n ? f->b[k + 1] : f->b[k];

		snprintf(why, sizeof(why), "%s or %s: the %s rows rise (%s), but the diff at %s (%s) "
			 "lies between the levels", fmt_size(a, sizeof(a), lo), fmt_size(b, sizeof(b), hi),
			 fam, lv, fmt_size(x, sizeof(x), f->b[i]), fmt_time(d, sizeof(d), f->d[i]));
		set_doubt(v, lo, hi, why);
		break;
	}
	case VS_SHAKY:
		snprintf(why, sizeof(why), "%s or %s: the %s rows rise at %s (%s), but the plain reads "
			 "at %s were disturbed", fmt_size(b, sizeof(b), f->b[k - 1]), a, fam, a, lv,
			 fmt_size(x, sizeof(x), f->b[f->shaky[k] ? k : k - 1]));
		set_doubt(v, f->b[k - 1], f->b[k], why);
		break;
	default:
		snprintf(why, sizeof(why), "%s?: the %s rows rise at %s (%s), but the lowest diff from "
			 "there up (%s) is not clear of the highest below (%s)", a, fam, a, lv,
			 fmt_time(b, sizeof(b), vs_min(f, k, f->n)),
			 fmt_time(d, sizeof(d), vs_max(f, s->lo, k)));
		set_doubt(v, f->b[k], 0, why);
	}
}

void vt_unclear(const struct ctx *c, const struct rise *r2, const struct rise *r3,
		struct va_verdict *v)
{
	char why[WHY_LEN], a[FB_FMT_LEN], b[FB_FMT_LEN], d[FB_FMT_LEN], e[FB_FMT_LEN], n[48];
	char cut[80];
	const struct vs_fam *f = c->p2;
	size_t i = vs_index(f, 128 * 1024);

	if (r2->found || r3->found) {
		flawed(r2->found ? c->p2 : c->p3, r2->found ? &r2->s : &r3->s,
		       r2->found ? "power-of-two" : "3 x 2^n", v);
		return;
	}
	if (v->page_state != VA_FOUND)
		return;
	if (i < c->lo2)
		i = c->lo2;
	if (i >= f->n) {
		set_doubt(v, 0, 0, "no rows above the page size");
		return;
	}
	snprintf(why, sizeof(why), "no step above the page size: the diffs from %s up lie between "
		 "%s and %s (%s, plain reads %s)%s", fmt_size(a, sizeof(a), f->b[i]),
		 fmt_time(b, sizeof(b), vs_min(f, i, f->n)), fmt_time(d, sizeof(d), vs_max(f, i, f->n)),
		 noise_text(n, sizeof(n), f, f->noise), fmt_time(e, sizeof(e), v->plain),
		 cut_text(cut, sizeof(cut), f));
	set_doubt(v, 0, 0, why);
}

void vt_page(const struct vs_fam *f, size_t k, size_t second, struct va_verdict *v)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN];
	int n;

	v->page_state = VA_FOUND;
	v->page = f->b[k];
	n = snprintf(v->page_why, sizeof(v->page_why), "diff %s or more from %s up vs at most %s "
		     "below", fmt_time(a, sizeof(a), vs_min(f, k, f->n)),
		     fmt_size(b, sizeof(b), f->b[k]), fmt_time(c, sizeof(c), vs_max(f, 0, k)));
	if (second && n > 0 && (size_t)n < sizeof(v->page_why))
		snprintf(v->page_why + n, sizeof(v->page_why) - (size_t)n, "; another step at %s: "
			 "pages read in pairs?", fmt_size(a, sizeof(a), f->b[second]));
}

void vt_left_out(struct va_verdict *v, size_t n, bool shaky)
{
	char why[WHY_LEN], a[FB_FMT_LEN];

	snprintf(why, sizeof(why), "%s?: %.500s, but more than a quarter of the %zu rows were %s "
		 "(try a larger --count)", fmt_size(a, sizeof(a), v->erase), v->erase_why, n,
		 shaky ? "left out or had disturbed plain reads" : "left out as too noisy");
	set_doubt(v, v->erase, 0, why);
}

/* The two largest diffs: "641µs at 4MiB and 549µs at 64MiB". */
static void largest(const struct va_row *rows, size_t n, char *buf, size_t len)
{
	size_t top[2] = { n, n };
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN], d[FB_FMT_LEN];

	for (size_t i = 0; i < n; i++) {
		if (top[0] == n || rows[i].diff > rows[top[0]].diff) {
			top[1] = top[0];
			top[0] = i;
		} else if (top[1] == n || rows[i].diff > rows[top[1]].diff) {
			top[1] = i;
		}
	}
	buf[0] = '\0';
	if (top[1] < n)
		snprintf(buf, len, ", the largest %s at %s and %s at %s",
			 fmt_time(a, sizeof(a), rows[top[0]].diff), fmt_size(b, sizeof(b), rows[top[0]].b),
			 fmt_time(c, sizeof(c), rows[top[1]].diff), fmt_size(d, sizeof(d), rows[top[1]].b));
}

void vt_no_pattern(const struct ctx *c, const struct va_row *rows, size_t n, struct va_verdict *v)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], d[FB_FMT_LEN], big[160], nz[48], cut[80];
	double lo = 0, hi = 0;

	for (size_t i = 0; i < n; i++) {
		if (i == 0 || rows[i].diff < lo)
			lo = rows[i].diff;
		if (i == 0 || rows[i].diff > hi)
			hi = rows[i].diff;
	}
	v->no_pattern = true;
	v->erase_state = VA_NONE;
	if (n == 0) {
		snprintf(v->erase_why, sizeof(v->erase_why), "no rows");
		return;
	}
	largest(rows, n, big, sizeof(big));
	if (v->plain > 0)
		noise_text(nz, sizeof(nz), c->p2, c->p2->noise);
	snprintf(v->erase_why, sizeof(v->erase_why), "no boundary from which the diffs rise and "
		 "stay up (diffs from %s to %s%s, %s, plain reads %s)%s", fmt_time(a, sizeof(a), lo),
		 fmt_time(b, sizeof(b), hi), big, v->plain > 0 ? nz : "noise unknown",
		 v->plain > 0 ? fmt_time(d, sizeof(d), v->plain) : "unknown",
		 cut_text(cut, sizeof(cut), c->p2));
}
