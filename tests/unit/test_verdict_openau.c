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
	/* 3ms a write from the second line, 1/13 of a 40ms copy: not a
	 * collection, whatever its shape (a merge of the card's log). */
	costed(&r, 4 << 20, 105e6, 0.2, 3, 1, 0, 0);
	oa_classify(&r, &res);
	CHECK(res.c == OA_FAST && strstr(res.why, "merge"));
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

/* Every write from 2MiB down to 8KiB pays gc_ms, a 4KiB write buf_ms
 * (a card that buffers writes below its page), at 10MB/s. */
static void smallbuf(struct oa_run *r, double gc_ms, double buf_ms)
{
	oa_init(r, 4 << 20);
	for (size_t i = 0; i < 11; i++) {
		double size = 4 * MiB / (double)(1u << i);
		double t = 0.3e-3 + size / 10e6 + (size > 4096 && i > 0 ? gc_ms / 1e3 : 0) +
			   (size <= 4096 ? buf_ms / 1e3 : 0);

		oa_add(r, (uint64_t)size, size / t);
	}
	r->complete = true;
}

/* The two patterns of issue 29 (published runs an expert read otherwise). */
static void cheap_and_small(void)
{
	static const unsigned nr[] = { 1, 2, 3, 4, 5, 6, 7 };
	static const double merge[] = { 0.6, 6.4, 6.5, 6.6, 6.4, 6.7, 6.5 };
	static const double merge2[] = { 0.3, 2.3, 2.4, 2.6, 2.5, 2.4, 2.6 };
	static struct oa_family f;
	struct oaf_verdict v;
	struct oa_result res;
	struct oa_run r;

	/* 6.5ms a write from 2 on, 77x below a 500ms copy (4MiB at 8MB/s): a
	 * merge, not a collection: at least 7 fast, a merge from 2. */
	family(&v, nr, merge, 7, 8.4e6);
	CHECK(v.fast == 7 && v.slow == 0 && v.inconclusive == 0 && v.merge_from == 2);
	CHECK(oaf_kind_of(&v, 5) == OAF_MERGE && oaf_class(&v, 7) == OA_FAST);
	family(&v, nr, merge2, 7, 8.4e6);
	CHECK(v.fast == 7 && v.slow == 0 && v.merge_from == 2);
	/* One run alone says the same: fast, a cost of its own, not a collection. */
	costed(&r, 4 << 20, 8.4e6, 0.1, 6.5, 1, 0, 0);
	oa_classify(&r, &res);
	CHECK(res.c == OA_FAST && strstr(res.why, "not a collection"));
	/* A quarter of the copy is a collection; a sixth of it cannot be told. */
	costed(&r, 4 << 20, 8.4e6, 0.1, 150, 1, 0, 0);
	oa_classify(&r, &res);
	CHECK(res.c == OA_SLOW);
	costed(&r, 4 << 20, 8.4e6, 0.1, 80, 1, 0, 0);
	oa_classify(&r, &res);
	CHECK(res.c == OA_INCONCLUSIVE && strstr(res.why, "uncertain"));
	/* Collections from 2MiB to 8KiB, cheap 4KiB writes (a small-write
	 * buffer): slow, and the exception named. */
	smallbuf(&r, 460, 21);
	oa_classify(&r, &res);
	CHECK(res.c == OA_SLOW && strstr(res.why, "4KiB writes cost 21") &&
	      strstr(res.why, "buffers writes below the page"));
	/* The family: 1 to 3 smooth (21ms at 4KiB from 2 on), 4 to 7 collect. */
	oaf_init(&f);
	for (unsigned n = 1; n <= 7; n++) {
		smallbuf(&r, n >= 4 ? 460 : 0, n >= 2 ? 21 : 0.1);
		oaf_add(&f, n, &r);
	}
	oaf_judge(&f, &v);
	CHECK(v.fast == 3 && v.slow == 4 && !v.contradicts && v.tail[3] == 1);
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

	/* The seed: 35ms a write at 16 is a tenth of a copy (of 8MiB at 22MB/s:
	 * 381ms, as 4MiB at 11MB/s), 550ms at 20 is one. */
	family(&v, seed_nr, seed_x, 3, 11e6);
	CHECK(v.fast == 16 && v.slow == 20 && v.merge_from == 16 && !v.contradicts);
	CHECK(oaf_class(&v, 16) == OA_FAST && oaf_class(&v, 20) == OA_SLOW);
	/* Without N = 20, 35ms is still far below a copy: fast, a merge. */
	family(&v, seed_nr, seed_x, 2, 11e6);
	CHECK(v.fast == 16 && v.slow == 0 && v.inconclusive == 0 && v.merge_from == 16);
	/* logstick: 4 fast, a 4ms merge from 5 to 12, a 43ms collection from 13. */
	family(&v, log_nr, log_x, 11, 105e6);
	CHECK(v.fast == 12 && v.slow == 13 && v.merge_from == 5);
	CHECK(oaf_kind_of(&v, 8) == OAF_MERGE && oaf_kind_of(&v, 13) == OAF_GC);
	/* 11ms at 21MB/s, 1/18 of a copy: never a collection, whatever N. */
	family(&v, sd_nr, sd_x, 6, 21e6);
	CHECK(v.fast == 8 && v.slow == 0 && v.inconclusive == 0 && v.merge_from == 6);
	family(&v, sd_more, sd_x, 7, 21e6);
	CHECK(v.fast == 20 && v.slow == 0 && v.merge_from == 6);
	/* realruns 012/015: a few ms of overhead at every N: all fast. */
	family(&v, real_nr, real_x, 7, 10e6);
	CHECK(v.fast == 7 && v.slow == 0 && v.inconclusive == 0);
	/* 80ms, a fifth of a copy, at 20 (nothing dearer above): uncertain. */
	{
		static const double mid[] = { 0, 34, 80 };

		family(&v, seed_nr, mid, 3, 11e6);
		CHECK(v.fast == 16 && v.slow == 0 && v.inconclusive == 20);
		CHECK(oaf_class(&v, 20) == OA_INCONCLUSIVE);
	}
	/* Every N pays 80ms (a fifth of a 420ms copy: not counted), 4 pays 110ms:
	 * 30ms more is fast for the family, but the run alone collects by its
	 * own numbers: never the opposite of its own line (inconclusive). */
	{
		static const unsigned nr4[] = { 1, 2, 3, 4 };
		static const double x4[] = { 80, 80, 80, 110 };
		struct oa_run r;
		struct oa_result res;

		family(&v, nr4, x4, 4, 10e6);
		costed(&r, 4 << 20, 10e6, 0.2, 110, 1, 0, 0);
		oa_classify(&r, &res);
		CHECK(res.c == OA_SLOW && oaf_class(&v, 4) == OA_INCONCLUSIVE && v.fast == 3);
	}
	/* A collection near its threshold is probed again; a plain one is not. */
	family(&v, seed_nr, seed_x, 3, 11e6);
	CHECK(!oaf_marginal(&v, 20));
	{
		static const double near[] = { 0, 34, 110 };

		family(&v, seed_nr, near, 3, 11e6);
		CHECK(oaf_class(&v, 20) == OA_SLOW && oaf_marginal(&v, 20));
	}
	cheap_and_small();
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
