/* The align test's measurement (its verdict is remembered in verdicts/facts.h). */
#ifndef FB_ALIGN_H
#define FB_ALIGN_H

#include <stdint.h>

#include "core/opts.h"
#include "core/target.h"

struct align_row {
	uint64_t boundary;
	double pre, on, post, diff;	/* ns */
};

/* The smallest power of two >= x. */
uint64_t align_pow2_ceil(uint64_t x);
/* The largest power-of-two boundary the align test starts from. */
uint64_t align_max_boundary(uint64_t size, uint64_t bs);
/* Measure one boundary b (any multiple of the sector, e.g. 3 x 2^n). */
int align_measure(struct target *t, void *buf, uint64_t b, uint64_t bs,
		  unsigned count, struct align_row *row);

/* -a: the table and its verdict (--find-open-au runs it first without --erasesize). */
int align_run(const struct fb_opts *o, struct target *t);

#endif
