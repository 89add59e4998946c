/*
 * The align verdict: synthetic tables with a known answer, the parser of
 * saved output and its quirks, every sim preset, and a sweep of random
 * simulated cards (erase blocks 1 to 16 MiB including 3 x 2^n, pages 4
 * to 32 KiB, jitter and outliers): each verdict right or uncertain, never
 * wrong, and right for at least 95% of them.
 */
#include <stdlib.h>

#include "core/out.h"
#include "modules.h"
#include "report.h"
#include "saved_output.h"
#include "target.h"
#include "unit.h"
#include "verdict_align.h"

#define KiB 1024ull
#define MiB (1024ull * 1024)

/* A clean table: floor below page, pc from page, pc + ec from erase (a 2^n size). */
static size_t table(struct va_row *r, uint64_t page, uint64_t erase, double pc, double ec)
{
	size_t n = 0;

	for (uint64_t b = 2 * KiB; b <= 1024 * MiB; b *= 2, n++) {
		r[n].b = b;
		r[n].pre = r[n].post = 1e6;
		r[n].diff = (b >= page ? pc : 3e3) + (b % erase == 0 ? ec : 0);
	}
	return n;
}

/*
 * A fast device with no erase block (a loop device on a cached file): the
 * diffs wander by a few µs either way. A "step" of 2µs amid diffs down to
 * -4.8µs is noise; and a step in a table that lost a third of its rows to
 * outliers rests on too little. Neither may name an erase size.
 */
static void noise(void)
{
	struct va_row r[VA_MAX_ROWS];
	struct va_verdict v;
	size_t n = 0;

	for (uint64_t b = 2 * KiB; b <= 512 * MiB; b *= 2, n++) {
		r[n].b = b;
		r[n].pre = r[n].post = 45e3;
		/* 1.4µs below 128 MiB, 3.6µs from there up, and two negative rows */
		r[n].diff = b >= 128 * MiB ? 3.6e3 : 1.43e3;
	}
	va_judge(r, n, &v);
	CHECK(v.erase_state == VA_FOUND && v.erase == 128 * MiB);	/* clean: a real step */
	r[5].diff = -4.8e3;
	r[9].diff = -2.4e3;
	va_judge(r, n, &v);
	CHECK(v.erase_state != VA_FOUND);
	/* Every time 0 (the original printed failed reads so): nothing to see. */
	for (size_t i = 0; i < n; i++)
		r[i].pre = r[i].post = r[i].diff = 0;
	va_judge(r, n, &v);
	CHECK(v.no_pattern && v.erase_state == VA_NONE && v.page_state == VA_NONE);
	for (size_t i = 0; i < n; i++)
		r[i].pre = r[i].post = 45e3, r[i].diff = r[i].b >= 128 * MiB ? 3.6e3 : 1.43e3;
	/* The clean step again, but a third of the rows were far off. */
	r[5].diff = r[9].diff = 1.43e3;
	for (size_t i = 0; i < n; i += 3)
		if (r[i].b < 64 * MiB)
			r[i].pre = 200e3;
	va_judge(r, n, &v);
	CHECK(v.outliers >= n / 4 && v.erase_state == VA_UNCERTAIN);
}

static void synthetic(void)
{
	struct va_row r[VA_MAX_ROWS];
	struct va_verdict v;
	size_t n = table(r, 8 * KiB, 4 * MiB, 150e3, 300e3);

	va_judge(r, n, &v);
	CHECK(v.erase_state == VA_FOUND && v.erase == 4 * MiB && !v.erase_3x);
	CHECK(v.page_state == VA_FOUND && v.page == 8 * KiB);
	/* One row between the levels just below the step: uncertain, not 2 MiB or 4 MiB. */
	for (size_t i = 0; i < n; i++)
		if (r[i].b == 2 * MiB)
			r[i].diff = 300e3;
	va_judge(r, n, &v);
	CHECK(v.erase_state == VA_UNCERTAIN);
	/* An outlier read ("pre" far off) in the row at the step: left out, uncertain. */
	n = table(r, 8 * KiB, 4 * MiB, 150e3, 300e3);
	for (size_t i = 0; i < n; i++)
		if (r[i].b == 4 * MiB)
			r[i].pre = 3e6, r[i].diff = -500e3;
	va_judge(r, n, &v);
	CHECK(v.outliers == 1 && v.erase_state == VA_UNCERTAIN);
	/* Flat noise: no clear pattern. */
	for (size_t i = 0; i < n; i++)
		r[i].diff = (i * 7919 % 13) * 1e3, r[i].pre = 1e6;
	va_judge(r, n, &v);
	CHECK(v.no_pattern && v.erase_state == VA_NONE);
	CHECK(va_is_3x(3 * MiB) && va_is_3x(12 * MiB) && !va_is_3x(4 * MiB) && !va_is_3x(9 * MiB));
	noise();
}

