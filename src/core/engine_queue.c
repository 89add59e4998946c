/*
 * Queued requests through the engine: see engine.h. The checks are the
 * synchronous path's (stop flag, output, write guard); what differs is
 * that a request's error arrives with its completion, so it is reported
 * there, with the offset and length the completion carries.
 */
#include <errno.h>
#include <string.h>

#include "core/engine.h"
#include "core/opts.h"
#include "core/out.h"

int eng_queue_open(struct target *t, enum qio_kind kind, unsigned depth, void *buf, size_t len)
{
	char err[512] = "";
	int r;

	if (!t->ops->qopen) {
		fprintf(stderr, "flashbench: %s: this %s takes no queued requests\n", t->path,
			t->ops->kind);
		return FB_EDEV;
	}
	r = t->ops->qopen(t, kind, depth, buf, len, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "flashbench: %s: the %s I/O engine: %s\n", t->path,
			qio_kind_name(kind), err[0] ? err : strerror(-r));
		return FB_EDEV;
	}
	return FB_OK;
}

int eng_queue_submit(struct target *t, bool write, void *buf, size_t len, uint64_t off,
		     uint64_t tag)
{
	int r;

	if (fb_stop)
		return FB_EINTR;
	if (out_error())
		return FB_EDEV;
	if (write && !eng_write_allowed(off, len))
		return FB_EDEV;
	r = t->ops->qsubmit(t, write, buf, len, off, tag);
	if (r < 0) {
		eng_device_error(t, write, off, len, strerror(-r));
		return FB_EDEV;
	}
	return FB_OK;
}

/* The first failed or short request among done[0..n), reported; FB_OK if none. */
static int check_done(struct target *t, const struct qio_done *done, unsigned n)
{
	char why[96];

	for (unsigned i = 0; i < n; i++) {
		const struct qio_done *d = &done[i];

		if (d->res >= 0 && (uint32_t)d->res == d->len)
			continue;
		if (d->res < 0)
			snprintf(why, sizeof(why), "%s", strerror(-d->res));
		else
			snprintf(why, sizeof(why), "short %s: %d of %u bytes",
				 d->write ? "write" : "read", (int)d->res, d->len);
		eng_device_error(t, d->write, d->off, d->len, why);
		return FB_EDEV;
	}
	return FB_OK;
}

int eng_queue_reap(struct target *t, unsigned min, struct qio_done *done, unsigned max,
		   unsigned *got)
{
	int r = t->ops->qreap(t, min, done, max);

	*got = 0;
	if (r == -EINTR)
		return FB_OK;	/* a signal: the caller looks at fb_stop */
	if (r < 0) {
		fprintf(stderr, "flashbench: %s: queued I/O failed: %s\n", t->path, strerror(-r));
		return FB_EDEV;
	}
	*got = (unsigned)r;
	return check_done(t, done, *got);
}

void eng_queue_close(struct target *t)
{
	if (t->ops->qclose)
		t->ops->qclose(t);
}
