/*
 * --sustained's pure parts: the judgement of its intervals (initial and
 * sustained rate, cliff, slow episodes), the stamped blocks of --verify
 * and the --random permutation.
 */
#include <stdlib.h>

#include "modules/stamp.h"
#include "modules/sustained.h"
#include "verdicts/verdict_sustained.h"
#include "unit.h"

#define MB 1000000ull
#define SEC 1e9

/* Intervals of one second each at the given rates (MB/s). */
static size_t make(struct sus_iv *iv, const double *mbps, size_t n)
{
	uint64_t written = 0;

	for (size_t i = 0; i < n; i++) {
		iv[i].ns = SEC;
		iv[i].bytes = (uint64_t)(mbps[i] * MB);
		written += iv[i].bytes;
		iv[i].written = written;
		iv[i].end_ns = (double)(i + 1) * SEC;
	}
	return n;
}

static void rates(void)
{
	static const double r[] = { 100, 400, 400, 400, 100, 100, 100, 100 };
	struct sus_iv iv[8];
	struct sus_judgement j;
	size_t n = make(iv, r, 8);

	sus_judge(iv, n, 50, 0, 0, &j);
	/* the median of the first three: a slow first interval does not count */
	CHECK(j.initial == 400 * MB);
	CHECK(j.average == 1700.0 * MB / 8);
	/* the last half: intervals 5 to 8 */
	CHECK(j.sustained == 100 * MB);
	CHECK(j.cliff && j.cliff_bytes == 1300 * MB && j.cliff_ns == 4 * SEC);
	CHECK(j.cliff_threshold == 200 * MB);
	/* below a quarter of 400: none (100 is not below 100) */
	CHECK(j.slow_threshold == 100 * MB && j.slow_count == 0);
	/* a higher --cliff finds the same; one so low that nothing is below: none */
	sus_judge(iv, n, 80, 0, 0, &j);
	CHECK(j.cliff && j.cliff_bytes == 1300 * MB);
	sus_judge(iv, n, 20, 0, 0, &j);
	CHECK(!j.cliff);
}

static void cliff_needs_two(void)
{
	static const double one[] = { 400, 400, 400, 400, 400, 100 };
	static const double two[] = { 400, 400, 400, 400, 100, 100 };
	static const double back[] = { 400, 400, 100, 100, 400, 100, 100 };
	struct sus_iv iv[8];
	struct sus_judgement j;

	sus_judge(iv, make(iv, one, 6), 50, 0, 0, &j);
	CHECK(!j.cliff);
	sus_judge(iv, make(iv, two, 6), 50, 0, 0, &j);
	CHECK(j.cliff && j.cliff_bytes == 1600 * MB);
	/* it must stay below: the dip at 3-4 is not the cliff, the end is */
	sus_judge(iv, make(iv, back, 7), 50, 0, 0, &j);
	CHECK(j.cliff && j.cliff_bytes == 1400 * MB && j.cliff_ns == 5 * SEC);
}

static void slow(void)
{
	static const double r[] = { 200, 200, 200, 10, 20, 200, 5, 200, 30, 30, 30 };
	struct sus_iv iv[12];
	struct sus_judgement j;
	size_t n = make(iv, r, 11);

	/* a quarter of 200: 50 */
	sus_judge(iv, n, 50, 0, 0, &j);
	CHECK(j.slow_threshold == 50 * MB);
	CHECK(j.slow_count == 3 && j.slow_ns == 6 * SEC && j.slow_longest_ns == 3 * SEC);
	CHECK(j.slow_lowest == 5 * MB && !j.recovered);
	/* --slow=25M/s: only 10, 20 and 5 are slow, and the run ended above it */
	sus_judge(iv, n, 50, 25 * MB, 0, &j);
	CHECK(j.slow_count == 2 && j.slow_ns == 3 * SEC && j.slow_longest_ns == 2 * SEC);
	CHECK(j.slow_lowest == 5 * MB && j.recovered);
	/* the first episode's rate is its lowest too */
	sus_judge(iv, 5, 50, 0, 0, &j);
	CHECK(j.slow_count == 1 && j.slow_lowest == 10 * MB && !j.recovered);
}

static void short_last(void)
{
	static const double r[] = { 400, 400, 400, 100, 100, 100, 400 };
	struct sus_iv iv[8];
	struct sus_judgement j;
	size_t n = make(iv, r, 7);

	/* the last interval is a tenth of one: the average counts it, nothing else */
	iv[6].ns = SEC / 10;
	iv[6].bytes = 40 * MB;
	iv[6].written = iv[5].written + iv[6].bytes;
	iv[6].end_ns = iv[5].end_ns + SEC / 10;
	sus_judge(iv, n, 50, 0, SEC / 2, &j);
	CHECK(j.cliff && j.cliff_bytes == 1200 * MB);
	CHECK(j.average == (double)iv[6].written * 1e9 / iv[6].end_ns);
	sus_judge(iv, n, 50, 0, 0, &j);
	CHECK(!j.cliff);
	/* one interval alone is judged */
	sus_judge(iv, 1, 50, 0, SEC * 2, &j);
	CHECK(j.initial == 400 * MB && !j.cliff && j.slow_count == 0);
}

#define BS 4096

