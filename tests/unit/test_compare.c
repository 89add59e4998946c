/*
 * --compare on the simulated card with seeds and jitter, in-process: runs
 * of --readahead saved as CSV (cli_parse + fb_run, as a user would), read
 * back by ci_read and compared. Two runs of the same card must be "no
 * real difference" in at least 95 of 100 seeded pairs (the false-alarm
 * rate); a card with 5% lower read bandwidth (read-bw=20.9M/s against the
 * preset's 22M/s) is "different" with --runs=5 on both sides; one run
 * each is "cannot tell". Also the pure parts: the estimate of the runs
 * needed, the rows that are more than chance, mismatched inputs, rows
 * only in one input.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "run/run.h"
#include "safety/runlock.h"
#include "compare/compare.h"
#include "compare/compare_judge.h"
#include "unit.h"

static char dir[] = "/tmp/fbcompare.XXXXXX";

/* flashbench TEST... --out=PATH DEVICE, in this process. */
static int run(const char *path, const char *test, const char *extra, const char *device)
{
	char out[256], *argv[8];
	int argc = 0, r;
	struct fb_opts o;
	char err[1024];

	snprintf(out, sizeof(out), "--out=%s", path);
	argv[argc++] = "flashbench";
	argv[argc++] = (char *)test;
	if (extra)
		argv[argc++] = (char *)extra;
	argv[argc++] = "--format=csv";
	argv[argc++] = out;
	argv[argc++] = (char *)device;
	argv[argc] = NULL;
	if ((r = cli_parse(argc, argv, &o, err, sizeof(err))) != 0) {
		printf("FAIL: %s\n", err);
		return r;
	}
	r = fb_run(&o);
	runlock_release();
	return r;
}

/* Two readahead runs compared: the summary's name, its text in text. */
static const char *pair(unsigned seed_a, unsigned seed_b, const char *b_extra, const char *runs,
			char *text, size_t len)
{
	static char name[32];
	char pa[64], pb[64], da[128], db[128], err[256];
	struct ci_input a, b;
	const char *r = "error";

	snprintf(pa, sizeof(pa), "%s/a.csv", dir);
	snprintf(pb, sizeof(pb), "%s/b.csv", dir);
	snprintf(da, sizeof(da), "sim:jitter=5,seed=%u", seed_a);
	snprintf(db, sizeof(db), "sim:jitter=5,seed=%u%s", seed_b, b_extra);
	if (run(pa, "--readahead", runs, da) || run(pb, "--readahead", runs, db))
		return r;
	if (ci_read(pa, &a, err, sizeof(err)) == 0 && ci_read(pb, &b, err, sizeof(err)) == 0 &&
	    a.ntables == 1 && b.ntables == 1)
		r = compare_summary(&a.tables[0], &b.tables[0], 'B', text, len);
	snprintf(name, sizeof(name), "%s", r);
	ci_free(&a);
	ci_free(&b);
	return name;
}

static void false_alarms(void)
{
	char text[512];
	unsigned quiet = 0;

	for (unsigned s = 1; s <= 100; s++)
		quiet += strcmp(pair(2 * s, 2 * s + 1, "", "--runs=5", text, sizeof(text)),
				"no_difference") == 0;
	printf("compare: the same card, 100 seeded pairs, --runs=5: %u no real difference\n", quiet);
	CHECK(quiet >= 95);
}

static void detection(void)
{
	char text[512];
	unsigned found = 0;

	for (unsigned s = 1; s <= 20; s++) {
		const char *r = pair(2 * s, 2 * s + 1, ",read-bw=20.9M/s", "--runs=5", text,
				     sizeof(text));

		found += strcmp(r, "different") == 0 && strstr(text, "B is ") &&
			 strstr(text, "% slower");
	}
	printf("compare: 5%% lower read bandwidth, 20 seeded pairs, --runs=5: %u different\n", found);
	CHECK(found >= 19);
	/* One run each: nothing to judge by. */
	CHECK_STR(pair(1, 2, ",read-bw=20.9M/s", "--runs=1", text, sizeof(text)), "cannot_tell");
	CHECK(strstr(text, "one run each -- rerun with --runs=") != NULL);
}

static void estimates(void)
{
	CHECK(fabs(cj_expected_range(2) - 1.128) < 0.002);
	CHECK(fabs(cj_expected_range(5) - 2.326) < 0.002);
	CHECK(fabs(cj_expected_range(10) - 3.078) < 0.002);
	/* A change of 5 standard deviations: a few runs show it; more for 3. */
	CHECK(cj_runs_needed(5, 1) == 3);
	CHECK(cj_runs_needed(3, 1) > 3 && cj_runs_needed(3, 1) <= 10);
	/* Within the spread of 3 runs: no number of runs passes the spread rule. */
	CHECK(cj_runs_needed(1.5, 1) == CJ_MAX_ESTIMATE + 1);
	CHECK(cj_runs_needed(0.1, 0) == CJ_MIN_RUNS);
	/* More than chance: 1 of 1, 2 of 2..7, 3 of 8..16. */
	CHECK(cj_rows_needed(1) == 1);
	CHECK(cj_rows_needed(2) == 2 && cj_rows_needed(7) == 2);
	CHECK(cj_rows_needed(8) == 3 && cj_rows_needed(16) == 3);
	CHECK(cj_rows_needed(17) == 4);
}

