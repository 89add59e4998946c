/* The open-AU answer of a family of runs: see verdict_oafamily.h. */
#include <stdio.h>
#include <string.h>

#include "core/out.h"
#include "core/stats.h"
#include "core/units.h"
#include "verdicts/facts.h"
#include "verdicts/verdict_oafamily.h"

/* Erasing a NAND block alone takes milliseconds: less is not a regime of its own. */
#define OAF_MIN_NS 1e6
/* A merge of the card's log: at least this much a write (and OAF_JUMP
 * times the cheapest N's). */
#define OAF_MERGE_MIN_NS 5e5
/* The cheapest run's cost is taken as at least this many ns (and this
 * part of a block's transfer, for the early stop: its noise). */
#define OAF_FLOOR_FRAC 0.05
#define OAF_FLOOR_NS 1e5
/* A cost between the thresholds this far below a measured collection is a merge. */
#define OAF_MERGE_BELOW 4.0
/* A collection this close to its threshold (times it) is probed again:
 * an episode of the host's noise can look like one for a few lines, but
 * not like 0.4 of a copy for every write of a probe. */
#define OAF_MARGIN 1.6
/* What every write costs with the fewest erase blocks, named as command overhead. */
#define OAF_OVERHEAD_NS 1e6
/* A sub-page cost this many times the page's own line's beyond its transfer is a step. */
#define OAF_PAGE_STEP 2.0

void oaf_init(struct oa_family *f)
{
	memset(f, 0, sizeof(*f));
}

void oaf_add(struct oa_family *f, unsigned nr, const struct oa_run *r)
{
	if (nr == 0 || f->n >= OAF_MAX || r->n < 2)
		return;
	f->nr[f->n] = nr;
	f->run[f->n++] = *r;
}

static size_t line_of(const struct oa_run *r, uint64_t s)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->size[i] == s)
			return i;
	return r->n;
}

/* The smallest block size both runs have (0: none). */
static uint64_t common_of(const struct oa_run *x, const struct oa_run *y)
{
	for (size_t i = x->n; i-- > 0;)
		if (line_of(y, x->size[i]) < y->n)
			return x->size[i];
	return 0;
}

/* The card's write rate, the erase sizes given, the one to copy. */
static void card_of(const struct oa_family *f, struct oaf_verdict *v)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct oa_run *r = &f->run[i];
		uint64_t e = oa_erase(r);

		if (oa_best_rate(r) > v->rate)
			v->rate = oa_best_rate(r);
		v->given_lo = !v->given_lo || e < v->given_lo ? e : v->given_lo;
		v->given_hi = e > v->given_hi ? e : v->given_hi;
		if (oa_alternates(r, NULL, 0))
			v->given = e;
	}
	v->erase = 2 * v->given > v->given_hi ? 2 * v->given : v->given_hi;
	v->copy_ns = oa_copy_ns(v->erase, v->rate);
}

/*
 * Each N's level (oa_level at the card's rate), its cheapest run's when
 * it was run more than once (noise only ever adds), in increasing N.
 * A run cut short counts only where no complete run of its N is.
 */
/* Entry k: N = nr, its run i and that run's level. */
static void put(struct oaf_verdict *v, size_t k, unsigned nr, size_t i, const struct oa_level *l)
{
	v->nr[k] = nr;
	v->idx[k] = i;
	v->cost[k] = l->ns;
	v->tail[k] = l->tail;
	v->tail_ns[k] = l->tail_ns;
	v->paid[k] = l->paid;
}

/*
 * Writes below the page that cost more with the fewest erase blocks (a
 * read-modify-write of a partial page) cost that with every count: the
 * levels take it off those lines, or the cost of the page would be every
 * N's floor, read as command overhead, and a merge above it hidden
 * (fakecard logstick at -b 4K: 2 ms a sub-page write, 4 ms a merge). Only
 * a step (OAF_PAGE_STEP) of a merge's size (a smaller one hides nothing),
 * seen in a complete run of 1 erase block with more than OA_GC_LINES lines
 * above the page.
 */
