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

/* Run the oldest queued request, stamped as started at t0: its result. */
static inline int32_t sync_run(struct qio *q, unsigned *slotp, uint64_t t0)
{
	struct sync_eng *s = q->eng;
	unsigned slot = s->slot[s->head];
	struct qio_req *r = &q->req[slot];
	ssize_t got;

	if (++s->head == q->depth)
		s->head = 0;
	s->n--;
	r->t0 = t0;
	do {
		got = r->write ? pwrite(q->fd, r->buf, r->len, (off_t)r->off)
			       : pread(q->fd, r->buf, r->len, (off_t)r->off);
	} while (got < 0 && errno == EINTR);
	*slotp = slot;
	return got < 0 ? -errno : (int32_t)got;
}

static int sync_flush(struct qio *q)
{
	struct sync_eng *s = q->eng;
	uint64_t t = s->n ? clock_now_ns() : 0;

	while (s->n) {
		unsigned slot;
		int32_t res = sync_run(q, &slot, t);

		t = clock_now_ns();
		qio_ready_add(q, slot, res, t);
	}
	return 0;
}

static int sync_reap(struct qio *q, unsigned min, struct qio_done *done, unsigned max)
{
	struct sync_eng *s = q->eng;
	unsigned n = qio_ready_take(q, done, max);
	uint64_t t;

	(void)min;	/* every queued request completes here, up to max */
	if (n == max || !s->n)
		return (int)n;
	t = clock_now_ns();
	while (n < max && s->n) {
		unsigned slot;
		int32_t res = sync_run(q, &slot, t);

		t = clock_now_ns();
		qio_finish(q, slot, res, t, &done[n++]);
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
