/*
 * Reading open-AU lines: fast, slow (the garbage-collection signature:
 * the time per write stops shrinking, the rate halves line by line) and
 * inconclusive, the early-stop tracker, and the bracket.
 */
#include "core/out.h"
#include "unit.h"
#include <string.h>

#include "verdicts/verdict_oafamily.h"
#include "verdicts/verdict_openau.h"

#define MiB (1024.0 * 1024)

/* Lines from 4 MiB down to 16 KiB: write time = lat + size / bw + gc. */
static void run(struct oa_run *r, double lat_ms, double gc_ms, size_t lines, bool complete)
{
	oa_init(r, 4 << 20);
	for (size_t i = 0; i < lines; i++) {
		double size = 4 * MiB / (double)(1u << i);
		double t = lat_ms / 1e3 + size / 10e6 + (i > 0 ? gc_ms / 1e3 : 0);

		oa_add(r, (uint64_t)size, size / t);
	}
	r->complete = complete;
}

/* Lines from 4 MiB down to 4 KiB at bw: write time = lat + size / bw,
 * plus extra for every line from `from` on, plus sub below `page`. */
static void costed(struct oa_run *r, uint64_t erase, double bw, double lat_ms, double extra_ms,
		   size_t from, double page, double sub_ms)
{
	oa_init(r, erase);
	for (size_t i = 0; i < 11; i++) {
		double size = 4 * MiB / (double)(1u << i);
		double t = lat_ms / 1e3 + size / bw + (i >= from ? extra_ms / 1e3 : 0) +
			   (size < page ? sub_ms / 1e3 : 0);

		oa_add(r, (uint64_t)size, size / t);
	}
	r->complete = true;
}

/* One run alone: -O live, and --analyze of its paste. */
static void lone_runs(void)
{
	struct oa_result res;
	struct oa_run r;

	/* Writes below 16 KiB each pay 1ms more: fast, and the page is named. */
	costed(&r, 4 << 20, 13e6, 0.7, 0, 99, 16384, 1);
	oa_classify(&r, &res);
	CHECK(res.c == OA_FAST && strstr(res.why, "the page is 16KiB?"));
	/* 2ms of overhead on every write: fast, command overhead. */
	costed(&r, 4 << 20, 10e6, 2, 0, 99, 0, 0);
	oa_classify(&r, &res);
	CHECK(res.c == OA_FAST && strstr(res.why, "command overhead"));
	/* 4ms a write from the second line (a tenth of a 40ms copy), the
	 * signature: a merge or a cheap collection, it cannot tell alone. */
	costed(&r, 4 << 20, 105e6, 0.2, 4, 1, 0, 0);
	oa_classify(&r, &res);
	CHECK(res.c == OA_INCONCLUSIVE && strstr(res.why, "merge"));
	/* 43ms, a copy's worth: a collection. */
	costed(&r, 4 << 20, 105e6, 0.2, 43, 1, 0, 0);
	oa_classify(&r, &res);
	CHECK(res.c == OA_SLOW && strstr(res.why, "garbage collection"));
	/* Every other line slow: the erase size given is half the card's. */
	oa_init(&r, 4 << 20);
	for (size_t i = 0; i < 9; i++)
		oa_add(&r, (4u << 20) >> i, i % 2 ? 5.99e6 : 22e6);
	CHECK(oa_alternates(&r, NULL, 0));
	oa_classify(&r, &res);
	CHECK(strstr(res.why, "twice the 4MiB given") != NULL);
	costed(&r, 4 << 20, 10e6, 0.4, 0, 99, 0, 0);
	CHECK(!oa_alternates(&r, NULL, 0));
}

/* A family: runs of N = nr[i] that pay extra[i] ms a write from the second line. */
static void family(struct oaf_verdict *v, const unsigned *nr, const double *extra, size_t n,
		   double bw)
{
	static struct oa_family f;
	struct oa_run r;

	oaf_init(&f);
	for (size_t i = 0; i < n; i++) {
		costed(&r, 4 << 20, bw, 0.2, extra[i], 1, 0, 0);
		oaf_add(&f, nr[i], &r);
	}
	oaf_judge(&f, v);
}

