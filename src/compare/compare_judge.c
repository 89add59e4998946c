/* --compare's judgement of a row and of a test: see compare_judge.h. */
#include <float.h>
#include <math.h>

#include "compare/compare_judge.h"
#include "core/stats.h"

static double spread(const double *v, size_t n)
{
	return n ? stats_max(v, n) - stats_min(v, n) : 0;
}

double cj_expected_range(unsigned n)
{
	/* E[R] = integral of 1 - F(x)^n - (1 - F(x))^n, F the normal CDF. */
	double sum = 0, h = 0.01;

	for (double x = -9; x < 9; x += h) {
		double f = 0.5 * erfc(-(x + h / 2) / sqrt(2));

		sum += (1 - pow(f, n) - pow(1 - f, n)) * h;
	}
	return sum;
}

/* t with P(|T| >= t) = p2 at df degrees of freedom, by bisection. */
static double t_quantile(double p2, double df)
{
	double lo = 0, hi = 1000;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (stats_t_p2(mid, df) > p2)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

unsigned cj_runs_needed(double d, double sd)
{
	d = fabs(d);
	if (d == 0)
		return CJ_MAX_ESTIMATE + 1;
	if (sd <= 0)
		return CJ_MIN_RUNS;
	/* Both depend on n alone: worked out once, not for each of a log's rows. */
	static double need_of[CJ_MAX_ESTIMATE + 1], range_of[CJ_MAX_ESTIMATE + 1];

	for (unsigned n = CJ_MIN_RUNS; n <= CJ_MAX_ESTIMATE; n++) {
		double df = 2.0 * (n - 1);

		if (!need_of[n]) {
			need_of[n] = t_quantile(STATS_ALPHA, df) + t_quantile(0.40, df);
			range_of[n] = cj_expected_range(n);
		}
		/* The spread grows with the runs: past it, more runs do not help. */
		if (d <= range_of[n] * sd)
			return CJ_MAX_ESTIMATE + 1;
		if (d / (sd * sqrt(2.0 / n)) >= need_of[n])
			return n;
	}
	return CJ_MAX_ESTIMATE + 1;
}

void cj_judge(const double *a, size_t na, const double *b, size_t nb, struct cj_row *r)
{
	struct stats_cmp c;

	r->na = na;
	r->nb = nb;
	r->median_a = na ? stats_median(a, na) : NAN;
	r->median_b = nb ? stats_median(b, nb) : NAN;
	r->spread_a = spread(a, na);
	r->spread_b = spread(b, nb);
	r->change_pct = r->median_a != 0 ? (r->median_b / r->median_a - 1) * 100 : NAN;
	r->p = NAN;
	r->runs_needed = 0;
	if (na < CJ_MIN_RUNS || nb < CJ_MIN_RUNS) {
		double sd = fmax(stats_sd(a, na), stats_sd(b, nb));

		r->result = CJ_CANNOT_TELL;
		if (na >= 2 || nb >= 2)
			r->runs_needed = cj_runs_needed(r->median_b - r->median_a, sd);
		return;
	}
	stats_compare(a, na, b, nb, &c);
	r->p = c.p;
	r->result = c.verdict == STATS_SIGNIFICANT ? CJ_SIGNIFICANT
		    : c.verdict == STATS_WITHIN_SPREAD ? CJ_WITHIN_SPREAD : CJ_NOISE;
}

void cj_digits(struct cj_row *r, double step_a, double step_b)
{
	double d = fabs(r->median_b - r->median_a);
	/* And a few units of the last place: the values are doubles read from decimals. */
	double ulps = 8 * DBL_EPSILON * fmax(fabs(r->median_a), fabs(r->median_b));

	if ((r->result == CJ_SIGNIFICANT || r->result == CJ_WITHIN_SPREAD) &&
	    d <= (step_a + step_b) / 2 + ulps)
		r->result = CJ_ROUNDING;
}

unsigned cj_rows_needed(unsigned m)
{
	/*
	 * P(X >= k) for X binomial(m, 0.05), summed once from the top: the
	 * least k whose tail is below 5% is one above where the sum reaches
	 * it. Linear in m (a log of a million rows), where a sum per k was
	 * quadratic.
	 */
	double tail = 0;

	for (unsigned i = m; i >= 1; i--) {
		tail += exp(lgamma(m + 1.0) - lgamma(i + 1.0) - lgamma(m - i + 1.0) +
			    i * log(STATS_ALPHA) + (m - i) * log(1 - STATS_ALPHA));
		if (tail >= STATS_ALPHA)
			return i + 1 > m ? m : i + 1;
	}
	return 1;
}
