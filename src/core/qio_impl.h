/*
 * Inside the queued I/O engines: the state every engine shares (request
 * slots, the free list, completions ready before the kernel saw them)
 * and the table of operations each engine file defines.
 */
#ifndef FB_QIO_IMPL_H
#define FB_QIO_IMPL_H

#include "core/clock.h"
#include "core/qio.h"

/* One outstanding request. */
struct qio_req {
	uint64_t tag, off;
	uint64_t t0;		/* submission stamp */
	void *buf;
	uint32_t len;
	bool write;
};

struct qio_ops {
	enum qio_kind kind;
	/* Set up engine state in q->eng; 0 or -errno with a reason in err. */
	int (*open)(struct qio *q, char *err, size_t errlen);
	/* Queue request slot (already filled in). 0 or -errno. */
	int (*submit)(struct qio *q, unsigned slot);
	int (*flush)(struct qio *q);
	int (*reap)(struct qio *q, unsigned min, struct qio_done *done, unsigned max);
	int (*register_buffers)(struct qio *q, const struct iovec *iov, unsigned n);
	/* Wait for requests in flight, drop queued ones, free q->eng. */
	void (*close)(struct qio *q);
	/* Optional: set q's description anew (qio_desc_set) from its counts. */
	void (*describe)(struct qio *q);
};

extern const struct qio_ops qio_sync_ops, qio_aio_ops, qio_uring_ops;

struct qio {
	const struct qio_ops *ops;
	void *eng;		/* the engine's state */
	int fd;
	unsigned depth;
	unsigned used;		/* slots taken: queued or in flight */
	unsigned *free;		/* free slot numbers, a stack of depth - used */
	struct qio_req *req;	/* depth slots */
	/* Completions known before (or without) the kernel: a FIFO. */
	struct qio_ready {
		unsigned slot;
		int32_t res;
		uint64_t t1;
	} *ready;
	unsigned ready_head, ready_n;
	const volatile sig_atomic_t *stop;	/* qio_watch_stop(), or NULL */
	char desc[320];		/* the engine's part of qio_describe() */
	char notes[640];	/* engines not chosen, file mode */
	char text[960];		/* desc + notes */
};

/* The stop flag is set: a wait that would sleep returns instead. */
static inline bool qio_stopped(const struct qio *q)
{
	return q->stop && *q->stop;
}

/* Slot done at time t1 with result res: fill *d and free the slot. */
static inline void qio_finish(struct qio *q, unsigned slot, int32_t res, uint64_t t1,
			      struct qio_done *d)
{
	const struct qio_req *r = &q->req[slot];

	d->tag = r->tag;
	d->off = r->off;
	d->len = r->len;
	d->write = r->write;
	d->res = res;
	d->ns = t1 - r->t0;
	q->free[q->depth - q->used] = slot;
	q->used--;
}

/* Slot done outside the kernel's completion queue (a refused submission,
 * a sync request run by qio_flush()): kept, slot taken, until reaped. */
void qio_ready_add(struct qio *q, unsigned slot, int32_t res, uint64_t t1);
/* Move up to max ready completions to done[]; their number. */
unsigned qio_ready_take_some(struct qio *q, struct qio_done *done, unsigned max);
static inline unsigned qio_ready_take(struct qio *q, struct qio_done *done, unsigned max)
{
	return q->ready_n ? qio_ready_take_some(q, done, max) : 0;	/* mostly none */
}

/* "NAME: strerror(-err)" into buf. */
void qio_errmsg(char *buf, size_t len, const char *what, int err);
/* Set the engine's part of qio_describe(), printf-style. */
void qio_desc_set(struct qio *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
