/*
 * The measuring engine: timed requests with uniform error handling, the
 * stop flag set by signals, and the buffers the tests write from. Test
 * modules measure through these calls only.
 */
#ifndef FB_ENGINE_H
#define FB_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/clock.h"
#include "core/target.h"

/* fb_stop: set by a signal (its number); a test stops at the next request boundary. */
#include "core/hot.h"

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
 * pattern a controller cannot compress -- left untouched (not even paged
 * in) for a target that keeps no data (t->data_discarded). NULL (with a
 * message) on failure.
 */
void *eng_buffer(struct target *t, size_t len);
void eng_buffer_free(void *buf);

/*
 * One timed request. Returns FB_OK with the time in *ns, FB_EINTR when
 * the stop flag is set (before the request), FB_EDEV when the results
 * can no longer be written (out_error(), before the request), or FB_EDEV after printing
 * "flashbench: DEVICE: read at offset O, length L: strerror" to stderr.
 * The data eng_read() times is not looked at: a simulated card without an
 * image does not make its pattern for it (target_read() still does).
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

/* A device error: "DEVICE: read at offset O, length L: WHY" on stderr, kept for the JSON. */
void eng_device_error(const struct target *t, bool wr, uint64_t off, size_t len, const char *why);
/* Does the write guard allow [off, off + len)? If not, says so on stderr. */
bool eng_write_allowed(uint64_t off, size_t len);

/*
 * Queued requests (engine_queue.c), with the checks of eng_read() and
 * eng_write(): the stop flag and the output before each submission, the
 * write guard, and a request that fails stops the test with its offset,
 * length and strerror (or the short transfer).
 *
 * eng_queue_open: room for depth outstanding requests on engine kind,
 * [buf, buf + len) registered; FB_OK, or FB_EDEV after printing why.
 * eng_queue_submit: FB_OK, FB_EINTR, FB_EDEV (also for a full queue: a
 * caller's mistake). eng_queue_reap: waits for at least min completions
 * (fewer only when a signal came: *got says how many), FB_OK or FB_EDEV.
 * eng_queue_close: waits for the requests in flight, drops the queue.
 */
int eng_queue_open(struct target *t, enum qio_kind kind, unsigned depth, void *buf, size_t len);
int eng_queue_submit(struct target *t, bool write, void *buf, size_t len, uint64_t off,
		     uint64_t tag);
int eng_queue_reap(struct target *t, unsigned min, struct qio_done *done, unsigned max,
		   unsigned *got);
void eng_queue_close(struct target *t);

/*
 * Discard len bytes at off (an announced region, as a write): FB_OK, or
 * FB_EDEV after printing "DEVICE: discard at offset O, length L: error"
 * (EOPNOTSUPP when the target kind has no discard); FB_EINTR as above.
 */
int eng_discard(struct target *t, uint64_t off, uint64_t len);

/*
 * The bytes written and the device time the writes took, since the
 * process began: a chain of tests (--survey) shares one --max-write and
 * --max-time by the difference.
 */
void eng_write_totals(uint64_t *bytes, uint64_t *ns);

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
