/*
 * The accuracy harness for open-AU verdicts on cards with three regimes
 * (issue 20): full speed up to L erase blocks, a merge of the log up to K,
 * garbage collection beyond; --find-open-au's bracket and merge, and one
 * -O run alone in each regime. It prints a right / uncertain / wrong
 * table and fails on any wrong verdict, and when fewer than 90% of the
 * brackets are right. (The rest of the harness: test_accuracy.c.)
 */
#include <unistd.h>

#include "accuracy.h"
#include "verdicts/verdict_openau.h"

/* ---- open-AU: cards with three regimes (issue 20) */

/*
 * Cards that write L erase blocks at full speed, pay a merge of their log
 * on every write for up to K, and a collection beyond (sim log-aus,
 * log-merge), with the noise and small-write costs of real cards (issue
 * 29): the collection costs 0.7-1.6 times a copy of the erase block at
 * the card's own write rate (copy-bw = write-bw / that), the merge 1/100
 * to 1/10 of that copy; some cards a command overhead, a read-modify-write
 * below the page, or a buffer of their own for writes below the page
 * (small-buffer: every probe's smallest lines, 16 KiB, go there); jitter
 * up to 10%. K stays below 4 (L + 1): where the search looks above the
 * merge.
 */
struct card3 {
	unsigned l, k;
	uint64_t erase;
	char spec[700];
};

static void draw_card3(struct card3 *c)
{
	static const unsigned er[] = { 2, 4, 4, 8 };
	double wbw = logu(5e6, 40e6), cbw = wbw / logu(0.7, 1.6), et = logu(1e6, 8e6);
	double copy;
	bool small = pick(4) == 0;

	c->l = 1 + pick(5);
	c->k = c->l + 2 + pick(2 * c->l + 2);
	c->erase = er[pick(4)] * MiB;
	copy = (double)c->erase / wbw * 1e9;
	snprintf(c->spec, sizeof(c->spec), "size=16G,erase=%lluM,open-au=%u,open-au-random=%u,"
		 "log-aus=%u,log-merge=%.0fns,write-lat=%.0fns,write-bw=%.0f,copy-bw=%.0f,"
		 "erase-time=%.0fns,cmd-overhead=%.0fns,subpage-write=%.0fns,jitter=%.1f,"
		 "stalls=%.4f,stall-time=%.0fns,page=%s,small-buffer=%s,small-merge=%.0fns,seed=%u",
		 (unsigned long long)(c->erase / MiB), c->k, c->k, c->l,
		 copy * logu(1.0 / 100, 1.0 / 10), logu(100e3, 1e6), wbw, cbw, et,
		 pick(3) ? 0 : logu(2e5, 3e6), pick(3) ? 0 : logu(2e5, 2e6), 10 * unit_draw(),
		 pick(3) ? 0 : 0.001 * unit_draw(), logu(1e6, 20e6), small ? "32K" : "16K",
		 small ? "16K" : "0", small ? logu(2e6, 30e6) : 0, pick(100000));
}

/* "a merge regime from N" in the last bracket line of out_path, or 0. */
static unsigned merge_named(void)
{
	FILE *f = fopen(out_path, "r");
	char line[1024];
	unsigned n = 0;

	while (f && fgets(line, sizeof(line), f)) {
		const char *m = strstr(line, "a merge regime from ");

		if (strncmp(line, "verdict: open AUs (", 19) == 0)
			n = m ? (unsigned)atoi(m + 20) : 0;
	}
	if (f)
		fclose(f);
	return n;
}

/* The class one -O run alone gets ("verdict: N open AUs (linear): fast: ..."). */
static int lone_class(void)
{
	FILE *f = fopen(out_path, "r");
	char line[1024];
	int c = -1;

	while (f && fgets(line, sizeof(line), f)) {
		const char *s = strstr(line, "): ");

		if (strncmp(line, "verdict: ", 9) == 0 && s && strstr(line, " open AU"))
			c = strncmp(s + 3, "fast", 4) == 0 ? OA_FAST : strncmp(s + 3, "slow", 4) == 0 ?
			    OA_SLOW : OA_INCONCLUSIVE;
	}
	if (f)
		fclose(f);
	return c;
}