static void judge(void)
{
	double a[] = { 10, 10.1, 9.9, 10, 10.05 }, b[] = { 9.5, 9.55, 9.45, 9.5, 9.52 };
	struct cj_row r;

	cj_judge(a, 5, b, 5, &r);
	CHECK(r.result == CJ_SIGNIFICANT);
	CHECK(fabs(r.change_pct - (9.5 / 10 - 1) * 100) < 1e-9);
	cj_judge(a, 5, a + 1, 4, &r);
	CHECK(r.result == CJ_NOISE || r.result == CJ_WITHIN_SPREAD);
	/* Two runs against five: cannot tell, but the spread gives an estimate. */
	cj_judge(a, 5, b, 2, &r);
	CHECK(r.result == CJ_CANNOT_TELL && r.runs_needed >= 3 && r.runs_needed <= 10);
	cj_judge(a, 1, b, 1, &r);
	CHECK(r.result == CJ_CANNOT_TELL && r.runs_needed == 0);
}

/* Issue 30: rounding to the printed digits is no difference. */
static void digits(void)
{
	double csv[] = { 17.5612, 17.5612, 17.5612, 17.5612, 17.5612 };
	double txt[] = { 17.6, 17.6, 17.6, 17.6, 17.6 }, slow[] = { 17.4, 17.4, 17.4, 17.4, 17.4 };
	struct cj_row r;

	/* Both without spread: Welch's test alone calls 0.2% significant. */
	cj_judge(csv, 5, txt, 5, &r);
	CHECK(r.result == CJ_SIGNIFICANT);
	cj_digits(&r, 1e-4, 0.1);
	CHECK(r.result == CJ_ROUNDING);
	/* Beyond half a step of each side: still a difference. */
	cj_judge(csv, 5, slow, 5, &r);
	cj_digits(&r, 1e-4, 0.1);
	CHECK(r.result == CJ_SIGNIFICANT);
	/* 15 digits against 17, a unit of the last place apart as doubles. */
	csv[0] = 8424828.56214339;
	txt[0] = 8424828.5621433947;
	cj_judge(csv, 1, txt, 1, &r);
	CHECK(r.result == CJ_CANNOT_TELL);
	r.result = CJ_SIGNIFICANT;
	cj_digits(&r, 1e-8, 1e-10);
	CHECK(r.result == CJ_ROUNDING);
}

static void mismatched(void)
{
	char pa[64], pb[64], pc[64], err[512];
	struct ci_input in[2];

	snprintf(pa, sizeof(pa), "%s/ra.csv", dir);
	snprintf(pb, sizeof(pb), "%s/qd.csv", dir);
	snprintf(pc, sizeof(pc), "%s/big.csv", dir);
	CHECK(run(pa, "--readahead", "--min-size=16K", "sim:") == 0);
	CHECK(run(pb, "--queue-depth", NULL, "sim:") == 0);
	CHECK(run(pc, "--readahead", NULL, "sim:size=8G") == 0);
	CHECK(ci_read(pa, &in[0], err, sizeof(err)) == 0 && ci_read(pb, &in[1], err, sizeof(err)) == 0);
	CHECK(compare_check(in, 2, err, sizeof(err)) != 0 && strstr(err, "different tests"));
	ci_free(&in[1]);
	CHECK(ci_read(pc, &in[1], err, sizeof(err)) == 0);
	CHECK(compare_check(in, 2, err, sizeof(err)) != 0 && strstr(err, "different devices"));
	ci_free(&in[1]);
	/* The same card from 4KiB: its 4KiB and 8KiB rows are only in B. */
	CHECK(run(pc, "--readahead", NULL, "sim:") == 0);
	CHECK(ci_read(pc, &in[1], err, sizeof(err)) == 0);
	CHECK(compare_check(in, 2, err, sizeof(err)) == 0);
	CHECK(in[0].tables[0].nrows + 2 == in[1].tables[0].nrows);
	ci_free(&in[0]);
	ci_free(&in[1]);
}

int main(void)
{
	char cmd[64];

	if (!mkdtemp(dir)) {
		printf("FAIL: mkdtemp\n");
		return 1;
	}
	estimates();
	judge();
	digits();
	false_alarms();
	detection();
	mismatched();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("note: could not remove %s\n", dir);
	UNIT_DONE();
}
