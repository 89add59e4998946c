/* The name a user most likely meant: see nearest.h. */
#include <stdint.h>
#include <string.h>

#include "core/nearest.h"

/* Optimal string alignment distance, three rows of the table at a time. */
size_t nearest_edits(const char *a, size_t n, const char *b)
{
	size_t m = strlen(b), d[3][64], r = m;

	if (n >= 63 || m >= 63)
		return SIZE_MAX;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= n; i++) {
		size_t *row = d[i % 3], *up = d[(i - 1) % 3], *up2 = d[(i + 1) % 3];

		row[0] = i;
		for (size_t j = 1; j <= m; j++) {
			size_t best = up[j - 1] + (a[i - 1] != b[j - 1]);

			if (up[j] + 1 < best)
				best = up[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    up2[j - 2] + 1 < best)
				best = up2[j - 2] + 1;
			row[j] = best;
		}
		r = row[m];
	}
	return r;
}

const char *nearest_name(const char *typed, size_t n, const char *const *names, size_t count)
{
	const char *best = NULL;
	size_t best_d = 3;

	for (size_t i = 0; i < count; i++) {
		size_t d = nearest_edits(typed, n, names[i]);

		if (d < best_d && 2 * d < n) {
			best_d = d;
			best = names[i];
		}
	}
	return best;
}
