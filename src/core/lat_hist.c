/* The latency histogram: see lat_hist.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/lat_hist.h"

/* Values below 2^SUB are their own bucket; above, 2^(SUB-1) buckets per power of two. */
#define SUB 9
#define HALF (1u << (SUB - 1))
#define NBUCKETS ((64 - SUB + 1) * HALF + (1u << SUB))

struct lat_hist {
	uint64_t count, min, max;
	size_t lo, hi;			/* the buckets used: [lo, hi] (lo > hi: none) */
	uint64_t bucket[NBUCKETS];
};

static unsigned shift_of(uint64_t v)
{
	unsigned msb = 63 - (unsigned)__builtin_clzll(v);

	return msb + 1 - SUB;
}

static size_t index_of(uint64_t v)
{
	unsigned s;

	if (v < (1u << SUB))
		return (size_t)v;
	s = shift_of(v);
	return (size_t)s * HALF + (size_t)(v >> s);
}

/* The smallest value of bucket i and its width. */
static void bucket_range(size_t i, uint64_t *low, uint64_t *width)
{
	size_t s;

	if (i < (1u << SUB)) {
		*low = i;
		*width = 1;
		return;
	}
	/* i = s * HALF + m with m in [HALF, 2 * HALF) */
	s = (i - HALF) / HALF;
	*low = (uint64_t)(i - s * HALF) << s;
	*width = 1ull << s;
}

struct lat_hist *lh_new(void)
{
	struct lat_hist *h = calloc(1, sizeof(*h));

	if (h)
		lh_reset(h);
	return h;
}

void lh_free(struct lat_hist *h)
{
	free(h);
}

void lh_reset(struct lat_hist *h)
{
	if (h->lo <= h->hi && h->count)
		memset(&h->bucket[h->lo], 0, (h->hi - h->lo + 1) * sizeof(h->bucket[0]));
	h->count = 0;
	h->min = UINT64_MAX;
	h->max = 0;
	h->lo = NBUCKETS;
	h->hi = 0;
}

void lh_add(struct lat_hist *h, uint64_t ns)
{
	size_t i = index_of(ns);

	h->bucket[i]++;
	h->count++;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	if (i < h->lo)
		h->lo = i;
	if (i > h->hi)
		h->hi = i;
}

uint64_t lh_count(const struct lat_hist *h)
{
	return h->count;
}

uint64_t lh_max(const struct lat_hist *h)
{
	return h->max;
}

double lh_percentile(const struct lat_hist *h, double p)
{
	uint64_t rank, seen = 0, low, width;
	double v;

	if (h->count == 0)
		return NAN;
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	if (rank >= h->count)
		return (double)h->max;	/* the largest is known exactly */
	for (size_t i = h->lo; i <= h->hi; i++) {
		seen += h->bucket[i];
		if (seen < rank)
			continue;
		bucket_range(i, &low, &width);
		v = (double)low + (double)(width - 1) / 2.0;
		return fmin(fmax(v, (double)h->min), (double)h->max);
	}
	return (double)h->max;
}
