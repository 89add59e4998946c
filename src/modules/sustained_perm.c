/* The order of --sustained --random: see sustained_perm.h. */
#include "modules/sustained_perm.h"

void sus_perm_init(struct sus_perm *p, uint64_t n)
{
	p->n = n;
	for (p->mask = 1; p->mask < n; p->mask = p->mask * 2 + 1)
		;
	p->x = 0;
}

/* A bijection of the values below mask + 1 that hides the LCG's regular low bits. */
static uint64_t perm_mix(const struct sus_perm *p, uint64_t x)
{
	unsigned half = (unsigned)(__builtin_popcountll(p->mask) + 1) / 2;

	x ^= x >> half;
	x = (x * 0x9e3779b97f4a7c15ull) & p->mask;
	return x ^ (x >> half);
}

uint64_t sus_perm_next(struct sus_perm *p)
{
	uint64_t v;

	/* a = 1 mod 4 and c odd: the sequence visits every value below mask + 1 */
	do {
		p->x = (p->x * 6364136223846793005ull + 1442695040888963407ull) & p->mask;
		v = perm_mix(p, p->x);
	} while (v >= p->n);
	return v;
}
