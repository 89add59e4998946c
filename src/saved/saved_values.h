/*
 * The values of saved output (saved_values.c): times, sizes and rates as
 * printed, their round trip through the output, and an align row's times
 * checked against its diff.
 */
#ifndef FB_SAVED_VALUES_H
#define FB_SAVED_VALUES_H

#include <stdint.h>

#include "saved/saved_line.h"

/* A time such as "735µs", "1.08ms", "-6799ns", "1e+03µ", "-412331" (ns). */
int so_parse_time(const char *s, double *ns);
/* A size such as "4MiB", "512KiB", "2KiB", "512B", "1.5GiB". */
int so_parse_size(const char *s, uint64_t *bytes);
/* A rate such as "22M/s", "471K/s", "1.2G/s" (decimal). */
int so_parse_rate(const char *s, double *bps);

/*
 * The rounding a number as printed carries, relative to it: the place of
 * its last digit over its value ("17.6M/s": 0.1 / 17.6; "5212909.37654477":
 * 1e-8 / 5212909.4; "1e+03µ": 1000 / 1000). 0 for no number or zero.
 */
double so_rel_step(const char *s);

/*
 * A value no device gives, read back from saved output: a rate (bytes/s)
 * that is negative, not finite or above 1 TB/s; a count (IOPS) negative,
 * not finite or above 1e10; a time not finite or beyond 1e15 ns (11 days:
 * a diff may be negative). Skipped by every
 * reader, with a line that names it, and never used for a verdict.
 * NULL when plausible, else why ("above 1 TB/s").
 */
#define SO_MAX_RATE 1e12
#define SO_MAX_IOPS 1e10
#define SO_MAX_TIME 1e15
const char *so_implausible_rate(double bps);
const char *so_implausible_iops(double iops);
const char *so_implausible_time(double ns);

/* The value a number shows after a round trip through the output. */
double so_round_time(double ns);
double so_round_rate(double bps);

/* Check an align row's diff; restore a unit lost in copying. tok: the
 * four time fields as printed (pre, on, post, diff). */
int so_align_times(char *const tok[4], struct so_line *o);

#endif