static void page_of(const struct oa_family *f, struct oaf_verdict *v)
{
	const struct oa_run *lo = NULL;
	unsigned nr = 0;
	size_t above = 0;

	for (size_t i = 0; i < f->n; i++)
		if (f->run[i].complete && (!lo || f->nr[i] < nr))
			lo = &f->run[i], nr = f->nr[i];
	/* (with more erase blocks it may be the merge of a small-write buffer) */
	if (!lo || nr != 1 || !(v->page = oa_subpage(lo, &v->page_ns)))
		return;
	while (above < lo->n && lo->size[above] >= v->page)
		above++;
	/* (a step: at least OAF_PAGE_STEP times what the page's own line costs
	 * beyond its transfer; a card whose every small write takes the same
	 * time costs more beyond its transfer the smaller the write, which is
	 * no page's cost: a published SanDisk's 16, 8 and 4 KiB writes all took
	 * 2 ms, 0.7, 1.3 and 1.8 ms beyond their transfer) */
	if (above <= OA_GC_LINES || v->page_ns < OAF_MERGE_MIN_NS ||
	    v->page_ns < OAF_PAGE_STEP * oa_extra(lo, above - 1, 0))
		v->page = 0, v->page_ns = 0;
}

/* r with the page's cost taken off each write below it (r itself without a page). */
static const struct oa_run *off_page(const struct oaf_verdict *v, const struct oa_run *r,
				     struct oa_run *cut)
{
	if (!v->page)
		return r;
	*cut = *r;
	for (size_t i = 0; i < r->n; i++) {
		double t = oa_write_ns(r, i) - v->page_ns;

		if (r->size[i] < v->page && t > 0)
			cut->rate[i] = (double)r->size[i] * 1e9 / t;
	}
	return cut;
}

static void costs(const struct oa_family *f, struct oaf_verdict *v)
{
	bool slow[OAF_MAX];	/* each run by its own numbers */
	struct oa_run cut;

	for (size_t i = 0; i < f->n; i++) {
		const struct oa_run *r = &f->run[i];
		struct oa_result res;
		struct oa_level l;
		size_t k = 0;

		oa_level(off_page(v, r, &cut), v->rate, v->copy_ns, &l);
		oa_classify(r, &res);
		slow[i] = res.c == OA_SLOW;
		while (k < v->n && v->nr[k] < f->nr[i])
			k++;
		if (k < v->n && v->nr[k] == f->nr[i]) {
			const struct oa_run *o = &f->run[v->idx[k]];

			if ((slow[i] || slow[v->idx[k]]) && !v->twice)
				v->twice = f->nr[i];
			if ((r->complete && !o->complete) ||
			    (r->complete == o->complete && l.ns < v->cost[k]))
				put(v, k, f->nr[i], i, &l);
			continue;
		}
		memmove(&v->nr[k + 1], &v->nr[k], (v->n - k) * sizeof(v->nr[0]));
		memmove(&v->cost[k + 1], &v->cost[k], (v->n - k) * sizeof(v->cost[0]));
		memmove(&v->idx[k + 1], &v->idx[k], (v->n - k) * sizeof(v->idx[0]));
		memmove(&v->tail[k + 1], &v->tail[k], (v->n - k) * sizeof(v->tail[0]));
		memmove(&v->tail_ns[k + 1], &v->tail_ns[k], (v->n - k) * sizeof(v->tail_ns[0]));
		memmove(&v->paid[k + 1], &v->paid[k], (v->n - k) * sizeof(v->paid[0]));
		put(v, k, f->nr[i], i, &l);
		v->n++;
	}
}

/*
 * By the size of the cost (verdict_openau.h): what a write costs more
 * than with the fewest erase blocks (unless those collect: what every
 * run pays is no collection forced by the number of erase blocks). What
 * is fast but costs clearly more than the cheapest N, and stands out of
 * its lines' noise, is a merge, unless a plain N above it. A cost between the
 * two thresholds with a collection above it that costs OAF_MERGE_BELOW
 * times as much is no collection either: that one is the card's.
 */
