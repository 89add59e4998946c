/*
 * The simulated card: each rule of the model in isolation (sim_model.h),
 * the ground truth that the tests of the measuring modules rely on, the
 * spec parser and presets, and the target glue.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/sim_model.h"
#include "sim/sim_spec.h"
#include "core/target.h"
#include "unit.h"

#define K 1024ULL
#define M (1024ULL * 1024)

/* A plain card with round numbers, so that costs can be worked out. */
static struct sim_params plain(void)
{
	struct sim_params p;

	memset(&p, 0, sizeof(p));
	p.size = 1024 * M;
	p.erase = 4 * M;
	p.page = 16 * K;
	p.read_lat = 100000;
	p.read_bw = 10000000;
	p.read_chunk = 64 * K;
	p.page_cross = 20000;
	p.erase_cross = 80000;
	p.write_lat = 50000;
	p.write_bw = 10000000;
	p.copy_bw = 20000000;
	p.erase_ns = 2000000;
	p.open_au = 2;
	p.open_au_random = 1;
	p.channels = 1;
	p.cache_bw = 100000000;
	return p;
}

#define preset(name) (*sim_preset(name))

/* flashbench's align triple around boundary b; returns on - (pre+post)/2. */
static double align_diff(struct sim_card *c, uint64_t b, uint64_t bs)
{
	double pre = (double)sim_read(c, b - bs, bs);
	double on = (double)sim_read(c, b - bs / 2, bs);
	double post = (double)sim_read(c, b, bs);

	return on - (pre + post) / 2;
}

static void test_reads(void)
{
	struct sim_params p = plain();
	struct sim_card c;

	sim_card_init(&c, &p);
	/* Inside one page: latency and transfer only. */
	CHECK(sim_read(&c, 0, 4 * K) == 100000 + sim_xfer_ns(4 * K, p.read_bw));
	CHECK(c.now_ns == 100000 + sim_xfer_ns(4 * K, p.read_bw));
	/* Across a page boundary, across an erase boundary. */
	CHECK(sim_read_cost(&p, 15 * K, 2 * K) == 120000 + sim_xfer_ns(2 * K, p.read_bw));
	CHECK(sim_read_cost(&p, 4 * M - K, 2 * K) == 200000 + sim_xfer_ns(2 * K, p.read_bw));
	/* Ending or starting on a boundary is no crossing. */
	CHECK(sim_read_cost(&p, 4 * M - 16 * K, 16 * K) == sim_read_cost(&p, 0, 16 * K));
	/* One read_lat per read_chunk piece. */
	CHECK(sim_read_cost(&p, 0, 256 * K) == 4 * 120000 + sim_xfer_ns(256 * K, p.read_bw));
	CHECK(c.n.reads == 1 && c.n.bytes_read == 4 * K);
	sim_card_free(&c);
}

/* diff at boundaries >= erase vs page..erase/2 vs below the page. */
static void check_align(const char *spec, uint64_t erase)
{
	struct sim_spec s;
	struct sim_card c;
	char err[256];
	double big = 1e18, mid_max = 0, mid_min = 1e18, small = 0;

	CHECK(sim_spec_parse(spec, &s, err, sizeof(err)) == 0);
	sim_card_init(&c, &s.p);
	for (uint64_t b = 1024 * M; b >= 2 * K; b /= 2) {
		double d = align_diff(&c, b, K);

		if (b % erase == 0 && d < big)
			big = d;
		else if (b >= 32 * K && b % erase != 0 && d > mid_max)
			mid_max = d;
		if (b >= 32 * K && b % erase != 0 && d < mid_min)
			mid_min = d;
		if (b <= 8 * K && d > small)
			small = d;
	}
	CHECK(big >= 3 * mid_max);
	CHECK(mid_min > 0 && small == 0);
	CHECK(align_diff(&c, 16 * K, K) > 0);
	sim_card_free(&c);
}

