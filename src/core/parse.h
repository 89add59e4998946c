/* Parsing of command-line values: sizes, counts, durations. */
#ifndef FB_PARSE_H
#define FB_PARSE_H

#include <stdint.h>

/*
 * Parse a size: a plain integer ("8388608"), hex ("0x200"), or a number
 * with a binary suffix (k K KB KiB kiB, m M MB MiB, g G GB GiB, t T TB TiB,
 * also "B": KB and MB are binary too). A decimal
 * fraction is allowed with a suffix when the result is a whole number of
 * bytes ("1.5M"). Returns 0, or -1 for garbage, a negative value or
 * overflow.
 */
int parse_size(const char *s, uint64_t *out);

/* Parse a whole decimal number within [min, max]. Returns 0 or -1. */
int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* Parse a duration ("90", "90s", "1.5m", "2h", "500ms") into nanoseconds. */
int parse_duration(const char *s, uint64_t *ns);

/*
 * Parse a rate in bytes per second: "22M/s" is decimal (22,000,000, as
 * rates are printed; K, M, G, T and a fraction allowed), anything else is
 * a binary size per second (parse_size(): "20M" is 20 MiB/s). 0 or -1.
 */
int parse_rate(const char *s, uint64_t *bps);

/* Parse a real number ("5", "2.5"). Returns 0 or -1. */
int parse_double(const char *s, double *out);

#endif
