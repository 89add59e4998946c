/* Queued requests on the simulated card's virtual clock: see sim_queue.h. */
#include <errno.h>
#include <stdlib.h>

#include "sim/sim_queue.h"

int sim_queue_init(struct sim_queue *q, unsigned depth)
{
	q->n = 0;
	q->seq = 0;
	q->depth = depth;
	q->req = depth >= 1 && depth <= QIO_MAX_DEPTH ? calloc(depth, sizeof(*q->req)) : NULL;
	return q->req ? 0 : depth >= 1 && depth <= QIO_MAX_DEPTH ? -ENOMEM : -EINVAL;
}

void sim_queue_free(struct sim_queue *q)
{
	free(q->req);
	q->req = NULL;
	q->n = q->depth = 0;
}

int sim_queue_submit(struct sim_card *c, struct sim_queue *q, bool write, uint64_t off,
		     uint32_t len, uint64_t tag, int32_t res)
{
	struct sim_qreq *r;

	if (q->n >= q->depth)
		return -EBUSY;
	r = &q->req[q->n++];
	r->tag = tag;
	r->off = off;
	r->len = len;
	r->write = write;
	r->seq = q->seq++;
	r->t_sub = c->now_ns;
	r->res = res < 0 ? res : (int32_t)len;
	r->t_done = res < 0 ? c->now_ns : sim_queue_start(c, off, len, write, NULL);
	return 0;
}

/* The outstanding request that completes first; ties go to the earlier submission. */
static unsigned first_done(const struct sim_queue *q)
{
	unsigned best = 0;

	for (unsigned i = 1; i < q->n; i++) {
		const struct sim_qreq *a = &q->req[i], *b = &q->req[best];

		if (a->t_done < b->t_done || (a->t_done == b->t_done && a->seq < b->seq))
			best = i;
	}
	return best;
}

unsigned sim_queue_reap(struct sim_card *c, struct sim_queue *q, unsigned min,
			struct qio_done *done, unsigned max)
{
	unsigned got = 0;

	while (got < max && q->n > 0) {
		unsigned i = first_done(q);
		struct sim_qreq *r = &q->req[i];

		if (got >= min && r->t_done > c->now_ns)
			break;
		sim_queue_wait(c, r->t_done);
		done[got++] = (struct qio_done){ .tag = r->tag, .off = r->off,
						 .ns = r->t_done - r->t_sub, .len = r->len,
						 .res = r->res, .write = r->write };
		*r = q->req[--q->n];
	}
	return got;
}
