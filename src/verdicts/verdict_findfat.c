/* Reading a find-fat table: see verdict_findfat.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/stats.h"
#include "core/units.h"
#include "core/out.h"
#include "verdicts/facts.h"
#include "verdicts/verdict_findfat.h"
#include "verdicts/verdict_sweep.h"

/* Every column too short, cut off, or ragged? Fills res and returns true. */
static bool cannot(const struct oa_run *cols, size_t ncol, struct ff_result *res)
{
	struct oa_result r;
	char a[FB_FMT_LEN];
	bool all_slow = true;

	if (ncol < 2) {
		snprintf(res->why, sizeof(res->why), "one erase block: nothing to compare it with");
		return true;
	}
	if (cols[0].n < VS_MIN_LINES) {
		size_t n = cols[0].n;
		char b[FB_FMT_LEN];

		snprintf(res->why, sizeof(res->why), "too short to judge: %zu line%s (%s%s%s); it "
			 "needs %d", n, n == 1 ? "" : "s", fmt_size(a, sizeof(a), n ? cols[0].size[0] : 0),
			 n > 1 ? " to " : "", n > 1 ? fmt_size(b, sizeof(b), cols[0].size[n - 1]) : "",
			 VS_MIN_LINES);
		return true;
	}
	for (size_t i = 0; i < ncol; i++) {
		if (cols[i].n != cols[0].n) {
			snprintf(res->why, sizeof(res->why), "the columns have different lengths");
			return true;
		}
		oa_classify(&cols[i], &r);
		all_slow = all_slow && r.c == OA_SLOW;
	}
	/* Cut short: unless every erase block was collecting garbage already. */
	if (!cols[0].complete && !all_slow) {
		snprintf(res->why, sizeof(res->why), "inconclusive: ended at %s before the "
			 "smallest block size", fmt_size(a, sizeof(a), cols[0].size[cols[0].n - 1]));
		return true;
	}
	return false;
}

/* The lowest and highest rate of cols[from..to) in the last line. */
static void span(const struct oa_run *cols, size_t from, size_t to, size_t *lo, size_t *hi)
{
	size_t last = cols[0].n - 1;

	*lo = *hi = from;
	for (size_t i = from; i < to; i++) {
		if (cols[i].rate[last] < cols[*lo].rate[last])
			*lo = i;
		if (cols[i].rate[last] > cols[*hi].rate[last])
			*hi = i;
	}
}

static void area(const struct oa_run *cols, size_t ncol, size_t k, struct ff_result *res)
{
	size_t last = cols[0].n - 1, lo, hi, olo, ohi;
	char s[FB_FMT_LEN], a[FB_FMT_LEN], b[FB_FMT_LEN], z[FB_FMT_LEN];
	uint64_t erase = cols[0].erase ? cols[0].erase : cols[0].size[0];

	span(cols, 0, k, &lo, &hi);
	span(cols, k, ncol, &olo, &ohi);
	res->state = FF_AREA;
	res->area = (unsigned)k;
	snprintf(res->why, sizeof(res->why), "the first %zu of %zu erase "
		 "blocks (%s): at %s they write %s or more, the others %s at most (%.3gx slower)",
		 k, ncol, fmt_size(z, sizeof(z), erase * k), fmt_size(s, sizeof(s), cols[0].size[last]),
		 fmt_rate(a, sizeof(a), cols[lo].rate[last]), fmt_rate(b, sizeof(b), cols[ohi].rate[last]),
		 cols[ohi].rate[last] > 0 ? cols[lo].rate[last] / cols[ohi].rate[last] : 1e9);
}

/* How much longer than the slowest of the first k the fastest of the others
 * takes to write line j's erase block, ns (0: not longer); its rates. */
static double gap(const struct oa_run *cols, size_t ncol, size_t k, size_t j, double *fast,
		  double *slow)
{
	double e = (double)oa_erase(&cols[0]) * 1e9, f = 1e300, w = 0;

	for (size_t i = 0; i < ncol; i++)
		if (i < k)
			f = fmin(f, cols[i].rate[j]);
		else
			w = fmax(w, cols[i].rate[j]);
	*fast = f, *slow = w;
	return w > 0 && f > w ? e / w - e / f : 0;
}

/*
 * The erase blocks after the first k each take an erase-block copy's worth
 * longer per line than the slowest of the first k, in each of the last
 * FF_COPY_LINES lines (and in the band of lines above them that do too):
 * they collect garbage once per erase block written, the first k do not.
 * (A card with random-write slots collects once for each erase block
 * written in random order beyond them: each then writes at half its rate
 * or so when a copy costs what writing the block does, short of FF_FACTOR
 * however clear.) Fills res and returns true.
 */