static void parsing(void)
{
	struct so_line l;
	double t;
	uint64_t s;

	CHECK(so_parse_time("735µs", &t) == 0 && t == 735e3);
	CHECK(so_parse_time("1.08ms", &t) == 0 && t == 1.08e6);
	CHECK(so_parse_time("1e+03µ", &t) == 0 && t == 1e6);
	CHECK(so_parse_time("-412331", &t) == 0 && t == -412331);
	CHECK(so_parse_time("-49389n", &t) == 0 && t == -49389);
	CHECK(so_parse_time("47.5Âµs", &t) == 0 && t == 47.5e3);
	CHECK(so_parse_time("inf", &t) < 0 && so_parse_time("12xs", &t) < 0);
	CHECK(so_parse_size("512KiB", &s) == 0 && s == 512 * KiB);
	CHECK(so_parse_size("1.5GiB", &s) == 0 && s == 1536 * MiB);
	CHECK(so_parse_rate("66.7K/s", &t) == 0 && t == 66.7e3);
	so_classify("align 4194304   pre 741µs       on 1.08ms       post 788µs      diff 317µs", &l);
	CHECK(l.kind == SO_ALIGN && l.boundary == 4 * MiB && l.diff == 317e3 && l.post == 788e3);
	so_classify("> align 16384\tpre 1.1ms\ton 1.1ms\tpost 1e+03µ\tdiff 54.5µs", &l);
	CHECK(l.kind == SO_ALIGN && l.post == 1e6);
	so_classify("4MiB    6.45M/s ", &l);
	CHECK(l.kind == SO_RATE && l.size == 4 * MiB && l.rate == 6.45e6 && l.slowest == 0);
	so_classify("256KiB\t7.7M/s\tslowest 1.5M/s", &l);
	CHECK(l.kind == SO_RATE && l.slowest == 1.5e6);
	so_classify("$ sudo ./flashbench -O --erasesize=$[4 * 1024 * 1024] --blocksize=$[256 * 1024] "
		    "/dev/mmcblk0  --open-au-nr=3", &l);
	CHECK(l.kind == SO_COMMAND && l.nr == 3 && l.erase == 4 * MiB && l.is_open_au && !l.random);
	so_classify("======= AU=5, random access =======", &l);
	CHECK(l.kind == SO_COMMAND && l.nr == 5 && l.random);
	so_classify("^C", &l);
	CHECK(l.kind == SO_INTERRUPT);
	so_classify("4MiB    865K/s   3.56M/s  3.01M/s  5.13M/s  5.14M/s  5.12M/s", &l);
	CHECK(l.kind == SO_RATE && l.nrates == 6 && l.rate == 865e3);
	so_classify("# source: https://example.org/", &l);
	CHECK(l.kind == SO_SKIP);
	CHECK(so_round_time(317.4e3) == 317e3);
}

/* Run -a on a sim card; the verdict's erase size (0: none found). */
static uint64_t live(const char *spec, uint64_t bs, unsigned count, const struct va_verdict **out)
{
	struct fb_opts o;
	struct target *t;
	char err[256];
	int r;

	if (target_sim_open(spec, 0, &t, err, sizeof(err)) != 0) {
		printf("FAIL: sim:%s: %s\n", spec, err);
		return 1;
	}
	memset(&o, 0, sizeof(o));
	o.blocksize = bs;
	o.count = count;
	r = align_run(&o, t);
	target_close(t);
	*out = va_last();
	if (r != 0 || !*out)
		return 1;
	return (*out)->erase_state == VA_FOUND ? (*out)->erase : 0;
}

static void presets(void)
{
	static const struct { const char *p; uint64_t e; } want[] = {
		{ "sd", 4 * MiB }, { "usb", 8 * MiB }, { "fat", 4 * MiB }, { "tlc", 6 * MiB },
		{ "ssd", 16 * MiB }, { "smr", 256 * MiB },
	};
	const struct va_verdict *v;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		uint64_t e = live(want[i].p, 16 * KiB, 8, &v);

		if (e != want[i].e)
			printf("FAIL: preset %s: erase %llu\n", want[i].p, (unsigned long long)e);
		CHECK(e == want[i].e);
	}
}

static uint64_t rng = 0x2545f4914f6cdd1dull;

static unsigned pick(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* One random card; 1 right, 0 uncertain, -1 wrong (erase or page). */
static int random_card(unsigned count, double max_outliers)
{
	static const unsigned er[] = { 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384 };
	uint64_t e = er[pick(9)] * KiB, p = (4 * KiB) << pick(4);
	const struct va_verdict *v;
	char spec[512];

	snprintf(spec, sizeof(spec), "erase=%llu,page=%llu,size=%uG,read-lat=%uus,page-cross=%uus,"
		 "erase-cross=%uus,jitter=%u,outliers=%.4f,seed=%u", (unsigned long long)e,
		 (unsigned long long)p, 1 + pick(8), 300 + pick(1200), 50 + pick(150),
		 200 + pick(600), pick(6), max_outliers * pick(1000) / 1000, pick(100000));
	live(spec, KiB, count, &v);
	if ((v->erase_state == VA_FOUND && v->erase != e) ||
	    (v->page_state == VA_FOUND && v->page != p)) {
		printf("FAIL: wrong verdict for sim:%s: erase %llu page %llu\n", spec,
		       (unsigned long long)v->erase, (unsigned long long)v->page);
		return -1;
	}
	return v->erase_state == VA_FOUND;
}

static void sweep(unsigned cards, unsigned count, double outliers, double min_right)
{
	unsigned right = 0, wrong = 0;

	for (unsigned i = 0; i < cards; i++) {
		int r = random_card(count, outliers);

		right += r == 1;
		wrong += r < 0;
	}
	printf("sweep: %u cards, --count=%u, outliers up to %.1f%%: %u right, %u uncertain, "
	       "%u wrong\n", cards, count, 100 * outliers, right, cards - right - wrong, wrong);
	CHECK(wrong == 0);
	CHECK(right >= min_right * cards);
}

int main(void)
{
	synthetic();
	parsing();
	/* The verdict lines of the live runs go nowhere. */
	out_open("/dev/null", OUT_TEXT);
	presets();
	sweep(150, 8, 0.01, 0.95);
	/* One try per measurement: outliers stay in, so more "uncertain", still never wrong. */
	sweep(100, 1, 0.01, 0.5);
	out_close(0, "done", NULL);
	UNIT_DONE();
}
