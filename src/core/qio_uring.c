/*
 * The io_uring engine on raw system calls (kernel headers, no liburing).
 *
 * Shared rings: we write SQEs and the SQ tail, the kernel writes the SQ
 * head, CQEs and the CQ tail, we write the CQ head. The tail we publish
 * is a store-release (SQE contents before the tail), the CQ tail we read
 * is a load-acquire (CQE contents after it), the CQ head we return is a
 * store-release (we are done reading those CQEs before the kernel may
 * reuse them). Without SQPOLL the kernel reads the SQ only inside
 * io_uring_enter, so SQEs we have written but not published are ours.
 *
 * Per-request cost is kept down by registering the file (no fd lookup
 * per request), the buffers (no page pinning per request: READ_FIXED),
 * the ring fd itself (no fd lookup per io_uring_enter), and by setting
 * the ring up single-issuer with deferred task work, so completions are
 * posted in our own io_uring_enter instead of interrupting us. Each is
 * optional: a kernel that refuses one gets the plainer path, and
 * qio_describe() says which.
 */
#include <errno.h>
#include <linux/io_uring.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/qio_impl.h"
#include "core/qio_spin.h"

struct uring {
	int ring_fd;
	int enter_fd;		/* ring_fd, or its registered index */
	unsigned enter_flags;	/* IORING_ENTER_REGISTERED_RING or 0 */
	unsigned sq_mask, cq_mask;
	unsigned *sq_head, *sq_tail, *cq_head, *cq_tail;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	unsigned tail;		/* our SQ tail: *sq_tail + queued */
	unsigned queued;	/* SQEs written, not yet published */
	unsigned unsubmitted;	/* published, not yet taken by the kernel */
	unsigned inflight;	/* taken by the kernel, CQE not yet reaped */
	unsigned setup_flags;
	struct qio_spin spin;	/* whether waits poll before they sleep */
	long nivcsw;		/* our preemptions when a catch was last judged */
	bool fixed_file;
	unsigned nbufs, last_buf;
	struct iovec bufs[QIO_MAX_BUFFERS];
	char file_why[96], ring_why[96], buf_why[96];
	void *sq_ring, *cq_ring, *sqe_mem;
	size_t sq_ring_len, cq_ring_len, sqe_len;
};

static int sys_setup(unsigned entries, struct io_uring_params *p)
{
	long ret = syscall(__NR_io_uring_setup, entries, p);

	return ret < 0 ? -errno : (int)ret;
}

static int sys_register(int fd, unsigned op, const void *arg, unsigned n)
{
	long ret = syscall(__NR_io_uring_register, fd, op, arg, n);

	return ret < 0 ? -errno : (int)ret;
}

static int uring_enter(struct uring *u, unsigned to_submit, unsigned min_complete, unsigned flags)
{
	long ret = syscall(__NR_io_uring_enter, u->enter_fd, to_submit, min_complete,
			   flags | u->enter_flags, NULL, 0);

	return ret < 0 ? -errno : (int)ret;
}

/*
 * The ring with the cheapest completion path the kernel accepts: deferred
 * task work (6.1) needs a single issuer (6.0); cooperative task work
 * (5.19) still saves the interrupting signal; SUBMIT_ALL (5.18) keeps a
 * bad request from holding up the ones behind it.
 */
static int setup_ring(unsigned depth, struct io_uring_params *p)
{
	static const unsigned tries[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SUBMIT_ALL,
		IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SUBMIT_ALL,
		0,
	};
	int fd = -EINVAL;

	for (unsigned i = 0; i < sizeof tries / sizeof tries[0] && fd == -EINVAL; i++) {
		memset(p, 0, sizeof *p);
		p->flags = tries[i];
		fd = sys_setup(depth, p);
	}
	return fd;
}

static void *map(int fd, size_t len, off_t what)
{
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, what);

	return m == MAP_FAILED ? NULL : m;
}

