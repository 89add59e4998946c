/*
 * --precondition: before the write tests, and after the backup, the
 * announced regions are discarded (the device may start those blocks
 * afresh) or filled sequentially once, so that repeated runs start from
 * the same state rather than from whatever the last run left.
 */
#ifndef FB_PRECONDITION_H
#define FB_PRECONDITION_H

#include <stddef.h>

#include "core/opts.h"
#include "core/regions.h"
#include "core/target.h"

/*
 * Do it to the n merged regions (nothing for none, or no regions), in a
 * results section of its own that says what was done and, for a
 * discard, whether the regions read back as zeros. An exit status: a
 * device that cannot discard fails the run (FB_EDEV) before any test.
 */
int precondition_run(const struct fb_opts *o, struct target *t, const struct region *r,
		     size_t n);

#endif
