/* The latency histogram: percentiles within its resolution of the exact ones. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/lat_hist.h"
#include "unit.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank on sorted values. */
static uint64_t exact(const uint64_t *v, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);

	return v[(rank ? rank : 1) - 1];
}

static void against_exact(void)
{
	enum { N = 100000 };
	static uint64_t v[N];
	static const double ps[] = { 1, 50, 90, 99, 99.9, 100 };
	struct lat_hist *h = lh_new();
	uint64_t x = 88172645463325252ull;
	int bad = 0;

	CHECK(h != NULL);
	for (size_t i = 0; i < N; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		/* 1 µs to about 1 s, spread over many powers of two */
		v[i] = 1000 + (x % 1000000) * (1 + (x >> 40) % 1000);
		lh_add(h, v[i]);
	}
	qsort(v, N, sizeof(v[0]), cmp_u64);
	for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		double got = lh_percentile(h, ps[k]), want = (double)exact(v, N, ps[k]);

		if (fabs(got - want) > want * 0.004 + 0.5) {
			printf("p%g: got %.0f, want %.0f\n", ps[k], got, want);
			bad++;
		}
	}
	CHECK(bad == 0);
	CHECK(lh_count(h) == N && lh_max(h) == v[N - 1]);
	CHECK(lh_percentile(h, 100) == (double)v[N - 1]);
	lh_free(h);
}

static void edges(void)
{
	struct lat_hist *h = lh_new();

	CHECK(isnan(lh_percentile(h, 50)) && lh_count(h) == 0 && lh_max(h) == 0);
	/* equal values: every percentile is the value itself */
	for (int i = 0; i < 10; i++)
		lh_add(h, 123456789);
	CHECK(lh_percentile(h, 50) == 123456789.0 && lh_percentile(h, 99.9) == 123456789.0);
	/* small values are exact */
	lh_reset(h);
	CHECK(lh_count(h) == 0 && isnan(lh_percentile(h, 99)));
	for (uint64_t i = 1; i <= 100; i++)
		lh_add(h, i);
	CHECK(lh_percentile(h, 50) == 50.0 && lh_percentile(h, 99) == 99.0);
	CHECK(lh_percentile(h, 0.001) == 1.0);
	/* the largest values fit */
	lh_reset(h);
	lh_add(h, UINT64_MAX);
	lh_add(h, 1ull << 63);
	CHECK(lh_max(h) == UINT64_MAX && lh_percentile(h, 100) == (double)UINT64_MAX);
	CHECK(fabs(lh_percentile(h, 50) - 9223372036854775808.0) < 9223372036854775808.0 * 0.004);
	/* a reset after large values leaves nothing behind */
	lh_reset(h);
	lh_add(h, 7);
	CHECK(lh_percentile(h, 100) == 7.0 && lh_percentile(h, 1) == 7.0 && lh_count(h) == 1);
	lh_free(h);
}

int main(void)
{
	against_exact();
	edges();
	UNIT_DONE();
}