static void test_align(void)
{
	struct sim_spec s;
	struct sim_card c;
	char err[256];

	check_align("sd", 4 * M);
	check_align("tlc", 6 * M);
	check_align("sd,erase=3M", 3 * M);
	check_align("usb", 8 * M);
	/* With 3 MiB blocks, 12M is an erase boundary and 4M is not. */
	sim_spec_parse("sd,erase=3M", &s, err, sizeof(err));
	sim_card_init(&c, &s.p);
	CHECK(align_diff(&c, 12 * M, K) == (double)(s.p.page_cross + s.p.erase_cross));
	CHECK(align_diff(&c, 4 * M, K) == (double)s.p.page_cross);
	CHECK(align_diff(&c, 3 * M / 2, K) == (double)s.p.page_cross);
	/* Blocks larger than the page still show the erase boundary. */
	CHECK(align_diff(&c, 6 * M, 64 * K) == (double)s.p.erase_cross);
	sim_card_free(&c);
}

/* Sequential read rate with requests of sz bytes over max(sz, 16M). */
static double seq_rate(const struct sim_params *p, uint64_t sz)
{
	uint64_t total = sz > 16 * M ? sz : 16 * M, t = 0;

	for (uint64_t off = 64 * M; off < 64 * M + total; off += sz)
		t += sim_read_cost(p, off, sz);
	return (double)total * 1e9 / (double)t;
}

static void test_plateau(void)
{
	static const char *const names[] = { "sd", "usb", "fat", "tlc", "ssd", "smr" };
	uint64_t knees[6];

	for (int i = 0; i < 6; i++) {
		struct sim_params p = preset(names[i]);
		double best = 0, a, t;

		for (uint64_t sz = 4 * K; sz <= 32 * M; sz *= 2)
			if (seq_rate(&p, sz) > best)
				best = seq_rate(&p, sz);
		knees[i] = 0;
		for (uint64_t sz = 4 * K; sz <= 32 * M && !knees[i]; sz *= 2)
			if (seq_rate(&p, sz) >= 0.9 * best)
				knees[i] = sz;
		CHECK(knees[i] == p.read_chunk);
		/* Exactly flat from read_chunk on. */
		CHECK(seq_rate(&p, p.read_chunk) > 0.99999 * seq_rate(&p, 8 * p.read_chunk));
		a = (double)(p.read_lat + p.page_cross);
		t = (double)sim_xfer_ns(p.read_chunk, p.read_bw);
		CHECK(a / (2 * a + t) > 0.15);
		for (int j = 0; j < i; j++)
			CHECK(knees[j] != knees[i]);
	}
}

static void test_linear_writes(void)
{
	struct sim_params p = plain();
	struct sim_card c;
	uint64_t lin = 50000 + sim_xfer_ns(64 * K, p.write_bw);

	sim_card_init(&c, &p);
	CHECK(sim_write(&c, 8 * M, 64 * K) == lin);		/* opens AU 2 */
	CHECK(sim_write(&c, 8 * M + 64 * K, 64 * K) == lin);
	CHECK(sim_write(&c, 8 * M + 512 * K, 64 * K) == lin);	/* gap: fine */
	CHECK(c.nopen == 1 && c.n.gcs == 0 && c.n.erases == 0);
	/* Filling the AU closes it: one erase, and the gap is copied. */
	CHECK(sim_write(&c, 8 * M + 576 * K, 4 * M - 576 * K) ==
	      50000 + sim_xfer_ns(4 * M - 576 * K, p.write_bw) +
	      sim_xfer_ns(384 * K, p.copy_bw) + 2000000);
	CHECK(c.nopen == 0 && c.n.erases == 1 && c.n.gcs == 1);
	CHECK(c.n.bytes_copied == 384 * K);
	/* A whole AU written in order needs no copy. */
	CHECK(sim_write(&c, 12 * M, 4 * M) == 50000 + sim_xfer_ns(4 * M, p.write_bw) + 2000000);
	CHECK(c.n.erases == 2 && c.n.gcs == 1);
	/* A write spanning two AUs: fills AU 4 (closed, copying its first
	 * 4M - 16K), opens AU 5. */
	sim_write(&c, 20 * M - 16 * K, 32 * K);
	CHECK(c.nopen == 1 && c.open[0].au == 5 && c.n.erases == 3 && c.n.gcs == 2);
	/* A short last AU is full at its own end. */
	p.size = 10 * M;
	sim_card_init(&c, &p);
	sim_write(&c, 8 * M, 2 * M);
	CHECK(c.nopen == 0 && c.n.erases == 1 && c.n.gcs == 0);
	sim_card_free(&c);
}

