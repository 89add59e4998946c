/*
 * The one clock of every measurement: CLOCK_MONOTONIC_RAW in
 * nanoseconds, never slewed by NTP, so short intervals are not stretched.
 * Targets time their requests with it; a module that must time I/O the
 * target cannot do itself (buffered reads in --readahead --buffered) too.
 */
#ifndef FB_CLOCK_H
#define FB_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
