/* --find-open-au: what it offers the other tests and the accuracy harness. */
#ifndef FB_FINDOPENAU_H
#define FB_FINDOPENAU_H

#include <stdint.h>

#include "core/opts.h"
#include "core/out.h"

/* The largest N whose erase blocks (12 apart from --offset) fit in size bytes. */
unsigned find_open_au_max(const struct fb_opts *o, uint64_t size);
/* The search (findopenau.c), run by the test (findopenau_test.c). */
struct target;
int find_open_au_run(const struct fb_opts *o, struct target *t);
/* Its table: one line per block size of a probe. */
extern const struct out_table find_open_au_table;

#endif