static bool copy_each(const struct oa_run *cols, size_t ncol, size_t k, struct ff_result *res)
{
	size_t n = cols[0].n, from = n, at = n;
	uint64_t erase = oa_erase(&cols[0]);
	double best = 0, least = 1e300, gaps[OA_MAX_LINES], fast = 0, slow = 0, copy, f, w, g;
	char s[FB_FMT_LEN], t[FB_FMT_LEN], z[FB_FMT_LEN], a[FB_FMT_LEN], b[FB_FMT_LEN],
	     c[FB_FMT_LEN], r[FB_FMT_LEN], x[FB_FMT_LEN], q[FB_FMT_LEN], m[FB_FMT_LEN],
	     l[FB_FMT_LEN];

	for (size_t i = 0; i < k; i++)
		best = fmax(best, oa_best_rate(&cols[i]));
	copy = oa_copy_ns(erase, best);
	if (copy <= 0)
		return false;
	while (from > 0 && oa_level_class(g = gap(cols, ncol, k, from - 1, &f, &w), copy) == OA_SLOW) {
		gaps[--from] = g;
		if (g < least)
			least = g, fast = f, slow = w, at = from;
	}
	if (n - from < FF_COPY_LINES)
		return false;
	res->state = FF_AREA;
	res->area = (unsigned)k;
	snprintf(res->why, sizeof(res->why), "the first %zu of %zu erase blocks (%s): from %s "
		 "to %s each of the others takes about %s longer to write (at least %s: %s "
		 "against %s at %s), an erase-block copy's worth (%s: %s at %s): they collect "
		 "garbage, the first do not", k, ncol, fmt_size(z, sizeof(z), erase * k),
		 fmt_size(s, sizeof(s), cols[0].size[from]), fmt_size(t, sizeof(t), cols[0].size[n - 1]),
		 fmt_time(m, sizeof(m), stats_median(gaps + from, n - from)),
		 fmt_time(x, sizeof(x), least), fmt_rate(a, sizeof(a), slow),
		 fmt_rate(b, sizeof(b), fast), fmt_size(l, sizeof(l), cols[0].size[at]),
		 fmt_time(c, sizeof(c), copy), fmt_size(r, sizeof(r), erase),
		 fmt_rate(q, sizeof(q), best));
	return true;
}

void ff_judge(const struct oa_run *cols, size_t ncol, bool random, struct ff_result *res)
{
	size_t last, lo, hi;
	char s[FB_FMT_LEN], a[FB_FMT_LEN], b[FB_FMT_LEN];

	memset(res, 0, sizeof(*res));
	res->random = random;
	if (cannot(cols, ncol, res))
		return;
	last = cols[0].n - 1;
	/* The largest k: the first k at least FF_FACTOR faster than all the rest. */
	for (size_t k = ncol - 1; k >= 1; k--) {
		size_t alo, ahi, rlo, rhi;

		span(cols, 0, k, &alo, &ahi);
		span(cols, k, ncol, &rlo, &rhi);
		if (cols[alo].rate[last] > 0 && cols[alo].rate[last] >= FF_FACTOR * cols[rhi].rate[last]) {
			area(cols, ncol, k, res);
			return;
		}
	}
	for (size_t k = ncol - 1; k >= 1; k--)
		if (copy_each(cols, ncol, k, res))
			return;
	span(cols, 0, ncol, &lo, &hi);
	fmt_size(s, sizeof(s), cols[0].size[last]);
	fmt_rate(a, sizeof(a), cols[lo].rate[last]);
	fmt_rate(b, sizeof(b), cols[hi].rate[last]);
	if (cols[hi].rate[last] < FF_FACTOR * cols[lo].rate[last]) {
		res->state = FF_NONE;
		snprintf(res->why, sizeof(res->why), "at %s the %zu erase blocks write %s to %s "
			 "(within %.3gx)%s", s, ncol, a, b,
			 cols[lo].rate[last] > 0 ? cols[hi].rate[last] / cols[lo].rate[last] : 0,
			 random ? ", none clearly faster at the start"
				: "; linear writes rarely show one (try --random)");
	} else {
		res->state = FF_UNCERTAIN;
		snprintf(res->why, sizeof(res->why), "at %s the erase "
			 "blocks write %s (erase block %zu) to %s (erase block %zu), but the fast ones "
			 "are not the first", s, a, lo + 1, b, hi + 1);
	}
}

void ff_print(const struct ff_result *res)
{
	static const char *const head[] = {
		[FF_CANNOT] = "find-fat",
		[FF_NONE] = "no FAT-optimised area seen",
		[FF_AREA] = "FAT-optimised area",
		[FF_UNCERTAIN] = "FAT-optimised area uncertain",
	};

	static const char *const result[] = {
		[FF_CANNOT] = "too_short", [FF_NONE] = "none", [FF_AREA] = "named",
		[FF_UNCERTAIN] = "uncertain",
	};
	struct out_verdict v = { .name = "fat_area", .result = result[res->state],
				 .has_value = res->state == FF_AREA, .value = res->area,
				 .unit = "count" };

	vf_fat(res);
	out_verdict(&v, "%s (%s): %s", head[res->state], res->random ? "random" : "linear",
		    res->why);
}
