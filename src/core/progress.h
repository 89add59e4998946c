/*
 * A live progress line on standard error, only when it is a terminal:
 * what is being measured, done of total, elapsed time and the time left,
 * redrawn in place (at most ten times a second, from two seconds on, so
 * short runs show nothing) and erased before every result line, which
 * the output layer writes through progress_clear(). Tests call
 * progress_begin() and progress_update(); nothing else prints it.
 */
#ifndef FB_PROGRESS_H
#define FB_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

/* Begin a line about what ("open-au 5 erase blocks"), total units of work (0: unknown). */
void progress_begin(const char *what, uint64_t total);
/* done units so far; extra (NULL: none) is shown after them ("12.3 MB/s"). */
void progress_update(uint64_t done, const char *extra);
/*
 * Redraw the line as it stands, when it is due: the engine calls this
 * after every request, so elapsed time moves during a long step (an
 * open-au row on a slow card takes minutes) and a line erased for a
 * result comes back without waiting for the test's next update.
 */
void progress_tick(void);
/* Erase the line if it is shown (before any other output). */
void progress_clear(void);
/* The test is over: erase the line and forget it. */
void progress_end(void);

/*
 * For the tests of this module: draw whatever the terminal check says
 * (1 on, 0 off, -1: isatty(2), the default), and the wall clock to use
 * (NULL: the engine's).
 */
void progress_force(int on, uint64_t (*now_ns)(void));

#endif
