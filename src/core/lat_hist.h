/*
 * Request latencies without keeping every one: a log-linear histogram
 * (as HdrHistogram does) whose buckets are 1/256 of a power of two wide,
 * so that a percentile is within 0.4% of the exact one, in constant
 * memory whatever the number of requests -- a terabyte of 4 KiB writes
 * is 268 million of them. Minimum and maximum are kept exactly.
 */
#ifndef FB_LAT_HIST_H
#define FB_LAT_HIST_H

#include <stdint.h>

struct lat_hist;

/* A new, empty histogram (NULL when out of memory). */
struct lat_hist *lh_new(void);
void lh_free(struct lat_hist *h);
void lh_add(struct lat_hist *h, uint64_t ns);
/* Empty it again (cheap: only the buckets used are cleared). */
void lh_reset(struct lat_hist *h);
uint64_t lh_count(const struct lat_hist *h);
uint64_t lh_max(const struct lat_hist *h);
/*
 * The p-th percentile (0 < p <= 100) by nearest rank: the value below
 * or at which p percent of the requests lie, as the middle of its bucket
 * kept within the exact minimum and maximum. NaN when empty.
 */
double lh_percentile(const struct lat_hist *h, double p);

#endif
