/*
 * The regions a write test overwrites. main.c asks for them before the
 * first write so that it can announce them, check them against the
 * device, back them up (--preserve) and arm the engine's guard, which
 * refuses any write outside them: a bug in a module then fails loudly
 * instead of destroying data nobody handed over.
 *
 * A new write test adds one function regions_NAME() below and one line
 * each in test_regions() and regions_past_end() (regions.c).
 */
#ifndef FB_REGIONS_H
#define FB_REGIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opts.h"

struct region {
	uint64_t off, len;
};

/*
 * The regions every selected write test overwrites, sorted, with
 * overlapping and adjacent ones merged. Fills at most max entries and
 * returns how many there are; when that is more than max, call again
 * with a larger array. 0 for a run of read-only tests.
 */
size_t test_regions(const struct fb_opts *o, struct region *r, size_t max);

/*
 * The name of the first selected write test whose regions reach past
 * size (or whose offsets overflow), with that end in *end; NULL when all
 * fit. Checked before anything is announced or backed up.
 */
const char *regions_past_end(const struct fb_opts *o, uint64_t size, uint64_t *end);

/* One function per write test: the same contract, unsorted. */
size_t regions_open_au(const struct fb_opts *o, struct region *r, size_t max);
size_t regions_find_fat(const struct fb_opts *o, struct region *r, size_t max);
size_t regions_find_open_au(const struct fb_opts *o, struct region *r, size_t max);

/* Sort and merge n regions in place; returns the new count. */
size_t regions_merge(struct region *r, size_t n);
/* Total bytes and the first byte past the last region (r merged). */
uint64_t regions_bytes(const struct region *r, size_t n);
uint64_t regions_end(const struct region *r, size_t n);

/*
 * The engine's guard. regions_arm copies the announced regions (merged);
 * from then on regions_allowed() is true only for a write that lies
 * wholly inside one of them. main.c arms it before every run, with no
 * regions for read-only tests. Unarmed (unit tests that drive a module
 * directly) every write is allowed. Returns -1 when out of memory.
 */
int regions_arm(const struct region *r, size_t n);
void regions_disarm(void);
bool regions_allowed(uint64_t off, uint64_t len);

#endif
