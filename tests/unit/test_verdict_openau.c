/*
 * Reading open-AU lines: fast, slow (the garbage-collection signature:
 * the time per write stops shrinking, the rate halves line by line) and
 * inconclusive, the early-stop tracker, and the bracket.
 */
#include "core/out.h"
#include "unit.h"
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
	/* Fast by itself, but 3x below the base from the second line on, not at
	 * the smallest sizes (realruns 012 with 5 to 7 erase blocks): inconclusive. */
	oa_init(&r, 4 << 20);
	for (size_t i = 0; i < base.n; i++)
		oa_add(&r, base.size[i], base.rate[i] / (i == 0 || i + 2 >= base.n ? 1.2 : 3));
	r.complete = true;
	oa_classify(&r, &res);
	CHECK(res.c == OA_FAST);
	oa_against(&base, 1, &r, &res);
	CHECK(res.c == OA_INCONCLUSIVE);
	/* Every write costs 20ms more than with the base (5% of writing an erase
	 * block), whatever its size: the signature against the base, slow. */
	oa_init(&r, 4 << 20);
	for (size_t i = 0; i < 6; i++)
		oa_add(&r, base.size[i], base.size[i] / ((double)base.size[i] / base.rate[i] + 20e-3));
	r.complete = true;
	oa_classify(&r, &res);
	oa_against(&base, 1, &r, &res);
	CHECK(res.c == OA_SLOW && res.write_ns > 19e6 && res.write_ns < 21e6);
	/* A run whose smallest blocks each cost a collection's worth beyond their
	 * transfer (within 4x of the best, no halving yet): not fast by itself. */
	oa_init(&r, 4 << 20);
	for (size_t i = 0; i < 6; i++)
		oa_add(&r, base.size[i], base.size[i] / ((double)base.size[i] / 40e6 + 8e-3));
	r.complete = true;
	oa_classify(&r, &res);
	CHECK(res.c == OA_INCONCLUSIVE);
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
