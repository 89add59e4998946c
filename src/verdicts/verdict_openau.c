/* Reading open-AU lines: see verdict_openau.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "saved/saved_output.h"
#include "core/stats.h"
#include "core/units.h"
#include "core/out.h"
#include "verdicts/facts.h"
#include "verdicts/verdict_openau.h"

/* A line halves when its rate is at most this fraction of the line before. */
#define OA_HALVING 0.7
/* Erasing a NAND block alone takes milliseconds: a cheaper write collected nothing. */
#define OA_GC_MIN_NS 1e6
/* Every other line this much slower than its neighbours: it alternates. */
#define OA_ALT_FACTOR 2.0
/* Flash pages are 2 to 64 KiB: a larger "page" is something else. */
#define OA_PAGE_MAX (64 * 1024)
/* Writes below the page cost this much more than at the page: a read-modify-write. */
#define OA_SUBPAGE_FACTOR 1.5

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

double oa_best_rate(const struct oa_run *r)
{
	double m = 0;

	for (size_t i = 0; i < r->n; i++)
		if (r->rate[i] > m)
			m = r->rate[i];
	return m;
}

double oa_write_ns(const struct oa_run *r, size_t i)
{
	return r->rate[i] > 0 ? (double)r->size[i] * 1e9 / r->rate[i] : 1e18;
}

double oa_copy_ns(uint64_t erase, double rate)
{
	return rate > 0 ? (double)erase * 1e9 / rate : 0;
}

uint64_t oa_erase(const struct oa_run *r)
{
	return r->erase ? r->erase : (r->n ? r->size[0] : 0);
}

/* Writing one erase block at the best rate seen, ns. */
static double block_ns(const struct oa_run *r)
{
	return oa_copy_ns(oa_erase(r), oa_best_rate(r));
}

/* What line i costs beyond moving its bytes at the best rate, ns. */
static double extra_ns(const struct oa_run *r, size_t i)
{
	double b = oa_best_rate(r), x = oa_write_ns(r, i) - (b > 0 ? (double)r->size[i] * 1e9 / b : 0);

	return x > 0 ? x : 0;
}

/* Does line i (i >= 1) show the signature, at any cost above an erase's? */
static bool gc_line(const struct oa_run *r, size_t i)
{
	return i >= 1 && r->rate[i] <= OA_HALVING * r->rate[i - 1] &&
	       oa_write_ns(r, i) >= OA_GC_MIN_NS;
}

size_t oa_gc_tail(const struct oa_run *r)
{
	size_t k = 0;

	while (k < r->n && gc_line(r, r->n - 1 - k))
		k++;
	return k;
}

/* Median time per write over lines [from, from + n). */
static double median_write(const struct oa_run *r, size_t from, size_t n)
{
	double t[OA_MAX_LINES];

	for (size_t i = 0; i < n; i++)
		t[i] = oa_write_ns(r, from + i);
	return stats_median(t, n);
}

/* Median extra cost over the last n lines. */
static double tail_extra(const struct oa_run *r, size_t n)
{
	double t[OA_MAX_LINES];

	for (size_t i = 0; i < n; i++)
		t[i] = extra_ns(r, r->n - n + i);
	return stats_median(t, n);
}

bool oa_gc_clear(const struct oa_run *r, double *wns)
{
	/* Only a collection's worth stops a run: a merge would look the same. */
	if (oa_gc_tail(r) < OA_GC_LINES || tail_extra(r, OA_GC_LINES) < OA_GC_COPY * block_ns(r))
		return false;
	if (wns)
		*wns = median_write(r, r->n - OA_GC_LINES, OA_GC_LINES);
	return true;
}

/* The first of OA_GC_LINES signature lines in a row that each cost a
 * collection's worth (a band, maybe above cheaper small blocks), or n. */
static size_t gc_band(const struct oa_run *r, size_t *end)
{
	double c = OA_GC_COPY * block_ns(r);
	size_t k = 0, i;

	for (i = 1; i < r->n; i++) {
		k = gc_line(r, i) && extra_ns(r, i) >= c ? k + 1 : 0;
		if (k >= OA_GC_LINES)
			break;
	}
	if (i >= r->n)
		return r->n;
	for (*end = i; *end + 1 < r->n && extra_ns(r, *end + 1) >= c; (*end)++)
		;
	return i + 1 - k;
}