/* Map the rings of a set-up ring fd into u. 0 or -errno. */
static int map_rings(struct uring *u, const struct io_uring_params *p)
{
	unsigned *array;

	u->sq_ring_len = p->sq_off.array + p->sq_entries * sizeof(unsigned);
	u->cq_ring_len = p->cq_off.cqes + p->cq_entries * sizeof(struct io_uring_cqe);
	if (p->features & IORING_FEAT_SINGLE_MMAP) {
		if (u->cq_ring_len > u->sq_ring_len)
			u->sq_ring_len = u->cq_ring_len;
		u->cq_ring_len = 0;
	}
	u->sq_ring = map(u->ring_fd, u->sq_ring_len, IORING_OFF_SQ_RING);
	u->cq_ring = u->cq_ring_len ? map(u->ring_fd, u->cq_ring_len, IORING_OFF_CQ_RING) : u->sq_ring;
	u->sqe_len = p->sq_entries * sizeof(struct io_uring_sqe);
	u->sqe_mem = map(u->ring_fd, u->sqe_len, IORING_OFF_SQES);
	if (!u->sq_ring || !u->cq_ring || !u->sqe_mem)
		return -errno;
	char *sq = u->sq_ring, *cq = u->cq_ring;
	u->sq_head = (unsigned *)(sq + p->sq_off.head);
	u->sq_tail = (unsigned *)(sq + p->sq_off.tail);
	u->sq_mask = *(unsigned *)(sq + p->sq_off.ring_mask);
	u->cq_head = (unsigned *)(cq + p->cq_off.head);
	u->cq_tail = (unsigned *)(cq + p->cq_off.tail);
	u->cq_mask = *(unsigned *)(cq + p->cq_off.ring_mask);
	u->cqes = (struct io_uring_cqe *)(cq + p->cq_off.cqes);
	u->sqes = u->sqe_mem;
	/* SQ slot i always holds SQE i: the indirection is never used. */
	array = (unsigned *)(sq + p->sq_off.array);
	for (unsigned i = 0; i < p->sq_entries; i++)
		array[i] = i;
	u->tail = *u->sq_tail;
	return 0;
}

static void unmap_rings(struct uring *u)
{
	if (u->sqe_mem)
		munmap(u->sqe_mem, u->sqe_len);
	if (u->cq_ring && u->cq_ring != u->sq_ring)
		munmap(u->cq_ring, u->cq_ring_len);
	if (u->sq_ring)
		munmap(u->sq_ring, u->sq_ring_len);
}

static void describe(struct qio *q)
{
	struct uring *u = q->eng;
	char bufs[128], polls[96] = "";

	if (u->nbufs)
		snprintf(bufs, sizeof bufs, "%u registered buffer%s", u->nbufs, u->nbufs > 1 ? "s" : "");
	else
		snprintf(bufs, sizeof bufs, "buffers not registered%s%s",
			 u->buf_why[0] ? ": " : "", u->buf_why);
	if (u->spin.spins)
		snprintf(polls, sizeof polls, " (%llu polled, %llu caught)",
			 (unsigned long long)u->spin.spins, (unsigned long long)u->spin.caught);
	qio_desc_set(q, "io_uring, depth %u: %s%s, %s%s%s, %s%s, %s",
		     q->depth, u->fixed_file ? "registered file" : "file not registered: ",
		     u->file_why, bufs,
		     u->enter_flags ? ", registered ring" : ", ring not registered: ", u->ring_why,
		     u->setup_flags & IORING_SETUP_DEFER_TASKRUN
		     ? "deferred task work, waits poll up to " QIO_SPIN_TEXT " before they sleep"
		     : u->setup_flags & IORING_SETUP_COOP_TASKRUN ? "cooperative task work"
		     : "task work by signal", polls,
		     u->setup_flags & IORING_SETUP_SUBMIT_ALL ? "submit all" : "submission stops at a bad request");
}

/* Register the file and the ring fd; either may fail without harm. */
static void register_fds(struct qio *q, struct uring *u)
{
	struct io_uring_rsrc_update up = { .offset = -1u, .data = (uint64_t)u->ring_fd };
	int ret = sys_register(u->ring_fd, IORING_REGISTER_FILES, &q->fd, 1);

	u->fixed_file = ret == 0;
	if (ret < 0)
		qio_errmsg(u->file_why, sizeof u->file_why, "io_uring_register", ret);
	ret = sys_register(u->ring_fd, IORING_REGISTER_RING_FDS, &up, 1);
	if (ret == 1) {
		u->enter_fd = (int)up.offset;
		u->enter_flags = IORING_ENTER_REGISTERED_RING;
	} else {
		qio_errmsg(u->ring_why, sizeof u->ring_why, "io_uring_register",
			   ret < 0 ? ret : -EINVAL);
	}
}

