/* --find-open-au: what it offers the other tests and the accuracy harness. */
#ifndef FB_FINDOPENAU_H
#define FB_FINDOPENAU_H

#include <stdint.h>

#include "core/opts.h"

/* The largest N whose erase blocks (12 apart from --offset) fit in size bytes. */
unsigned find_open_au_max(const struct fb_opts *o, uint64_t size);

#endif
