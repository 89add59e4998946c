/*
 * The measuring engine: timed requests with uniform error handling, the
 * stop flag set by signals, and the buffers the tests write from. Test
 * modules measure through these calls only.
 */
#ifndef FB_ENGINE_H
#define FB_ENGINE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "core/clock.h"
#include "core/target.h"

/* Set by a signal (its number): a test stops at the next request boundary. */
extern volatile sig_atomic_t fb_stop;

/*
 * The signals that stop a test instead of killing the process: every
 * catchable one whose default is to end it (SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, the real-time signals, ...), but
 * not the faults (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP,
 * SIGSYS), after which nothing can be trusted to go on.
 */
void eng_stop_signals(sigset_t *set);

/* Install the handlers that set fb_stop for them; ignore SIGPIPE. */
void eng_signals(void);

/*
 * An aligned buffer of len bytes for t, filled with a pseudo-random
 * pattern a controller cannot compress. NULL (with a message) on failure.
 */
void *eng_buffer(struct target *t, size_t len);
void eng_buffer_free(void *buf);

/*
 * One timed request. Returns FB_OK with the time in *ns, FB_EINTR when
 * the stop flag is set (before the request), FB_EDEV when the results
 * can no longer be written (out_error(), before the request), or FB_EDEV after printing
 * "flashbench: DEVICE: read at offset O, length L: strerror" to stderr.
 */
int eng_read(struct target *t, void *buf, size_t len, uint64_t off, uint64_t *ns);
int eng_write(struct target *t, const void *buf, size_t len, uint64_t off, uint64_t *ns);

/*
 * Write buffers are never larger than this: a write test on a 1 GiB
 * erase block (SMR zones) writes its largest blocks as consecutive
 * requests of this size instead of holding a gigabyte of memory.
 */
#define ENG_MAX_REQUEST (64ull << 20)

/* The buffer eng_write_long() needs for writes of up to len bytes. */
size_t eng_write_buffer_len(uint64_t len);

/*
 * Write len bytes at off from buf, which holds eng_write_buffer_len(len)
 * bytes: one request, or consecutive requests of ENG_MAX_REQUEST when len
 * is larger. *ns is the sum of their times. Returns as eng_write().
 */
int eng_write_long(struct target *t, const void *buf, uint64_t len, uint64_t off, uint64_t *ns);

/*
 * Zoned targets: the zone report (see target.h), and the reset of the
 * write pointers of the whole zones in [off, off + len) -- which destroys
 * their data, so the guard refuses it outside the announced regions as it
 * refuses a write. Return FB_OK, FB_EINTR (reset: the stop flag) or
 * FB_EDEV after printing the error.
 */
int eng_report_zones(struct target *t, uint64_t off, struct target_zone *z, size_t max,
		     size_t *n);
int eng_reset_zones(struct target *t, uint64_t off, uint64_t len);

/* The fastest of count reads of the same range. */
int eng_read_min(struct target *t, void *buf, size_t len, uint64_t off,
		 unsigned count, uint64_t *min_ns);

/* The last device error's message (no "flashbench: "), or NULL: for the JSON status. */
const char *eng_last_error(void);

/*
 * Refuse a test whose accesses would reach end (exclusive) when the
 * device is smaller: prints the numbers and returns FB_EUSAGE; else FB_OK.
 */
int eng_check_end(struct target *t, const char *test, uint64_t end);


/*
 * A pseudo-random permutation of 0..n-1 from a maximal-length LFSR, so
 * that every index is visited exactly once, the same on every run.
 */
struct lfsr {
	uint64_t n, state, mask, taps;
};
void lfsr_init(struct lfsr *l, uint64_t n);
uint64_t lfsr_next(struct lfsr *l);

#endif