static void kinds(struct oaf_verdict *v)
{
	double floor = 1e18, base;

	for (size_t k = 0; k < v->n; k++)
		floor = v->cost[k] < floor ? v->cost[k] : floor;
	v->floor = floor > OAF_FLOOR_NS ? floor : OAF_FLOOR_NS;
	v->base = base = oa_level_class(floor, v->copy_ns) != OA_SLOW ? floor : 0;
	for (size_t k = 0; k < v->n; k++) {
		enum oa_class c = oa_level_class(v->cost[k] - base, v->copy_ns);

		v->kind[k] = c == OA_SLOW ? OAF_GC : c == OA_INCONCLUSIVE ? OAF_ELEVATED
			     : v->paid[k] && v->cost[k] >= OAF_JUMP * v->floor &&
			       v->cost[k] >= OAF_MERGE_MIN_NS
			     ? OAF_MERGE : OAF_FAST;
	}
	for (size_t k = 0; k < v->n; k++)
		for (size_t j = k + 1; j < v->n && v->kind[k] == OAF_ELEVATED; j++)
			if (v->kind[j] == OAF_GC && v->cost[j] >= OAF_MERGE_BELOW * v->cost[k])
				v->kind[k] = v->cost[k] >= OAF_JUMP * v->floor ? OAF_MERGE : OAF_FAST;
	/* Below an N that is plainly fast, a cost is an episode, not a regime. */
	for (size_t k = 0; k < v->n; k++)
		for (size_t j = k + 1; j < v->n && v->kind[k] == OAF_MERGE; j++)
			if (v->kind[j] == OAF_FAST)
				v->kind[k] = OAF_FAST;
}

/* The family never says the opposite of a run's own line: a run that
 * collects by its own numbers is not counted fast (inconclusive). */
static void own_lines(const struct oa_family *f, struct oaf_verdict *v)
{
	for (size_t k = 0; k < v->n; k++) {
		struct oa_result res;

		if (v->kind[k] != OAF_FAST && v->kind[k] != OAF_MERGE)
			continue;
		oa_classify(&f->run[v->idx[k]], &res);
		if (res.c == OA_SLOW) {
			v->kind[k] = OAF_ELEVATED;
			v->own_from = v->own_from ? v->own_from : v->nr[k];
		}
	}
}

/* The median cost of the N of one kind. */
static double kind_cost(const struct oaf_verdict *v, enum oaf_kind a)
{
	double t[OAF_MAX];
	size_t m = 0;

	for (size_t k = 0; k < v->n; k++)
		if (v->kind[k] == a)
			t[m++] = v->cost[k];
	return m ? stats_median(t, m) : 0;
}

static void bracket(struct oaf_verdict *v)
{
	for (size_t k = 0; k < v->n; k++) {
		enum oa_class c = oaf_class(v, v->nr[k]);

		if (c == OA_SLOW && !v->slow)
			v->slow = v->nr[k];
		if (v->kind[k] == OAF_MERGE && !v->merge_from)
			v->merge_from = v->nr[k];
	}
	for (size_t k = 0; k < v->n; k++) {
		enum oa_class c = oaf_class(v, v->nr[k]);

		if (c == OA_FAST && (!v->slow || v->nr[k] < v->slow))
			v->fast = v->nr[k];
		v->contradicts |= c == OA_FAST && v->slow && v->nr[k] > v->slow;
		if (c == OA_INCONCLUSIVE && !v->inconclusive && v->nr[k] > v->fast)
			v->inconclusive = v->nr[k];
	}
	v->merge_ns = kind_cost(v, OAF_MERGE);
	v->inc_ns = kind_cost(v, OAF_ELEVATED);
}

/* How much slower small writes run in the merge regime than with the
 * fewest erase blocks: per write at the smallest size both runs have. */