static void uring_free(struct uring *u)
{
	struct io_uring_rsrc_update up = { .offset = (unsigned)u->enter_fd };

	/*
	 * Closing the ring leaves its teardown to a kernel worker, and the
	 * registered file with it: the device stays open (and claimed
	 * O_EXCL) after we exit, so the next run is refused as busy. Dropped
	 * here, the file's last reference goes in this call, as does the
	 * registered buffers' pinning.
	 */
	if (u->fixed_file)
		sys_register(u->ring_fd, IORING_UNREGISTER_FILES, NULL, 0);
	if (u->nbufs)
		sys_register(u->ring_fd, IORING_UNREGISTER_BUFFERS, NULL, 0);
	/* A registered ring fd keeps the ring alive after close(): drop it. */
	if (u->enter_flags)
		sys_register(u->ring_fd, IORING_UNREGISTER_RING_FDS, &up, 1);
	unmap_rings(u);
	if (u->ring_fd >= 0)
		close(u->ring_fd);
	free(u);
}

/* Times this thread was preempted: another task took its CPU. */
static long preemptions(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nivcsw : -1;
}

static int uring_open(struct qio *q, char *err, size_t errlen)
{
	struct io_uring_params p;
	struct uring *u = calloc(1, sizeof *u);
	int ret;

	if (!u) {
		qio_errmsg(err, errlen, "io_uring", -ENOMEM);
		return -ENOMEM;
	}
	u->ring_fd = setup_ring(q->depth, &p);
	if (u->ring_fd < 0) {
		ret = u->ring_fd;
		qio_errmsg(err, errlen, "io_uring_setup", ret);
		free(u);
		return ret;
	}
	u->enter_fd = u->ring_fd;
	u->setup_flags = p.flags;
	u->nivcsw = preemptions();
	ret = map_rings(u, &p);
	if (ret < 0) {
		qio_errmsg(err, errlen, "io_uring: mmap", ret);
		uring_free(u);
		return ret;
	}
	q->eng = u;
	register_fds(q, u);
	describe(q);
	return 0;
}

static int uring_register_buffers(struct qio *q, const struct iovec *iov, unsigned n)
{
	struct uring *u = q->eng;
	int ret = 0;

	if (u->nbufs)
		sys_register(u->ring_fd, IORING_UNREGISTER_BUFFERS, NULL, 0);
	u->nbufs = u->last_buf = 0;
	u->buf_why[0] = '\0';
	if (n) {
		ret = sys_register(u->ring_fd, IORING_REGISTER_BUFFERS, iov, n);
		if (ret < 0) {
			qio_errmsg(u->buf_why, sizeof u->buf_why, "io_uring_register", ret);
		} else {
			memcpy(u->bufs, iov, n * sizeof *iov);
			u->nbufs = n;
			ret = 0;
		}
	}
	describe(q);
	return ret;
}

static bool holds(const struct iovec *v, uintptr_t a, uint32_t len)
{
	uintptr_t b = (uintptr_t)v->iov_base;

	return a >= b && a - b <= v->iov_len && len <= v->iov_len - (a - b);
}

/* The registered buffer holding [buf, buf + len), or nbufs when none. */
static unsigned find_buf(struct uring *u, const void *buf, uint32_t len)
{
	uintptr_t a = (uintptr_t)buf;

	if (!u->nbufs)
		return 0;
	if (holds(&u->bufs[u->last_buf], a, len))
		return u->last_buf;	/* requests mostly come from one buffer */
	for (unsigned i = 0; i < u->nbufs; i++)
		if (holds(&u->bufs[i], a, len))
			return u->last_buf = i;
	return u->nbufs;
}

static int uring_submit(struct qio *q, unsigned slot)
{
	struct uring *u = q->eng;
	const struct qio_req *r = &q->req[slot];
	struct io_uring_sqe *sqe = &u->sqes[u->tail & u->sq_mask];
	unsigned bi = find_buf(u, r->buf, r->len);

	/* Fields this kernel does not know must be zero: clear them all. */
	memset(sqe, 0, sizeof *sqe);
	if (bi < u->nbufs) {
		sqe->opcode = r->write ? IORING_OP_WRITE_FIXED : IORING_OP_READ_FIXED;
		sqe->buf_index = (uint16_t)bi;
	} else {
		sqe->opcode = r->write ? IORING_OP_WRITE : IORING_OP_READ;
	}
	if (u->fixed_file) {
		sqe->fd = 0;
		sqe->flags = IOSQE_FIXED_FILE;
	} else {
		sqe->fd = q->fd;
	}
	sqe->off = r->off;
	sqe->addr = (uint64_t)(uintptr_t)r->buf;
	sqe->len = r->len;
	sqe->user_data = slot;
	u->tail++;
	u->queued++;
	return 0;
}

