/* The defaults of the shared options: flashbench's, and ours for the new ones. */
#include <string.h>

#include "core/opts.h"

void opts_defaults(struct fb_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->blocksize = 16 * 1024;
	o->erasesize = 4 * (1024ull * 1024);
	o->count = 8;
}