static void family_runs(void)
{
	static const unsigned seed_nr[] = { 1, 16, 20 }, log_nr[] = { 1, 2, 4, 8, 6, 5, 20, 14, 11, 12, 13 };
	static const double seed_x[] = { 0, 34, 550 }, log_x[] = { 0, 0, 0, 4, 4, 4, 43, 43, 4, 4, 43 };
	static const unsigned sd_nr[] = { 1, 2, 4, 8, 6, 5 }, sd_more[] = { 1, 2, 4, 8, 6, 5, 20 };
	static const double sd_x[] = { 0, 0, 0, 11, 11, 0, 11 };
	static const unsigned real_nr[] = { 1, 2, 3, 4, 5, 6, 7 };
	static const double real_x[] = { 1.5, 1.8, 1.9, 1.9, 2.1, 2.2, 2.4 };
	struct oaf_verdict v;

	/* The seed: 35ms a write at 16 is a tenth of a copy, 550ms at 20 is one. */
	family(&v, seed_nr, seed_x, 3, 22e6);
	CHECK(v.fast == 16 && v.slow == 20 && v.merge_from == 16 && !v.contradicts);
	CHECK(oaf_class(&v, 16) == OA_FAST && oaf_class(&v, 20) == OA_SLOW);
	/* Without N = 20, 35ms has nothing above it: it cannot tell. */
	family(&v, seed_nr, seed_x, 2, 22e6);
	CHECK(v.fast == 1 && v.slow == 0 && v.inconclusive == 16);
	/* logstick: 4 fast, a 4ms merge from 5 to 12, a 43ms collection from 13. */
	family(&v, log_nr, log_x, 11, 105e6);
	CHECK(v.fast == 12 && v.slow == 13 && v.merge_from == 5);
	CHECK(oaf_kind_of(&v, 8) == OAF_MERGE && oaf_kind_of(&v, 13) == OAF_GC);
	/* A collection at 1/18 of a copy (a card that copies inside fast): only
	 * the same cost at four times the N tells it from a merge. */
	family(&v, sd_nr, sd_x, 6, 21e6);
	CHECK(v.fast == 5 && v.slow == 0 && v.inconclusive == 6);
	family(&v, sd_more, sd_x, 7, 21e6);
	CHECK(v.fast == 5 && v.slow == 6 && v.cheap_top == 20);
	/* realruns 012/015: a few ms of overhead at every N: all fast. */
	family(&v, real_nr, real_x, 7, 10e6);
	CHECK(v.fast == 7 && v.slow == 0 && v.inconclusive == 0);
	/* A collection near its threshold is probed again; a plain one is not. */
	family(&v, seed_nr, seed_x, 3, 22e6);
	CHECK(!oaf_marginal(&v, 20));
	{
		static const double near[] = { 0, 34, 80 };

		family(&v, seed_nr, near, 3, 22e6);
		CHECK(oaf_class(&v, 20) == OA_SLOW && oaf_marginal(&v, 20));
	}
}

