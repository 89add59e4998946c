/*
 * The Linux native AIO engine on raw io_setup/io_submit/io_getevents
 * (kernel headers, no libaio). Truly asynchronous for O_DIRECT files and
 * block devices; on other files io_submit does the I/O itself.
 *
 * io_submit stops at the first request it refuses (a write on a file not
 * open for writing: EBADF) and returns the number taken before it; that
 * request completes at once with the error and the rest go on.
 */
#include <errno.h>
#include <linux/aio_abi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/qio_impl.h"

struct aio_eng {
	aio_context_t ctx;
	unsigned npend;		/* queued iocbs, not yet given to io_submit */
	unsigned inflight;	/* taken by io_submit, event not yet reaped */
	struct iocb **pend;	/* depth */
	struct io_event *ev;	/* depth */
	struct iocb iocb[];	/* one per slot */
};

static int sys_io_setup(unsigned nr, aio_context_t *ctx)
{
	return syscall(__NR_io_setup, nr, ctx) < 0 ? -errno : 0;
}

static int sys_io_submit(aio_context_t ctx, long n, struct iocb **iocbs)
{
	long ret = syscall(__NR_io_submit, ctx, n, iocbs);

	return ret < 0 ? -errno : (int)ret;
}

static int sys_io_getevents(aio_context_t ctx, long min, long max, struct io_event *ev)
{
	long ret = syscall(__NR_io_getevents, ctx, min, max, ev, NULL);

	return ret < 0 ? -errno : (int)ret;
}

static void aio_free(struct aio_eng *a)
{
	free(a->pend);
	free(a->ev);
	free(a);
}

static int aio_open(struct qio *q, char *err, size_t errlen)
{
	struct aio_eng *a = calloc(1, sizeof *a + q->depth * sizeof a->iocb[0]);
	int ret = -ENOMEM;

	if (a) {
		a->pend = calloc(q->depth, sizeof *a->pend);
		a->ev = calloc(q->depth, sizeof *a->ev);
	}
	if (!a || !a->pend || !a->ev) {
		qio_errmsg(err, errlen, "Linux AIO", ret);
	} else if ((ret = sys_io_setup(q->depth, &a->ctx)) < 0) {
		qio_errmsg(err, errlen, "io_setup", ret);
	} else {
		q->eng = a;
		qio_desc_set(q, "Linux AIO, depth %u", q->depth);
		return 0;
	}
	if (a)
		aio_free(a);
	return ret;
}

static int aio_submit(struct qio *q, unsigned slot)
{
	struct aio_eng *a = q->eng;
	const struct qio_req *r = &q->req[slot];
	struct iocb *cb = &a->iocb[slot];

	memset(cb, 0, sizeof *cb);
	cb->aio_data = slot;
	cb->aio_lio_opcode = r->write ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD;
	cb->aio_fildes = (uint32_t)q->fd;
	cb->aio_buf = (uint64_t)(uintptr_t)r->buf;
	cb->aio_nbytes = r->len;
	cb->aio_offset = (int64_t)r->off;
	a->pend[a->npend++] = cb;
	return 0;
}

/*
 * Give the queued iocbs to io_submit, stamped with one submission time.
 * A refused iocb completes with its error; EAGAIN with requests in flight
 * leaves the rest queued until completions free the kernel's resources.
 */
static int aio_flush(struct qio *q)
{
	struct aio_eng *a = q->eng;
	unsigned done = 0;
	uint64_t t0;

	if (!a->npend)
		return 0;
	t0 = clock_now_ns();
	for (unsigned i = 0; i < a->npend; i++)
		q->req[a->pend[i]->aio_data].t0 = t0;
	while (done < a->npend) {
		int ret = sys_io_submit(a->ctx, a->npend - done, a->pend + done);

		if (ret > 0) {
			done += (unsigned)ret;
			a->inflight += (unsigned)ret;
		} else if (ret == -EINTR) {
			continue;
		} else if ((ret == -EAGAIN || ret == 0) && a->inflight) {
			break;
		} else {
			qio_ready_add(q, (unsigned)a->pend[done++]->aio_data, ret ? ret : -EAGAIN, clock_now_ns());
		}
	}
	a->npend -= done;
	memmove(a->pend, a->pend + done, a->npend * sizeof *a->pend);
	return 0;
}

/* Wait for at least min (and take up to max) events; their number or -errno. */
static int get_events(struct qio *q, unsigned min, struct qio_done *done, unsigned max)
{
	struct aio_eng *a = q->eng;
	uint64_t t1;
	int got;

	if (max > a->inflight)
		max = a->inflight;	/* a->ev holds depth >= inflight events */
	if (min > max)
		min = max;
	got = sys_io_getevents(a->ctx, min, max, a->ev);

	if (got <= 0)
		return got;
	t1 = clock_now_ns();
	for (int i = 0; i < got; i++)
		qio_finish(q, (unsigned)a->ev[i].data, (int32_t)a->ev[i].res, t1, &done[i]);
	a->inflight -= (unsigned)got;
	return got;
}

static int aio_reap(struct qio *q, unsigned min, struct qio_done *done, unsigned max)
{
	struct aio_eng *a = q->eng;
	unsigned n = qio_ready_take(q, done, max);
	bool polled = false;

	for (;;) {
		aio_flush(q);
		if (n < max)
			n += qio_ready_take(q, done + n, max - n);
		/* min = 0 with nothing at hand still looks once. */
		if (n >= max || (n >= min && !a->npend && (n || polled)) || !a->inflight)
			return (int)n;
		polled = true;
		if (n < min && qio_stopped(q))
			return n ? (int)n : -EINTR;	/* a signal before the wait */
		/* Wait for what min still needs (or for one, to make room for
		 * the queued); take whatever else is there. */
		int got = get_events(q, n < min ? min - n : 1, done + n, max - n);
		if (got == -EINTR)
			return n ? (int)n : -EINTR;
		if (got < 0)
			return got;
		n += (unsigned)got;
		if (n >= min && !a->npend)
			return (int)n;
	}
}

static void aio_close(struct qio *q)
{
	struct aio_eng *a = q->eng;
	struct io_event ev[64];

	/* Queued iocbs never reached the kernel; in-flight ones may still
	 * write into the caller's buffers: wait for them. */
	while (a->inflight) {
		int got = sys_io_getevents(a->ctx, 1, 64, ev);

		if (got > 0)
			a->inflight -= (unsigned)got;
		else if (got != -EINTR)
			break;
	}
	syscall(__NR_io_destroy, a->ctx);
	aio_free(a);
}

const struct qio_ops qio_aio_ops = {
	.kind = QIO_AIO,
	.open = aio_open,
	.submit = aio_submit,
	.flush = aio_flush,
	.reap = aio_reap,
	.close = aio_close,
};
