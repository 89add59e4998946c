/* Reading open-AU lines: see verdict_openau.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdicts/saved_output.h"
#include "core/stats.h"
#include "core/units.h"
#include "core/out.h"
#include "verdicts/facts.h"
#include "verdicts/verdict_openau.h"

/* A line halves when its rate is at most this fraction of the line before. */
#define OA_HALVING 0.7
/* A collection costs at least this fraction of writing a whole erase block. */
#define OA_GC_FRAC (1.0 / 32)
/* Erasing a NAND block alone takes milliseconds: a cheaper write collected nothing. */
#define OA_GC_MIN_NS 1e6
/* Below this fraction a write's cost is command overhead, not a collection. */
#define OA_OVERHEAD_FRAC (1.0 / 64)

void oa_init(struct oa_run *r, uint64_t erase)
{
	memset(r, 0, sizeof(*r));
	r->erase = erase;
}

void oa_add(struct oa_run *r, uint64_t size, double rate)
{
	if (r->n >= OA_MAX_LINES)
		return;
	r->size[r->n] = size;
	r->rate[r->n] = so_round_rate(rate);
	r->n++;
}

static double best_rate(const struct oa_run *r)
{
	double m = 0;

	for (size_t i = 0; i < r->n; i++)
		if (r->rate[i] > m)
			m = r->rate[i];
	return m;
}

/* Time per write of line i, ns. */
static double write_ns(const struct oa_run *r, size_t i)
{
	return r->rate[i] > 0 ? (double)r->size[i] * 1e9 / r->rate[i] : 1e18;
}

/* Writing one erase block at the best rate seen, ns. */
static double block_ns(const struct oa_run *r)
{
	double b = best_rate(r);
	uint64_t e = r->erase ? r->erase : (r->n ? r->size[0] : 0);

	return b > 0 ? (double)e * 1e9 / b : 0;
}

/* Does line i (i >= 1) show the signature? */
static bool gc_line(const struct oa_run *r, size_t i, double block)
{
	return i >= 1 && r->rate[i] <= OA_HALVING * r->rate[i - 1] &&
	       write_ns(r, i) >= OA_GC_FRAC * block && write_ns(r, i) >= OA_GC_MIN_NS;
}

size_t oa_gc_tail(const struct oa_run *r)
{
	double block = block_ns(r);
	size_t k = 0;

	while (k < r->n && gc_line(r, r->n - 1 - k, block))
		k++;
	return k;
}

/* Median time per write over lines [from, from + n). */
static double median_write(const struct oa_run *r, size_t from, size_t n)
{
	double t[OA_MAX_LINES];

	for (size_t i = 0; i < n; i++)
		t[i] = write_ns(r, from + i);
	return stats_median(t, n);
}

bool oa_gc_clear(const struct oa_run *r, double *wns)
{
	if (oa_gc_tail(r) < OA_GC_LINES)
		return false;
	if (wns)
		*wns = median_write(r, r->n - OA_GC_LINES, OA_GC_LINES);
	return true;
}

/* The first run of OA_GC_LINES signature lines anywhere: its first line, or n. */
static size_t gc_run(const struct oa_run *r)
{
	double block = block_ns(r);
	size_t k = 0;

	for (size_t i = 1; i < r->n; i++) {
		k = gc_line(r, i, block) ? k + 1 : 0;
		if (k >= OA_GC_LINES)
			return i + 1 - k;
	}
	return r->n;
}

/* A cost per write big enough to be a collection, not a command's overhead. */
static bool gc_sized(double ns, double block)
{
	return ns >= OA_GC_MIN_NS && ns >= OA_GC_FRAC * block;
}

/*
 * The fixed cost of each write over the smallest OA_GC_LINES blocks:
 * the intercept of time per write against block size. When it is as big
 * as a collection (*extra), the run is not fast, even before the rate
 * halves line by line: with large blocks the transfer still hides it.
 */
static bool gc_cost(const struct oa_run *r, double *extra)
{
	double x[OA_GC_LINES], y[OA_GC_LINES], a, b;

	if (r->n < OA_GC_LINES)
		return false;
	for (size_t i = 0; i < OA_GC_LINES; i++) {
		x[i] = (double)r->size[r->n - 1 - i];
		y[i] = write_ns(r, r->n - 1 - i);
	}
	if (stats_linfit(x, y, OA_GC_LINES, &a, &b) < 0)
		return false;
	*extra = a;
	return gc_sized(a, block_ns(r));
}

static void classify_slow(const struct oa_run *r, size_t first, struct oa_result *res)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN];

	res->c = OA_SLOW;
	res->write_ns = median_write(r, first, OA_GC_LINES);
	snprintf(res->why, sizeof(res->why), "from %s down every write costs about %s: "
		 "garbage collection", fmt_size(a, sizeof(a), r->size[first]),
		 fmt_time(b, sizeof(b), res->write_ns));
}