int main(void)
{
	struct oa_run r, base;
	struct oa_result res;
	struct oa_bracket b;
	struct oa_stop *s;
	double wns;

	out_open("/dev/null", OUT_TEXT);
	run(&r, 0.4, 0, 9, true);
	oa_classify(&r, &res);
	CHECK(res.c == OA_FAST);
	CHECK(!oa_gc_clear(&r, NULL));
	/* Every write but the first line's pays a 300 ms collection. */
	run(&r, 0.4, 300, 5, false);
	oa_classify(&r, &res);
	CHECK(res.c == OA_SLOW && res.write_ns > 250e6 && res.write_ns < 600e6);
	CHECK(oa_gc_clear(&r, &wns) && wns > 250e6);
	run(&r, 0.4, 300, 3, false);
	CHECK(!oa_gc_clear(&r, NULL));
	/* Command overhead (2 ms a write) halves small-block rates too: not a collection. */
	run(&r, 2, 0, 11, true);
	oa_classify(&r, &res);
	CHECK(res.c == OA_FAST);
	/* Cut short before the smallest block, no signature: inconclusive. */
	run(&r, 0.4, 0, 4, false);
	oa_classify(&r, &res);
	CHECK(res.c == OA_INCONCLUSIVE);
	/* 3x below the run with one erase block at every size alike: the card
	 * writes slower (a write cache ran out), no open AU is closed: fast. */
	run(&base, 0.4, 0, 9, true);
	oa_init(&r, 4 << 20);
	for (size_t i = 0; i < base.n; i++)
		oa_add(&r, base.size[i], base.rate[i] / 3);
	r.complete = true;
	oa_classify(&r, &res);
	oa_against(&base, 1, &r, &res);
	CHECK(res.c == OA_FAST);
	/* 3x below the base from the second line on, not at the smallest sizes
	 * (realruns 012 with 5 to 7 erase blocks): what decides is the cost of a
	 * write at the smallest block, two orders below an erase-block copy: fast. */
	oa_init(&r, 4 << 20);
	for (size_t i = 0; i < base.n; i++)
		oa_add(&r, base.size[i], base.rate[i] / (i == 0 || i + 2 >= base.n ? 1.2 : 3));
	r.complete = true;
	oa_classify(&r, &res);
	CHECK(res.c == OA_FAST);
	oa_against(&base, 1, &r, &res);
	CHECK(res.c == OA_FAST);
	/* Every write costs 20ms more than with the base, 1/20 of copying an
	 * erase block: not a collection, even against the base. */
	oa_init(&r, 4 << 20);
	for (size_t i = 0; i < 6; i++)
		oa_add(&r, base.size[i], base.size[i] / ((double)base.size[i] / base.rate[i] + 20e-3));
	r.complete = true;
	oa_classify(&r, &res);
	oa_against(&base, 1, &r, &res);
	CHECK(res.c != OA_SLOW);
	/* 200ms more, half a copy: a collection against the base. */
	oa_init(&r, 4 << 20);
	for (size_t i = 0; i < 6; i++)
		oa_add(&r, base.size[i], base.size[i] / ((double)base.size[i] / base.rate[i] + 200e-3));
	r.complete = true;
	oa_classify(&r, &res);
	oa_against(&base, 1, &r, &res);
	CHECK(res.c == OA_SLOW);
	/* The smallest blocks each cost 8ms beyond their transfer, 1/13 of a
	 * copy, without the signature: far below a collection, fast. */
	oa_init(&r, 4 << 20);
	for (size_t i = 0; i < 6; i++)
		oa_add(&r, base.size[i], base.size[i] / ((double)base.size[i] / 40e6 + 8e-3));
	r.complete = true;
	oa_classify(&r, &res);
	CHECK(res.c == OA_FAST);
	lone_runs();
	family_runs();
	/* The tracker stops only when every column shows the signature. */
	s = oa_stop_new(2, 4 << 20);
	run(&r, 0.4, 300, 6, false);
	run(&base, 0.4, 0, 6, false);
	for (size_t i = 0; i < r.n; i++) {
		double rates[2] = { r.rate[i], base.rate[i] };

		CHECK(!oa_stop_line(s, r.size[i], rates));
	}
	oa_stop_free(s);
	s = oa_stop_new(1, 4 << 20);
	CHECK(!oa_stop_line(s, r.size[0], &r.rate[0]) && !oa_stop_line(s, r.size[1], &r.rate[1]));
	CHECK(!oa_stop_line(s, r.size[2], &r.rate[2]) && oa_stop_line(s, r.size[3], &r.rate[3]));
	oa_stop_free(s);
	/* The bracket: largest fast, smallest slow, and contradictions. */
	oa_bracket_init(&b);
	oa_bracket_add(&b, 1, OA_FAST);
	oa_bracket_add(&b, 8, OA_SLOW);
	oa_bracket_add(&b, 4, OA_FAST);
	oa_bracket_add(&b, 5, OA_SLOW);
	CHECK(b.fast == 4 && b.slow == 5 && !b.contradicts);
	oa_bracket_add(&b, 6, OA_FAST);
	CHECK(b.contradicts);
	out_close(0, "done", NULL);
	UNIT_DONE();
}
