/* Steps between adjacent rows, judged on their runs: see steps.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "modules/steps.h"

void steps_emit(const struct out_table *t, const uint64_t *key, const struct step_cell *cell,
		size_t rows, struct stats_cmp *c)
{
	for (size_t i = 0; i + 1 < rows; i++) {
		stats_compare(cell[i].v, cell[i].n, cell[i + 1].v, cell[i + 1].n, &c[i]);
		out_row(t, (union out_val[]){
			{ .u = key[i] }, { .u = key[i + 1] }, { .d = c[i].change_pct },
			{ .d = c[i].p }, { .s = stats_verdict_name(c[i].verdict) } });
	}
}

/* The words of a verdict's name (stats_verdict_name()) in the text line. */
static const char *words(const char *name)
{
	return strcmp(name, "significant") == 0 ? "significant"
	       : strcmp(name, "within_spread") == 0 ? "within the spread of the runs"
	       : strcmp(name, "within_noise") == 0 ? "within noise" : "too few runs to judge";
}

static void text(char *line, size_t len, const char *from, const char *to,
		 const union out_val *v)
{
	double pct = round(v[2].d) + 0.0;	/* + 0.0: no "-0%" */

	snprintf(line, len, "%s -> %s: %+.0f%%, %s", from, to, pct, words(v[4].s));
}

void steps_text_count(char *line, size_t len, const union out_val *v)
{
	char a[24], b[24];

	snprintf(a, sizeof(a), "%llu", (unsigned long long)v[0].u);
	snprintf(b, sizeof(b), "%llu", (unsigned long long)v[1].u);
	text(line, len, a, b, v);
}

void steps_text_bytes(char *line, size_t len, const union out_val *v)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN];

	text(line, len, fmt_size(a, sizeof(a), v[0].u), fmt_size(b, sizeof(b), v[1].u), v);
}
