/* The plateau of a readahead sweep: see verdict_readahead.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/out.h"
#include "core/units.h"
#include "verdicts/verdict_readahead.h"

double vr_mean(const struct sr_table *t, size_t i)
{
	double sum = 0;
	unsigned n = 0;

	for (unsigned j = 0; j < t->runs; j++)
		if (!isnan(t->rate[i][j])) {
			sum += t->rate[i][j];
			n++;
		}
	return n ? sum / n : NAN;
}

static void minmax(const struct sr_table *t, size_t i, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (unsigned j = 0; j < t->runs; j++)
		if (!isnan(t->rate[i][j])) {
			*lo = fmin(*lo, t->rate[i][j]);
			*hi = fmax(*hi, t->rate[i][j]);
		}
}

double vr_range(const struct sr_table *t, size_t i)
{
	double lo, hi;

	minmax(t, i, &lo, &hi);
	return hi >= lo ? hi - lo : 0;
}

/* The spread two sizes are compared by, in bytes/s. */
static double noise(const struct sr_table *t, size_t i, size_t k)
{
	double floor = vr_mean(t, i) * VR_FLOOR_PCT / 100;

	return fmax(floor, fmax(vr_range(t, i), vr_range(t, k)));
}

/* The first larger size that reads more than the spread faster than i (i: none). */
static size_t risen_to(const struct sr_table *t, size_t i)
{
	double m = vr_mean(t, i);

	for (size_t k = i + 1; k < t->n; k++)
		if (vr_mean(t, k) - m > noise(t, i, k))
			return k;
	return i;
}

/* The best run of each size: what a fixed band is judged on. */
static size_t band(const struct sr_table *t, double pct)
{
	double best = 0, lo, hi;

	for (size_t i = 0; i < t->n; i++) {
		minmax(t, i, &lo, &hi);
		best = fmax(best, hi);
	}
	for (size_t i = 0; i < t->n; i++) {
		minmax(t, i, &lo, &hi);
		if (hi >= best * (1 - pct / 100))
			return i;
	}
	return 0;
}

static bool disagrees(const struct sr_table *t, size_t i)
{
	return vr_range(t, i) > vr_mean(t, i) * VR_DISAGREE_PCT / 100;
}

void vr_judge(const struct sr_table *t, double band_pct, struct vr_result *r)
{
	memset(r, 0, sizeof(*r));
	r->runs = t->runs;
	r->band_pct = band_pct;
	for (size_t i = 0; i < t->n; i++) {
		if (isnan(vr_mean(t, i)))
			continue;
		if (!r->judged || vr_mean(t, i) > vr_mean(t, r->top))
			r->top = i;
		r->judged = true;
		if (disagrees(t, i))
			r->dis[r->ndis++] = i;
	}
	if (!r->judged)
		return;
	if (band_pct > 0) {
		r->at = band(t, band_pct);
	} else {
		r->at = t->n - 1;
		for (size_t i = 0; i < t->n; i++)
			if (!isnan(vr_mean(t, i)) && risen_to(t, i) == i) {
				r->at = i;
				break;
			}
	}
	r->below = r->over = r->at;
	if (r->at > 0) {
		r->below = r->at - 1;
		r->over = risen_to(t, r->below);
		r->rise_pct = 100 * (vr_mean(t, r->over) / vr_mean(t, r->below) - 1);
		r->noise_pct = 100 * noise(t, r->below, r->over) / vr_mean(t, r->below);
	}
	for (size_t d = 0; d < r->ndis; d++)
		r->disagree = r->disagree || r->dis[d] + 1 >= r->at;
}

/* A rate in MB/s as the table prints it. */
static char *mbs(char *buf, size_t len, double bps)
{
	double m = bps / 1e6;

	snprintf(buf, len, m >= 100 ? "%.0f" : m >= 10 ? "%.1f" : "%.2f", m);
	return buf;
}

/* "264-269" or "17.6": the runs of rows from..to, as printed. */
static char *span(char *buf, size_t len, const struct sr_table *t, size_t from, size_t to)
{
	double lo = INFINITY, hi = -INFINITY, a, b;
	char x[32], y[32];

	for (size_t i = from; i <= to; i++) {
		minmax(t, i, &a, &b);
		lo = fmin(lo, a);
		hi = fmax(hi, b);
	}
	mbs(x, sizeof(x), lo);
	mbs(y, sizeof(y), hi);
	if (strcmp(x, y) == 0)
		snprintf(buf, len, "%s", x);
	else
		snprintf(buf, len, "%s-%s", x, y);
	return buf;
}

