/*
 * The engine-independent half of queued I/O: request slots, the choice of
 * engine for QIO_AUTO, and the calls that dispatch to an engine.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/qio_impl.h"

static const char *const kind_names[] = {
	[QIO_AUTO] = "auto", [QIO_SYNC] = "sync", [QIO_AIO] = "aio", [QIO_URING] = "uring",
};

const char *qio_kind_name(enum qio_kind kind)
{
	return (unsigned)kind < sizeof kind_names / sizeof kind_names[0] ? kind_names[kind] : "?";
}

int qio_kind_parse(const char *s, enum qio_kind *kind)
{
	for (unsigned k = 0; k < sizeof kind_names / sizeof kind_names[0]; k++)
		if (strcmp(s, kind_names[k]) == 0) {
			*kind = (enum qio_kind)k;
			return 0;
		}
	return -EINVAL;
}

void qio_errmsg(char *buf, size_t len, const char *what, int err)
{
	snprintf(buf, len, "%s: %s", what, strerror(-err));
}

static void compose(struct qio *q)
{
	snprintf(q->text, sizeof q->text, "%s%s", q->desc, q->notes);
}

void qio_desc_set(struct qio *q, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(q->desc, sizeof q->desc, fmt, ap);
	va_end(ap);
	compose(q);
}

static void __attribute__((format(printf, 2, 3))) note_add(struct qio *q, const char *fmt, ...)
{
	size_t used = strlen(q->notes);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(q->notes + used, sizeof q->notes - used, fmt, ap);
	va_end(ap);
	compose(q);
}

static void qio_free(struct qio *q)
{
	free(q->req);
	free(q->free);
	free(q->ready);
	free(q);
}

static struct qio *qio_alloc(int fd, unsigned depth)
{
	struct qio *q = calloc(1, sizeof *q);

	if (!q)
		return NULL;
	q->fd = fd;
	q->depth = depth;
	q->req = calloc(depth, sizeof *q->req);
	q->free = malloc(depth * sizeof *q->free);
	q->ready = malloc(depth * sizeof *q->ready);
	if (!q->req || !q->free || !q->ready) {
		qio_free(q);
		return NULL;
	}
	/* Lowest slot on top: slots are handed out 0, 1, 2, ... at first. */
	for (unsigned i = 0; i < depth; i++)
		q->free[i] = depth - 1 - i;
	return q;
}

static const struct qio_ops *ops_of(enum qio_kind kind)
{
	switch (kind) {
	case QIO_SYNC: return &qio_sync_ops;
	case QIO_AIO: return &qio_aio_ops;
	case QIO_URING: return &qio_uring_ops;
	default: return NULL;
	}
}

/* Try one engine on q; on failure q->eng stays NULL and err says why. */
static int try_engine(struct qio *q, enum qio_kind kind, char *err, size_t errlen)
{
	q->ops = ops_of(kind);
	q->desc[0] = q->notes[0] = q->text[0] = '\0';
	return q->ops->open(q, err, errlen);
}

/* QIO_AUTO: the first engine that opens; the reasons of the others. */
static int open_auto(struct qio *q, char *err, size_t errlen)
{
	static const enum qio_kind order[] = { QIO_URING, QIO_AIO, QIO_SYNC };
	char why[2][256];
	int ret = -ENOSYS;

	for (unsigned i = 0; i < 3; i++) {
		ret = try_engine(q, order[i], i < 2 ? why[i] : err, i < 2 ? sizeof why[i] : errlen);
		if (ret == 0) {
			if (i > 0)
				note_add(q, " (io_uring not used: %s", why[0]);
			if (i > 1)
				note_add(q, "; Linux AIO not used: %s", why[1]);
			if (i > 0)
				note_add(q, ")");
			return 0;
		}
	}
	return ret;
}

static bool is_direct(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl >= 0 && (fl & O_DIRECT);
}

int qio_open(enum qio_kind kind, int fd, unsigned depth, struct qio **out,
	     char *err, size_t errlen)
{
	struct qio *q;
	int ret;

	*out = NULL;
	if (depth < 1 || depth > QIO_MAX_DEPTH || (kind != QIO_AUTO && !ops_of(kind))) {
		snprintf(err, errlen, "queue depth %u: must be 1 to %u", depth, QIO_MAX_DEPTH);
		if (depth >= 1 && depth <= QIO_MAX_DEPTH)
			snprintf(err, errlen, "unknown I/O engine %d", (int)kind);
		return -EINVAL;
	}
	q = qio_alloc(fd, depth);
	if (!q) {
		snprintf(err, errlen, "queued I/O: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	ret = kind == QIO_AUTO ? open_auto(q, err, errlen) : try_engine(q, kind, err, errlen);
	if (ret < 0) {
		qio_free(q);
		return ret;
	}
	if (!is_direct(fd))
		note_add(q, "; the file is not open O_DIRECT: requests may go through the page cache%s",
			     q->ops->kind == QIO_AIO ? " and Linux AIO runs them inside io_submit" : "");
	*out = q;
	return 0;
}

int qio_register_buffers(struct qio *q, const struct iovec *iov, unsigned n)
{
	if (q->used)
		return -EBUSY;
	if (n > QIO_MAX_BUFFERS)
		return -EINVAL;
	return q->ops->register_buffers ? q->ops->register_buffers(q, iov, n) : 0;
}

int qio_submit(struct qio *q, bool write, void *buf, size_t len, uint64_t off, uint64_t tag)
{
	unsigned slot;
	struct qio_req *r;

	if (q->used == q->depth)
		return -EBUSY;
	if (len == 0 || len > QIO_MAX_LEN)
		return -EINVAL;
	slot = q->free[q->depth - q->used - 1];
	q->used++;
	r = &q->req[slot];
	r->tag = tag;
	r->off = off;
	r->buf = buf;
	r->len = (uint32_t)len;
	r->write = write;
	return q->ops->submit(q, slot);
}

int qio_flush(struct qio *q)
{
	return q->ops->flush(q);
}

int qio_reap(struct qio *q, unsigned min, struct qio_done *done, unsigned max)
{
	if (min > q->used)
		min = q->used;
	if (min > max)
		min = max;
	return q->ops->reap(q, min, done, max);
}

void qio_watch_stop(struct qio *q, const volatile sig_atomic_t *flag)
{
	q->stop = flag;
}

void qio_ready_add(struct qio *q, unsigned slot, int32_t res, uint64_t t1)
{
	struct qio_ready *r = &q->ready[(q->ready_head + q->ready_n) % q->depth];

	/* The slot stays taken until the caller reaps it: at most depth. */
	r->slot = slot;
	r->res = res;
	r->t1 = t1;
	q->ready_n++;
}

unsigned qio_ready_take_some(struct qio *q, struct qio_done *done, unsigned max)
{
	unsigned n = 0;

	while (q->ready_n && n < max) {
		const struct qio_ready *r = &q->ready[q->ready_head];

		qio_finish(q, r->slot, r->res, r->t1, &done[n++]);
		q->ready_head = (q->ready_head + 1) % q->depth;
		q->ready_n--;
	}
	return n;
}

unsigned qio_outstanding(const struct qio *q)
{
	return q->used;
}

void qio_close(struct qio *q)
{
	if (!q)
		return;
	q->ops->close(q);
	qio_free(q);
}

enum qio_kind qio_kind(const struct qio *q)
{
	return q->ops->kind;
}

unsigned qio_depth(const struct qio *q)
{
	return q->depth;
}

const char *qio_describe(struct qio *q)
{
	if (q->ops->describe)
		q->ops->describe(q);	/* what the engine has counted so far */
	return q->text;
}
