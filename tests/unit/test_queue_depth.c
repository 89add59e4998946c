/*
 * --queue-depth's pure parts: the depth list (N, A..B doubling, rising,
 * bounded) and where the rise of throughput ends, judged on runs by
 * core/stats: on a card with 4 channels the rise is significant up to 4
 * and the steps after it are noise, whatever the jitter's draw.
 */
#include <math.h>
#include <stdlib.h>

#include "modules/queue_depth.h"
#include "unit.h"

static char err[256];

static int parse(const char *s, unsigned *d, size_t *n)
{
	err[0] = '\0';
	return qd_parse_list(s, d, n, err, sizeof(err));
}

static void lists(void)
{
	unsigned d[QD_MAX_DEPTHS];
	size_t n;

	CHECK(parse("1,2,4,8,16,32", d, &n) == 0 && n == 6 && d[0] == 1 && d[5] == 32);
	CHECK(parse("1..64", d, &n) == 0 && n == 7 && d[6] == 64 && d[3] == 8);
	/* B is always measured, also off the doubling */
	CHECK(parse("3..20", d, &n) == 0 && n == 4 && d[0] == 3 && d[1] == 6 && d[2] == 12 &&
	      d[3] == 20);
	CHECK(parse("1,4..16,100", d, &n) == 0 && n == 5 && d[1] == 4 && d[3] == 16 && d[4] == 100);
	CHECK(parse("7", d, &n) == 0 && n == 1 && d[0] == 7);
	CHECK(parse("5..5", d, &n) == 0 && n == 1 && d[0] == 5);
	CHECK(parse("1024", d, &n) == 0 && n == 1);
	const char *bad[] = { "", "0", "1,", ",1", "1,,2", "4,2", "2,2", "1..", "..4", "8..4",
			      "1025", "1..2000", "x", "1,x", "-1", "+2", " 1", "1 ", "1.5",
			      "99999999999999999999", "1...4", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,"
			      "16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33", NULL };
	for (const char **b = bad; *b; b++) {
		int r = parse(*b, d, &n);

		if (r == 0)
			printf("FAIL: --queue-depth=%s was taken\n", *b);
		CHECK(r < 0);
		/* one line naming the option and the value */
		CHECK(strncmp(err, "--queue-depth=", 14) == 0 && strstr(err, *b) && !strchr(err, '\n'));
	}
	/* 32 depths fit */
	CHECK(parse("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,"
		    "29,30,31,32", d, &n) == 0 && n == 32);
}