void oa_classify(const struct oa_run *r, struct oa_result *res)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN], d[FB_FMT_LEN];
	size_t first = gc_run(r), last = r->n ? r->n - 1 : 0;
	double best = best_rate(r), extra;

	memset(res, 0, sizeof(*res));
	if (r->n == 0) {
		snprintf(res->why, sizeof(res->why), "no lines");
		return;
	}
	if (first < r->n) {
		classify_slow(r, first, res);
		return;
	}
	fmt_size(a, sizeof(a), r->size[last]);
	fmt_rate(b, sizeof(b), r->rate[last]);
	fmt_rate(c, sizeof(c), best);
	if (!r->complete) {
		snprintf(res->why, sizeof(res->why), "ended at %s (%s) before the smallest block "
			 "size, without garbage collection", a, b);
	} else if (r->rate[last] * OA_FAST_FACTOR >= best && gc_cost(r, &extra)) {
		snprintf(res->why, sizeof(res->why), "%s at %s, within %.3gx of the best %s, but the "
			 "smallest blocks each cost %s more than their transfer: garbage collection?", a,
			 b, best / r->rate[last], c, fmt_time(d, sizeof(d), extra));
	} else if (r->rate[last] * OA_FAST_FACTOR >= best) {
		res->c = OA_FAST;
		snprintf(res->why, sizeof(res->why), "%s at %s, within %.3gx of the best %s", a, b,
			 best / r->rate[last], c);
	} else if (write_ns(r, last) < OA_OVERHEAD_FRAC * block_ns(r)) {
		res->c = OA_FAST;
		snprintf(res->why, sizeof(res->why), "%s at %s, %.3gx below the best %s, but a "
			 "write takes only %s: command overhead, not garbage collection", a, b,
			 best / r->rate[last], c, fmt_time(d, sizeof(d), write_ns(r, last)));
	} else {
		snprintf(res->why, sizeof(res->why), "%s at %s is %.3gx below the best %s, but "
			 "without the garbage-collection signature", a, b, best / r->rate[last], c);
	}
}

void oa_result_print(unsigned nr, bool random, const struct oa_result *res)
{
	const char *mode = random ? "random" : "linear";
	struct out_verdict v = { .name = random ? "open_au_run_random" : "open_au_run",
				 .result = oa_class_name(res->c), .has_value = nr != 0, .value = nr,
				 .unit = "count" };

	vf_open_au(nr, random, res->c);
	if (nr)
		out_verdict(&v, "%u open AU%s (%s): %s: %s", nr, nr == 1 ? "" : "s", mode,
			    oa_class_name(res->c), res->why);
	else
		out_verdict(&v, "open-au run (%s): %s: %s", mode, oa_class_name(res->c),
			    res->why);
}

void oa_classify_pair(const struct oa_run *agg, const struct oa_run *slowest,
		      struct oa_result *res)
{
	oa_classify(slowest, res);
	if (res->c != OA_SLOW) {
		struct oa_result a;

		oa_classify(agg, &a);
		if (a.c == OA_SLOW)
			*res = a;
	}
}

/* Below this fraction of the base run's median rate, a run is not fast... */
#define OA_BASE_FRAC 0.5
/* ...unless it is slower by the same factor at every size (a card that
 * writes slower, e.g. once a write cache ran out): this much drop of that
 * factor from one line to the next is not the same factor. */
#define OA_SHAPE_DROP 0.85
/* Extra costs per write against the base within this factor: "the same". */
#define OA_SAME_COST 1.5

/* Index in r of the line of size s, or r->n. */
static size_t line_of(const struct oa_run *r, uint64_t s)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->size[i] == s)
			return i;
	return r->n;
}

/*
 * Every one of the smallest common lines costs about the same extra time
 * per write as with the base, and as much as a collection: the signature
 * against the base (*extra: the median extra time).
 */
static bool gc_against(const struct oa_run *base, const struct oa_run *r, double *extra)
{
	double e[OA_GC_LINES], lo = 0, hi = 0;
	size_t m = 0;

	for (size_t i = r->n; i-- > 0 && m < OA_GC_LINES;) {
		size_t j = line_of(base, r->size[i]);

		if (j == base->n)
			return false;
		e[m] = write_ns(r, i) - write_ns(base, j);
		lo = m ? (e[m] < lo ? e[m] : lo) : e[m];
		hi = m ? (e[m] > hi ? e[m] : hi) : e[m];
		m++;
	}
	if (m < OA_GC_LINES || !gc_sized(lo, block_ns(base)) || hi > OA_SAME_COST * lo)
		return false;
	*extra = stats_median(e, m);
	return true;
}

/* Is r slower than base by about the same factor at every common size? */
static bool uniformly_slower(const struct oa_run *base, const struct oa_run *r)
{
	double prev = 0;

	for (size_t i = 0; i < r->n; i++) {
		size_t j = line_of(base, r->size[i]);
		double q;

		if (j == base->n || base->rate[j] <= 0)
			continue;
		q = r->rate[i] / base->rate[j];
		if (prev > 0 && q < OA_SHAPE_DROP * prev)
			return false;
		prev = q;
	}
	return true;
}

