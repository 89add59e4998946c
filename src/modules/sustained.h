/*
 * --sustained, shared between its files: the options, and the state of
 * one run -- the writer (sustained.c) and the read-back (sustained_verify.c).
 */
#ifndef FB_SUSTAINED_H
#define FB_SUSTAINED_H

#include <stdbool.h>
#include <stdint.h>

#include "core/target.h"
#include "modules/test.h"
#include "verdicts/verdict_sustained.h"

struct lat_hist;

struct sus_opts {
	uint64_t duration;	/* ns of device time, 0: the whole region */
	uint64_t interval;	/* ns of device time per record */
	const char *log;	/* CSV of the records, NULL: none */
	double cliff_pct;
	uint64_t slow_bps;	/* 0: a quarter of the initial rate */
	bool sync, verify;
};

extern struct sus_opts sus_opts;

/* The region written: [start, start + len). */
void sus_region(const struct fb_opts *o, uint64_t size, uint64_t *start, uint64_t *len);

/*
 * --random: every block of the region once, in a pseudo-random order: a
 * full-period linear congruential sequence modulo the next power of two,
 * values past the last block skipped.
 */
struct sus_perm {
	uint64_t n, mask, x;
};

void sus_perm_init(struct sus_perm *p, uint64_t n);
uint64_t sus_perm_next(struct sus_perm *p);

/*
 * Read back what the run wrote to the region [start, start + len) --
 * from start on, written bytes in blocks of bs (the last may be shorter),
 * or with random the first written / bs blocks of the permutation of its
 * len / bs blocks -- and report them (a table row and a
 * verdict). Returns an exit status.
 */
int sus_verify(struct target *t, uint64_t start, uint64_t len, uint64_t bs, uint64_t run,
	       uint64_t written, bool random);

extern const struct out_table sus_verify_table;

/* What the summary judges: the run's intervals, and its first ones in parts. */
struct sus_record {
	const struct sus_iv *ivs;
	size_t n;
	const struct sus_iv *fine;	/* the first `covered` intervals in parts */
	size_t nfine;			/* 0: they did not fit */
	size_t covered;
	unsigned fine_parts;		/* parts per interval */
	const struct lat_hist *all;	/* every request's latency */
	uint64_t written, elapsed;	/* bytes, ns of device time */
};

/* The summary row and the cliff and slow verdicts. */
void sus_summary(const struct sus_record *r);

extern const struct out_table sus_sum_table;

#endif