static void test_lru(void)
{
	struct sim_params p = plain();
	struct sim_card c;
	uint64_t lin = 50000 + sim_xfer_ns(16 * K, p.write_bw);
	uint64_t gc;

	sim_card_init(&c, &p);
	sim_write(&c, 0 * M + 4 * M, 16 * K);		/* AU 1 */
	sim_write(&c, 8 * M, 16 * K);			/* AU 2 */
	sim_write(&c, 4 * M + 16 * K, 16 * K);		/* AU 1 again: now AU 2 is LRU */
	CHECK(sim_write(&c, 12 * M, 16 * K) == lin + sim_xfer_ns(4 * M - 16 * K, p.copy_bw) + 2000000);
	CHECK(c.n.gcs == 1 && c.nopen == 2);
	CHECK(sim_write(&c, 4 * M + 32 * K, 16 * K) == lin);	/* AU 1 still open */
	/* AU 2 was closed: reopening it evicts AU 3 (LRU now). */
	CHECK(sim_write(&c, 8 * M + 16 * K, 16 * K) == lin + sim_xfer_ns(4 * M - 16 * K, p.copy_bw) + 2000000);
	CHECK(c.n.gcs == 2);
	/* The cost of a GC hardly depends on the request size. */
	p.open_au = 1;
	sim_card_init(&c, &p);
	for (int i = 0; i < 4; i++)
		sim_write(&c, (uint64_t)(1 + i % 2) * 4 * M + (uint64_t)i * 512, 512);
	gc = sim_write(&c, 4 * M + 4 * 512, 512) - 50000 - sim_xfer_ns(512, p.write_bw);
	CHECK(gc == sim_xfer_ns(4 * M - 512, p.copy_bw) + 2000000);
	CHECK(c.n.gcs == 4);
	sim_card_free(&c);
}

static void test_backward(void)
{
	struct sim_params p = plain();
	struct sim_card c;
	uint64_t pg = 50000 + sim_xfer_ns(16 * K, p.write_bw);

	p.open_au = 4;
	sim_card_init(&c, &p);
	sim_write(&c, 4 * M + 64 * K, 64 * K);
	/* First backward AU: random mode (open-au-random=1), page cost. */
	CHECK(sim_write(&c, 4 * M, 512) == pg);
	CHECK(c.nrandom == 1 && c.n.gcs == 0);
	CHECK(sim_write(&c, 4 * M + 32 * K - 512, 1024) == 50000 + sim_xfer_ns(32 * K, p.write_bw));
	/* Second AU out of order: garbage collection, restart at the write end. */
	sim_write(&c, 8 * M + 64 * K, 64 * K);
	CHECK(sim_write(&c, 8 * M, 16 * K) == pg + sim_xfer_ns(4 * M - 64 * K, p.copy_bw) + 2000000);
	CHECK(c.n.gcs == 1 && c.nrandom == 1);
	CHECK(sim_write(&c, 8 * M + 16 * K, 16 * K) == pg);	/* forward from there */
	/* Evicting a random-mode AU copies all of it. */
	p.open_au = 1;
	sim_card_init(&c, &p);
	sim_write(&c, 4 * M + 64 * K, 16 * K);
	sim_write(&c, 4 * M, 16 * K);
	CHECK(sim_write(&c, 8 * M, 16 * K) == pg + sim_xfer_ns(4 * M, p.copy_bw) + 2000000);
	CHECK(c.nrandom == 0);
	/* open-au-random = 0: every backward write is a GC. */
	p.open_au_random = 0;
	sim_card_init(&c, &p);
	sim_write(&c, 4 * M + 64 * K, 16 * K);
	sim_write(&c, 4 * M, 16 * K);
	CHECK(c.n.gcs == 1);
	sim_card_free(&c);
}

