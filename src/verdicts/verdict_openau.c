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
/* A cost of its own on every write, named: a merge costs milliseconds. */
#define OA_MERGE_MIN_NS 1e6
/* A line's cost counts when it is at least this part of its transfer
 * (and it is paid per write: per_write). */
#define OA_SIGNIF 0.3

void oa_init(struct oa_run *r, uint64_t erase)
{
	memset(r, 0, sizeof(*r));
	r->erase = erase;
}

void oa_add(struct oa_run *r, uint64_t size, double rate)
{
	/* (a line that moved no bytes, "0M/s" in a paste, tells no cost) */
	if (r->n >= OA_MAX_LINES || !(so_round_rate(rate) > 0))
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

double oa_extra(const struct oa_run *r, size_t i, double rate)
{
	double b = rate > 0 ? rate : oa_best_rate(r);
	double x = oa_write_ns(r, i) - (b > 0 ? (double)r->size[i] * 1e9 / b : 0);

	return x > 0 ? x : 0;
}

/* What line i costs beyond moving its bytes at the best rate, ns. */
static double extra_ns(const struct oa_run *r, size_t i)
{
	return oa_extra(r, i, 0);
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

/* Does line i pay per write: its rate at most OA_HALVING of the line
 * above's (the first line: as the second does), not per byte (a card
 * that only writes slower keeps its rate from line to line)? */
static bool per_write(const struct oa_run *r, size_t i)
{
	if (i == 0)
		return r->n < 2 || r->rate[1] <= OA_HALVING * r->rate[0];
	return r->rate[i] <= OA_HALVING * r->rate[i - 1];
}

/* Line i's cost beyond its transfer at rate b, when it stands out of the
 * noise of that transfer and is paid per write (else 0). */
static double line_cost(const struct oa_run *r, size_t i, double b)
{
	double xfer = (double)r->size[i] * 1e9 / b, x = oa_write_ns(r, i) - xfer;

	return x >= OA_SIGNIF * xfer && per_write(r, i) ? x : 0;
}

/*
 * The most that OA_GC_LINES lines in a row of the first m cost (their
 * median), and which: lines that each count (line_cost), the signature
 * of a cost paid per write; with fewer lines, all but the first (the
 * line the best rate is most often taken from). 0: no such lines.
 * (copy: the copy estimate, for the last two lines alone.)
 */
static double window_level(const struct oa_run *r, size_t m, double b, double copy, size_t *from,
			   size_t *to)
{
	double c[OA_MAX_LINES], best = 0;
	size_t f = m >= 2 ? 1 : 0, w = m <= OA_GC_LINES ? m - f : OA_GC_LINES;

	for (size_t i = 0; i < m; i++)
		c[i] = line_cost(r, i, b);
	for (size_t i = m <= OA_GC_LINES ? f : 0; i + w <= m; i++) {
		double v = stats_median(c + i, w);

		for (size_t j = i; j < i + w; j++)
			v = c[j] > 0 ? v : 0;
		if (v > best)
			best = v, *from = i, *to = i + w - 1;
	}
	/* The last two lines alone, when they cost a collection, of a run cut
	 * short (by a paste or a limit: it has only them where the signature
	 * begins; a complete run's two smallest blocks alone are an episode). */
	if (!r->complete && m > OA_GC_LINES && c[m - 1] > 0 && c[m - 2] > 0 &&
	    (c[m - 1] + c[m - 2]) / 2 > best && (c[m - 1] + c[m - 2]) / 2 >= OA_GC_COPY * copy)
		best = (c[m - 1] + c[m - 2]) / 2, *from = m - 2, *to = m - 1;
	return best;
}

void oa_level(const struct oa_run *r, double rate, double copy_ns, struct oa_level *l)
{
	double b = rate > 0 ? rate : oa_best_rate(r);

	memset(l, 0, sizeof(*l));
	if (r->n == 0 || b <= 0)
		return;
	copy_ns = copy_ns > 0 ? copy_ns : oa_copy_ns(oa_erase(r), b);
	l->ns = window_level(r, r->n, b, copy_ns, &l->from, &l->to);
	l->paid = l->ns > 0;
	if (l->ns <= 0) {
		/* (nothing stands out: the less of what the two smallest blocks
		 * cost, the smallest maybe below the page: 0 when one of them
		 * moves its bytes at the best rate) */
		size_t i = r->n - 1;

		if (i > 0 && oa_extra(r, i - 1, b) < oa_extra(r, i, b))
			i--;
		l->ns = oa_extra(r, i, b);
		l->from = l->to = i;
		l->paid = l->ns >= OA_SIGNIF * (double)r->size[i] * 1e9 / b;
	}
	/* The smallest blocks cheap below collections: the exception, not the rule. */
	for (size_t k = 2; k >= 1; k--) {
		size_t m = r->n - k, from, to;
		double above, lo = 1e18;

		if (r->n < k + 2 || r->size[m] > OA_SMALL_MAX)
			continue;
		above = window_level(r, m, b, copy_ns, &from, &to);
		for (size_t i = m; i < r->n; i++)
			lo = oa_write_ns(r, i) < lo ? oa_write_ns(r, i) : lo;
		if (above < OA_GC_COPY * copy_ns || above < OA_GC_MIN_NS)
			continue;
		for (size_t i = m; i < r->n; i++)
			if (oa_extra(r, i, b) * 4 > above)
				lo = -1;
		if (lo < 0)
			continue;
		l->ns = above, l->from = from, l->to = to, l->tail = k, l->tail_ns = lo, l->paid = true;
		return;
	}
}

enum oa_class oa_level_class(double level_ns, double copy_ns)
{
	if (level_ns >= OA_GC_COPY * copy_ns && level_ns >= OA_GC_MIN_NS)
		return OA_SLOW;
	return level_ns <= OA_FAR_BELOW * copy_ns ? OA_FAST : OA_INCONCLUSIVE;
}

void oa_tail_text(const struct oa_run *r, const struct oa_level *l, char *buf, size_t len)
{
	char a[FB_FMT_LEN], t[FB_FMT_LEN];

	if (!l->tail) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, len, "%s%s%s cost %s: the card buffers writes below the page",
		 l->tail > 1 ? "writes from " : "", fmt_size(a, sizeof(a), r->size[r->n - l->tail]),
		 l->tail > 1 ? " down" : " writes", fmt_time(t, sizeof(t), l->tail_ns));
}

static void classify_slow(const struct oa_run *r, const struct oa_level *l, struct oa_result *res)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN], cp[96], tail[160];
	double gc = OA_GC_COPY * block_ns(r), best = oa_best_rate(r);
	size_t first = l->from, end = l->to, n;

	/* The band of lines that each cost a collection's worth, around the window. */
	while (first > 0 && line_cost(r, first - 1, best) >= gc)
		first--;
	while (end + 1 + l->tail < r->n && oa_extra(r, end + 1, best) >= gc)
		end++;
	while (first < end && oa_extra(r, first, best) < gc)
		first++;
	n = end + 1 - first;
	res->c = OA_SLOW;
	/* (the smallest blocks of the band: at the large ones the transfer adds) */
	res->write_ns = n > OA_GC_LINES ? median_write(r, end + 1 - OA_GC_LINES, OA_GC_LINES)
					: median_write(r, first, n);
	copy_text(r, cp, sizeof(cp));
	oa_tail_text(r, l, tail, sizeof(tail));
	fmt_size(a, sizeof(a), r->size[first]);
	fmt_time(b, sizeof(b), res->write_ns);
	if (end + 1 < r->n)
		snprintf(res->why, sizeof(res->why), "from %s to %s every write costs about %s, of "
			 "the order of an erase-block copy (%s): garbage collection%s%s", a,
			 fmt_size(c, sizeof(c), r->size[end]), b, cp, tail[0] ? "; but " : "", tail);
	else
		snprintf(res->why, sizeof(res->why), "from %s down every write costs about %s, of "
			 "the order of an erase-block copy (%s): garbage collection", a, b, cp);
}

