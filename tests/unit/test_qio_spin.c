/*
 * When io_uring's waits poll before they sleep (core/qio_spin.h): every
 * wait while polls catch their completion; after polls that time out,
 * 1, 2, 4, ... waits sleep at once, at most QIO_SPIN_SKIP_MAX; a caught
 * poll halves that. So a device polls catch (a worker on another CPU)
 * is polled at nearly every wait, and one they never catch (a worker on
 * our own CPU, a card of milliseconds) costs one poll in a thousand, and
 * still gets one. A catch after the thread was preempted (the
 * worker ran on our CPU) is a miss.
 */
#include "core/qio_spin.h"
#include "unit.h"

/* Waits that sleep before the next poll; stops at a bound, so that a
 * policy that never polls again fails instead of hanging. */
static unsigned sleeps(struct qio_spin *s)
{
	unsigned n = 0;

	while (!qio_spin_now(s) && n <= 4 * QIO_SPIN_SKIP_MAX)
		n++;
	return n;
}

/* Polls among waits when poll i catches as caught(i) says, unpreempted. */
static unsigned polled_of(unsigned waits, bool (*caught)(unsigned), struct qio_spin *s)
{
	unsigned polled = 0;

	for (unsigned i = 0; i < waits; i++)
		if (qio_spin_now(s)) {
			qio_spin_done(s, caught(polled), false);
			polled++;
		}
	return polled;
}

static bool always(unsigned i) { (void)i; return true; }
static bool never(unsigned i) { (void)i; return false; }
static bool one_in_four(unsigned i) { return i % 4 == 0; }
static bool nine_in_ten(unsigned i) { return i % 10 != 9; }

static void first_misses(void)
{
	struct qio_spin s = { 0 };

	CHECK(qio_spin_now(&s));	/* a fresh ring polls */
	qio_spin_done(&s, false, false);
	CHECK(sleeps(&s) == 1);		/* one miss: the next wait sleeps */
	qio_spin_done(&s, false, false);
	CHECK(sleeps(&s) == 2);
	qio_spin_done(&s, false, false);
	CHECK(sleeps(&s) == 4);
	CHECK(s.spins == 3 && s.caught == 0);
}

static void capped_and_halved(void)
{
	struct qio_spin s = { 0 };

	for (int i = 0; i < 40; i++)
		qio_spin_done(&s, false, false);
	CHECK(s.backoff == QIO_SPIN_SKIP_MAX);
	CHECK(sleeps(&s) == QIO_SPIN_SKIP_MAX);	/* capped: it polls again */
	qio_spin_done(&s, true, false);		/* a catch halves the next skip */
	CHECK(qio_spin_now(&s));		/* and the next wait polls */
	qio_spin_done(&s, false, false);
	CHECK(sleeps(&s) == QIO_SPIN_SKIP_MAX);	/* 512 doubled */
	qio_spin_done(&s, true, false);
	qio_spin_done(&s, true, false);
	qio_spin_done(&s, false, false);
	CHECK(sleeps(&s) == QIO_SPIN_SKIP_MAX / 2);	/* 256 doubled */
	CHECK(s.spins == 45 && s.caught == 3);
}

/* Catches after the worker took our CPU: each a miss. */
static void preempted_catches(void)
{
	struct qio_spin s = { 0 };
	unsigned polled = 0, waits = 100000;

	qio_spin_done(&s, true, false);		/* not preempted: a catch */
	CHECK(s.caught == 1 && qio_spin_now(&s));
	qio_spin_done(&s, true, true);		/* preempted: a miss */
	CHECK(s.caught == 1 && sleeps(&s) == 1);
	qio_spin_done(&s, true, false);		/* a clean catch after it counts */
	CHECK(s.caught == 2 && qio_spin_now(&s));
	for (unsigned i = 0; i < waits; i++)
		if (qio_spin_now(&s)) {
			qio_spin_done(&s, true, true);
			polled++;
		}
	CHECK(polled <= 10 + waits / (QIO_SPIN_SKIP_MAX + 1) + 1);
	CHECK(polled >= waits / (QIO_SPIN_SKIP_MAX + 1));
}

static void patterns(void)
{
	struct qio_spin a = { 0 }, n = { 0 }, q = { 0 }, m = { 0 };
	unsigned waits = 100000, p;

	CHECK(polled_of(waits, always, &a) == waits);
	/* never caught: 10 polls to reach the cap, then one per 1025 waits */
	p = polled_of(waits, never, &n);
	CHECK(p <= 10 + waits / (QIO_SPIN_SKIP_MAX + 1) + 1 && p >= waits / (QIO_SPIN_SKIP_MAX + 1));
	/* caught once in four: misses outrun the catches, polls stay rare */
	p = polled_of(waits, one_in_four, &q);
	CHECK(p < waits / 100 && p >= waits / (QIO_SPIN_SKIP_MAX + 1));
	/* caught nine times in ten: nearly every wait polls */
	CHECK(polled_of(waits, nine_in_ten, &m) > waits * 8 / 10);
}

int main(void)
{
	first_misses();
	capped_and_halved();
	preempted_catches();
	patterns();
	UNIT_DONE();
}
