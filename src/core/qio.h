/*
 * Queued I/O on one file descriptor (a regular file or a block device,
 * normally opened O_DIRECT): up to `depth` requests outstanding at once,
 * completing in any order, each with its own result and latency.
 *
 * Three engines behind one API, so that a caller has one code path:
 *   QIO_URING  io_uring on raw syscalls (no liburing); the file and the
 *              buffers given to qio_register_buffers() are registered with
 *              the ring when the kernel allows (READ_FIXED/WRITE_FIXED),
 *              plain READ/WRITE otherwise.
 *   QIO_AIO    Linux native AIO on raw io_setup/io_submit/io_getevents.
 *   QIO_SYNC   pread/pwrite, one request at a time, done inside
 *              qio_flush()/qio_reap(); any depth is accepted.
 *   QIO_AUTO   io_uring, else Linux AIO, else synchronous; qio_describe()
 *              names the choice and why the others were not taken.
 *
 * Use: qio_submit() queues requests (nothing reaches the kernel yet);
 * qio_reap() hands every queued request to the kernel and waits for
 * completions in the same system call where the engine allows (one
 * io_uring_enter), so a caller that keeps the queue full pays about one
 * system call per batch. qio_flush() submits without waiting.
 *
 * Results. Each completion carries the caller's tag, the request's offset
 * and length, and res: the bytes transferred or -errno. A short transfer
 * (res < len, e.g. a read across the end of a device) and an error are
 * reported for that request only, never folded into a time; all the
 * requests submitted come back, exactly once each, errors included.
 *
 * Latency. ns = completion stamp - submission stamp, both on
 * CLOCK_MONOTONIC_RAW (clock_now_ns() of core/clock.h, the clock of every
 * measurement).
 *   Submission: one clock read per batch, just before the system call that
 *     hands the batch to the kernel (io_uring_enter, io_submit); every
 *     request of the batch gets it. Per-request reads at qio_submit() would
 *     cost ~25 ns each and also count the caller's own time between submit
 *     and flush, and they would still come before the same system call.
 *     What the stamp includes, for the k-th request of a batch, is the
 *     kernel's work on the k-1 before it: on a loop device about 0.7 us
 *     per request with io_uring and 1.1 us with AIO (3.5-4 us for the first,
 *     which wakes the loop worker), so the 32nd of a full batch of 32 is
 *     stamped 20-35 us before the kernel passes it on. That is time the
 *     request really waited; a caller that keeps the queue full resubmits
 *     in small batches (what one reap returned), not 32 at a time.
 *   Completion: one clock read per pass over the completion queue, as soon
 *     as the pass finds entries (right after the waiting system call
 *     returns); every request found in that pass gets it. A completion
 *     that had already been posted while the caller was busy elsewhere is
 *     stamped late by up to that busy time; a caller that reaps promptly
 *     (the queue-depth test) keeps this to the cost of the pass itself.
 *   Synchronous engine: the stamps bracket each pread/pwrite; consecutive
 *     requests inside one qio_reap() share a stamp (the end of one is the
 *     start of the next), one clock read per request plus one.
 * Depth 1 thus measures the same interval on every engine as a bare
 * clock_gettime/pread/clock_gettime loop.
 *
 * A target wraps this directly: its queued submit takes the arguments of
 * qio_submit(), its complete returns struct qio_done records, which the
 * simulated card can fill on its virtual clock just the same.
 *
 * Not thread-safe: one qio is used by one thread (the io_uring ring is set
 * up single-issuer). The caller keeps the fd open and the buffers of
 * outstanding requests valid until their completion or qio_close().
 */
#ifndef FB_QIO_H
#define FB_QIO_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

enum qio_kind { QIO_AUTO, QIO_SYNC, QIO_AIO, QIO_URING };

#define QIO_MAX_DEPTH 4096u
#define QIO_MAX_LEN 0x7ffff000u		/* Linux's largest single transfer */
#define QIO_MAX_BUFFERS 16u		/* qio_register_buffers() ranges */

/* One completed request. */
struct qio_done {
	uint64_t tag;		/* as given to qio_submit() */
	uint64_t off;		/* the request's offset ... */
	uint64_t ns;		/* latency, see above */
	uint32_t len;		/* ... and length */
	int32_t res;		/* bytes transferred (< len: short) or -errno */
	bool write;
};

struct qio;

/*
 * Set up an engine of kind for fd with room for depth (1..QIO_MAX_DEPTH)
 * outstanding requests. 0 and *out, or -errno with a one-line reason in
 * err (e.g. "io_uring_setup: Operation not permitted"). The fd is not
 * closed by qio_close().
 */
int qio_open(enum qio_kind kind, int fd, unsigned depth, struct qio **out,
	     char *err, size_t errlen);

/*
 * The buffers requests will use (each request must lie inside one range
 * to profit), registered with io_uring so the kernel need not pin and map
 * them per request. Call with nothing outstanding; replaces an earlier
 * set. Returns 0, or -errno when the kernel refused (requests then work
 * unregistered; qio_describe() says why). Other engines: 0, nothing to do.
 */
int qio_register_buffers(struct qio *q, const struct iovec *iov, unsigned n);

/*
 * Queue one request: len bytes (1..QIO_MAX_LEN) at off, from or into buf.
 * 0, -EBUSY when depth requests are already outstanding (reap first), or
 * -EINVAL for a bad length. Alignment is the kernel's business: a
 * misaligned O_DIRECT request completes with res -EINVAL.
 */
int qio_submit(struct qio *q, bool write, void *buf, size_t len, uint64_t off, uint64_t tag);

/* Hand the queued requests to the kernel without waiting. 0 or -errno. */
int qio_flush(struct qio *q);

/*
 * Flush, then store between min and max completions in done[] and return
 * their number. min is capped at the number outstanding (0: do not wait).
 * Fewer than min only when a signal interrupted the wait, or the stop
 * flag (qio_watch_stop) was set before it: the number reaped so far, or
 * -EINTR when none; queued requests may then be left unsubmitted. Another
 * -errno means the engine itself failed (not a request); the requests it
 * holds are then lost.
 */
int qio_reap(struct qio *q, unsigned min, struct qio_done *done, unsigned max);

/*
 * A flag a signal handler sets (NULL: none, the default). qio_reap() looks
 * at it before every wait that would sleep and returns instead: a signal
 * taken before the wait began (io_uring polls the ring for up to 50 us
 * first, qio_spin.h) would not cut the sleep short. This narrows the
 * window to the instructions between the look and the system call; it
 * does not close it.
 */
void qio_watch_stop(struct qio *q, const volatile sig_atomic_t *flag);

/* Requests queued or in flight. */
unsigned qio_outstanding(const struct qio *q);

/*
 * Wait for the requests in flight (their results are dropped), discard
 * queued ones that never reached the kernel, and free q. NULL is fine.
 */
void qio_close(struct qio *q);

enum qio_kind qio_kind(const struct qio *q);	/* never QIO_AUTO */
unsigned qio_depth(const struct qio *q);
/* For -v: the engine, its depth and options, and why others were not
 * chosen; io_uring adds how many of its waits polled and caught. */
const char *qio_describe(struct qio *q);

/* "auto", "sync", "aio", "uring"; parse returns 0 or -EINVAL. */
const char *qio_kind_name(enum qio_kind kind);
int qio_kind_parse(const char *s, enum qio_kind *kind);

#endif
