/*
 * The align verdict: synthetic tables with a known answer, one for each
 * behaviour of real tables that the rules must take (issue 9), the
 * parser of saved output and its quirks, and every sim preset. The sweep
 * over hundreds of simulated cards and the fixtures is test_accuracy.c.
 */
#include <stdlib.h>

#include "modules/align.h"
#include "core/out.h"
#include "modules/align.h"
#include "analyze/analyze.h"
#include "saved/saved_output.h"
#include "core/target.h"
#include "unit.h"
#include "verdicts/facts.h"
#include "verdicts/verdict_align.h"

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
	*out = vf_align_verdict();
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

/* Set the diff of boundary b in r[0..n). */
static void set(struct va_row *r, size_t n, uint64_t b, double d)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].b == b)
			r[i].diff = d;
}

/* Add a little row-to-row noise (+-2 us, fixed) so that the noise is not the floor. */
static void wobble(struct va_row *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		r[i].diff += ((double)(i * 7919 % 9) - 4) * 500;
}

/* Realruns 001's shape: page 576 us, erase block 4 MiB 100 us more, a little noise. */
static size_t like_001(struct va_row *r)
{
	size_t n = table(r, 16 * KiB, 4 * MiB, 576e3, 100e3);

	wobble(r, n);
	return n;
}

/* Judge r[0..n); true when it names erase block e. */
static bool names(const struct va_row *r, size_t n, uint64_t e, struct va_verdict *v)
{
	va_judge(r, n, v);
	return v->erase_state == VA_FOUND && v->erase == e;
}

static void real_behaviour(void)
{
	struct va_row r[VA_MAX_ROWS];
	struct va_verdict v;
	size_t n;

	/* Crossing an erase block costs four reads (fakecard sd4m): named, nothing left out. */
	n = table(r, 16 * KiB, 4 * MiB, 150e3, 4e6);
	wobble(r, n);
	va_judge(r, n, &v);
	CHECK(v.erase_state == VA_FOUND && v.erase == 4 * MiB && v.outliers == 0);
	/* Post steadily 30% slower than pre on every row from the page up (realruns 016). */
	for (size_t i = 0; i < n; i++)
		r[i].post = r[i].b >= 16 * KiB ? 1.3e6 : 1e6;
	va_judge(r, n, &v);
	CHECK(v.erase_state == VA_FOUND && v.erase == 4 * MiB && v.outliers == 0);
	CHECK(v.plain >= 1e6 && v.plain <= 1.3e6);
	/* A crossing cost of a few percent of a read, far above the noise (realruns 001). */
	n = like_001(r);
	CHECK(names(r, n, 4 * MiB, &v));
	/* A single spike at 256 KiB: left out, the verdict stands. */
	set(r, n, 256 * KiB, 1.5e6);
	CHECK(names(r, n, 4 * MiB, &v) && v.outliers == 1 && v.left[0] == 256 * KiB);
	/* A noise dip two rows above the step (to the lower level): forgiven. */
	n = like_001(r);
	set(r, n, 64 * MiB, 580e3);
	CHECK(names(r, n, 4 * MiB, &v));
	/* ...and the top row alone higher is no second erase block. */
	n = like_001(r);
	set(r, n, 1024 * MiB, 800e3);
	CHECK(names(r, n, 4 * MiB, &v));
	/* A second rise as high from 64 MiB up: two readings, both named. */
	n = like_001(r);
	for (size_t i = 0; i < n; i++)
		r[i].diff += r[i].b >= 64 * MiB ? 100e3 : 0;
	CHECK(!names(r, n, 4 * MiB, &v) && v.erase_state == VA_UNCERTAIN &&
	      v.cand[0] == 4 * MiB && v.cand[1] == 64 * MiB);
	/* The plain reads of the row below the step disturbed (pre 25% slow): it cannot place it. */
	n = like_001(r);
	for (size_t i = 0; i < n; i++)
		r[i].pre = r[i].b == 2 * MiB ? 1.25e6 : r[i].pre;
	CHECK(!names(r, n, 4 * MiB, &v) && v.erase_state == VA_UNCERTAIN &&
	      v.cand[0] == 2 * MiB && v.cand[1] == 4 * MiB);
}

static void cut_off(void)
{
	struct va_row r[VA_MAX_ROWS], c[VA_MAX_ROWS];
	struct va_verdict v;
	size_t n = table(r, 16 * KiB, 4 * MiB, 150e3, 600e3), m = 0;

	wobble(r, n);
	/* Rows 2 MiB and 4 MiB lost from the paste: the step lies somewhere from 2 MiB to 8 MiB. */
	for (size_t i = 0; i < n; i++)
		if (r[i].b != 2 * MiB && r[i].b != 4 * MiB)
			c[m++] = r[i];
	va_judge(c, m, &v);
	CHECK(v.erase_state == VA_UNCERTAIN && v.cand[0] == 2 * MiB && v.cand[1] == 8 * MiB);
	/* Cut off below 2 MiB, flat up to a rise of the two top rows (realruns 019). */
	m = 0;
	for (uint64_t b = 2 * MiB; b <= 64 * 1024 * MiB; b *= 2, m++) {
		c[m].b = b;
		c[m].pre = c[m].post = 300e3;
		c[m].diff = (b >= 32 * 1024 * MiB ? 274e3 : 214e3) + ((double)(m * 7919 % 9) - 4) * 1e3;
	}
	va_judge(c, m, &v);
	CHECK(v.erase_state == VA_UNCERTAIN && v.cand[0] == 2 * MiB && v.cand[1] == 32 * 1024 * MiB);
	CHECK(strstr(v.erase_why, "cut off?") != NULL);
}

/* No pattern: the evidence is the real read time, not a threshold (issue 9). */
static void no_pattern_evidence(void)
{
	struct va_row r[VA_MAX_ROWS];
	struct va_verdict v;
	size_t n = 0;

	for (uint64_t b = 64 * KiB; b <= 64 * 1024 * MiB; b *= 2, n++) {
		r[n].b = b;
		r[n].pre = r[n].post = 20e3;
		r[n].diff = ((double)(n * 7919 % 13)) * 100;
	}
	va_judge(r, n, &v);
	CHECK(v.no_pattern && v.plain == 20e3);
	CHECK(strstr(v.erase_why, "plain reads 20µs") != NULL);
	CHECK(strstr(v.erase_why, "the largest 1.2µs at ") != NULL);
}

int main(void)
{
	synthetic();
	real_behaviour();
	cut_off();
	no_pattern_evidence();
	parsing();
	/* The verdict lines of the live runs go nowhere. */
	out_open("/dev/null", OUT_TEXT);
	presets();
	out_close(0, "done", NULL);
	UNIT_DONE();
}
