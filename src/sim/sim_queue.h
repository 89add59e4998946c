/*
 * Queued requests on the simulated card: the requests outstanding and
 * their completion in the order of the virtual clock. A request is
 * started on the card when it is submitted (sim_queue_start() in the
 * model: a lane, a start and a completion time); reaping is the host
 * waiting: the clock moves to each completion in turn, so requests that
 * finish first come back first, whatever their submission order, and a
 * request's latency is its completion time minus its submission time.
 * Pure: no I/O, no real clock.
 */
#ifndef FB_SIM_QUEUE_H
#define FB_SIM_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/qio.h"
#include "sim/sim_model.h"

struct sim_qreq {
	uint64_t tag, off;
	uint64_t t_sub, t_done;	/* virtual times */
	uint64_t seq;		/* submission order */
	uint32_t len;
	int32_t res;		/* len, or -errno */
	bool write;
};

struct sim_queue {
	struct sim_qreq *req;	/* the outstanding requests, in no order */
	unsigned n, depth;
	uint64_t seq;		/* requests submitted */
};

/* Room for depth (1..QIO_MAX_DEPTH) outstanding requests; 0 or -errno. */
int sim_queue_init(struct sim_queue *q, unsigned depth);
void sim_queue_free(struct sim_queue *q);

/*
 * Submit a request at the card's current time. res 0: it is served (the
 * model's cost, on a lane); res < 0: it fails at once with that error
 * (a fail point, a bad range) and takes no time. 0, or -EBUSY when depth
 * requests are outstanding.
 */
int sim_queue_submit(struct sim_card *c, struct sim_queue *q, bool write, uint64_t off,
		     uint32_t len, uint64_t tag, int32_t res);

/*
 * Complete between min (capped at the number outstanding) and max
 * requests into done[], earliest completion first (ties: the one
 * submitted first); the clock moves to the last one returned. Requests
 * already complete at the current time are returned too, up to max,
 * without moving the clock. Returns their number.
 */
unsigned sim_queue_reap(struct sim_card *c, struct sim_queue *q, unsigned min,
			struct qio_done *done, unsigned max);

#endif
