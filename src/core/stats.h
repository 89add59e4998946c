/*
 * Small statistics over measured times and rates: summaries, percentiles
 * of latencies, and the comparison of two cells measured in several runs
 * (is a difference real, or the noise between runs?). Pure functions.
 */
#ifndef FB_STATS_H
#define FB_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

double stats_mean(const double *v, size_t n);
/* Median; sorts a copy, v is left as it is. */
double stats_median(const double *v, size_t n);
double stats_min(const double *v, size_t n);
double stats_max(const double *v, size_t n);
/* Sample standard deviation (n - 1 in the denominator); 0 for n < 2. */
double stats_sd(const double *v, size_t n);
/* Least-squares line y = a + b x. Returns 0, or -1 when x does not vary. */
int stats_linfit(const double *x, const double *y, size_t n, double *a, double *b);

/* Sort ascending in place. */
void stats_sort_u64(uint64_t *v, size_t n);
/*
 * The pct-th percentile (0 < pct <= 100) of n sorted values by nearest
 * rank: the smallest value that at least pct percent of them do not
 * exceed (p50 of 1..4 is 2, p99 of 100 values the 99th). 0 when n is 0.
 */
uint64_t stats_percentile_u64(const uint64_t *sorted, size_t n, double pct);

/*
 * Student's t distribution with df degrees of freedom (df > 0, not
 * necessarily whole): the two-sided p-value of |t|, P(|T| >= |t|).
 */
double stats_t_p2(double t, double df);

/* Welch's t-test of two samples with unequal variances. */
struct stats_welch {
	double t;	/* (mean b - mean a) / its standard error */
	double df;	/* Welch-Satterthwaite degrees of freedom */
	double p;	/* two-sided */
};
/* -1 when a sample has fewer than 2 values. Two samples without any
 * scatter: p is 0 when their means differ, 1 when they are equal. */
int stats_welch(const double *a, size_t na, const double *b, size_t nb, struct stats_welch *w);

/* The level of the test: a p-value below it counts as a difference. */
#define STATS_ALPHA 0.05

/*
 * The verdict on two cells (b after a), each measured in several runs:
 *   STATS_TOO_FEW        fewer than 2 runs in a cell: no spread to judge by
 *   STATS_NOISE          Welch's p >= STATS_ALPHA: not shown to differ
 *   STATS_WITHIN_SPREAD  p < STATS_ALPHA, but the medians differ by no
 *                        more than the larger of the two cells' spreads
 *                        (max - min of its runs): real, yet smaller than
 *                        what one run varies
 *   STATS_SIGNIFICANT    p < STATS_ALPHA and the medians differ by more
 *                        than either cell's spread
 * With 3 runs per cell and equal distributions, Welch's test alone says
 * "differ" in about 3% of comparisons (it is conservative there) and the
 * spread rule lowers that further; both are checked in test_stats.
 */
enum stats_verdict { STATS_TOO_FEW, STATS_NOISE, STATS_WITHIN_SPREAD, STATS_SIGNIFICANT };

struct stats_cmp {
	enum stats_verdict verdict;
	double change_pct;	/* median b / median a - 1, in percent (NaN if median a is 0) */
	double p;		/* Welch's two-sided p; NaN with too few runs */
	double spread;		/* the larger of the two cells' max - min */
};
void stats_compare(const double *a, size_t na, const double *b, size_t nb, struct stats_cmp *c);
/* "significant", "within_spread", "within_noise", "too_few_runs": JSON and CSV. */
const char *stats_verdict_name(enum stats_verdict v);

#endif