uint64_t oa_subpage(const struct oa_run *r, double *more)
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
static void classify_fast(const struct oa_run *r, const struct oa_level *l, struct oa_result *res)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN], d[FB_FMT_LEN], e[FB_FMT_LEN], cp[96];
	char what[240];
	size_t last = r->n - 1;
	double best = oa_best_rate(r), more = 0, x = extra_ns(r, last), copy = block_ns(r);
	uint64_t page = oa_subpage(r, &more);

	res->c = OA_FAST;
	copy_text(r, cp, sizeof(cp));
	if (page)
		snprintf(what, sizeof(what), ": writes below %s cost %s more (a read-modify-write of "
			 "a partial page: the page is %s?, or, with more than 1 erase block, a merge "
			 "of a buffer the card keeps for small writes)", fmt_size(a, sizeof(a), page),
			 fmt_time(b, sizeof(b), more), fmt_size(c, sizeof(c), page));
	else if (l->ns >= OA_MERGE_MIN_NS)
		snprintf(what, sizeof(what), ": a cost of its own on every write, %s, %s below "
			 "an erase-block copy, not a collection: command overhead (or, with more than "
			 "1 erase block, a merge of the card's log)", fmt_time(a, sizeof(a), l->ns),
			 fmt_times(c, sizeof(c), copy / (l->ns > 0 ? l->ns : 1), 3));
	else if (x >= 1e5 && best > r->rate[last] * 1.5)
		snprintf(what, sizeof(what), ": command overhead (or, with more than 1 erase block, "
			 "a merge of the card's log)");
	else
		what[0] = '\0';
	snprintf(res->why, sizeof(res->why), "%s at %s (best %s): a write costs %s, %s beyond its "
		 "transfer, far below an erase-block copy (%s)%s", fmt_size(a, sizeof(a), r->size[last]),
		 fmt_rate(b, sizeof(b), r->rate[last]), fmt_rate(c, sizeof(c), best),
		 fmt_time(d, sizeof(d), oa_write_ns(r, last)), fmt_time(e, sizeof(e), x), cp,
		 what);
}

