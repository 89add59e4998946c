/*
 * One run of the selected tests, all from the test table: the paths
 * checked and locked (safety.h), the target opened (read-write only
 * when a selected test writes), the geometry checked, the regions
 * collected from the write tests, announced and backed up (preserve.h),
 * the tests run in the table's order, the data put back.
 */
#ifndef FB_RUN_H
#define FB_RUN_H

#include <stddef.h>

#include "core/opts.h"
#include "core/regions.h"

/* Run what o selects (cli_parse() has checked it); returns the exit status. */
int fb_run(struct fb_opts *o);

/*
 * The regions the selected write tests overwrite on a device of size
 * bytes, merged, in a new array (*r NULL when none). FB_OK; FB_EUSAGE
 * after printing which test would reach past the end (or overflow);
 * FB_EDEV when out of memory.
 */
int run_regions(const struct fb_opts *o, const char *device, uint64_t size, struct region **r,
		size_t *n);

#endif