/* "the runs disagree at 2MiB (1124-7888 MB/s), 4MiB (...)": the rows of r->dis from 'from' on. */
static void disagreement(char *buf, size_t len, const struct sr_table *t,
			 const struct vr_result *r, size_t from)
{
	size_t k = 0, shown = 0;
	char sz[FB_FMT_LEN], sp[80];

	buf[0] = '\0';
	for (size_t d = 0; d < r->ndis && k < len; d++) {
		size_t i = r->dis[d];

		if (i < from)
			continue;
		if (shown++ == 4) {
			k += (size_t)snprintf(buf + k, len - k, ", ...");
			break;
		}
		k += (size_t)snprintf(buf + k, len - k, "%s%s (%s MB/s, %.0f%% apart)", k ? ", " : "",
				      fmt_size(sz, sizeof(sz), t->size[i]),
				      span(sp, sizeof(sp), t, i, i),
				      100 * vr_range(t, i) / vr_mean(t, i));
	}
}

static void print_named(const struct sr_table *t, const struct vr_result *r, const char *what,
			const char *tail)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN], sp[80], sb[80], ns[80], why[400] = "";
	struct out_verdict v = { .label = "readahead", .name = "plateau", .result = "named",
				 .has_value = true, .value = t->size[r->at], .unit = "bytes" };

	fmt_size(a, sizeof(a), t->size[r->at]);
	span(sp, sizeof(sp), t, r->at, t->n - 1);
	if (r->band_pct > 0) {
		fmt_size(b, sizeof(b), t->size[r->top]);
		span(sb, sizeof(sb), t, r->top, r->top);
		out_verdict(&v, "plateau at %s: %s of %s and more read %s MB/s, within %g%% of the "
			    "best (%s MB/s at %s)%s", a, what, a, sp, r->band_pct, sb, b, tail);
		return;
	}
	if (r->at > 0) {
		fmt_size(b, sizeof(b), t->size[r->below]);
		fmt_size(c, sizeof(c), t->size[r->over]);
		if (r->runs < 2)
			snprintf(ns, sizeof(ns), "%g%% (one run: its noise not measured)", VR_FLOOR_PCT);
		else if (r->noise_pct <= VR_FLOOR_PCT + 1e-9)
			snprintf(ns, sizeof(ns), "%g%% (the runs agree within it)", VR_FLOOR_PCT);
		else
			snprintf(ns, sizeof(ns), "the runs' spread (%.1f%%)", r->noise_pct);
		snprintf(why, sizeof(why), "; from %s (%s MB/s) to %s it rises %.1f%%, more than %s",
			 b, span(sb, sizeof(sb), t, r->below, r->below), c, r->rise_pct, ns);
	}
	out_verdict(&v, "plateau at %s: %s of %s and more read %s MB/s, no larger size faster by "
		    "more than %s%s%s", a, what, a, sp, r->runs < 2 ? "1%" : "the runs' spread", why,
		    tail);
}

void vr_print_edge(const struct sr_table *t, const struct vr_result *r, bool band)
{
	char a[FB_FMT_LEN];

	if (r->at + 1 == t->n && t->n > 1 && !(r->disagree && !band))
		out_note("readahead: the largest size is the first on the plateau: it may "
			 "lie beyond --max-size %s", fmt_size(a, sizeof(a), t->size[r->at]));
}

void vr_print(const struct sr_table *t, const struct vr_result *r, const char *what,
	      const char *tail)
{
	char dis[600], a[FB_FMT_LEN];

	if (!r->judged)
		return;
	if (r->disagree && r->band_pct <= 0) {
		disagreement(dis, sizeof(dis), t, r, r->at ? r->at - 1 : 0);
		out_verdict(&(struct out_verdict){ .label = "readahead", .name = "plateau",
						   .result = "uncertain" },
			    "no plateau named: the runs disagree at %s, at or above the first "
			    "candidate (%s); measure again with more runs",
			    dis, fmt_size(a, sizeof(a), t->size[r->at]));
	} else {
		print_named(t, r, what, tail);
	}
	disagreement(dis, sizeof(dis), t, r, 0);
	if (r->ndis && (!r->disagree || r->band_pct > 0))
		out_note("readahead: the runs disagree at %s", dis);
}