bool oa_alternates(const struct oa_run *r, char *buf, size_t len)
{
	size_t k = 0, best = 0, at = 0;

	for (size_t i = 1; i < r->n; i++) {
		bool down = r->rate[i] * OA_ALT_FACTOR <= r->rate[i - 1];
		bool up = r->rate[i] >= OA_ALT_FACTOR * r->rate[i - 1];
		bool other = k && (k % 2 ? up : down);

		k = other ? k + 1 : down ? 1 : 0;
		if (k > best)
			best = k, at = i + 1 - k;
	}
	if (best < 4)
		return false;
	if (buf) {
		size_t u = 0;

		for (size_t i = at ? at - 1 : 0; i < r->n && i < at + 4 && u < len; i++) {
			char a[FB_FMT_LEN];

			u += (size_t)snprintf(buf + u, len - u, "%s, ", fmt_rate(a, sizeof(a), r->rate[i]));
		}
		if (u < len)
			snprintf(buf + u, len - u, "...");
	}
	return true;
}

/* "4MiB at 22M/s" */
static void copy_text(const struct oa_run *r, char *buf, size_t len)
{
	char t[FB_FMT_LEN], e[FB_FMT_LEN], b[FB_FMT_LEN];

	snprintf(buf, len, "%s: %s at %s", fmt_time(t, sizeof(t), block_ns(r)),
		 fmt_size(e, sizeof(e), oa_erase(r)), fmt_rate(b, sizeof(b), oa_best_rate(r)));
}

/* The first line from which on every write costs at least c beyond its transfer. */
static size_t costly_from(const struct oa_run *r, double c)
{
	size_t i = r->n;

	while (i > 1 && extra_ns(r, i - 1) >= c)
		i--;
	return i < r->n ? i : r->n - 1;
}

static void classify_slow(const struct oa_run *r, size_t first, size_t end, struct oa_result *res)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN], cp[96];
	size_t n = end + 1 - first;

	res->c = OA_SLOW;
	/* (the smallest blocks of the range: at the large ones the transfer adds) */
	res->write_ns = n > OA_GC_LINES ? median_write(r, end + 1 - OA_GC_LINES, OA_GC_LINES)
					: median_write(r, first, n);
	copy_text(r, cp, sizeof(cp));
	fmt_size(a, sizeof(a), r->size[first]);
	fmt_time(b, sizeof(b), res->write_ns);
	if (end + 1 < r->n)
		snprintf(res->why, sizeof(res->why), "from %s to %s every write costs about %s, of "
			 "the order of an erase-block copy (%s): garbage collection", a,
			 fmt_size(c, sizeof(c), r->size[end]), b, cp);
	else
		snprintf(res->why, sizeof(res->why), "from %s down every write costs about %s, of "
			 "the order of an erase-block copy (%s): garbage collection", a, b, cp);
}

/* The block size below which writes cost more than at it (a page), or 0:
 * the last few lines (at most OA_GC_LINES) each cost clearly more beyond
 * their transfer than the line above them. */
static uint64_t subpage(const struct oa_run *r, double *more)
{
	for (size_t p = r->n >= 2 ? r->n - 2 : 0; p >= 1 && r->n - 1 - p <= OA_GC_LINES; p--) {
		double lo = 1e18;

		for (size_t i = p + 1; i < r->n; i++)
			lo = extra_ns(r, i) < lo ? extra_ns(r, i) : lo;
		if (r->size[p] <= OA_PAGE_MAX && lo > OA_SUBPAGE_FACTOR * extra_ns(r, p) + 1e5) {
			*more = lo - extra_ns(r, p);
			return r->size[p];
		}
	}
	return 0;
}

/* Fast: what the smallest blocks' cost is, named. */
static void classify_fast(const struct oa_run *r, struct oa_result *res)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN], d[FB_FMT_LEN], e[FB_FMT_LEN], cp[96];
	char what[200];
	size_t last = r->n - 1, bend = 0, band = gc_band(r, &bend);
	double best = oa_best_rate(r), more = 0, x = extra_ns(r, last);
	uint64_t page = subpage(r, &more);

	res->c = OA_FAST;
	copy_text(r, cp, sizeof(cp));
	if (band < r->n)
		snprintf(what, sizeof(what), "; from %s to %s every write costs about %s, as "
			 "much as a collection, but not the smallest blocks",
			 fmt_size(a, sizeof(a), r->size[band]), fmt_size(b, sizeof(b), r->size[bend]),
			 fmt_time(c, sizeof(c), median_write(r, band, bend + 1 - band)));
	else if (page)
		snprintf(what, sizeof(what), ": writes below %s cost %s more (a read-modify-write of "
			 "a partial page: the page is %s?)", fmt_size(a, sizeof(a), page),
			 fmt_time(b, sizeof(b), more), fmt_size(c, sizeof(c), page));
	else if (x >= OA_OVERHEAD_COPY * block_ns(r))
		snprintf(what, sizeof(what), ": a cost of its own on every write (a merge of the "
			 "card's log? runs with other numbers of erase blocks tell)");
	else if (x >= 1e5 && best > r->rate[last] * 1.5)
		snprintf(what, sizeof(what), ": command overhead");
	else
		what[0] = '\0';
	snprintf(res->why, sizeof(res->why), "%s at %s (best %s): a write costs %s, %s beyond its "
		 "transfer, far below an erase-block copy (%s)%s", fmt_size(a, sizeof(a), r->size[last]),
		 fmt_rate(b, sizeof(b), r->rate[last]), fmt_rate(c, sizeof(c), best),
		 fmt_time(d, sizeof(d), oa_write_ns(r, last)), fmt_time(e, sizeof(e), x), cp,
		 what);
}