/* A discard forgets the AUs wholly inside it: no copy, no collection, opened anew. */
static void test_discard(void)
{
	struct sim_params p = plain();
	struct sim_card c;
	uint64_t gcs, erases;

	p.open_au = 4;
	sim_card_init(&c, &p);
	sim_write(&c, 4 * M + 64 * K, 64 * K);
	sim_write(&c, 4 * M, 16 * K);		/* random mode */
	sim_write(&c, 8 * M, 64 * K);
	sim_write(&c, 12 * M, 64 * K);
	CHECK(c.nopen == 3 && c.nrandom == 1);
	gcs = c.n.gcs;
	erases = c.n.erases;
	/* AU 1 and 2 wholly inside, AU 3 only partly: it keeps its state */
	sim_discard(&c, 4 * M, 8 * M + 64 * K);
	CHECK(c.nopen == 1 && c.nrandom == 0 && c.open[0].au == 3);
	CHECK(c.n.gcs == gcs && c.n.erases == erases);
	CHECK(c.n.discarded == 8 * M + 64 * K);
	/* the next write to AU 1 opens it afresh: its transfer only, nothing to evict */
	CHECK(sim_write(&c, 4 * M, 64 * K) == 50000 + sim_xfer_ns(64 * K, p.write_bw));
	CHECK(c.nopen == 2 && c.n.gcs == gcs);
	/* without the discard, the same write backwards into an open AU costs a collection */
	sim_card_init(&c, &p);
	p.open_au_random = 0;
	sim_card_init(&c, &p);
	sim_write(&c, 4 * M + 64 * K, 64 * K);
	sim_write(&c, 4 * M, 64 * K);
	CHECK(c.n.gcs == 1);
	sim_card_init(&c, &p);
	sim_write(&c, 4 * M + 64 * K, 64 * K);
	sim_discard(&c, 4 * M, 4 * M);
	sim_write(&c, 4 * M, 64 * K);
	CHECK(c.n.gcs == 0);
	sim_card_free(&c);
}

static void test_fat_area(void)
{
	struct sim_params p = plain();
	struct sim_card c;

	p.fat_aus = 2;
	p.open_au_random = 0;
	sim_card_init(&c, &p);
	for (int i = 0; i < 100; i++)
		CHECK(sim_write(&c, (uint64_t)(97 * i % 256) * 16 * K + 4 * M, 512) ==
		      50000 + sim_xfer_ns(16 * K, p.write_bw));
	CHECK(c.n.gcs == 0 && c.nopen == 0);
	sim_card_free(&c);
}

static void test_cache(void)
{
	struct sim_params p = plain();
	struct sim_card c;
	uint64_t fast = 50000 + sim_xfer_ns(64 * K, p.cache_bw);
	uint64_t slow = 50000 + sim_xfer_ns(64 * K, p.write_bw);

	p.cache = 256 * K;
	p.cache_recover = 128 * K;	/* per second of idle */
	sim_card_init(&c, &p);
	for (int i = 0; i < 4; i++)
		CHECK(sim_write(&c, 64 * M + (uint64_t)i * 64 * K, 64 * K) == fast);
	CHECK(sim_write(&c, 64 * M + 256 * K, 64 * K) == slow);
	CHECK(c.nopen == 1 && c.n.cached == 256 * K);
	sim_idle(&c, 1000000000);
	CHECK(c.cache_used == 128 * K);
	CHECK(sim_write(&c, 64 * M + 320 * K, 64 * K) == fast);
	CHECK(sim_write(&c, 64 * M + 384 * K, 64 * K) == fast);
	CHECK(sim_write(&c, 64 * M + 448 * K, 64 * K) == slow);
	sim_idle(&c, 10000000000ULL);
	CHECK(c.cache_used == 0);
	sim_card_free(&c);
}

