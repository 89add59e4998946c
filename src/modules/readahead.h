/*
 * --readahead: sequential read throughput by request size (O_DIRECT) or
 * by kernel readahead window (--buffered), with the smallest size that
 * reaches the plateau marked. The pure helpers are exposed for the tests.
 */
#ifndef FB_READAHEAD_H
#define FB_READAHEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/opts.h"
#include "core/target.h"

#define RA_MAX_RUNS	FB_MAX_RUNS
#define RA_MAX_SIZES	64
/*
 * Largest request of the buffered reads; they are --min-size when that is
 * smaller. A read larger than the readahead window makes the kernel fetch
 * the whole read at once (up to the disk's max_sectors_kb), so 1 MiB
 * reads would hide every window below 1 MiB: reads no larger than the
 * smallest window leave the I/O size to the readahead alone.
 */
#define RA_BUFFERED_READ (1024 * 1024)
/* Runs per size when --runs is not given. */
#define RA_DEFAULT_RUNS 2

/* Its own options (the shared --offset, --size and --runs are in fb_opts). */
struct ra_opts {
	uint64_t min_size, max_size;	/* powers of two, doubling from min to max */
	bool buffered;			/* set the kernel readahead, read through the cache */
	double plateau;			/* percent of the best rate that still counts */
};
extern struct ra_opts ra_opts;

/* Default bytes per run: a quarter of the device, at most this much. */
#define RA_DEFAULT_BYTES (64ull * 1024 * 1024)

/*
 * Index of the smallest size whose rate is within pct percent of the
 * best rate (rate[i] >= best * (1 - pct / 100)); 0 when n is 0.
 */
size_t ra_plateau(const double *rate, size_t n, double pct);

/*
 * Bytes read by each run: want (--size, 0 for the default) rounded down
 * to a multiple of max_size, so every size reads exactly the same range.
 * The default is a quarter of avail, at most RA_DEFAULT_BYTES, at least
 * max_size. Returns 0 when that does not fit in avail.
 */
uint64_t ra_run_bytes(uint64_t avail, uint64_t max_size, uint64_t want);

/* Checks before the device is opened; 0, or -1 with a one-line message. */
int ra_check_opts(const struct fb_opts *o, char *err, size_t len);
/* Checks that need the device (sector size, kind); 0 or -1 as above. */
int ra_check_target(const struct fb_opts *o, const struct target *t, char *err, size_t len);

#endif
