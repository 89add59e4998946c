/*
 * The simulated card's noise of real tables (sim_model.h): read-var per
 * erase block, cross-var per boundary, post-slow after a page boundary,
 * stalls that outlast several requests. Each is tied to a place or drawn
 * from the seed, so the same spec gives the same times; all are off by
 * default, so presets keep their noise-free tables.
 */
#include <math.h>

#include "sim/sim_model.h"
#include "sim/sim_spec.h"
#include "unit.h"

#define K 1024ull
#define M (1024ull * 1024)

static struct sim_params spec(const char *s)
{
	struct sim_spec sp;
	char err[256];

	if (sim_spec_parse(s, &sp, err, sizeof(err)) != 0)
		printf("FAIL: sim:%s: %s\n", s, err);
	return sp.p;
}

/* A read of 1 KiB inside one page, away from boundaries: read_lat + transfer. */
static uint64_t plain_read(const struct sim_params *p, uint64_t off)
{
	return sim_read_cost(p, off + 4 * K, K);
}

static void read_var(void)
{
	struct sim_params p = spec("sd,read-var=10,seed=3"), q = spec("sd");
	uint64_t base = plain_read(&q, 0), lo = UINT64_MAX, hi = 0;
	bool differ = false;

	for (uint64_t au = 0; au < 64; au++) {
		uint64_t t = plain_read(&p, au * p.erase);

		/* The same within an erase block, another factor in the next one. */
		CHECK(plain_read(&p, au * p.erase + 1 * M) == t);
		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
		differ |= au && t != plain_read(&p, (au - 1) * p.erase);
	}
	CHECK(differ);
	/* Within +-10% of the latency (the transfer is not scaled). */
	CHECK(lo >= base - q.read_lat / 10 - 1 && hi <= base + q.read_lat / 10 + 1);
	CHECK(hi - lo > q.read_lat / 20);
	/* Another seed, other blocks slower. */
	q = spec("sd,read-var=10,seed=4");
	differ = false;
	for (uint64_t au = 0; au < 8; au++)
		differ |= plain_read(&p, au * p.erase) != plain_read(&q, au * p.erase);
	CHECK(differ);
	/* A read across two blocks waits for the slower of them. */
	for (uint64_t au = 1; au < 16; au++) {
		uint64_t b = au * p.erase, a = plain_read(&p, b - p.erase), c = plain_read(&p, b);
		uint64_t on = sim_read_cost(&p, b - K / 2, K) - p.page_cross - p.erase_cross;

		CHECK(on == (a > c ? a : c));
	}
}

static void cross_var(void)
{
	struct sim_params p = spec("sd,cross-var=50,seed=9"), q = spec("sd");
	uint64_t lo = UINT64_MAX, hi = 0;

	for (uint64_t i = 1; i < 200; i++) {
		uint64_t b = i * p.page;	/* page boundaries, some of them erase boundaries */
		uint64_t extra = sim_read_cost(&p, b - K / 2, K) - plain_read(&p, 0);
		uint64_t want = b % p.erase ? q.page_cross : q.page_cross + q.erase_cross;

		/* Fixed per boundary, within +-50% of the plain cost. */
		CHECK(sim_read_cost(&p, b - K / 2, K) == sim_read_cost(&p, b - K / 4, K));
		CHECK(extra >= want / 2 - 1 && extra <= want + want / 2 + 1);
		if (b % p.erase) {
			lo = extra < lo ? extra : lo;
			hi = extra > hi ? extra : hi;
		}
	}
	CHECK(hi - lo > q.page_cross / 2);
	/* Reads that cross nothing are untouched. */
	CHECK(plain_read(&p, 5 * M) == plain_read(&q, 5 * M));
}

static void post_slow(void)
{
	struct sim_params p = spec("sd,post-slow=20"), q = spec("sd");

	/* A read starting at a page boundary: 20% more latency; not one starting inside. */
	CHECK(sim_read_cost(&p, 32 * K, K) == sim_read_cost(&q, 32 * K, K) + q.read_lat / 5);
	CHECK(sim_read_cost(&p, 32 * K + 512, K) == sim_read_cost(&q, 32 * K + 512, K));
	CHECK(sim_read_cost(&p, 32 * K - K, K) == sim_read_cost(&q, 32 * K - K, K));
}

static void stalls(void)
{
	struct sim_params p = spec("sd,stalls=0.01,stall-time=5ms,seed=2"), q = spec("sd");
	uint64_t base = plain_read(&q, 0);
	struct sim_card a, b;
	unsigned run = 0, runs = 0, stalled = 0;
	bool same = true, whole = true, two = true;

	sim_card_init(&a, &p);
	sim_card_init(&b, &p);
	for (int i = 0; i < 20000; i++) {
		uint64_t t = sim_read(&a, 4 * K, K);

		same &= t == sim_read(&b, 4 * K, K);
		two &= t == base || t == base + 5000000;
		if (t != base) {
			run++, stalled++;
		} else if (run) {
			/* A stall lasts SIM_STALL_LEN requests (runs of them may follow each other). */
			whole &= run % SIM_STALL_LEN == 0;
			runs++;
			run = 0;
		}
	}
	CHECK(same && two && whole && runs > 20);
	/* About 1% of requests start a stall: roughly a quarter of them are stalled. */
	CHECK(stalled > 20000 / 8 && stalled < 20000 / 2);
	/* No stalls: every read costs the same. */
	sim_card_init(&a, &q);
	for (int i = 0; i < 1000; i++)
		same &= sim_read(&a, 4 * K, K) == base;
	CHECK(same);
}

static void parsing(void)
{
	struct sim_spec sp;
	char err[256];

	CHECK(sim_spec_parse("read-var=12,cross-var=40%,post-slow=25,stalls=0.1%,stall-time=2ms",
			     &sp, err, sizeof(err)) == 0);
	CHECK(sp.p.read_var == 12 && sp.p.cross_var == 40 && sp.p.post_slow == 25);
	CHECK(fabs(sp.p.stalls - 0.001) < 1e-12 && sp.p.stall_ns == 2000000);
	CHECK(sim_spec_parse("read-var=101", &sp, err, sizeof(err)) < 0);
	CHECK_STR(err, "sim: bad value for read-var: '101'");
	CHECK(sim_spec_parse("stalls=2", &sp, err, sizeof(err)) < 0);
	CHECK(sim_spec_parse("stall-time=5", &sp, err, sizeof(err)) < 0);
	/* Off in every preset. */
	for (const char *const *n = (const char *const[]){ "sd", "usb", "fat", "tlc", "ssd", "smr",
							    NULL }; *n; n++) {
		const struct sim_params *pp = sim_preset(*n);

		CHECK(pp && pp->read_var == 0 && pp->cross_var == 0 && pp->post_slow == 0 &&
		      pp->stalls == 0);
	}
}

int main(void)
{
	read_var();
	cross_var();
	post_slow();
	stalls();
	parsing();
	UNIT_DONE();
}