static void test_jitter(void)
{
	struct sim_params p = plain();
	struct sim_card a, b;
	uint64_t base = sim_read_cost(&p, 0, 4 * K);
	int same = 1, differ = 0, inside = 1;

	p.jitter = 10;
	p.seed = 7;
	sim_card_init(&a, &p);
	sim_card_init(&b, &p);
	for (int i = 0; i < 1000; i++) {
		uint64_t t = sim_read(&a, 0, 4 * K);

		same &= t == sim_read(&b, 0, 4 * K);
		differ |= t != base;
		inside &= t >= base * 0.9 - 1 && t <= base * 1.1 + 1;
	}
	CHECK(same && differ && inside);
	p.seed = 8;
	sim_card_init(&b, &p);
	CHECK(sim_read(&b, 0, 4 * K) != sim_read(&a, 0, 4 * K) ||
	      sim_read(&b, 0, 4 * K) != sim_read(&a, 0, 4 * K));
	p.jitter = 0;
	p.outliers = 1;
	sim_card_init(&a, &p);
	CHECK(sim_read(&a, 0, 4 * K) == SIM_OUTLIER_FACTOR * base);
}

static void test_batch_and_fail(void)
{
	struct sim_params p = plain();
	struct sim_card c;
	struct sim_req r[4];
	uint64_t one = sim_read_cost(&p, 0, 4 * K);

	memset(r, 0, sizeof(r));
	for (int i = 0; i < 4; i++)
		r[i].off = (uint64_t)i * M, r[i].len = 4 * K;
	sim_card_init(&c, &p);
	CHECK(sim_batch(&c, r, 4) == 4 * one && r[3].ns == one);
	p.channels = 2;
	sim_card_init(&c, &p);
	CHECK(sim_batch(&c, r, 4) == 2 * one && c.now_ns == 2 * one);
	p.channels = 8;
	sim_card_init(&c, &p);
	CHECK(sim_batch(&c, r, 4) == one);
	p.nfail = 2;
	p.fail[0] = (struct sim_fail){ 64 * M, SIM_FAIL_READ | SIM_FAIL_WRITE };
	p.fail[1] = (struct sim_fail){ 128 * M, SIM_FAIL_WRITE };
	sim_card_init(&c, &p);
	CHECK(sim_fails(&c, 64 * M - 512, 1024, false));
	CHECK(sim_fails(&c, 64 * M, 512, true));
	CHECK(!sim_fails(&c, 64 * M + 512, 512, false));
	CHECK(!sim_fails(&c, 64 * M - 512, 512, true));
	CHECK(sim_fails(&c, 127 * M, 2 * M, true) && !sim_fails(&c, 127 * M, 2 * M, false));
}


static uint64_t xs = 88172645463325252ULL;

static uint64_t next_rand(void)
{
	xs ^= xs << 13;
	xs ^= xs >> 7;
	xs ^= xs << 17;
	return xs;
}