/* A cost neither far below a copy nor of its order, or a cheap signature. */
static void classify_between(const struct oa_run *r, bool tail, struct oa_result *res)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], cp[96];
	size_t last = r->n - 1, from = tail ? r->n - oa_gc_tail(r) : last;
	double w = median_write(r, from, r->n - from > OA_GC_LINES ? OA_GC_LINES : r->n - from);

	res->c = OA_INCONCLUSIVE;
	res->write_ns = w;
	copy_text(r, cp, sizeof(cp));
	snprintf(res->why, sizeof(res->why), "from %s down every write costs about %s, %.3gx "
		 "below an erase-block copy (%s): a merge of the card's log, or a cheap garbage "
		 "collection? (runs with other numbers of erase blocks tell)",
		 fmt_size(a, sizeof(a), r->size[from]), fmt_time(b, sizeof(b), w),
		 block_ns(r) / (w > 0 ? w : 1), cp);
}

void oa_classify(const struct oa_run *r, struct oa_result *res)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], alt[160];
	size_t last = r->n ? r->n - 1 : 0, bend = 0, band;
	double copy = block_ns(r), x, more;
	bool tail;

	memset(res, 0, sizeof(*res));
	if (r->n == 0) {
		snprintf(res->why, sizeof(res->why), "no lines");
		return;
	}
	x = extra_ns(r, last);
	tail = oa_gc_tail(r) >= OA_GC_LINES && tail_extra(r, OA_GC_LINES) >= OA_OVERHEAD_COPY * copy;
	band = gc_band(r, &bend);
	if (x >= OA_GC_COPY * copy && oa_write_ns(r, last) >= OA_GC_MIN_NS)
		classify_slow(r, costly_from(r, OA_GC_COPY * copy), last, res);
	else if (r->complete && x < OA_FAR_BELOW * copy && subpage(r, &more))
		classify_fast(r, res);	/* (small writes pay for their pages, not a signature) */
	else if (tail)
		classify_between(r, true, res);
	else if (!r->complete)
		snprintf(res->why, sizeof(res->why), "ended at %s (%s) before the smallest block "
			 "size, without garbage collection", fmt_size(a, sizeof(a), r->size[last]),
			 fmt_rate(b, sizeof(b), r->rate[last]));
	else if (x < OA_FAR_BELOW * copy)
		classify_fast(r, res);
	else if (band < r->n)
		classify_slow(r, band, bend, res);
	else
		classify_between(r, false, res);
	if (oa_alternates(r, alt, sizeof(alt))) {
		size_t u = strlen(res->why);

		snprintf(res->why + u, sizeof(res->why) - u, "; every other line is slow (%s): the "
			 "erase block is likely twice the %s given", alt,
			 fmt_size(a, sizeof(a), oa_erase(r)));
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
 * per write as with the base, and a collection's worth: the signature
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
		e[m] = oa_write_ns(r, i) - oa_write_ns(base, j);
		lo = m ? (e[m] < lo ? e[m] : lo) : e[m];
		hi = m ? (e[m] > hi ? e[m] : hi) : e[m];
		m++;
	}
	if (m < OA_GC_LINES || lo < OA_GC_MIN_NS || lo < OA_GC_COPY * block_ns(base) ||
	    hi > OA_SAME_COST * lo)
		return false;
	*extra = stats_median(e, m);
	return true;
}

void oa_against(const struct oa_run *base, unsigned base_nr, const struct oa_run *r,
		struct oa_result *res)
{
	char a[FB_FMT_LEN], t[FB_FMT_LEN];
	struct oa_result b;
	double extra;

	if (res->c == OA_SLOW || !base || base->n == 0 || r->n == 0 || base == r)
		return;
	oa_classify(base, &b);
	if (b.c != OA_FAST || !gc_against(base, r, &extra))
		return;	/* (a base that is not fast itself says nothing) */
	res->c = OA_SLOW;
	res->write_ns = extra;
	snprintf(res->why, sizeof(res->why), "from %s down every write costs about %s more "
		 "than with %u erase block%s, of the order of an erase-block copy: garbage "
		 "collection", fmt_size(a, sizeof(a), r->size[r->n - OA_GC_LINES]),
		 fmt_time(t, sizeof(t), extra), base_nr, base_nr == 1 ? "" : "s");
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