/* Stamp the queued SQEs' requests with one submission time and publish them. */
static void publish(struct qio *q, struct uring *u)
{
	uint64_t t0;

	if (!u->queued)
		return;
	t0 = clock_now_ns();
	for (unsigned i = u->tail - u->queued; i != u->tail; i++)
		q->req[u->sqes[i & u->sq_mask].user_data].t0 = t0;
	__atomic_store_n(u->sq_tail, u->tail, __ATOMIC_RELEASE);
	u->unsubmitted += u->queued;
	u->queued = 0;
}

/* The kernel refused the published SQEs it has not taken: take them back
 * and complete each with err. */
static void fail_unsubmitted(struct qio *q, struct uring *u, int err)
{
	unsigned head = __atomic_load_n(u->sq_head, __ATOMIC_ACQUIRE);
	uint64_t t1 = clock_now_ns();

	for (unsigned i = head; i != u->tail; i++)
		qio_ready_add(q, (unsigned)u->sqes[i & u->sq_mask].user_data, err, t1);
	u->tail = head;
	__atomic_store_n(u->sq_tail, head, __ATOMIC_RELEASE);
	u->unsubmitted = 0;
}

/* Move up to max posted completions to done[], stamped by one clock read. */
static unsigned harvest_some(struct qio *q, struct uring *u, struct qio_done *done, unsigned max)
{
	unsigned head = __atomic_load_n(u->cq_head, __ATOMIC_RELAXED);
	unsigned tail = __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE);
	unsigned n = 0;
	uint64_t t1;

	if (head == tail || max == 0)
		return 0;
	t1 = clock_now_ns();
	for (; head != tail && n < max; head++, n++) {
		const struct io_uring_cqe *c = &u->cqes[head & u->cq_mask];

		qio_finish(q, (unsigned)c->user_data, c->res, t1, &done[n]);
	}
	__atomic_store_n(u->cq_head, head, __ATOMIC_RELEASE);
	u->inflight -= n;
	return n;
}

/* Completions posted and not yet harvested. */
static inline unsigned cq_ready(const struct uring *u)
{
	return __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE) - __atomic_load_n(u->cq_head, __ATOMIC_RELAXED);
}

static inline unsigned harvest(struct qio *q, struct uring *u, struct qio_done *done, unsigned max)
{
	/* Mostly empty before a wait: no call for that. */
	return cq_ready(u) ? harvest_some(q, u, done, max) : 0;
}

/*
 * One io_uring_enter: submit what is published, wait for want
 * completions. 0 to go on, or -EINTR when a signal interrupted the wait.
 */
static int enter_once(struct qio *q, struct uring *u, unsigned want)
{
	unsigned flags = 0;
	int ret;

	/* Deferred task work posts completions only inside a GETEVENTS enter. */
	if (want || (u->setup_flags & IORING_SETUP_DEFER_TASKRUN))
		flags |= IORING_ENTER_GETEVENTS;
	ret = uring_enter(u, u->unsubmitted, want, flags);
	if (ret > 0 || (ret == 0 && !u->unsubmitted)) {
		bool all = (unsigned)ret == u->unsubmitted;

		u->unsubmitted -= (unsigned)ret;
		u->inflight += (unsigned)ret;
		/* A wait that ends short of want was cut by a signal: the
		 * kernel reports the submission, not the interruption. */
		if (want && all && cq_ready(u) < want)
			return -EINTR;
		return 0;
	}
	if (ret == -EINTR)
		return ret;
	if (ret == 0)
		ret = -EAGAIN;	/* nothing taken: the kernel is short of something */
	if ((ret == -EAGAIN || ret == -EBUSY) && u->inflight) {
		/* Resources come back with completions: wait for one. */
		ret = uring_enter(u, 0, 1, IORING_ENTER_GETEVENTS);
		return ret == -EINTR ? ret : 0;
	}
	fail_unsubmitted(q, u, ret);
	return 0;
}

/*
 * Before a wait that would sleep: submit what is published, then poll the
 * ring for up to QIO_SPIN_NS (qio_spin.h says when, and why). True when
 * want completions are posted, *spun when a poll caught them (not the
 * submitting enter), for the caller to judge once it has harvested (the
 * system call that judges is not timed with the requests). False leaves
 * the wait to enter_once(). Deferred task work only: the poll is an enter
 * that runs it, no wait.
 */
