/*
 * --sustained: the summary row and the cliff and slow verdicts of a run
 * (sustained_summary.c), from what sustained.c hands it.
 */
#ifndef FB_SUSTAINED_SUMMARY_H
#define FB_SUSTAINED_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "core/out.h"
#include "verdicts/verdict_sustained.h"

struct lat_hist;

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
	/* the options it judges by (sus_opts) */
	double cliff_pct;
	uint64_t slow_bps, interval;
};

/* The summary row and the cliff and slow verdicts. */
void sus_summary(const struct sus_record *r);

extern const struct out_table sus_sum_table;

#endif