static void ratio(const struct oa_family *f, struct oaf_verdict *v)
{
	const struct oa_run *lo, *m;

	for (size_t k = 0; k < v->n && v->merge_from; k++)
		if (v->nr[k] == v->merge_from) {
			lo = &f->run[v->idx[0]];
			m = &f->run[v->idx[k]];
			v->merge_at = common_of(m, lo);
			/* (where the page has a cost of its own: at the page, which has none) */
			if (v->merge_at && v->merge_at < v->page && line_of(m, v->page) < m->n &&
			    line_of(lo, v->page) < lo->n)
				v->merge_at = v->page;
			if (v->merge_at)
				v->merge_x = oa_write_ns(m, line_of(m, v->merge_at)) /
					     oa_write_ns(lo, line_of(lo, v->merge_at));
		}
}

void oaf_judge(const struct oa_family *f, struct oaf_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->random = f->random;
	card_of(f, v);
	if (!f->n || v->rate <= 0)
		return;
	page_of(f, v);
	costs(f, v);
	kinds(v);
	own_lines(f, v);
	bracket(v);
	ratio(f, v);
}

enum oaf_kind oaf_kind_of(const struct oaf_verdict *v, unsigned nr)
{
	for (size_t k = 0; k < v->n; k++)
		if (v->nr[k] == nr)
			return v->kind[k];
	return OAF_ELEVATED;
}

bool oaf_marginal(const struct oaf_verdict *v, unsigned nr)
{
	for (size_t k = 0; k < v->n; k++)
		if (v->nr[k] == nr)
			return v->kind[k] == OAF_GC ? v->cost[k] < OAF_MARGIN * OA_GC_COPY * v->copy_ns
						    : v->cost[k] < 2 * OAF_JUMP * v->floor;
	return true;
}

enum oa_class oaf_class(const struct oaf_verdict *v, unsigned nr)
{
	switch (oaf_kind_of(v, nr)) {
	case OAF_FAST:
	case OAF_MERGE:
		return OA_FAST;
	case OAF_GC:
		return OA_SLOW;
	default:
		return OA_INCONCLUSIVE;
	}
}

/* "16 fast, 20 slow" and the like, as the bracket has always said it. */
static void head_text(const struct oaf_verdict *v, char *buf, size_t len)
{
	bool inc = v->inconclusive && (!v->slow || v->inconclusive < v->slow);

	if (!v->n)
		snprintf(buf, len, "no conclusive run");
	else if (v->contradicts)
		snprintf(buf, len, "uncertain: %u fast but %u slow", v->fast, v->slow);
	else if (v->fast && v->slow && inc)
		snprintf(buf, len, "%u fast, %u slow (%u inconclusive)", v->fast, v->slow,
			 v->inconclusive);
	else if (v->fast && v->slow)
		snprintf(buf, len, "%u fast, %u slow", v->fast, v->slow);
	else if (v->fast && inc)
		snprintf(buf, len, "%u fast, %u inconclusive, none slow", v->fast, v->inconclusive);
	else if (v->fast)
		snprintf(buf, len, "at least %u fast, none slow", v->fast);
	else if (v->slow == 1)
		snprintf(buf, len, "even 1 is slow");
	else if (v->slow)
		snprintf(buf, len, "%u slow, none found fast", v->slow);
	else
		snprintf(buf, len, "no conclusive run");
}

/* Why the smallest inconclusive N is (its own run's collection, or a cost
 * between the thresholds), and an N measured slow once besides. */
static size_t uncertain_text(const struct oaf_verdict *v, char *buf, size_t len)
{
	char a[FB_FMT_LEN], c[FB_FMT_LEN];
	double more = v->inc_ns - v->base;
	size_t u;

	if (v->own_from)
		u = (size_t)snprintf(buf, len, "; from %u a run collects by its own numbers (a "
				     "quarter of an erase-block copy at its own rate) where the family's "
				     "rate says less: uncertain", v->own_from);
	else
		u = (size_t)snprintf(buf, len, "; from %u a write costs %s more, %s below an "
				     "erase-block copy: more than a merge, less than a collection: "
				     "uncertain", v->inconclusive, fmt_time(a, sizeof(a), more),
				     fmt_times(c, sizeof(c), v->copy_ns / (more > 0 ? more : 1), 3));
	return u < len ? u : len;
}