/* A normal draw (Box-Muller) from a fixed seed. */
static double gauss(unsigned *seed)
{
	double u = (rand_r(seed) + 1.0) / (RAND_MAX + 2.0), v = (rand_r(seed) + 1.0) / (RAND_MAX + 2.0);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/*
 * Runs of a device whose IOPS grow with depth up to 4 channels and are
 * flat after, each run off by jitter percent (sd): the rise ends at 4.
 */
static void saturation_on_channels(void)
{
	const unsigned depth[] = { 1, 2, 4, 8, 16, 32 };
	unsigned seed = 12345, wrong = 0;

	for (unsigned trial = 0; trial < 200; trial++) {
		double iops[6][3];
		struct stats_cmp c[5];

		for (unsigned i = 0; i < 6; i++)
			for (unsigned j = 0; j < 3; j++)
				iops[i][j] = 1000.0 * (depth[i] < 4 ? depth[i] : 4) *
					     (1 + 0.02 * gauss(&seed));
		for (unsigned i = 0; i < 5; i++)
			stats_compare(iops[i], 3, iops[i + 1], 3, &c[i]);
		wrong += qd_saturation(c, 6) != 2;
	}
	/* a false "significant" among the three flat steps only now and then */
	CHECK(wrong <= 200 / 10);
}

static void saturation_rules(void)
{
	struct stats_cmp c[4] = { { .verdict = STATS_SIGNIFICANT, .change_pct = 90 },
				  { .verdict = STATS_NOISE, .change_pct = 1 },
				  { .verdict = STATS_SIGNIFICANT, .change_pct = 40 },
				  { .verdict = STATS_WITHIN_SPREAD, .change_pct = 2 } };

	/* the last significant rise counts: 3 (depth index), not 1 */
	CHECK(qd_saturation(c, 5) == 3);
	/* a significant drop is no rise */
	c[2].change_pct = -40;
	CHECK(qd_saturation(c, 5) == 1);
	/* still rising at the deepest */
	c[3] = (struct stats_cmp){ .verdict = STATS_SIGNIFICANT, .change_pct = 20 };
	CHECK(qd_saturation(c, 5) == 4);
	/* nothing rises: the first depth */
	for (unsigned i = 0; i < 4; i++)
		c[i] = (struct stats_cmp){ .verdict = STATS_NOISE };
	CHECK(qd_saturation(c, 5) == 0);
	CHECK(qd_saturation(c, 1) == 0);
}

/*
 * Issue 20: each step "within noise", yet depth 32 measures 2.5x depth 2:
 * judged against every deeper depth, the rise goes on past 2; and a deep
 * depth whose median is far above but whose runs scatter is named.
 */
static void saturation_against_deeper(void)
{
	/* depths 1, 2, 4, 8, 16, 32: medians 100 120 150 190 240 300, runs +-12% */
	static const double climb[6][FB_MAX_RUNS] = {
		{ 100, 88, 112 }, { 120, 106, 134 }, { 150, 132, 168 }, { 190, 167, 213 },
		{ 240, 211, 269 }, { 300, 264, 336 } };
	static const double scattered[3][FB_MAX_RUNS] = {
		{ 1000, 1010, 990 }, { 1005, 1020, 995 }, { 2500, 1000, 4000 } };
	const unsigned done[6] = { 3, 3, 3, 3, 3, 3 };
	struct stats_cmp c[5];
	size_t sc, at;

	for (size_t i = 0; i < 5; i++)
		stats_compare(climb[i], 3, climb[i + 1], 3, &c[i]);
	for (size_t i = 0; i < 5; i++)
		CHECK(c[i].verdict != STATS_SIGNIFICANT);	/* every step alone: noise */
	CHECK(qd_saturation(c, 6) == 0);			/* the old reading: no rise */
	at = qd_saturation_all(climb, done, 6, qd_saturation(c, 6), &sc);
	CHECK(at >= 3 && sc == 6);				/* 2.5x is a rise */
	at = qd_saturation_all(scattered, done, 3, 0, &sc);
	CHECK(at == 0 && sc == 2);	/* 2.5x by the median, runs 1000..4000: they disagree */
	/* the adjacent rule's depth is kept when nothing deeper beats it */
	at = qd_saturation_all(climb, done, 6, 5, &sc);
	CHECK(at == 5 && sc == 6);
}

/* The channel trials again, judged against every deeper depth. */
static void saturation_all_on_channels(void)
{
	const unsigned depth[] = { 1, 2, 4, 8, 16, 32 }, done[6] = { 3, 3, 3, 3, 3, 3 };
	unsigned seed = 4242, wrong = 0;

	for (unsigned trial = 0; trial < 200; trial++) {
		double iops[6][FB_MAX_RUNS];
		struct stats_cmp c[5];
		size_t sc;

		for (unsigned i = 0; i < 6; i++)
			for (unsigned j = 0; j < 3; j++)
				iops[i][j] = 1000.0 * (depth[i] < 4 ? depth[i] : 4) *
					     (1 + 0.02 * gauss(&seed));
		for (unsigned i = 0; i < 5; i++)
			stats_compare(iops[i], 3, iops[i + 1], 3, &c[i]);
		wrong += qd_saturation_all((const double (*)[FB_MAX_RUNS])iops, done, 6,
					   qd_saturation(c, 6), &sc) != 2 || sc != 6;
	}
	CHECK(wrong <= 200 / 10);
}

int main(void)
{
	saturation_against_deeper();
	saturation_all_on_channels();
	lists();
	saturation_rules();
	saturation_on_channels();
	UNIT_DONE();
}
