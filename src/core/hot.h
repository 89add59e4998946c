/*
 * The flags every timed request looks at, together on one cache line:
 * the stop flag (a signal), the first failed write of the results (the
 * output layer), and whether a progress line is kept. The engine reads
 * them between two requests; three lines in three files would cost three
 * cache lines there.
 */
#ifndef FB_HOT_H
#define FB_HOT_H

#include <signal.h>
#include <stdbool.h>

struct fb_hot {
	volatile sig_atomic_t stop;	/* fb_stop: the signal's number, 0 none */
	int out_error;			/* core/out.c: errno of the first failed write, 0 none */
	bool progress;			/* core/progress.c: a progress line is being drawn */
};

extern struct fb_hot fb_hot;

/* Set by a signal (its number): a test stops at the next request boundary. */
#define fb_stop (fb_hot.stop)

#endif