void oa_against(const struct oa_run *base, unsigned base_nr, const struct oa_run *r,
		struct oa_result *res)
{
	char a[FB_FMT_LEN], t[FB_FMT_LEN];
	struct oa_result b;
	double mb, mr, extra;

	if (res->c == OA_SLOW || !base || base->n == 0 || r->n == 0 || base == r)
		return;
	oa_classify(base, &b);
	if (b.c != OA_FAST)
		return;	/* (a base that is not fast itself says nothing) */
	if (gc_against(base, r, &extra)) {
		res->c = OA_SLOW;
		res->write_ns = extra;
		snprintf(res->why, sizeof(res->why), "from %s down every write costs about %s more "
			 "than with %u erase block%s: garbage collection",
			 fmt_size(a, sizeof(a), r->size[r->n - OA_GC_LINES]), fmt_time(t, sizeof(t), extra),
			 base_nr, base_nr == 1 ? "" : "s");
		return;
	}
	if (res->c != OA_FAST)
		return;
	mb = stats_median(base->rate, base->n);
	mr = stats_median(r->rate, r->n);
	if (mr >= OA_BASE_FRAC * mb || uniformly_slower(base, r))
		return;
	res->c = OA_INCONCLUSIVE;
	snprintf(res->why, sizeof(res->why), "no garbage-collection signature, but its rates are "
		 "%.3gx below those with %u erase block%s", mb / mr, base_nr, base_nr == 1 ? "" : "s");
}

void oa_report_stop(double wns)
{
	char a[FB_FMT_LEN];

	out_note("stopped: every write costs the same %s \xe2\x80\x94 the card is "
		 "garbage-collecting (--no-early-stop measures every size)",
		 fmt_time(a, sizeof(a), wns));
	out_test_stopped("every write is a garbage collection");
}

struct oa_stop {
	unsigned ncol;
	struct oa_run col[];
};

struct oa_stop *oa_stop_new(unsigned ncol, uint64_t erase)
{
	struct oa_stop *s = calloc(1, sizeof(*s) + ncol * sizeof(s->col[0]));

	if (!s)
		return NULL;
	s->ncol = ncol;
	for (unsigned i = 0; i < ncol; i++)
		oa_init(&s->col[i], erase);
	return s;
}

bool oa_stop_line(struct oa_stop *s, uint64_t size, const double *rates)
{
	double wns, worst = 0;

	if (!s)
		return false;
	for (unsigned i = 0; i < s->ncol; i++)
		oa_add(&s->col[i], size, rates[i]);
	for (unsigned i = 0; i < s->ncol; i++) {
		if (!oa_gc_clear(&s->col[i], &wns))
			return false;
		if (wns > worst)
			worst = wns;
	}
	oa_report_stop(worst);
	return true;
}

void oa_stop_free(struct oa_stop *s)
{
	free(s);
}

const char *oa_class_name(enum oa_class c)
{
	return c == OA_FAST ? "fast" : c == OA_SLOW ? "slow" : "inconclusive";
}

static void bracket_text(const struct oa_bracket *b, char *buf, size_t len)
{
	bool inc = b->inconclusive > b->fast && (!b->slow || b->inconclusive < b->slow);

	if (b->contradicts)
		snprintf(buf, len, "uncertain: %u fast but %u slow", b->fast, b->slow);
	else if (b->fast && b->slow && inc)
		snprintf(buf, len, "%u fast, %u slow (%u inconclusive)", b->fast, b->slow,
			 b->inconclusive);
	else if (b->fast && b->slow)
		snprintf(buf, len, "%u fast, %u slow", b->fast, b->slow);
	else if (b->fast && inc)
		snprintf(buf, len, "%u fast, %u inconclusive, none slow", b->fast, b->inconclusive);
	else if (b->fast)
		snprintf(buf, len, "at least %u fast, none slow", b->fast);
	else if (b->slow == 1)
		snprintf(buf, len, "even 1 is slow");
	else if (b->slow)
		snprintf(buf, len, "%u slow, none found fast", b->slow);
	else
		snprintf(buf, len, "no conclusive run");
}

void oa_bracket_print(const struct oa_bracket *b, bool random, const char *why)
{
	char text[160];

	bracket_text(b, text, sizeof(text));
	/* The value is the largest N found fast, when there is one. */
	out_verdict(&(struct out_verdict){ .name = random ? "open_aus_random" : "open_aus",
					   .result = b->fast && b->slow ? "bracket"
						     : b->fast ? "at_least" : "none",
					   .has_value = b->fast != 0, .value = b->fast,
					   .unit = "count" },
		    "open AUs (%s): %s%s%s", random ? "random" : "linear", text,
		    why ? "; " : "", why ? why : "");
}