static void shuffle(uint64_t *v, uint64_t n, bool random)
{
	for (uint64_t i = 0; i < n; i++)
		v[i] = i;
	for (uint64_t i = n; random && i > 1; i--) {
		uint64_t j = next_rand() % i, t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

/*
 * flashbench --open-au: nr AUs 12 erase blocks apart from 16 MiB on; for
 * each block size from erase down to minbs, each position inside the AU
 * (in random order with --random) is written in every AU (in a shuffled
 * order). Returns the number of lines, rates in B/s.
 */
static int openau(struct sim_card *c, unsigned nr, uint64_t erase, uint64_t minbs,
		  bool random, double *rate)
{
	uint64_t start = (16 * M + erase - 1) / erase * erase, au[64];
	uint64_t *pos = malloc(sizeof(*pos) * (erase / minbs));
	int line = 0;

	for (uint64_t bs = erase; bs >= minbs; bs /= 2, line++) {
		uint64_t npos = erase / bs, t = 0;

		shuffle(pos, npos, random);
		for (uint64_t i = 0; i < npos; i++) {
			shuffle(au, nr, true);
			for (unsigned j = 0; j < nr; j++)
				t += sim_write(c, start + au[j] * 12 * erase + pos[i] * bs, bs);
		}
		rate[line] = (double)(nr * erase) * 1e9 / (double)t;
	}
	free(pos);
	return line;
}

/* The last four lines each 0.4x..0.65x of the one before. */
static bool halving(const double *rate, int n)
{
	for (int i = n - 4; i < n; i++)
		if (rate[i] < 0.4 * rate[i - 1] || rate[i] > 0.65 * rate[i - 1])
			return false;
	return true;
}

static void test_openau(void)
{
	struct sim_params p = preset("sd");
	struct sim_card c;
	double r[32], r4[32];
	int n;

	sim_card_init(&c, &p);
	n = openau(&c, p.open_au, 4 * M, 16 * K, false, r);
	CHECK(n == 9 && r[n - 1] >= r[0] / 3);
	sim_card_init(&c, &p);
	n = openau(&c, p.open_au + 1, 4 * M, 512, false, r);
	CHECK(n == 14 && halving(r, n) && r[n - 1] < r[0] / 100);
	/* Random order: fast up to open-au-random AUs, GC-bound beyond. */
	sim_card_init(&c, &p);
	n = openau(&c, p.open_au_random, 4 * M, 16 * K, true, r);
	sim_card_init(&c, &p);
	openau(&c, p.open_au_random + 1, 4 * M, 16 * K, true, r4);
	CHECK(r[n - 1] > 5 * r4[n - 1] && r[n - 1] >= r[0] / 10);
	/* The big sweep (about 650k writes) must stay cheap: O(open-au) each. */
	p = preset("usb");
	sim_card_init(&c, &p);
	n = openau(&c, 20, 8 * M, 512, true, r);
	CHECK(n == 15 && halving(r, n));
	CHECK(c.n.writes == 20 * (2 * 16384 - 1));
}

/* Random small writes: fast in the FAT area, GC-bound elsewhere. */
static void test_fat_preset(void)
{
	struct sim_params p = preset("fat");
	struct sim_card c;
	uint64_t pos[1024], fat = 0, other = 0;

	sim_card_init(&c, &p);
	shuffle(pos, 1024, true);
	for (int i = 0; i < 1024; i++)
		fat += sim_write(&c, 1 * p.erase + pos[i] * 4 * K, 4 * K);
	for (int i = 0; i < 1024; i++)
		other += sim_write(&c, 100 * p.erase + pos[i] * 4 * K, 4 * K);
	CHECK(other > 10 * fat);
}

static void spec_error(const char *spec, const char *want)
{
	struct sim_spec s;
	char err[256] = "";

	CHECK(sim_spec_parse(spec, &s, err, sizeof(err)) < 0);
	CHECK_STR(err, want);
}

static void test_spec(void)
{
	static const char *const names[] = { "sd", "usb", "fat", "tlc", "ssd", "smr" };
	struct sim_spec s, s2;
	char err[256], a[1024], b[1024];

	CHECK(sim_spec_parse("", &s, err, sizeof(err)) == 0);
	CHECK_STR(s.preset, "sd");
	CHECK(s.p.erase == 4 * M && s.p.page == 16 * K && s.image[0] == '\0');
	CHECK(sim_spec_parse("usb", &s, err, sizeof(err)) == 0 && s.p.open_au == 12);
	CHECK(sim_spec_parse("tlc,erase=3M,open-au=7", &s, err, sizeof(err)) == 0);
	CHECK(s.p.erase == 3 * M && s.p.open_au == 7 && s.p.read_chunk == 256 * K);
	CHECK(sim_spec_parse("erase=6M,page=16K", &s, err, sizeof(err)) == 0 && s.p.erase == 6 * M);
	CHECK(sim_spec_parse("erase=1.5M", &s, err, sizeof(err)) == 0 && s.p.erase == 3 * M / 2);
	CHECK(sim_spec_parse("erase=12M,page=8K", &s, err, sizeof(err)) == 0 && s.p.erase == 12 * M);
	CHECK(sim_spec_parse("size=1G,erase=3MiB,", &s, err, sizeof(err)) == 0 && s.p.size == 1024 * M);
	CHECK(sim_spec_parse("read-bw=22M/s,write-bw=20M,copy-bw=1.5G/s", &s, err, sizeof(err)) == 0);
	CHECK(s.p.read_bw == 22000000 && s.p.write_bw == 20 * M && s.p.copy_bw == 1500000000);
	CHECK(sim_spec_parse("write-lat=500us,read-lat=1.5ms,erase-time=0", &s, err, sizeof(err)) == 0);
	CHECK(s.p.write_lat == 500000 && s.p.read_lat == 1500000 && s.p.erase_ns == 0);
	CHECK(sim_spec_parse("page-cross=20µs", &s, err, sizeof(err)) == 0 && s.p.page_cross == 20000);
	CHECK(sim_spec_parse("jitter=5%,outliers=0.1%,seed=42", &s, err, sizeof(err)) == 0);
	CHECK(s.p.jitter == 5 && s.p.outliers > 0.000999 && s.p.outliers < 0.001001 && s.p.seed == 42);
	CHECK(sim_spec_parse("fat,fail-at=64M,fail-write-at=1G,image=/tmp/x.img", &s, err, sizeof(err)) == 0);
	CHECK(s.p.nfail == 2 && s.p.fail[1].off == 1024 * M && s.p.fail[1].mode == SIM_FAIL_WRITE);
	CHECK_STR(s.image, "/tmp/x.img");
	spec_error("foo=1", "sim: unknown key 'foo'");
	spec_error("sd,foo", "sim: unknown key 'foo'");
	spec_error("page=3x", "sim: bad value for page: '3x'");
	spec_error("erase=1000000", "sim: page (16KiB) does not divide erase (1000000)");
	spec_error("write-lat=500", "sim: bad value for write-lat: '500'");
	spec_error("open-au=0", "sim: bad value for open-au: '0'");
	spec_error("jitter=101", "sim: bad value for jitter: '101'");
	spec_error("nosuch", "sim: unknown preset 'nosuch' (see --list-sims)");
	spec_error("erase=4M,usb", "sim: preset 'usb' must come first");
	spec_error("sd,page", "sim: missing value for key 'page'");
	spec_error("size=2M", "sim: size (2MiB) is smaller than erase (4MiB)");
	spec_error("fail-at=8G", "sim: fail offset (8GiB) lies beyond the end of the card (4GiB)");
	/* Every preset prints as a spec that parses back to itself. */
	for (int i = 0; i < 6; i++) {
		CHECK(sim_spec_parse(names[i], &s, err, sizeof(err)) == 0);
		sim_params_format(&s.p, a, sizeof(a));
		CHECK(sim_spec_parse(a, &s2, err, sizeof(err)) == 0);
		CHECK_STR(sim_params_format(&s2.p, b, sizeof(b)), a);
		CHECK(s2.p.size == s.p.size && s2.p.read_bw == s.p.read_bw);
	}
}

static void test_list(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	sim_list_presets(f);
	fclose(f);
	CHECK(strstr(text, "\nsd\t") && strstr(text, "\nusb\t") && strstr(text, "\nfat\t"));
	CHECK(strstr(text, "\ntlc\t") && strstr(text, "\nssd\t") && strstr(text, "\nsmr\t"));
	CHECK(strstr(text, "erase=6MiB") && strstr(text, "open-au-random=3"));
	CHECK(strstr(text, "readahead plateau") != NULL);
	free(text);
}

static void test_target(void)
{
	struct target *t;
	char err[256] = "", path[] = "/tmp/test_sim_XXXXXX", spec[64];
	unsigned char buf[4096], buf2[4096];
	uint64_t ns = 0;
	struct stat st;
	int fd;

	CHECK(target_sim_open("sd,page=3x", 0, &t, err, sizeof(err)) == -EINVAL && !t);
	CHECK_STR(err, "sim: bad value for page: '3x'");
	CHECK(target_sim_open("fail-read-at=64M", 0, &t, err, sizeof(err)) == 0);
	CHECK_STR(t->path, "sim:fail-read-at=64M");
	CHECK(t->fd == -1 && t->sim && t->size == 4096 * M && t->sector == 512 && !t->writable);
	CHECK_STR(t->ops->kind, "simulated card");
	CHECK(target_read(t, buf, 4096, 0, &ns) == 0 && ns == sim_read_cost(sim_preset("sd"), 0, 4096));
	CHECK(target_read(t, buf2, 4096, 0, &ns) == 0 && memcmp(buf, buf2, 4096) == 0);
	CHECK(target_read(t, buf2, 4096, 4096, &ns) == 0 && memcmp(buf, buf2, 4096) != 0);
	CHECK(target_read(t, buf, 4096, t->size - 2048, &ns) == -EINVAL);
	CHECK(target_read(t, buf, 4096, 100, &ns) == -EINVAL);
	CHECK(target_read(t, buf, 4096, 64 * M - 512, &ns) == -EIO);
	CHECK(target_write(t, buf, 4096, 0, &ns) == -EBADF);
	t->ops->close(t);

	fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	snprintf(spec, sizeof(spec), "usb,image=%s", path);
	CHECK(target_sim_open(spec, TGT_WRITE, &t, err, sizeof(err)) == 0);
	/* Opening neither creates nor grows the image; writes extend it. */
	CHECK(stat(path, &st) == 0 && st.st_size == 0);
	memset(buf, 0x5a, sizeof(buf));
	CHECK(target_write(t, buf, 4096, 8 * M, &ns) == 0 && ns > 0);
	CHECK(stat(path, &st) == 0 && (uint64_t)st.st_size == 8 * M + 4096);
	CHECK(target_read(t, buf2, 4096, 8 * M, &ns) == 0 && memcmp(buf, buf2, 4096) == 0);
	CHECK(target_read(t, buf2, 512, 0, &ns) == 0 && buf2[0] == 0 && buf2[511] == 0);
	t->ops->idle(t, 1000);
	{
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		t->ops->stats(t, f);
		fclose(f);
		CHECK(strstr(text, "sim: read 4.5KiB, wrote 4KiB, 0 garbage collections, 0 erases\n") == text);
		free(text);
	}
	/* A discard frees the image's blocks: they read back as zeros, the size stays. */
	CHECK(t->ops->discard(t, 8 * M, 4096) == 0);
	CHECK(target_read(t, buf2, 4096, 8 * M, &ns) == 0 && buf2[0] == 0 && buf2[4095] == 0);
	CHECK(stat(path, &st) == 0 && (uint64_t)st.st_size == 8 * M + 4096);
	CHECK(t->ops->discard(t, 8 * M, 100) == -EINVAL);
	t->ops->close(t);
	CHECK(target_sim_open(spec, 0, &t, err, sizeof(err)) == 0);
	CHECK(t->ops->discard(t, 0, 4096) == -EBADF);	/* opened read-only */
	t->ops->close(t);
	unlink(path);
	CHECK(target_sim_open(spec, 0, &t, err, sizeof(err)) == -ENOENT);
}

int main(void)
{
	test_reads();
	test_align();
	test_plateau();
	test_linear_writes();
	test_lru();
	test_backward();
	test_discard();
	test_fat_area();
	test_cache();
	test_jitter();
	test_batch_and_fail();
	test_openau();
	test_fat_preset();
	test_spec();
	test_list();
	test_target();
	UNIT_DONE();
}