static void stamps(void)
{
	static unsigned char blk[BS], other[BS];
	struct stamp_tally s;
	uint64_t run = 0x1234;

	for (size_t i = 0; i < BS; i++)
		blk[i] = (unsigned char)(i * 7);
	stamp_tally_init(&s, run);
	stamp_put(blk, BS, 8192, run);
	CHECK(stamp_check(&s, blk, BS, 8192) == ST_GOOD);
	/* what was written at 8192 + 1 MiB, read at 8192: a wrap-around of 1 MiB */
	stamp_put(blk, BS, 8192 + 1048576, run);
	CHECK(stamp_check(&s, blk, BS, 8192) == ST_WRAPPED && s.period == 1048576);
	/* two periods away: the same wrap-around; another distance: misplaced */
	stamp_put(blk, BS, 8192 + 2 * 1048576, run);
	CHECK(stamp_check(&s, blk, BS, 8192) == ST_WRAPPED && s.period == 1048576);
	stamp_put(blk, BS, 12288, run);
	CHECK(stamp_check(&s, blk, BS, 4 * 1048576 + 4096) == ST_MISPLACED);
	/* another run's block, or none: dropped; a changed byte: corrupt */
	stamp_put(other, BS, 65536, run + 1);
	CHECK(stamp_check(&s, other, BS, 65536) == ST_DROPPED);
	memset(other, 0, BS);
	CHECK(stamp_check(&s, other, BS, 65536) == ST_DROPPED);
	stamp_put(blk, BS, 16384, run);
	blk[BS - 1] ^= 1;
	CHECK(stamp_check(&s, blk, BS, 16384) == ST_CORRUPT);
	CHECK(s.blocks == 7 && s.bad == 6 && s.n[ST_WRAPPED] == 2 && s.n[ST_MISPLACED] == 1 &&
	      s.n[ST_DROPPED] == 2 && s.n[ST_CORRUPT] == 1);
	CHECK(s.first_bad == 8192 && s.first_lost == 16384);
	/* usable: the wrap-around period from the start, or the first lost block */
	CHECK(stamp_usable_end(&s, 0, 8 * 1048576) == 16384);
	stamp_tally_init(&s, run);
	stamp_put(blk, BS, 1048576, run);
	stamp_check(&s, blk, BS, 0);
	CHECK(stamp_usable_end(&s, 0, 8 * 1048576) == 1048576);
	stamp_tally_init(&s, run);
	CHECK(stamp_usable_end(&s, 0, 8 * 1048576) == 8 * 1048576);
	CHECK_STR(stamp_class_name(ST_MISPLACED), "misplaced");
}

static void permutation(void)
{
	static const uint64_t sizes[] = { 1, 2, 3, 1000, 4096, 65537 };

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint64_t n = sizes[k];
		unsigned char *seen = calloc(n, 1);
		struct sus_perm p;
		uint64_t dup = 0, inorder = 0, prev = 0;

		sus_perm_init(&p, n);
		for (uint64_t i = 0; i < n; i++) {
			uint64_t x = sus_perm_next(&p);

			dup += x >= n || seen[x];
			if (x < n)
				seen[x] = 1;
			inorder += i && x == prev + 1;
			prev = x;
		}
		CHECK(dup == 0);
		/* a pseudo-random order, not the sequential one */
		CHECK(n < 1000 || inorder < n / 100);
		free(seen);
	}
}

/*
 * A cache that runs out inside the first interval: the intervals alone
 * start at the slow rate and see no cliff; the start in tenths does.
 */
static void cliff_in_first(void)
{
	static const double coarse[] = { 194, 194, 194, 194, 194, 194 };
	static const double later[] = { 400, 400, 400, 100, 100, 100 };
	struct sus_iv iv[8], fine[30];
	struct sus_judgement j;
	uint64_t written = 0;

	/* the first 3 s in tenths: 0.6 s at 441 MB/s, then 194 MB/s */
	for (size_t i = 0; i < 30; i++) {
		fine[i].ns = SEC / 10;
		fine[i].bytes = (uint64_t)((i < 6 ? 441 : 194) * MB / 10);
		written += fine[i].bytes;
		fine[i].written = written;
		fine[i].end_ns = (double)(i + 1) * SEC / 10;
	}
	make(iv, coarse, 6);
	sus_judge(iv, 6, 50, 0, 0, &j);
	CHECK(!j.cliff && j.initial == 194 * MB);
	CHECK(sus_judge_start(iv, 6, fine, 30, 3, 50, 0, 0, 0, &j));
	CHECK(j.cliff && j.from_start && j.initial == 441.0 * MB);
	CHECK(j.cliff_bytes == 6 * 44100000ull && j.cliff_ns == 6 * SEC / 10);
	/* too few fine intervals: the intervals' judgement stands */
	CHECK(sus_judge_start(iv, 6, fine, 2, 3, 50, 0, 0, 0, &j));
	CHECK(!j.cliff && !j.from_start);
	/* a cliff the intervals see: theirs, whatever the start says */
	make(iv, later, 6);
	CHECK(sus_judge_start(iv, 6, fine, 30, 3, 50, 0, 0, 0, &j));
	CHECK(j.cliff && !j.from_start && j.cliff_bytes == 1200 * MB);
}

int main(void)
{
	cliff_in_first();
	rates();
	cliff_needs_two();
	slow();
	short_last();
	stamps();
	permutation();
	UNIT_DONE();
}
