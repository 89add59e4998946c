/*
 * Queued requests on the simulated card (sim_queue.h, the lanes of
 * sim_model.h): depth raises throughput up to the channels and no
 * further, latency grows with the wait in line, requests complete in the
 * order of the virtual clock (a short one overtakes a long one), each
 * comes back exactly once, failures complete at once.
 */
#include <errno.h>
#include <string.h>

#include "sim/sim_queue.h"
#include "unit.h"

#define K 1024ULL
#define M (1024ULL * 1024)

/* Round numbers, no noise: a 4 KiB read costs read_lat + 4096 / read_bw. */
static struct sim_params card(unsigned channels)
{
	struct sim_params p;

	memset(&p, 0, sizeof(p));
	p.size = 1024 * M;
	p.erase = 4 * M;
	p.page = 16 * K;
	p.read_lat = 100000;
	p.read_bw = 10000000;
	p.read_chunk = 64 * K;
	p.write_lat = 50000;
	p.write_bw = 10000000;
	p.copy_bw = 20000000;
	p.erase_ns = 2000000;
	p.open_au = 2;
	p.channels = channels;
	return p;
}

/* n aligned 4 KiB reads kept depth deep; elapsed virtual time, latencies summed. */
static uint64_t sweep(const struct sim_params *p, unsigned depth, unsigned n, uint64_t *lat_sum,
		      unsigned *returned)
{
	struct sim_card c;
	struct sim_queue q;
	struct qio_done d[64];
	unsigned next = 0, back = 0, bad = 0;
	unsigned char seen[4096] = { 0 };

	sim_card_init(&c, p);
	CHECK(sim_queue_init(&q, depth) == 0 && n <= 4096);
	*lat_sum = 0;
	while (back < n) {
		unsigned got;

		while (next < n && q.n < depth) {
			bad += sim_queue_submit(&c, &q, false, (uint64_t)next * 4 * K, 4096, next, 0) != 0;
			next++;
		}
		got = sim_queue_reap(&c, &q, 1, d, 64);
		if (got == 0)
			break;
		for (unsigned i = 0; i < got; i++) {
			/* each exactly once, as submitted */
			bad += d[i].tag >= n || seen[d[i].tag & 4095]++;
			bad += d[i].res != 4096 || d[i].off != d[i].tag * 4 * K || d[i].write;
			*lat_sum += d[i].ns;
		}
		back += got;
	}
	*returned = back;
	CHECK(bad == 0 && q.n == 0);
	sim_queue_free(&q);
	return c.now_ns;
}

static void depth_and_channels(void)
{
	struct sim_params p = card(4);
	uint64_t one = sim_read_cost(&p, 0, 4 * K), lat, t;
	unsigned n = 1024, back;

	for (unsigned d = 1; d <= 32; d *= 2) {
		unsigned lanes = d < 4 ? d : 4;

		t = sweep(&p, d, n, &lat, &back);
		CHECK(back == n);
		/* exactly n / min(d, channels) request times */
		CHECK(t == (uint64_t)n / lanes * one);
		/* in line: every request waits for d / channels of them (d >= 4) */
		if (d >= 4)
			CHECK(lat / n > (uint64_t)d / 4 * one * 9 / 10 && lat / n <= (uint64_t)d / 4 * one);
		else
			CHECK(lat == (uint64_t)n * one);
	}
	p.channels = 1;
	t = sweep(&p, 8, n, &lat, &back);
	CHECK(t == (uint64_t)n * one);
}

static void out_of_order(void)
{
	struct sim_params p = card(2);
	struct sim_card c;
	struct sim_queue q;
	struct qio_done d[4];
	uint64_t big = sim_read_cost(&p, 0, 1 * M), small = sim_read_cost(&p, 4 * M, 4 * K);

	sim_card_init(&c, &p);
	CHECK(sim_queue_init(&q, 4) == 0);
	CHECK(sim_queue_submit(&c, &q, false, 0, 1 * M, 7, 0) == 0);
	CHECK(sim_queue_submit(&c, &q, false, 4 * M, 4 * K, 8, 0) == 0);
	/* nothing done yet at time 0: min 0 returns nothing */
	CHECK(sim_queue_reap(&c, &q, 0, d, 4) == 0 && c.now_ns == 0);
	CHECK(sim_queue_reap(&c, &q, 1, d, 4) == 1 && d[0].tag == 8 && d[0].ns == small);
	CHECK(c.now_ns == small);
	CHECK(sim_queue_reap(&c, &q, 1, d, 4) == 1 && d[0].tag == 7 && d[0].ns == big);
	/* the clock moved to the last completion; nothing is left */
	CHECK(c.now_ns == big && q.n == 0 && sim_queue_reap(&c, &q, 1, d, 4) == 0);
	/* a request submitted later has its latency from its own submission */
	CHECK(sim_queue_submit(&c, &q, true, 8 * M, 16 * K, 9, 0) == 0);
	CHECK(sim_queue_reap(&c, &q, 1, d, 4) == 1 && d[0].write && d[0].res == 16384);
	CHECK(d[0].ns == c.now_ns - big);
	sim_queue_free(&q);
}

static void full_and_failed(void)
{
	struct sim_params p = card(1);
	struct sim_card c;
	struct sim_queue q;
	struct qio_done d[4];

	sim_card_init(&c, &p);
	CHECK(sim_queue_init(&q, 0) == -EINVAL && sim_queue_init(&q, QIO_MAX_DEPTH + 1) == -EINVAL);
	CHECK(sim_queue_init(&q, 2) == 0);
	CHECK(sim_queue_submit(&c, &q, false, 0, 4096, 1, 0) == 0);
	CHECK(sim_queue_submit(&c, &q, false, 4096, 4096, 2, -EIO) == 0);
	CHECK(sim_queue_submit(&c, &q, false, 8192, 4096, 3, 0) == -EBUSY);
	/* the failure is done at once, before the read ahead of it */
	CHECK(sim_queue_reap(&c, &q, 0, d, 4) == 1 && d[0].tag == 2 && d[0].res == -EIO &&
	      d[0].ns == 0);
	CHECK(sim_queue_reap(&c, &q, 5, d, 4) == 1 && d[0].tag == 1 && d[0].res == 4096);
	/* max caps what comes back */
	CHECK(sim_queue_submit(&c, &q, false, 0, 4096, 4, 0) == 0);
	CHECK(sim_queue_submit(&c, &q, false, 0, 4096, 5, 0) == 0);
	CHECK(sim_queue_reap(&c, &q, 2, d, 1) == 1 && d[0].tag == 4 && q.n == 1);
	sim_queue_free(&q);
}

/* sim_batch is the same lanes: a batch of 4 on 2 channels takes 2 request times. */
static void batch_on_lanes(void)
{
	struct sim_params p = card(2);
	struct sim_card c;
	struct sim_req r[4];
	uint64_t one = sim_read_cost(&p, 0, 4 * K);

	memset(r, 0, sizeof(r));
	for (int i = 0; i < 4; i++)
		r[i].off = (uint64_t)i * M, r[i].len = 4 * K;
	sim_card_init(&c, &p);
	sim_read(&c, 0, 4 * K);
	CHECK(sim_batch(&c, r, 4) == 2 * one && c.now_ns == 3 * one && r[2].ns == one);
}

int main(void)
{
	depth_and_channels();
	out_of_order();
	full_and_failed();
	batch_on_lanes();
	UNIT_DONE();
}
