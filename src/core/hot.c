/* The request path's flags: see hot.h. */
#include "core/hot.h"

struct fb_hot fb_hot __attribute__((aligned(64)));
