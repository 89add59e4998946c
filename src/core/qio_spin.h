/*
 * When the io_uring engine spins before it sleeps (qio_uring.c).
 *
 * A wait for a completion that sleeps is woken by the CPU that finished
 * the request: on a virtual machine an idle vCPU is halted, and waking it
 * costs more than the request. With the device's worker on the other CPU
 * (a loop device's, or the interrupt's), polling the ring for a few
 * microseconds catches the completion without that wake-up: 4 KiB reads
 * at depth 32 on a loop device over tmpfs, the worker on the other CPU,
 * went from about 400k to 600k IOPS sequential and 276k to 297k random
 * (AMD EPYC, 2 vCPUs, 6 runs of each in turn; docs/guide-building.md).
 * With the worker on our own CPU, spinning keeps it from running: fio's
 * busy poll (--iodepth_batch_complete_min=0) falls to a quarter there.
 * And a card whose requests take milliseconds is never caught by a spin
 * of microseconds. So a spin that times out costs the next waits theirs:
 * 1, 2, 4, ... up to QIO_SPIN_SKIP_MAX of them sleep at once, and a spin
 * that catches its completion halves that number for the next miss. A
 * slow card, or a worker on our CPU, pays one spin in QIO_SPIN_SKIP_MAX + 1
 * waits (50 us per thousand waits); a worker elsewhere is polled at nearly every
 * wait (a depth-32 run over a loop device: about 220,000 polls for its
 * 262,144 requests, 99.9% of them caught).
 */
#ifndef FB_QIO_SPIN_H
#define FB_QIO_SPIN_H

#include <stdbool.h>
#include <stdint.h>

/* Also written out in man/flashbench.1, docs/test-queue-depth.md,
 * docs/guide-building.md and tests/cli/queue_depth.sh: change them too. */
#define QIO_SPIN_NS 50000u		/* longest spin of one wait */
#define QIO_SPIN_TEXT "50us"		/* the same, for qio_describe() */
#define QIO_SPIN_SKIP_MAX 1024u		/* most waits skipped after misses */

struct qio_spin {
	unsigned skip;		/* waits left that sleep without spinning */
	unsigned backoff;	/* waits to skip after the next miss / 2 */
	uint64_t spins, caught;	/* spins tried, and those that caught one */
};

/* Whether this wait spins first (else it sleeps at once). */
static inline bool qio_spin_now(struct qio_spin *s)
{
	if (s->skip) {
		s->skip--;
		return false;
	}
	return true;
}

/*
 * The spin of this wait caught what it waited for, or timed out.
 * preempted: another task took the CPU since the last catch (the
 * thread's involuntary context switches, getrusage's ru_nivcsw, rose).
 * Such a catch counts as a miss: the worker ran on our CPU and finished
 * the request there, which a sleep lets it do sooner (at depth 1, worker
 * and tool on one CPU, these catches kept every wait spinning at 0.69x
 * the IOPS of sleeping).
 */
static inline void qio_spin_done(struct qio_spin *s, bool caught, bool preempted)
{
	caught = caught && !preempted;
	s->spins++;
	if (caught) {
		s->caught++;
		s->backoff /= 2;
		return;
	}
	s->backoff = s->backoff ? s->backoff * 2 : 1;
	if (s->backoff > QIO_SPIN_SKIP_MAX)
		s->backoff = QIO_SPIN_SKIP_MAX;
	s->skip = s->backoff;
}

#endif
