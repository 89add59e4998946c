/*
 * Stamped blocks, for reading back what a write test wrote (--verify):
 * every block begins with a header -- a magic number, the offset it was
 * written to, the run's id and a checksum of header and contents -- so
 * that a block read back tells whether it holds what was written there
 * (good), what this run wrote at another offset (a write that landed
 * elsewhere: the distance says whether the device wraps around, as a
 * fake-capacity card does, or misplaced it), no block of this run (the
 * write was dropped) or a block of this run whose contents changed
 * (corrupt).
 */
#ifndef FB_STAMP_H
#define FB_STAMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STAMP_LEN 32	/* the header; a block is at least this long */
#define STAMP_MIN_WRAP (1024 * 1024)	/* the smallest wrap-around believed */

enum stamp_class { ST_GOOD, ST_WRAPPED, ST_MISPLACED, ST_DROPPED, ST_CORRUPT };

/* A run id that differs from run to run (time and process). */
uint64_t stamp_run_id(void);
/* Stamp the block of len bytes at buf as written at off by run. */
void stamp_put(void *buf, size_t len, uint64_t off, uint64_t run);

/* What the blocks read back say, block by block, in any order. */
struct stamp_tally {
	uint64_t run;
	uint64_t blocks, bad;
	uint64_t n[ST_CORRUPT + 1];	/* per class */
	uint64_t period;	/* the wrap-around: the gcd of the distances (0: none) */
	uint64_t first_bad;	/* the lowest offset of a bad block (UINT64_MAX: none) */
	uint64_t first_lost;	/* the lowest bad offset that is not a wrap-around */
};

void stamp_tally_init(struct stamp_tally *s, uint64_t run);
/* Judge the block of len bytes read at off; its class. */
enum stamp_class stamp_check(struct stamp_tally *s, const void *buf, size_t len, uint64_t off);
/*
 * The end of what the device holds, from start on: the first offset that
 * lost its block other than to a wrap-around, or start + the wrap-around
 * period when that comes first (a card that keeps period bytes), else end.
 */
uint64_t stamp_usable_end(const struct stamp_tally *s, uint64_t start, uint64_t end);
const char *stamp_class_name(enum stamp_class c);

#endif
