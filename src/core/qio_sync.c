/*
 * The synchronous engine: queued requests run one at a time with
 * pread/pwrite when the caller flushes or reaps. Same API as the queued
 * engines, so a caller has one path whatever the kernel offers.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/qio_impl.h"

struct sync_eng {
	unsigned head, n;	/* FIFO of queued slots */
	unsigned slot[];	/* depth entries */
};

static int sync_open(struct qio *q, char *err, size_t errlen)
{
	struct sync_eng *s = calloc(1, sizeof *s + q->depth * sizeof s->slot[0]);

	if (!s) {
		qio_errmsg(err, errlen, "synchronous engine", -ENOMEM);
		return -ENOMEM;
	}
	q->eng = s;
	qio_desc_set(q, "synchronous pread/pwrite, depth %u run one at a time", q->depth);
	return 0;
}

static int sync_submit(struct qio *q, unsigned slot)
{
	struct sync_eng *s = q->eng;

	unsigned at = s->head + s->n++;

	s->slot[at >= q->depth ? at - q->depth : at] = slot;
	return 0;
}

/* The oldest queued request's slot, taken off the FIFO. */
static inline unsigned sync_next(struct qio *q)
{
	struct sync_eng *s = q->eng;
	unsigned slot = s->slot[s->head];

	if (++s->head == q->depth)
		s->head = 0;
	s->n--;
	return slot;
}

/*
 * Run the oldest queued request, timed: its slot in *slotp, its result.
 * Between the two clock reads stands the system call alone (and its
 * repetition after EINTR); the queue's bookkeeping comes before and after.
 */
static inline int32_t sync_run(struct qio *q, unsigned *slotp, uint64_t *t1)
{
	unsigned slot = sync_next(q);
	struct qio_req *r = &q->req[slot];
	int fd = q->fd;
	void *buf = r->buf;
	size_t len = r->len;
	off_t off = (off_t)r->off;
	bool wr = r->write;
	uint64_t t0;
	ssize_t got;

	t0 = clock_now_ns();
	do
		got = wr ? pwrite(fd, buf, len, off) : pread(fd, buf, len, off);
	while (got < 0 && errno == EINTR);
	*t1 = clock_now_ns();
	r->t0 = t0;
	*slotp = slot;
	return got < 0 ? -errno : (int32_t)got;
}

static int sync_flush(struct qio *q)
{
	struct sync_eng *s = q->eng;

	while (s->n) {
		unsigned slot;
		uint64_t t1;
		int32_t res = sync_run(q, &slot, &t1);

		qio_ready_add(q, slot, res, t1);
	}
	return 0;
}

static int sync_reap(struct qio *q, unsigned min, struct qio_done *done, unsigned max)
{
	struct sync_eng *s = q->eng;
	unsigned n = qio_ready_take(q, done, max);

	(void)min;	/* every queued request completes here, up to max */
	while (n < max && s->n) {
		unsigned slot;
		uint64_t t1;
		int32_t res = sync_run(q, &slot, &t1);

		qio_finish(q, slot, res, t1, &done[n++]);
	}
	return (int)n;
}

static void sync_close(struct qio *q)
{
	free(q->eng);	/* queued requests never reached the kernel */
}

const struct qio_ops qio_sync_ops = {
	.kind = QIO_SYNC,
	.open = sync_open,
	.submit = sync_submit,
	.flush = sync_flush,
	.reap = sync_reap,
	.close = sync_close,
};