/* A cost neither far below a copy nor of its order: it cannot tell. */
static void classify_between(const struct oa_run *r, const struct oa_level *l,
			     struct oa_result *res)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN], cp[96];

	res->c = OA_INCONCLUSIVE;
	res->write_ns = median_write(r, l->from, l->to + 1 - l->from);
	copy_text(r, cp, sizeof(cp));
	snprintf(res->why, sizeof(res->why), "from %s down every write costs about %s more, %s "
		 "below an erase-block copy (%s): more than a merge of the card's log, less than a "
		 "garbage collection: uncertain", fmt_size(a, sizeof(a), r->size[l->from]),
		 fmt_time(b, sizeof(b), l->ns), fmt_times(c, sizeof(c), block_ns(r) /
		 (l->ns > 0 ? l->ns : 1), 3), cp);
}

void oa_classify(const struct oa_run *r, struct oa_result *res)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], alt[160];
	struct oa_level l;
	enum oa_class c;

	memset(res, 0, sizeof(*res));
	if (r->n == 0) {
		snprintf(res->why, sizeof(res->why), "no lines");
		return;
	}
	oa_level(r, 0, 0, &l);
	c = oa_level_class(l.ns, block_ns(r));
	if (c == OA_SLOW)
		classify_slow(r, &l, res);
	else if (!r->complete)
		snprintf(res->why, sizeof(res->why), "ended at %s (%s) before the smallest block "
			 "size, without garbage collection", fmt_size(a, sizeof(a), r->size[r->n - 1]),
			 fmt_rate(b, sizeof(b), r->rate[r->n - 1]));
	else if (c == OA_FAST)
		classify_fast(r, &l, res);
	else
		classify_between(r, &l, res);
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
