/* --sustained --verify: the read-back of what the run wrote (sustained_verify.c). */
#ifndef FB_SUSTAINED_VERIFY_H
#define FB_SUSTAINED_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/out.h"
#include "core/target.h"

/*
 * Read back what the run wrote to the region [start, start + len) --
 * from start on, written bytes in blocks of bs (the last may be shorter),
 * or with random the first written / bs blocks of the permutation of its
 * len / bs blocks -- and report them (a table row and a
 * verdict). Returns an exit status.
 */
int sus_verify(struct target *t, uint64_t start, uint64_t len, uint64_t bs, uint64_t run,
	       uint64_t written, bool random);

extern const struct out_table sus_verify_table;

#endif
