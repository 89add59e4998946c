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
/* The cheapest run's cost is taken as at least this part of the transfer
 * (the noise of a large block's time) and this many ns. */
#define OAF_FLOOR_FRAC 0.05
#define OAF_FLOOR_NS 1e5
/* In random order, a merge costs at most this fraction of the collection above it. */
#define OAF_MERGE_BELOW 9.0
/* Twice the block, this much more beyond transfer: the card writes slower
 * (a write cache ran out), it does not pay per write. */
#define OAF_RATE_BOUND 1.6

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

/* The smallest block size every run has (0: none). */
static uint64_t common_size(const struct oa_family *f)
{
	uint64_t s = 0;

	for (size_t i = 0; i < f->n; i++) {
		uint64_t last = f->run[i].size[f->run[i].n - 1];

		s = last > s ? last : s;
	}
	for (; s; s *= 2) {
		size_t i = 0;

		while (i < f->n && line_of(&f->run[i], s) < f->run[i].n)
			i++;
		if (i == f->n)
			return s;
		if (s > UINT64_MAX / 2)
			break;
	}
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

/* Each N's cheapest run at the common size, in increasing N. */
static void costs(const struct oa_family *f, struct oaf_verdict *v)
{
	double xfer = (double)v->common * 1e9 / v->rate;

	for (size_t i = 0; i < f->n; i++) {
		const struct oa_run *r = &f->run[i];
		double t = oa_write_ns(r, line_of(r, v->common));
		size_t k = 0;

		while (k < v->n && v->nr[k] < f->nr[i])
			k++;
		size_t j = line_of(r, 2 * v->common);
		double t2 = j < r->n ? oa_write_ns(r, j) - 2 * xfer : -1;

		if (k < v->n && v->nr[k] == f->nr[i]) {
			if (t < v->cost[k])
				v->cost[k] = t, v->extra2[k] = t2;
			continue;
		}
		memmove(&v->nr[k + 1], &v->nr[k], (v->n - k) * sizeof(v->nr[0]));
		memmove(&v->cost[k + 1], &v->cost[k], (v->n - k) * sizeof(v->cost[0]));
		memmove(&v->extra2[k + 1], &v->extra2[k], (v->n - k) * sizeof(v->extra2[0]));
		v->nr[k] = f->nr[i];
		v->cost[k] = t;
		v->extra2[k] = t2;
		v->n++;
	}
	for (size_t k = 0; k < v->n; k++)
		v->extra[k] = v->cost[k] > xfer ? v->cost[k] - xfer : 0;
}

/* Fast, collection or something between, against the cheapest N and the copy. */
static void kinds(struct oaf_verdict *v)
{
	double xfer = (double)v->common * 1e9 / v->rate, floor = 1e18;

	for (size_t k = 0; k < v->n; k++)
		floor = v->extra[k] < floor ? v->extra[k] : floor;
	if (floor < OAF_FLOOR_FRAC * xfer)
		floor = OAF_FLOOR_FRAC * xfer;
	if (floor < OAF_FLOOR_NS)
		floor = OAF_FLOOR_NS;
	v->floor = floor;
	for (size_t k = 0; k < v->n; k++) {
		/* A regime shows at twice the size too: one noisy line is none
		 * (not in random order: larger blocks go backwards less often). */
		double x = !v->random && v->extra2[k] >= 0 && v->extra2[k] < v->extra[k] ? v->extra2[k]
											    : v->extra[k];

		if (v->extra[k] >= OA_GC_COPY * v->copy_ns && v->cost[k] >= OAF_MIN_NS)
			v->kind[k] = OAF_GC;
		else if (x >= OAF_JUMP * floor && x >= OAF_MIN_NS &&
			 (v->random || !(v->extra2[k] > OAF_RATE_BOUND * v->extra[k])))
			v->kind[k] = OAF_ELEVATED;
		else
			v->kind[k] = OAF_FAST;
	}
}

/* An intermediate cost below a collection is a merge; with none above, a
 * cheap collection when it holds from its first N to twice that. */
static void regimes(struct oaf_verdict *v)
{
	size_t gc = v->n, lo = v->n, hi = v->n;

	for (size_t k = v->n; k-- > 0;)
		if (v->kind[k] == OAF_GC)
			gc = k;
	for (size_t k = 0; k < v->n; k++) {
		if (v->kind[k] != OAF_ELEVATED)
			continue;
		/* Below an N that is fast, a cost is an episode, not a regime. */
		for (size_t j = k + 1; j < v->n; j++)
			if (v->kind[j] == OAF_FAST)
				v->kind[k] = OAF_FAST;
		if (v->kind[k] != OAF_ELEVATED)
			continue;
		for (size_t j = k + 1; j < v->n; j++)
			if (v->kind[j] == OAF_GC && v->kind[k] == OAF_ELEVATED)
				/* the collection's own cost (at its threshold) is no other
				 * regime; in random order, not far below: some writes collect */
				v->kind[k] = v->extra[k] * OAF_JUMP > v->extra[j] ? OAF_GC
					     : !v->random || v->extra[k] * OAF_MERGE_BELOW <= v->extra[j]
					     ? OAF_MERGE : OAF_PART_GC;
		if (v->kind[k] == OAF_ELEVATED && k < gc) {
			lo = lo == v->n ? k : lo;
			hi = k;
		}
	}
	if (lo < v->n && v->nr[hi] >= 2 * v->nr[lo]) {
		for (size_t k = lo; k <= hi; k++)
			if (v->kind[k] == OAF_ELEVATED)
				v->kind[k] = OAF_CHEAP_GC;
		v->cheap_top = v->nr[hi];
	}
}

/* The median cost of the N of one kind. */
static double kind_cost(const struct oaf_verdict *v, enum oaf_kind a, enum oaf_kind b)
{
	double t[OAF_MAX];
	size_t m = 0;

	for (size_t k = 0; k < v->n; k++)
		if (v->kind[k] == a || v->kind[k] == b)
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
	v->merge_ns = kind_cost(v, OAF_MERGE, OAF_MERGE);
	v->inc_ns = kind_cost(v, OAF_ELEVATED, OAF_ELEVATED);
	v->gc_ns = kind_cost(v, OAF_GC, OAF_CHEAP_GC);
}

void oaf_judge(const struct oa_family *f, struct oaf_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->random = f->random;
	card_of(f, v);
	v->common = common_size(f);
	if (!v->common || v->rate <= 0)
		return;
	costs(f, v);
	kinds(v);
	regimes(v);
	bracket(v);
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
			return v->kind[k] == OAF_GC ? v->extra[k] < 2 * OA_GC_COPY * v->copy_ns
						    : v->extra[k] < 2 * OAF_JUMP * v->floor;
	return true;
}

enum oa_class oaf_class(const struct oaf_verdict *v, unsigned nr)
{
	switch (oaf_kind_of(v, nr)) {
	case OAF_FAST:
	case OAF_MERGE:
		return OA_FAST;
	case OAF_GC:
	case OAF_PART_GC:
	case OAF_CHEAP_GC:
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

/* "; a merge regime from 5 (4.4ms a write)" and the other regimes' words. */
static size_t regime_text(const struct oaf_verdict *v, char *buf, size_t len)
{
	char a[FB_FMT_LEN];
	size_t u = 0;

	if (v->merge_from)
		u += (size_t)snprintf(buf + u, len - u, "; a merge regime from %u (%s a write, %.3gx "
				      "below an erase-block copy)", v->merge_from,
				      fmt_time(a, sizeof(a), v->merge_ns),
				      v->copy_ns / (v->merge_ns > 0 ? v->merge_ns : 1));
	if (v->cheap_top && u < len)
		u += (size_t)snprintf(buf + u, len - u, "; a cheap collection: %s a write, %.3gx "
				      "below an erase-block copy, the same up to %u",
				      fmt_time(a, sizeof(a), v->gc_ns),
				      v->copy_ns / (v->gc_ns > 0 ? v->gc_ns : 1), v->cheap_top);
	if (v->inconclusive && u < len)
		u += (size_t)snprintf(buf + u, len - u, "; from %u a write costs more, but %.3gx below "
				      "an erase-block copy: a merge regime or a cheap collection? "
				      "(runs with twice as many erase blocks tell)", v->inconclusive,
				      v->copy_ns / (v->inc_ns > 0 ? v->inc_ns : 1));
	return u < len ? u : len;
}

/* "; per write at 16KiB: 1: 895µs, 16: 34.8ms; an erase-block copy 381ms (8MiB at 22M/s)" */
static void evidence_text(const struct oaf_verdict *v, char *buf, size_t len)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN];
	size_t u = (size_t)snprintf(buf, len, "; per write at %s:", fmt_size(a, sizeof(a), v->common));

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
}

void oaf_print(const struct oaf_verdict *v, bool random)
{
	char head[160], reg[400] = "", ev[600] = "", e[FB_FMT_LEN], g[FB_FMT_LEN];
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

/* Line i's cost beyond its transfer at rate b, ns. */
static double beyond(const struct oa_run *r, size_t i, double b)
{
	double x = oa_write_ns(r, i) - (double)r->size[i] * 1e9 / b;

	return x > 0 ? x : 0;
}

bool oaf_stop_probe(const struct oa_run *base, const struct oa_run *r)
{
	double b = oa_best_rate(base);

	if (r->n < OAF_STOP_LINES || b <= 0)
		return false;
	for (size_t i = r->n - OAF_STOP_LINES; i < r->n; i++) {
		size_t j = line_of(base, r->size[i]);
		double floor, xfer = (double)r->size[i] * 1e9 / b;

		if (j == base->n)
			return false;
		floor = beyond(base, j, b);
		floor = floor > OAF_FLOOR_FRAC * xfer ? floor : OAF_FLOOR_FRAC * xfer;
		floor = floor > OAF_FLOOR_NS ? floor : OAF_FLOOR_NS;
		if (beyond(r, i, b) < OAF_JUMP * floor || beyond(r, i, b) < OAF_MIN_NS)
			return false;
	}
	return true;
}
