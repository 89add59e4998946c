/* The defaults of every option: flashbench's, and ours for the new tests. */
#include <string.h>

#include "opts.h"

void opts_defaults(struct fb_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->blocksize = 16 * 1024;
	o->erasesize = 4 * (1024ull * 1024);
	o->count = 8;
	o->open_au_nr = 2;
	o->fat_nr = 6;
	o->scatter_order = 9;
	o->scatter_span = 1;
	o->interval_order = 10;
	o->min_size = 4096;
	o->max_size = 8 * (1024ull * 1024);
	o->runs = 2;
	o->plateau = 5;
}