static bool spin_wait(struct uring *u, unsigned want, bool *spun)
{
	uint64_t t0;
	int ret;

	if (!(u->setup_flags & IORING_SETUP_DEFER_TASKRUN) || u->inflight + u->unsubmitted < want ||
	    !qio_spin_now(&u->spin))
		return false;
	if (u->unsubmitted) {
		ret = uring_enter(u, u->unsubmitted, 0, IORING_ENTER_GETEVENTS);
		if (ret <= 0)
			return false;	/* refused or short of resources: enter_once's part */
		u->unsubmitted -= (unsigned)ret;
		u->inflight += (unsigned)ret;
		if (u->unsubmitted)
			return false;
	}
	/* Posted by the submitting enter: no spin, nothing learnt. */
	*spun = cq_ready(u) < want;
	if (!*spun)
		return true;
	t0 = clock_now_ns();
	while (cq_ready(u) < want) {
		if (clock_now_ns() - t0 >= QIO_SPIN_NS ||
		    uring_enter(u, 0, 0, IORING_ENTER_GETEVENTS) < 0) {
			qio_spin_done(&u->spin, false, false);
			return false;
		}
	}
	return true;
}

/*
 * A poll caught its completion: a miss all the same when the thread was
 * preempted since the last catch was judged. (Not during the poll alone:
 * with the worker on our CPU, it takes the CPU as the submitting enter
 * returns, before the poll starts, and the poll then collects its work.)
 */
static void judge_catch(struct uring *u)
{
	long now = preemptions();

	qio_spin_done(&u->spin, true, now != u->nivcsw);
	u->nivcsw = now;
}

static int uring_reap(struct qio *q, unsigned min, struct qio_done *done, unsigned max)
{
	struct uring *u = q->eng;
	unsigned n = qio_ready_take(q, done, max);
	bool polled = false, spun;

	publish(q, u);
	for (;;) {
		n += harvest(q, u, done + n, max - n);
		if (n < max)
			n += qio_ready_take(q, done + n, max - n);
		if (n >= min && !u->unsubmitted &&
		    (n || polled || !u->inflight || !(u->setup_flags & IORING_SETUP_DEFER_TASKRUN)))
			return (int)n;
		polled = true;
		if (n < min && qio_stopped(q))
			break;	/* stopped already: neither poll nor wait */
		if (n < min && spin_wait(u, min - n, &spun)) {
			n += harvest(q, u, done + n, max - n);	/* stamped first */
			if (spun)
				judge_catch(u);
			continue;
		}
		/* A signal taken during the poll: the wait would not see it. */
		if ((n < min && qio_stopped(q)) || enter_once(q, u, n < min ? min - n : 0) == -EINTR)
			break;
	}
	n += harvest(q, u, done + n, max - n);
	return n ? (int)n : -EINTR;
}

static int uring_flush(struct qio *q)
{
	struct uring *u = q->eng;
	int ret = 0;

	publish(q, u);
	while (u->unsubmitted && ret == 0) {
		unsigned before = u->unsubmitted;

		ret = enter_once(q, u, 0);
		if (ret == 0 && u->unsubmitted == before)
			ret = -EAGAIN;	/* waited for resources: let reap go on */
	}
	return ret == -EAGAIN ? 0 : ret;
}

static void uring_close(struct qio *q)
{
	struct uring *u = q->eng;
	struct qio_done scratch[64];

	/* Queued and unsubmitted SQEs never reached the kernel: drop them. */
	u->tail -= u->queued;
	u->queued = 0;
	if (u->unsubmitted)
		fail_unsubmitted(q, u, -ECANCELED);
	/* The kernel may still write into the caller's buffers: wait. */
	while (u->inflight) {
		int ret = 0;

		if (!harvest(q, u, scratch, 64))
			ret = uring_enter(u, 0, 1, IORING_ENTER_GETEVENTS);
		if (ret < 0 && ret != -EINTR)
			break;	/* a ring that cannot wait: closing it cancels */
	}
	uring_free(u);
}

const struct qio_ops qio_uring_ops = {
	.kind = QIO_URING,
	.open = uring_open,
	.submit = uring_submit,
	.flush = uring_flush,
	.reap = uring_reap,
	.register_buffers = uring_register_buffers,
	.close = uring_close,
	.describe = describe,
};
