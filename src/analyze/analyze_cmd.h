/* --analyze as a mode of the command line: see analyze_cmd.c. */
#ifndef FB_ANALYZE_CMD_H
#define FB_ANALYZE_CMD_H

#include "core/opts.h"

/* Refuses a DEVICE or a test, honours --out and --format; reads text or
 * a saved JSON document (analyze_json.c). The exit status. */
int analyze_main(const struct fb_opts *o, int nargs, char **args);

#endif
