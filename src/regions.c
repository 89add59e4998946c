/* The regions write tests overwrite, and the engine's guard: see regions.h. */
#include <stdlib.h>
#include <string.h>

#include "openau.h"
#include "regions.h"

/* Store one region when there is room; always count it. */
static size_t put(struct region *r, size_t max, size_t i, uint64_t off, uint64_t len)
{
	if (i < max) {
		r[i].off = off;
		r[i].len = len;
	}
	return i + 1;
}

size_t regions_open_au(const struct fb_opts *o, struct region *r, size_t max)
{
	size_t n = 0;

	/* The erase blocks lie OPENAU_SPACING apart: one region each. */
	for (unsigned i = 0; i < o->open_au_nr; i++)
		n = put(r, max, n, openau_start(o, i), o->erasesize);
	return n;
}

size_t regions_find_fat(const struct fb_opts *o, struct region *r, size_t max)
{
	return put(r, max, 0, findfat_start(o), (uint64_t)o->fat_nr * o->erasesize);
}

size_t regions_find_open_au(const struct fb_opts *o, struct region *r, size_t max)
{
	size_t n = 0;

	/* The erase blocks --open-au would write with the largest N the search may try. */
	for (unsigned i = 0; i < o->find_au_max; i++)
		n = put(r, max, n, openau_start(o, i), o->erasesize);
	return n;
}

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

/* Where the next test's regions go: NULL when the array is full. */
static struct region *room(struct region *r, size_t max, size_t n)
{
	return n < max ? r + n : NULL;
}

size_t test_regions(const struct fb_opts *o, struct region *r, size_t max)
{
	size_t n = 0;

	/* One line per write test; each appends after the ones before. */
	if (o->open_au)
		n += regions_open_au(o, room(r, max, n), n < max ? max - n : 0);
	if (o->find_fat)
		n += regions_find_fat(o, room(r, max, n), n < max ? max - n : 0);
	if (o->find_open_au)
		n += regions_find_open_au(o, room(r, max, n), n < max ? max - n : 0);
	return n <= max ? regions_merge(r, n) : n;
}

/*
 * The first byte past nr blocks of len bytes, step bytes apart from start;
 * UINT64_MAX when that does not fit in 64 bits. Computed apart from the
 * region lists, whose offsets would wrap (-f -e 4096T --fat-nr=4096 is
 * 2^64 bytes: a region of length 0).
 */
static uint64_t spaced_end(uint64_t start, unsigned nr, uint64_t step, uint64_t len)
{
	uint64_t span, end;

	if (nr == 0)
		return start;
	if (__builtin_mul_overflow((uint64_t)(nr - 1), step, &span) ||
	    __builtin_add_overflow(start, span, &end) || __builtin_add_overflow(end, len, &end))
		return UINT64_MAX;
	return end;
}

/* --open-au and --find-open-au: erase blocks OPENAU_SPACING apart from --offset. */
static uint64_t openau_regions_end(const struct fb_opts *o, unsigned nr)
{
	uint64_t step;

	if (__builtin_mul_overflow((uint64_t)OPENAU_SPACING, o->erasesize, &step))
		return nr > 1 ? UINT64_MAX : spaced_end(o->offset, nr, 0, o->erasesize);
	return spaced_end(o->offset, nr, step, o->erasesize);
}

const char *regions_past_end(const struct fb_opts *o, uint64_t size, uint64_t *end)
{
	/* One line per write test, as in test_regions(). */
	if (o->open_au && (*end = openau_regions_end(o, o->open_au_nr)) > size)
		return "open-au";
	if (o->find_fat &&
	    (*end = spaced_end(findfat_start(o), o->fat_nr, o->erasesize, o->erasesize)) > size)
		return "find-fat";
	if (o->find_open_au && (*end = openau_regions_end(o, o->find_au_max)) > size)
		return "find-open-au";
	return NULL;
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
