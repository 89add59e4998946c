/* Interleaved erase-block writes, shared by --open-au, --find-fat and the
 * automatic open-AU search. */
#ifndef FB_AU_WRITE_H
#define FB_AU_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/opts.h"
#include "core/target.h"
#include "core/regions.h"

/* The original spaced the erase blocks of --open-au 12 apart ("helps with TLC"). */
#define OPENAU_SPACING 12

/* Start of the i-th erase block that --open-au writes. */
uint64_t openau_start(const struct fb_opts *o, unsigned i);
/* First byte past the region --open-au writes with nr erase blocks. */
uint64_t openau_end(const struct fb_opts *o, unsigned nr);
/* Where --find-fat starts: 0 unless --offset was given (the FAT lives at the start). */
uint64_t findfat_start(const struct fb_opts *o);

/*
 * Write one erase block's worth to each of the nr erase blocks starting at
 * starts[], in chunks of size, interleaved so consecutive writes go to
 * different erase blocks; within an erase block in linear order or, with
 * random, in an LFSR order that visits each chunk once. The total time of
 * the writes to erase block i is added to ns[i].
 */
int openau_write_round(struct target *t, const void *buf, const uint64_t *starts,
		       unsigned nr, uint64_t erase, uint64_t size, bool random, uint64_t *ns);

/* Is size one of the block sizes a sweep visits? (sector-aligned, >= bs) */
bool au_sweep_size_ok(struct target *t, uint64_t size, uint64_t bs);

/* How many block sizes a sweep from erase down to bs visits (its rows, for the progress line). */
uint64_t au_sweep_rows(struct target *t, uint64_t erase, uint64_t bs);

/* The first byte past nr blocks of len bytes, step apart from start; UINT64_MAX on overflow. */
uint64_t au_spaced_end(uint64_t start, unsigned nr, uint64_t step, uint64_t len);

/*
 * The regions of nr erase blocks OPENAU_SPACING apart from --offset (as
 * --open-au writes them), at most max of them in r; returns nr and sets
 * *end to the first byte past the last, UINT64_MAX when that overflows.
 */
size_t au_openau_regions(const struct fb_opts *o, unsigned nr, struct region *r, size_t max,
			 uint64_t *end);

#endif
