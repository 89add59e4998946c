/*
 * --compare's judgement of one row (the runs of a baseline and of another
 * input) and of a whole test, by the rules that judge the steps inside a
 * run (core/stats.h): Welch's t-test at 95% and the medians further apart
 * than either input's spread. Pure functions.
 */
#ifndef FB_COMPARE_JUDGE_H
#define FB_COMPARE_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

/* Fewer runs than this on a side: "cannot tell". */
#define CJ_MIN_RUNS 3
/* The most runs an estimate of the runs needed goes up to. */
#define CJ_MAX_ESTIMATE 100

enum cj_result { CJ_CANNOT_TELL, CJ_NOISE, CJ_WITHIN_SPREAD, CJ_SIGNIFICANT, CJ_ROUNDING };

struct cj_row {
	enum cj_result result;
	double median_a, median_b;
	double spread_a, spread_b;	/* max - min of each side's runs */
	double change_pct;		/* median b / median a - 1, percent (NaN: a is 0) */
	double p;			/* Welch's two-sided p (NaN: too few runs) */
	size_t na, nb;
	/*
	 * CJ_CANNOT_TELL: the runs per side that would show a change of
	 * this size at this spread; 0 when it cannot be estimated (no side
	 * has 2 runs), CJ_MAX_ESTIMATE + 1 when no number would (the
	 * change is smaller than the spread of a few runs).
	 */
	unsigned runs_needed;
};

void cj_judge(const double *a, size_t na, const double *b, size_t nb, struct cj_row *r);
/*
 * The inputs' precision: each side's values as printed are off by up to
 * half their step (the place of the last digit shown), and so is the
 * median of them. Medians no further apart than that could be the same
 * value printed twice: a difference called real becomes CJ_ROUNDING.
 */
void cj_digits(struct cj_row *r, double step_a, double step_b);

/*
 * The runs per side for a difference d of the medians with runs of
 * standard deviation sd: the least n >= 3 for which Welch's test at 95%
 * sees d in 80% of tries (d / (sd sqrt(2/n)) >= t(0.975) + t(0.80) at
 * 2n - 2 degrees of freedom) and d is larger than the expected spread
 * (range) of n runs. CJ_MAX_ESTIMATE + 1 when no n up to the limit does.
 */
unsigned cj_runs_needed(double d, double sd);
/* The expected range (max - min) of n normal values, in standard deviations. */
double cj_expected_range(unsigned n);

/*
 * The least number of rows judged significant out of m that is more than
 * chance: each row of two equal inputs is called significant with a
 * probability of at most 5%, so a test of m rows needs k of them where
 * P(at least k of m) < 5% (1 of 1, 2 of 2..7, 3 of 8..16, ...).
 */
unsigned cj_rows_needed(unsigned m);

#endif