/* "; a merge regime from 5 (...)" and the other regimes' words. */
static size_t regime_text(const struct oaf_verdict *v, char *buf, size_t len)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN];
	size_t u = 0;

	if (v->merge_from) {
		double more = v->merge_ns - v->floor > 0 ? v->merge_ns - v->floor : v->merge_ns;

		u += (size_t)snprintf(buf + u, len - u, "; a merge regime from %u (every write that "
				      "moves to another erase block costs %s more, %s below an "
				      "erase-block copy", v->merge_from, fmt_time(a, sizeof(a), more),
				      fmt_times(c, sizeof(c), v->copy_ns / (more > 0 ? more : 1), 3));
		if (v->merge_at && v->merge_x >= 1.5 && u < len)
			u += (size_t)snprintf(buf + u, len - u, ": writes of %s to %u or more erase "
					      "blocks at once run %s slower than to %u",
					      fmt_size(b, sizeof(b), v->merge_at), v->merge_from,
					      fmt_times(c, sizeof(c), v->merge_x, 2), v->nr[0]);
		if (u < len)
			u += (size_t)snprintf(buf + u, len - u, ")");
	}
	if (v->inconclusive && u < len)
		u += uncertain_text(v, buf + u, len - u);
	for (size_t k = 0; k < v->n && u < len; k++)
		if (v->kind[k] == OAF_GC && v->tail[k]) {
			u += (size_t)snprintf(buf + u, len - u, "; the smallest writes cost %s even "
					      "where larger ones collect (from %u): the card buffers "
					      "writes below the page", fmt_time(a, sizeof(a), v->tail_ns[k]),
					      v->nr[k]);
			break;
		}
	if (v->page && u < len)
		u += (size_t)snprintf(buf + u, len - u, "; writes below %s cost %s more even with %u "
				      "erase block%s (a read-modify-write of a partial page: the page "
				      "is %s?), taken off the costs", fmt_size(b, sizeof(b), v->page),
				      fmt_time(a, sizeof(a), v->page_ns), v->nr[0],
				      v->nr[0] == 1 ? "" : "s", fmt_size(c, sizeof(c), v->page));
	/* (in random order what every write pays is the card's random-write cost) */
	if (v->floor >= OAF_OVERHEAD_NS && v->kind[0] != OAF_GC && u < len)
		u += (size_t)snprintf(buf + u, len - u, "; every write costs %s more even with %u "
				      "erase block%s: %s", fmt_time(a, sizeof(a), v->floor), v->nr[0],
				      v->nr[0] == 1 ? "" : "s", v->random ? "what a write out of order "
				      "costs the card" : v->nr[0] == 1 ? "command overhead" :
				      "command overhead, or a merge (no run with 1 erase block tells)");
	if (v->twice && oaf_class(v, v->twice) != OA_SLOW && u < len)
		u += (size_t)snprintf(buf + u, len - u, "; %u was also measured slow (each N counts "
				      "with its cheapest run: noise only adds)", v->twice);
	return u < len ? u : len;
}

/* "; per write beyond its transfer: 1: 95µs, 16: 34.8ms; an erase-block copy 381ms (8MiB at 22M/s)" */
static void evidence_text(const struct oaf_verdict *v, char *buf, size_t len)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN];
	size_t u = (size_t)snprintf(buf, len, "; per write beyond its transfer:");

	for (size_t k = 0; k < v->n && u < len; k++)
		u += (size_t)snprintf(buf + u, len - u, "%s %u: %s", k ? "," : "", v->nr[k],
				      fmt_time(a, sizeof(a), v->cost[k]));
	if (u < len)
		snprintf(buf + u, len - u, "; an erase-block copy %s (%s at %s)",
			 fmt_time(a, sizeof(a), v->copy_ns), fmt_size(b, sizeof(b), v->erase),
			 fmt_rate(c, sizeof(c), v->rate));
}

