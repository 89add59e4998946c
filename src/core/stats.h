/* Small statistics over measured times. */
#ifndef FB_STATS_H
#define FB_STATS_H

#include <stddef.h>

double stats_mean(const double *v, size_t n);
/* Median; sorts a copy, v is left as it is. */
double stats_median(const double *v, size_t n);
double stats_min(const double *v, size_t n);
/* Least-squares line y = a + b x. Returns 0, or -1 when x does not vary. */
int stats_linfit(const double *x, const double *y, size_t n, double *a, double *b);

#endif
