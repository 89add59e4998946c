/* --compare as a mode of the command line: see compare_cmd.c. */
#ifndef FB_COMPARE_CMD_H
#define FB_COMPARE_CMD_H

#include "core/opts.h"

/* The saved results in args (at least two, the first the baseline)
 * compared; honours --out and --format. The exit status. */
int compare_main(const struct fb_opts *o, int nargs, char **args);

#endif
