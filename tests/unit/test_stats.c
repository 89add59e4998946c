/*
 * The statistics of core/stats.c on data sets with known answers: the t
 * distribution against closed forms and reference values, Welch's test
 * against a worked example, percentiles by nearest rank, and the verdict
 * of stats_compare() over many simulated comparisons: equal distributions
 * are called different at about the stated rate (no more than 5%),
 * clearly shifted ones are called significant.
 */
#include <math.h>

#include "core/stats.h"
#include "unit.h"

#define NEAR(x, want, tol) (fabs((x) - (want)) <= (tol))
#define PI 3.14159265358979323846

/* Closed forms: df 1 is the Cauchy distribution, df 2 has one too. */
static void t_closed_forms(void)
{
	for (double t = 0; t < 50; t += 0.37) {
		CHECK(NEAR(stats_t_p2(t, 1), 1 - 2 / PI * atan(t), 1e-12));
		CHECK(NEAR(stats_t_p2(-t, 1), 1 - 2 / PI * atan(t), 1e-12));
		CHECK(NEAR(stats_t_p2(t, 2), 1 - t / sqrt(2 + t * t), 1e-12));
	}
}

/* Reference values: mpmath.betainc(df/2, 1/2, 0, df/(df+t^2), regularized=True)
 * at 30 digits; the first three are the 95% critical values of tables. */
static void t_reference(void)
{
	static const struct { double t, df, p; } ref[] = {
		{ 2.776445105, 4, 0.050000000010119479 },
		{ 12.70620474, 1, 0.049999999985008961 },
		{ 2.228138852, 10, 0.049999999998836525 },
		{ 1.0, 3.5, 0.38133725356344554 },
		{ 0.5, 2.3, 0.66087243488475583 },
		{ 3.0, 7.77, 0.017652958908151495 },
		{ 8.0, 2.1, 0.013226062530955561 },
		{ 1.959963985, 1e6, 0.050000277241458443 },
		{ 0.0, 5, 1.0 },
		{ 40, 3, 3.4380680789158528e-5 },
	};

	for (size_t i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		double p = stats_t_p2(ref[i].t, ref[i].df);

		CHECK(NEAR(p, ref[i].p, 1e-10 * (ref[i].p > 1e-3 ? 1 : 1e-2)));
		if (!NEAR(p, ref[i].p, 1e-10))
			printf("FAIL: t %g df %g: p %.17g, want %.17g\n", ref[i].t, ref[i].df, p,
			       ref[i].p);
	}
	CHECK(stats_t_p2(INFINITY, 3) == 0);
	CHECK(isnan(stats_t_p2(1, 0)) && isnan(stats_t_p2(NAN, 3)));
}

static void welch_example(void)
{
	/* t 6.8847657912, df 4.9739652516, p 0.0010103796691 (by hand, mpmath) */
	double a[] = { 10.1, 10.4, 9.8 }, b[] = { 12.0, 11.5, 12.6, 12.2 };
	double c1[] = { 5, 5, 5 }, c2[] = { 6, 6, 6 };
	struct stats_welch w;

	CHECK(stats_welch(a, 3, b, 4, &w) == 0);
	CHECK(NEAR(w.t, 6.884765791223404, 1e-9) && NEAR(w.df, 4.973965251580681, 1e-9));
	CHECK(NEAR(w.p, 0.0010103796691248584, 1e-12));
	/* the other way round: t changes sign, p stays */
	CHECK(stats_welch(b, 4, a, 3, &w) == 0 && NEAR(w.t, -6.884765791223404, 1e-9) &&
	      NEAR(w.p, 0.0010103796691248584, 1e-12));
	CHECK(stats_welch(a, 1, b, 4, &w) < 0 && stats_welch(a, 3, b, 1, &w) < 0);
	/* no scatter at all: different means are certain, equal ones are not */
	CHECK(stats_welch(c1, 3, c2, 3, &w) == 0 && w.p == 0 && isinf(w.t) && w.t > 0);
	CHECK(stats_welch(c1, 3, c1, 3, &w) == 0 && w.p == 1 && w.t == 0);
}

static void summaries(void)
{
	uint64_t v[100], four[] = { 4, 1, 3, 2 };
	double d[] = { 3, 1, 2 };

	for (unsigned i = 0; i < 100; i++)
		v[i] = 100 - i;
	stats_sort_u64(v, 100);
	CHECK(v[0] == 1 && v[99] == 100);
	CHECK(stats_percentile_u64(v, 100, 50) == 50);
	CHECK(stats_percentile_u64(v, 100, 99) == 99);
	CHECK(stats_percentile_u64(v, 100, 100) == 100);
	CHECK(stats_percentile_u64(v, 100, 0.001) == 1);
	stats_sort_u64(four, 4);
	CHECK(stats_percentile_u64(four, 4, 50) == 2 && stats_percentile_u64(four, 4, 99) == 4);
	CHECK(stats_percentile_u64(four, 1, 99) == 1 && stats_percentile_u64(four, 0, 50) == 0);
	CHECK(stats_max(d, 3) == 3 && stats_min(d, 3) == 1);
	CHECK(NEAR(stats_sd(d, 3), 1, 1e-15) && stats_sd(d, 1) == 0);
}

