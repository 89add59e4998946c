/* Formatting of sizes, rates and times the way flashbench prints them. */
#ifndef FB_UNITS_H
#define FB_UNITS_H

#include <stddef.h>
#include <stdint.h>

#define FB_FMT_LEN 32

/* Binary size with three significant digits: 512B, 16KiB, 1.5GiB. */
char *fmt_size(char *buf, size_t len, uint64_t bytes);
/* The largest binary unit that divides bytes exactly, as an option takes
 * it back ("12MiB", "1536KiB"); plain bytes get the suffix b ("B" or ""). */
char *fmt_size_exact(char *buf, size_t len, uint64_t bytes, const char *b);
/* Decimal bytes per second: 471K/s, 5.99M/s, 1.2G/s. */
char *fmt_rate(char *buf, size_t len, double bytes_per_s);
/* A ratio with digits significant digits and an "x" ("11x", "6.4x"),
 * whole from 10^digits on ("1530x", not "1.53e+03x"). */
char *fmt_times(char *buf, size_t len, double x, int digits);
/* Signed nanoseconds with a unit: 735ns, 1.08ms, -12.3µs, 2.5s. */
char *fmt_time(char *buf, size_t len, double ns);

#endif
