/* The order of --sustained --random, for the writer and the read-back alike. */
#ifndef FB_SUSTAINED_PERM_H
#define FB_SUSTAINED_PERM_H

#include <stdint.h>

/*
 * --random: every block of the region once, in a pseudo-random order: a
 * full-period linear congruential sequence modulo the next power of two,
 * values past the last block skipped.
 */
struct sus_perm {
	uint64_t n, mask, x;
};

void sus_perm_init(struct sus_perm *p, uint64_t n);
uint64_t sus_perm_next(struct sus_perm *p);

#endif