static void record(const struct oaf_verdict *v, bool random)
{
	unsigned nr[OAF_MAX];
	enum oa_class c[OAF_MAX];

	for (size_t k = 0; k < v->n; k++) {
		nr[k] = v->nr[k];
		c[k] = oaf_class(v, v->nr[k]);
	}
	vf_open_au_set(random, nr, c, v->n);
	vf_open_au_merge(random, v->merge_from, v->merge_ns - v->floor > 0 ? v->merge_ns - v->floor
								: v->merge_ns, v->merge_x);
}

void oaf_print(const struct oaf_verdict *v, bool random)
{
	char head[160], reg[1000] = "", ev[2400] = "", e[FB_FMT_LEN], g[FB_FMT_LEN];
	const char *mode = random ? "random" : "linear";

	head_text(v, head, sizeof(head));
	if (v->n) {
		regime_text(v, reg, sizeof(reg));
		evidence_text(v, ev, sizeof(ev));
	}
	out_verdict(&(struct out_verdict){ .name = random ? "open_aus_random" : "open_aus",
					   .result = v->fast && v->slow ? "bracket"
						     : v->fast ? "at_least" : "none",
					   .has_value = v->fast != 0, .value = v->fast,
					   .unit = "count" },
		    "open AUs (%s): %s%s%s", mode, head, reg, ev);
	if (v->given)
		out_note("open AUs (%s): a run with %s erase blocks alternates fast and slow "
			 "lines: the erase block is likely %s, twice the size given", mode,
			 fmt_size(e, sizeof(e), v->given), fmt_size(g, sizeof(g), 2 * v->given));
	if (v->given_lo != v->given_hi)
		out_note("open AUs (%s): the runs were given two erase sizes, %s and %s", mode,
			 fmt_size(e, sizeof(e), v->given_lo), fmt_size(g, sizeof(g), v->given_hi));
	record(v, random);
}

/* The erase sizes the runs of a family were given: smallest, largest. */
static void given(const struct oa_family *f, uint64_t *lo, uint64_t *hi)
{
	*lo = *hi = 0;
	for (size_t i = 0; i < f->n; i++) {
		uint64_t e = oa_erase(&f->run[i]);

		*lo = !*lo || e < *lo ? e : *lo;
		*hi = e > *hi ? e : *hi;
	}
}

void oaf_note_modes(const struct oa_family *lin, const struct oa_family *rnd)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN];
	uint64_t l0, l1, r0, r1;

	given(lin, &l0, &l1);
	given(rnd, &r0, &r1);
	/* Two sizes within one mode are said with its verdict. */
	if (l0 && r0 && l0 == l1 && r0 == r1 && l0 != r0)
		out_note("open AUs: the runs were given two erase sizes, %s (linear) and %s "
			 "(random)", fmt_size(a, sizeof(a), l0), fmt_size(b, sizeof(b), r0));
}

bool oaf_stop_probe(const struct oa_run *base, const struct oa_run *r)
{
	double b = oa_best_rate(base), gc = OA_GC_COPY * oa_copy_ns(oa_erase(base), b);

	if (r->n < OAF_STOP_LINES || b <= 0)
		return false;
	for (size_t i = r->n - OAF_STOP_LINES; i < r->n; i++) {
		size_t j = line_of(base, r->size[i]);
		double floor, x, xfer = (double)r->size[i] * 1e9 / b;

		if (j == base->n)
			return false;
		floor = oa_extra(base, j, b);
		floor = floor > OAF_FLOOR_FRAC * xfer ? floor : OAF_FLOOR_FRAC * xfer;
		floor = floor > OAF_FLOOR_NS ? floor : OAF_FLOOR_NS;
		x = oa_extra(r, i, b);
		if (x < OAF_JUMP * floor || x < OAF_MIN_NS || x < gc)
			return false;
	}
	return true;
}
