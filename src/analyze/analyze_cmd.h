/* --analyze as a mode of the command line: see analyze_cmd.c. */
#ifndef FB_ANALYZE_CMD_H
#define FB_ANALYZE_CMD_H

#include "core/opts.h"

struct ai_json_source;
/* Refuses a DEVICE or a test, honours --out and --format; a saved JSON
 * document is read through json (NULL: text only). The exit status. */
int analyze_main(const struct fb_opts *o, int nargs, char **args,
		 const struct ai_json_source *json);

#endif
