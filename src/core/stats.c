/* Small statistics over measured times: see stats.h. */
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"

double stats_mean(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_median(const double *v, size_t n)
{
	double *c, m;

	if (n == 0)
		return 0;
	c = malloc(n * sizeof(*c));
	if (!c)
		return v[0];
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return m;
}

double stats_min(const double *v, size_t n)
{
	double m = n ? v[0] : 0;

	for (size_t i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

int stats_linfit(const double *x, const double *y, size_t n, double *a, double *b)
{
	double mx = stats_mean(x, n), my = stats_mean(y, n), sxx = 0, sxy = 0;

	for (size_t i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
	}
	if (n < 2 || sxx == 0)
		return -1;
	*b = sxy / sxx;
	*a = my - *b * mx;
	return 0;
}
