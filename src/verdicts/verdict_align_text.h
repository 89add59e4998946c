/*
 * The words of the align verdict: what verdict_align.c decided, put as
 * evidence a reader can check against the table. Internal to the align
 * verdict (verdict_align.c and verdict_align_text.c).
 */
#ifndef FB_VERDICT_ALIGN_TEXT_H
#define FB_VERDICT_ALIGN_TEXT_H

#include "verdicts/verdict_results.h"
#include "verdicts/verdict_step.h"

/* The erase rise of one family, and a second one above it (if clean). */
struct rise {
	bool found, second;
	struct vs_step s, s2;
};

/* The two families and where their levels above the page start. */
struct ctx {
	const struct vs_fam *p2, *p3;
	size_t lo2, lo3;
};

/*
 * Named: main is the rise that names the size (3 x 2^n when three);
 * other, when not NULL, the other family's agreeing rise, q the other
 * family's rise as a fraction of main's. A second clean rise above main
 * makes it uncertain instead, naming both.
 */
void vt_found(const struct ctx *c, const struct rise *main, const struct rise *other, bool three,
	      double q, struct va_verdict *v);
/* Both families step, the power-of-two rows to q of the 3 x 2^n step: neither size. */
void vt_families(const struct ctx *c, const struct rise *r2, const struct rise *r3, double q,
		 struct va_verdict *v);
/* The power-of-two rows step cleanly, the 3 x 2^n rows not where they should. */
void vt_disagree(const struct ctx *c, const struct rise *r2, const struct rise *r3,
		 struct va_verdict *v);
/* The 3 x 2^n rows step cleanly, but the power-of-two rows are raised q of that. */
void vt_partial(const struct ctx *c, const struct rise *r3, double q, struct va_verdict *v);
/* No clean step in either family: what rises there is, if any. */
void vt_unclear(const struct ctx *c, const struct rise *r2, const struct rise *r3,
		struct va_verdict *v);
/* The page found at row page of f (second: a further rise at that row, or 0). */
void vt_page(const struct vs_fam *f, size_t page, size_t second, struct va_verdict *v);
/* A named size that rests on a table that lost too many of its n rows
 * (shaky: or had disturbed plain reads in them). */
void vt_left_out(struct va_verdict *v, size_t n, bool shaky);
/* No page, no erase block: the evidence (read time, largest diffs, noise). */
void vt_no_pattern(const struct ctx *c, const struct va_row *rows, size_t n, struct va_verdict *v);

#endif
