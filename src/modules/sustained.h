/*
 * --sustained: its options and region, shared with its tests; the order
 * of --random (sustained_perm.h) and the read-back (sustained_verify.h)
 * are units of their own, which the writer (sustained.c) uses.
 */
#ifndef FB_SUSTAINED_H
#define FB_SUSTAINED_H

#include <stdbool.h>
#include <stdint.h>

#include "core/target.h"
#include "modules/sustained_perm.h"
#include "modules/sustained_verify.h"
#include "modules/sustained_summary.h"
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

#endif
