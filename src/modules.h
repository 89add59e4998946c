/*
 * What the test modules offer each other and main(), besides their
 * descriptors in the test table (tests/test.h).
 */
#ifndef FB_MODULES_H
#define FB_MODULES_H

#include "opts.h"
#include "target.h"

/* -a: the table and its verdict (--find-open-au runs it first without --erasesize). */
int align_run(const struct fb_opts *o, struct target *t);
/* The largest N whose erase blocks (12 apart from --offset) fit in size bytes. */
unsigned find_open_au_max(const struct fb_opts *o, uint64_t size);
/* --analyze FILE ("-": standard input): verdicts for saved output. */
int analyze_file(const char *path);
struct ai_json_source;
/* --analyze in main(): refuses a DEVICE or a test, honours --out and
 * --format; a saved JSON document is read through json (NULL: text only). */
int analyze_main(const struct fb_opts *o, int nargs, char **args,
		 const struct ai_json_source *json);

#endif
