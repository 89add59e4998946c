/*
 * When io_uring's waits poll before they sleep (core/qio_spin.h): every
 * wait while polls catch their completion; after polls that time out,
 * 1, 2, 4, ... waits sleep at once, at most QIO_SPIN_SKIP_MAX; a caught
 * poll halves that. So a device polls catch (a worker on another CPU)
 * is polled at nearly every wait, and one they never catch (a worker on
 * our own CPU, a card of milliseconds) costs one poll in a thousand. A
 * catch after the thread was preempted (the worker ran on our CPU) is a
 * miss.
 */
#include "core/qio_spin.h"
#include "unit.h"

/* Waits of which a poll catches its completion when caught(i) says so. */
static unsigned polled_of(unsigned waits, bool (*caught)(unsigned), struct qio_spin *s)
{
	unsigned polled = 0;

	for (unsigned i = 0; i < waits; i++)
		if (qio_spin_now(s)) {
			qio_spin_done(s, caught(polled), caught(polled) ? 0 : -1);
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
	unsigned slept = 0;

	CHECK(qio_spin_now(&s));	/* a fresh ring polls */
	qio_spin_done(&s, false, -1);
	CHECK(!qio_spin_now(&s));	/* one miss: the next wait sleeps */
	CHECK(qio_spin_now(&s));	/* and the one after polls again */
	qio_spin_done(&s, false, -1);
	CHECK(!qio_spin_now(&s) && !qio_spin_now(&s) && qio_spin_now(&s));	/* two sleep */
	qio_spin_done(&s, false, -1);
	while (!qio_spin_now(&s))
		slept++;
	CHECK(slept == 4);
	CHECK(s.spins == 3 && s.caught == 0);
}

static void capped_and_halved(void)
{
	struct qio_spin s = { 0 };
	unsigned slept = 0;

	for (int i = 0; i < 40; i++)
		qio_spin_done(&s, false, -1);
	CHECK(s.backoff == QIO_SPIN_SKIP_MAX && s.skip == QIO_SPIN_SKIP_MAX);
	s.skip = 0;
	qio_spin_done(&s, true, 0);	/* a catch halves the next skip */
	CHECK(s.backoff == QIO_SPIN_SKIP_MAX / 2 && s.skip == 0);
	qio_spin_done(&s, false, -1);
	while (!qio_spin_now(&s))
		slept++;
	CHECK(slept == QIO_SPIN_SKIP_MAX);
	CHECK(s.spins == 42 && s.caught == 1);
}

/* Catches that each follow a preemption: the worker shares our CPU. */
static void preempted_catches(void)
{
	struct qio_spin s = { .preempted = 7 };
	unsigned polled = 0;
	long nivcsw = 7;

	qio_spin_done(&s, true, nivcsw);	/* not preempted: a catch */
	CHECK(s.caught == 1 && s.skip == 0);
	qio_spin_done(&s, true, ++nivcsw);	/* preempted: a miss */
	CHECK(s.caught == 1 && s.skip == 1 && s.preempted == nivcsw);
	s.skip = 0;
	qio_spin_done(&s, true, nivcsw);	/* the count as last seen: a catch */
	CHECK(s.caught == 2);
	for (unsigned i = 0; i < 100000; i++)
		if (qio_spin_now(&s)) {
			qio_spin_done(&s, true, ++nivcsw);
			polled++;
		}
	CHECK(polled <= 10 + 100000 / QIO_SPIN_SKIP_MAX + 1);
}

static void patterns(void)
{
	struct qio_spin a = { 0 }, n = { 0 }, q = { 0 }, m = { 0 };
	unsigned waits = 100000;

	CHECK(polled_of(waits, always, &a) == waits);
	/* never caught: 10 polls to reach the cap, then one per 1025 waits */
	CHECK(polled_of(waits, never, &n) <= 10 + waits / QIO_SPIN_SKIP_MAX + 1);
	/* caught once in four: misses outrun the catches, polls stay rare */
	CHECK(polled_of(waits, one_in_four, &q) < waits / 100);
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
