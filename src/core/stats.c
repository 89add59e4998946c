/* Small statistics over measured times: see stats.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"

double stats_mean(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_median(const double *v, size_t n)
{
	double *c, m;

	if (n == 0)
		return 0;
	c = malloc(n * sizeof(*c));
	if (!c)
		return v[0];
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return m;
}

double stats_min(const double *v, size_t n)
{
	double m = n ? v[0] : 0;

	for (size_t i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

double stats_max(const double *v, size_t n)
{
	double m = n ? v[0] : 0;

	for (size_t i = 1; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

double stats_sd(const double *v, size_t n)
{
	double m = stats_mean(v, n), s = 0;

	if (n < 2)
		return 0;
	for (size_t i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return sqrt(s / (double)(n - 1));
}

int stats_linfit(const double *x, const double *y, size_t n, double *a, double *b)
{
	double mx = stats_mean(x, n), my = stats_mean(y, n), sxx = 0, sxy = 0;

	for (size_t i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
	}
	if (n < 2 || sxx == 0)
		return -1;
	*b = sxy / sxx;
	*a = my - *b * mx;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

void stats_sort_u64(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
}

uint64_t stats_percentile_u64(const uint64_t *sorted, size_t n, double pct)
{
	double rank = ceil(pct / 100.0 * (double)n);

	if (n == 0)
		return 0;
	if (rank < 1)
		rank = 1;
	return sorted[(size_t)rank > n ? n - 1 : (size_t)rank - 1];
}

/*
 * The continued fraction of the incomplete beta function,
 *   I_x(a, b) = x^a (1 - x)^b / (a B(a, b)) * 1 / (1 + d1 / (1 + d2 / (1 + ...)))
 * with d(2m+1) = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)) and
 * d(2m) = m (b - m) x / ((a + 2m - 1)(a + 2m)), evaluated from the front
 * by Lentz's method. It converges fast for x < (a + 1) / (a + b + 2).
 */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1, f, step;

	d = 1 - (a + b) * x / (a + 1);
	d = 1 / (fabs(d) < tiny ? tiny : d);
	f = d;
	for (int m = 1; m <= 500; m++) {
		for (int odd = 0; odd < 2; odd++) {
			double k = odd ? -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
				       : m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));

			d = 1 + k * d;
			d = 1 / (fabs(d) < tiny ? tiny : d);
			c = 1 + k / c;
			if (fabs(c) < tiny)
				c = tiny;
			step = c * d;
			f *= step;
		}
		if (fabs(step - 1) < 1e-15)
			break;
	}
	return f;
}

/* The regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double stats_t_p2(double t, double df)
{
	if (isnan(t) || df <= 0)
		return NAN;
	if (isinf(t))
		return 0;
	/* P(|T| >= |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
	return beta_inc(df / 2, 0.5, df / (df + t * t));
}

static double variance(const double *v, size_t n)
{
	double sd = stats_sd(v, n);

	return sd * sd;
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb, struct stats_welch *w)
{
	double ea, eb, se2, diff;

	if (na < 2 || nb < 2)
		return -1;
	ea = variance(a, na) / (double)na;
	eb = variance(b, nb) / (double)nb;
	se2 = ea + eb;
	diff = stats_mean(b, nb) - stats_mean(a, na);
	if (se2 == 0) {		/* no scatter at all (a simulated card without noise) */
		w->t = diff == 0 ? 0 : copysign(INFINITY, diff);
		w->df = (double)(na + nb - 2);
		w->p = diff == 0 ? 1 : 0;
		return 0;
	}
	w->t = diff / sqrt(se2);
	w->df = se2 * se2 / (ea * ea / (double)(na - 1) + eb * eb / (double)(nb - 1));
	w->p = stats_t_p2(w->t, w->df);
	return 0;
}

void stats_compare(const double *a, size_t na, const double *b, size_t nb, struct stats_cmp *c)
{
	double ma = stats_median(a, na), mb = stats_median(b, nb);
	double sa = stats_max(a, na) - stats_min(a, na), sb = stats_max(b, nb) - stats_min(b, nb);
	struct stats_welch w;

	c->change_pct = ma != 0 ? (mb / ma - 1) * 100 : NAN;
	c->spread = sa > sb ? sa : sb;
	if (stats_welch(a, na, b, nb, &w) < 0) {
		c->verdict = STATS_TOO_FEW;
		c->p = NAN;
		return;
	}
	c->p = w.p;
	if (!(w.p < STATS_ALPHA))
		c->verdict = STATS_NOISE;
	else if (fabs(mb - ma) > c->spread)
		c->verdict = STATS_SIGNIFICANT;
	else
		c->verdict = STATS_WITHIN_SPREAD;
}

const char *stats_verdict_name(enum stats_verdict v)
{
	switch (v) {
	case STATS_SIGNIFICANT: return "significant";
	case STATS_WITHIN_SPREAD: return "within_spread";
	case STATS_NOISE: return "within_noise";
	default: return "too_few_runs";
	}
}
