/*
 * --queue-depth: throughput and latency by the number of requests kept
 * outstanding, each depth measured in several interleaved runs, and each
 * step to the next depth judged by core/stats (significant or noise).
 * The pure parts are exposed for the unit tests.
 */
#ifndef FB_QUEUE_DEPTH_H
#define FB_QUEUE_DEPTH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/opts.h"
#include "core/stats.h"

#define QD_MAX_DEPTHS	32	/* depths in one sweep */
#define QD_MAX_DEPTH	1024	/* the deepest queue one may ask for */
#define QD_DEFAULT_RUNS	3
#define QD_DEFAULT_BS	4096ull
#define QD_DEFAULT_SIZE	(16ull << 20)	/* bytes per cell */
/* Latencies kept for the percentiles: requests per cell x runs x depths. */
#define QD_MAX_SAMPLES	(16ull << 20)
/* The memory of the requests in flight: deepest depth x --blocksize. */
#define QD_MAX_BUFFER	(1ull << 30)

/*
 * Parse a --queue-depth LIST: comma-separated depths, each N or A..B
 * (A, 2A, 4A, ... up to B, and B itself), rising, 1..QD_MAX_DEPTH, at
 * most QD_MAX_DEPTHS of them. 0, or -1 with a one-line message naming
 * the list.
 */
int qd_parse_list(const char *s, unsigned *depth, size_t *n, char *err, size_t len);

/*
 * The depth from which deeper queues add nothing: the index of the first
 * depth after which no step is a significant rise (cmp[i] compares depth
 * i with i + 1; n depths, n - 1 steps). n - 1 when the last step is a
 * significant rise (still rising at the deepest depth measured).
 */
size_t qd_saturation(const struct stats_cmp *cmp, size_t n);

/*
 * The same judged against every deeper depth, not only the next: the
 * smallest depth i that no deeper depth beats significantly
 * (stats_compare of depth i's runs with depth j's), so that a climb of
 * steps each "within noise" is still a rise. iops[i][0..done[i]-1]: the
 * runs of depth i; from: where the adjacent steps put it (qd_saturation),
 * which a deeper rise only moves on. *scatter: a deeper depth whose median is more than
 * QD_SCATTER_PCT above the saturation depth's but whose runs scatter too
 * much to call that a rise -- the runs disagree (n: none).
 */
#define QD_SCATTER_PCT 25.0
size_t qd_saturation_all(const double (*iops)[FB_MAX_RUNS], const unsigned *done, size_t n,
			 size_t from, size_t *scatter);

#endif
