/*
 * The test modules. Each takes the parsed options and an open target,
 * measures through engine.h, prints through report.h, and returns an
 * exit status from opts.h.
 */
#ifndef FB_MODULES_H
#define FB_MODULES_H

#include "opts.h"
#include "target.h"

int test_align(const struct fb_opts *o, struct target *t);
int test_open_au(const struct fb_opts *o, struct target *t);
int test_find_fat(const struct fb_opts *o, struct target *t);
int test_scatter(const struct fb_opts *o, struct target *t);
int test_interval(const struct fb_opts *o, struct target *t);
/* --find-open-au: grow, then bisect, the number of open erase blocks. */
int test_find_open_au(const struct fb_opts *o, struct target *t);
/* Before the write guard is armed: the erase size from -a when --erasesize
 * was not given (runs -a first), and the largest N the search may try. */
int find_open_au_prepare(struct fb_opts *o, struct target *t);
/* The largest N whose erase blocks (12 apart from --offset) fit in size bytes. */
unsigned find_open_au_max(const struct fb_opts *o, uint64_t size);
/* --analyze FILE ("-": standard input): verdicts for saved output. */
int analyze_file(const char *path);
/* --analyze in main(): refuses a DEVICE or a test, honours --out. */
int analyze_main(const struct fb_opts *o, int nargs, char **args);
int test_readahead(const struct fb_opts *o, struct target *t);

#endif
