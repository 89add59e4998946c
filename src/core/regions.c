/* The regions write tests overwrite, and the engine's guard: see regions.h. */
#include <stdlib.h>
#include <string.h>

#include "core/regions.h"

static int by_offset(const void *a, const void *b)
{
	const struct region *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

size_t regions_merge(struct region *r, size_t n)
{
	size_t out = 0;

	if (n == 0)
		return 0;
	qsort(r, n, sizeof(*r), by_offset);
	for (size_t i = 1; i < n; i++) {
		uint64_t end = r[out].off + r[out].len;

		if (r[i].off <= end) {
			if (r[i].off + r[i].len > end)
				r[out].len = r[i].off + r[i].len - r[out].off;
		} else {
			r[++out] = r[i];
		}
	}
	return out + 1;
}

uint64_t regions_bytes(const struct region *r, size_t n)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += r[i].len;
	return sum;
}

uint64_t regions_end(const struct region *r, size_t n)
{
	return n ? r[n - 1].off + r[n - 1].len : 0;
}

static struct region *armed;
static size_t narmed;
static bool is_armed;

int regions_arm(const struct region *r, size_t n)
{
	struct region *copy = n ? malloc(n * sizeof(*copy)) : NULL;

	if (n && !copy)
		return -1;
	if (n)
		memcpy(copy, r, n * sizeof(*copy));
	regions_disarm();
	armed = copy;
	narmed = regions_merge(copy, n);
	is_armed = true;
	return 0;
}

void regions_disarm(void)
{
	free(armed);
	armed = NULL;
	narmed = 0;
	is_armed = false;
}

bool regions_allowed(uint64_t off, uint64_t len)
{
	size_t lo = 0, hi = narmed;

	if (!is_armed)
		return true;
	if (off + len < off)
		return false;
	/* Binary search for the last region starting at or before off. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (armed[mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && off + len <= armed[lo - 1].off + armed[lo - 1].len;
}
