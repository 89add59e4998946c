/* The LFSR order visits every index exactly once; statistics helpers. */
#include <stdlib.h>

#include "core/engine.h"
#include "core/stats.h"
#include "unit.h"

static int permutation_ok(uint64_t n)
{
	unsigned char *seen = calloc(n, 1);
	struct lfsr l;
	int ok = 1;

	lfsr_init(&l, n);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t v = lfsr_next(&l);
		if (v >= n || seen[v]++)
			ok = 0;
	}
	free(seen);
	return ok;
}

int main(void)
{
	double x[] = { 1, 2, 3, 4 }, y[] = { 3, 5, 7, 9 }, a, b;
	double odd[] = { 5, 1, 3 };

	for (unsigned w = 1; w <= 22; w++) {
		CHECK(permutation_ok(1ull << w));
		CHECK(permutation_ok((1ull << w) - 1));
		CHECK(permutation_ok((1ull << w) + 3));
	}
	CHECK(permutation_ok(1));
	CHECK(permutation_ok(3 * 256));
	CHECK(stats_linfit(x, y, 4, &a, &b) == 0 && a == 1 && b == 2);
	CHECK(stats_linfit(x, y, 1, &a, &b) < 0);
	CHECK(stats_median(odd, 3) == 3 && odd[0] == 5);
	CHECK(stats_min(odd, 3) == 1);
	CHECK(stats_mean(odd, 3) == 3);
	UNIT_DONE();
}