/* One -O run alone at N: fast where N <= L; never slow in the merge (a
 * merge near a tenth of a copy: uncertain); beyond K slow, or uncertain,
 * never fast. */
static int judge_lone(const struct card3 *c, unsigned n, struct fb_opts *o)
{
	int cl;

	*(unsigned *)test_open_au.options[0].var = n;
	o->blocksize = 64 * KiB;
	write_test = &test_open_au;
	if (run_test(c->spec, o, true) != FB_OK)
		cl = -1;
	else
		cl = lone_class();
	write_test = &test_find_open_au;
	o->blocksize = 16 * KiB;
	if (n <= c->l)
		return cl == OA_FAST ? RIGHT : cl == OA_INCONCLUSIVE ? UNSURE : WRONG;
	if (n <= c->k)
		return cl == OA_SLOW ? WRONG : cl == OA_FAST ? RIGHT : UNSURE;
	return cl == OA_FAST ? WRONG : cl == OA_SLOW ? RIGHT : UNSURE;
}

static void three_regime_cards(unsigned cards)
{
	struct tally t[5] = { { "three regimes: bracket", { 0 } },
			      { "three regimes: merge named from L + 1", { 0 } },
			      { "one -O run: N <= L (full speed)", { 0 } },
			      { "one -O run: L < N <= K (merge)", { 0 } },
			      { "one -O run: N > K (collection)", { 0 } } };

	for (unsigned i = 0; i < cards; i++) {
		struct card3 c;
		struct fb_opts o;
		char what[800];
		unsigned m, n[3];
		int out;

		draw_card3(&c);
		opts_defaults(&o);
		fb_tests_defaults();
		o.erasesize_set = true;
		o.erasesize = c.erase;
		o.offset = (16 * MiB + o.erasesize - 1) / o.erasesize * o.erasesize;
		if (run_test(c.spec, &o, true) != FB_OK)
			continue;
		snprintf(what, sizeof(what), "--find-open-au -e %lluM sim:%s",
			 (unsigned long long)(c.erase / MiB), c.spec);
		out = last_bracket(c.k, what);
		count(&t[0], out);
		m = merge_named();
		if (m && m != c.l + 1 && out == RIGHT)
			printf("FAIL: merge named from %u, truth %u: %s\n", m, c.l + 1, what);
		count(&t[1], m == c.l + 1 ? RIGHT : m ? WRONG : UNSURE);
		n[0] = c.l;
		n[1] = c.l + 1 + pick(c.k - c.l);
		n[2] = c.k + 1 + pick(4);
		for (int r = 0; r < 3; r++) {
			int j = judge_lone(&c, n[r], &o);

			if (j == WRONG)
				printf("FAIL: wrong -O --open-au-nr=%u verdict on sim:%s\n", n[r], c.spec);
			count(&t[2 + r], j);
		}
	}
	print_head("simulated cards, three regimes");
	for (int j = 0; j < 5; j++)
		print_tally(&t[j]);
	for (int j = 0; j < 5; j++)
		CHECK(t[j].n[WRONG] == 0);
	CHECK(t[0].n[RIGHT] >= 0.9 * cards);
}

int main(int argc, char **argv)
{
	unsigned cards = argc > 1 ? (unsigned)atoi(argv[1]) : 40;
	int fd = mkstemp(out_path);

	/* FB_ACCURACY_SEED=N: another draw of cards (make check always draws the same). */
	if (getenv("FB_ACCURACY_SEED"))
		rng ^= strtoull(getenv("FB_ACCURACY_SEED"), NULL, 0) * 0x2545f4914f6cdd1dull;
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	three_regime_cards(cards);
	unlink(out_path);
	UNIT_DONE();
}