/* A seeded normal generator (splitmix64 and Box-Muller): the same every run. */
static uint64_t rng = 12345;

static double unit_rand(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return ((double)((z ^ (z >> 31)) >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(double mean, double sd)
{
	return mean + sd * sqrt(-2 * log(unit_rand())) * cos(2 * PI * unit_rand());
}

/* Skewed noise, as timings have: a floor and an exponential tail (sd 10). */
static double skewed(double mean, double sd)
{
	return mean - sd - sd * log(unit_rand());
}

static double (*noise)(double mean, double sd) = normal;

/* Over trials comparisons of n runs each: how often Welch alone (p <
 * alpha) and the verdict (significant) call them different. */
static void rates(size_t n, double shift, unsigned trials, double *welch, double *signif)
{
	double a[16], b[16];
	unsigned w = 0, s = 0;

	for (unsigned k = 0; k < trials; k++) {
		struct stats_cmp c;

		for (size_t i = 0; i < n; i++) {
			a[i] = noise(1000, 10);
			b[i] = noise(1000 + shift * 10, 10);
		}
		stats_compare(a, n, b, n, &c);
		w += c.p < STATS_ALPHA;
		s += c.verdict == STATS_SIGNIFICANT;
	}
	*welch = (double)w / trials;
	*signif = (double)s / trials;
}

static void verdict_rates(void)
{
	static const size_t ns[] = { 3, 5, 8, 16 };
	double w, s;

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		/* equal: Welch's false alarms near its level (a little under it
		 * for few runs), the verdict's no more often */
		rates(ns[i], 0, 20000, &w, &s);
		printf("n %zu, equal: Welch %.4f, significant %.4f\n", ns[i], w, s);
		CHECK(w > (ns[i] == 3 ? 0.02 : 0.035) && w < 0.06);
		CHECK(s <= w && s < 0.05);
		/* shifted by 8 standard deviations: always found */
		rates(ns[i], 8, 2000, &w, &s);
		CHECK(w > 0.99 && s > 0.99);
	}
	/* a real shift of one standard deviation in 16 runs: Welch sees it
	 * mostly, the verdict calls it no more than within the spread */
	rates(16, 1, 2000, &w, &s);
	printf("n 16, shifted by one sd: Welch %.4f, significant %.4f\n", w, s);
	CHECK(w > 0.6 && s < 0.01);
	/* skewed noise: no more false alarms */
	noise = skewed;
	for (size_t i = 0; i < 2; i++) {
		rates(ns[i], 0, 20000, &w, &s);
		printf("n %zu, equal, skewed noise: Welch %.4f, significant %.4f\n", ns[i], w, s);
		CHECK(w < 0.05 && s < 0.05);
		rates(ns[i], 8, 2000, &w, &s);
		CHECK(s > 0.95);
	}
	noise = normal;
}

static void compare_cases(void)
{
	double lo[] = { 100, 102, 98 }, hi[] = { 141, 139, 143 }, near[] = { 101, 99, 103 };
	double one[] = { 120 }, tight_a[] = { 100, 100.1, 100.2 }, tight_b[] = { 100.5, 100.6, 100.7 };
	struct stats_cmp c;

	stats_compare(lo, 3, hi, 3, &c);
	CHECK(c.verdict == STATS_SIGNIFICANT && NEAR(c.change_pct, 41, 1e-9) && c.p < 0.001);
	CHECK(c.spread == 4);
	stats_compare(hi, 3, lo, 3, &c);
	CHECK(c.verdict == STATS_SIGNIFICANT && c.change_pct < 0);
	stats_compare(lo, 3, near, 3, &c);
	CHECK(c.verdict == STATS_NOISE && NEAR(c.change_pct, 1, 1e-9) && c.p > 0.5);
	stats_compare(lo, 3, one, 1, &c);
	CHECK(c.verdict == STATS_TOO_FEW && isnan(c.p) && NEAR(c.change_pct, 20, 1e-9));
	/* a real difference of 0.5 against spreads of 0.2: significant */
	stats_compare(tight_a, 3, tight_b, 3, &c);
	CHECK(c.verdict == STATS_SIGNIFICANT);
	CHECK_STR(stats_verdict_name(STATS_SIGNIFICANT), "significant");
	CHECK_STR(stats_verdict_name(STATS_NOISE), "within_noise");
	CHECK_STR(stats_verdict_name(STATS_WITHIN_SPREAD), "within_spread");
	CHECK_STR(stats_verdict_name(STATS_TOO_FEW), "too_few_runs");
}

/* Significant at p < alpha but the medians no further apart than a spread. */
static void within_spread(void)
{
	double a[] = { 100, 100, 100, 100, 100, 100, 100, 90 };
	double b[] = { 102, 102, 102, 102, 102, 102, 102, 103 };
	struct stats_cmp c;

	stats_compare(a, 8, b, 8, &c);
	CHECK(c.p < STATS_ALPHA && c.spread == 10 && c.verdict == STATS_WITHIN_SPREAD);
}

int main(void)
{
	t_closed_forms();
	t_reference();
	welch_example();
	summaries();
	compare_cases();
	within_spread();
	verdict_rates();
	UNIT_DONE();
}
