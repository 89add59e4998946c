/*
 * The round trip of the card's fit (issue 31), on the virtual clock: for
 * random simulated cards across the presets' ranges (erase blocks of 1
 * to 16 MiB, 3 x 2^n among them, pages of 4 to 32 KiB, 1 to 16 open AUs
 * and 0 to 8 random ones, FAT areas, merge regimes, jitter up to 5%),
 * the survey's measurements are fitted (verdicts/fit_card.h) and the
 * fitted card surveyed again (its twin, modules/survey_twin.h):
 *
 *   - erase, page, open-au, open-au-random and fat-aus come back exactly,
 *     or the fit leaves them out (the verdict behind them was not sure:
 *     counted "left out", not wrong), or names them uncertain (other values'
 *     twins reach the card's verdicts as well: counted "left out" only when
 *     the truth is among the values named); another value is wrong, even
 *     one whose twin reaches the same verdicts;
 *   - the rates within 10%, the latencies within 15%;
 *   - the twin's survey reaches the card's verdicts;
 *   - a share of the cards writes below the page at a cost (subpage-write)
 *     or buffers its smallest writes (small-buffer, small-merge), drawn
 *     from a stream of its own so that the other cards stay as they were;
 *     most of them are surveyed with 4KiB blocks (the survey sees neither
 *     above its block size). Where the survey wrote a block small enough,
 *     subpage-write and small-merge come back within 15%, small-buffer
 *     exactly or left out; where not, they are left out; a card without
 *     them never gets them.
 *
 * Every card and key is a check of its own (a miss prints FAIL with the
 * card's spec, and nothing else does); then the distribution of the
 * errors per key, for the closing note. An argument: the
 * number of cards (60); FB_FIT_SEED=N draws other cards; FB_FIT_VERBOSE
 * prints each card's brackets and the keys left out; FB_FIT_ONLY=N surveys the Nth
 * card alone (from 0).
 */
#include <math.h>
#include <stdlib.h>

#include "core/opts.h"
#include "core/stats.h"
#include "modules/survey_twin.h"
#include "modules/test.h"
#include "unit.h"
#include "verdicts/fit_card.h"

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)
#define MAX_CARDS 400

static uint64_t rng = 0x2545f4914f6cdd1dull;
/* The small writes' own stream: the cards of the main one stay as they were without them. */
static uint64_t rng_small = 0x9e3779b97f4a7c15ull;

static double draw_from(uint64_t *r)
{
	*r ^= *r << 13;
	*r ^= *r >> 7;
	*r ^= *r << 17;
	return (double)(*r >> 11) / 9007199254740992.0;
}

static double unit_draw(void)
{
	return draw_from(&rng);
}

static unsigned pick(unsigned n)
{
	return (unsigned)(unit_draw() * n);
}

static double logu(double lo, double hi)
{
	return lo * pow(hi / lo, unit_draw());
}

/* The truth of a card, in the fit's keys (log-aus 0: no merge regime); the block size
 * its survey takes. */
struct truth {
	double v[FK_N];
	char spec[700];
	uint64_t bs;
};

static void draw_card(struct truth *c)
{
	static const uint64_t er[] = { 1 * MiB, 3 * MiB / 2, 2 * MiB, 3 * MiB, 4 * MiB, 6 * MiB,
				       8 * MiB, 12 * MiB, 16 * MiB };
	double *v = c->v, copy_ns;

	memset(c, 0, sizeof(*c));
	v[FK_SIZE] = (double)((8 * GiB) << pick(2));
	v[FK_ERASE] = (double)er[pick(sizeof(er) / sizeof(er[0]))];
	v[FK_PAGE] = (double)((4 * KiB) << pick(4));
	v[FK_READ_LAT] = round(logu(150e3, 2e6) / 1000) * 1000;
	v[FK_READ_BW] = round(logu(10e6, 80e6) / 1e5) * 1e5;
	v[FK_PAGE_CROSS] = round(v[FK_READ_LAT] * logu(0.1, 0.6) / 1000) * 1000;
	v[FK_ERASE_CROSS] = round(v[FK_READ_LAT] * logu(0.3, 3) / 1000) * 1000;
	v[FK_WRITE_LAT] = round(logu(100e3, 1e6) / 1000) * 1000;
	v[FK_WRITE_BW] = round(logu(4e6, 40e6) / 1e5) * 1e5;
	v[FK_COPY_BW] = round(v[FK_WRITE_BW] * logu(1, 2) / 1e5) * 1e5;
	v[FK_ERASE_TIME] = round(logu(1e6, 5e6) / 1000) * 1000;
	v[FK_OPEN_AU] = 1 + pick(16);
	v[FK_OPEN_AU_RANDOM] = pick((unsigned)fmin(v[FK_OPEN_AU], 8) + 1);
	v[FK_FAT_AUS] = pick(3) ? 0 : 1 + pick(4);
	copy_ns = v[FK_ERASE] * 1e9 / v[FK_COPY_BW];
	if (v[FK_OPEN_AU] >= 3 && !pick(4)) {
		v[FK_LOG_AUS] = 1 + pick((unsigned)v[FK_OPEN_AU] - 2);
		v[FK_LOG_MERGE] = round(copy_ns * logu(0.02, 0.08) / 1000) * 1000;
	}
	v[FK_JITTER] = round(50 * unit_draw()) / 10;
	snprintf(c->spec, sizeof(c->spec), "size=%.0f,erase=%.0f,page=%.0f,read-lat=%.0fns,"
		 "read-bw=%.0f,page-cross=%.0fns,erase-cross=%.0fns,write-lat=%.0fns,"
		 "write-bw=%.0f,copy-bw=%.0f,erase-time=%.0fns,open-au=%.0f,open-au-random=%.0f,"
		 "fat-aus=%.0f,log-aus=%.0f,log-merge=%.0fns,jitter=%.1f,seed=%u",
		 v[FK_SIZE], v[FK_ERASE], v[FK_PAGE], v[FK_READ_LAT], v[FK_READ_BW],
		 v[FK_PAGE_CROSS], v[FK_ERASE_CROSS], v[FK_WRITE_LAT], v[FK_WRITE_BW], v[FK_COPY_BW],
		 v[FK_ERASE_TIME], v[FK_OPEN_AU], v[FK_OPEN_AU_RANDOM], v[FK_FAT_AUS],
		 v[FK_LOG_AUS], v[FK_LOG_MERGE], v[FK_JITTER], 1 + pick(100000));
}

/*
 * The small writes, from their own stream: a quarter of the cards pay
 * 0.5-5 ms for a write below the page, a quarter (independently) buffer
 * writes of 4-16 KiB, below the page (a buffer for what a page cannot
 * take whole), at a merge of 1-30 ms. Three in four of those are
 * surveyed with 4KiB blocks, the others with the default 16KiB.
 */
static void draw_small(struct truth *t)
{
	double *v = t->v;
	size_t u = strlen(t->spec);

	t->bs = 0;
	if (draw_from(&rng_small) < 0.25)
		v[FK_SUBPAGE] = round(0.5e6 * pow(10, draw_from(&rng_small)) / 1000) * 1000;
	if (draw_from(&rng_small) < 0.25 && v[FK_PAGE] > 4 * KiB) {
		v[FK_SMALL_BUFFER] = (double)((4 * KiB) << (unsigned)(draw_from(&rng_small) * 3));
		if (v[FK_SMALL_BUFFER] >= v[FK_PAGE])
			v[FK_SMALL_BUFFER] = v[FK_PAGE] / 2;
		v[FK_SMALL_MERGE] = round(1e6 * pow(30, draw_from(&rng_small)) / 1000) * 1000;
	}
	if (v[FK_SUBPAGE])
		u += (size_t)snprintf(t->spec + u, sizeof(t->spec) - u, ",subpage-write=%.0fns",
				      v[FK_SUBPAGE]);
	if (v[FK_SMALL_BUFFER])
		snprintf(t->spec + u, sizeof(t->spec) - u, ",small-buffer=%.0f,small-merge=%.0fns",
			 v[FK_SMALL_BUFFER], v[FK_SMALL_MERGE]);
	if ((v[FK_SUBPAGE] || v[FK_SMALL_BUFFER]) && draw_from(&rng_small) < 0.75)
		t->bs = 4 * KiB;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Right, left out (the verdict was not sure), rough (its standard error over half the
 * tolerance: the survey tells it no closer, fit_rough()), wrong. */
enum { RIGHT, UNSURE, ROUGH, WRONG, NTALLY };
static const enum fit_key exact[] = { FK_ERASE, FK_PAGE, FK_OPEN_AU, FK_OPEN_AU_RANDOM, FK_FAT_AUS };
/* Rates within 10%, times within 15% (log-merge where there is a merge regime). */
static const enum fit_key rates[] = { FK_READ_BW, FK_WRITE_BW, FK_COPY_BW };
static const enum fit_key times[] = { FK_READ_LAT, FK_PAGE_CROSS, FK_ERASE_CROSS, FK_WRITE_LAT,
				      FK_ERASE_TIME,
				      FK_LOG_MERGE };

static unsigned tally[FK_N][NTALLY];
/* The small keys' cards where the survey wrote blocks small enough to show them. */
static unsigned visible[FK_N], found[FK_N];
static double err[FK_N][MAX_CARDS];
static size_t nerr[FK_N];

static void survey_of(const char *spec, const struct fb_opts *o, uint64_t page,
		      struct twin_result *r)
{
	CHECK(twin_survey(o, spec, page, r) == 0);
}

/* One key against its truth: the exact ones counted, the others' errors kept. */
static void judge_key(const struct truth *t, const struct fit_card *c, enum fit_key k, bool is_exact,
		      double tol)
{
	double e;

	if (k == FK_LOG_MERGE && !t->v[FK_LOG_AUS])
		return;
	if (!c->known[k]) {
		if (getenv("FB_FIT_VERBOSE"))
			printf("left out: %s (%s), truth %g: sim:%s\n", fit_key_name(k), c->why[k],
			       t->v[k], t->spec);
		tally[k][UNSURE]++;
		return;
	}
	if (is_exact && c->nalt[k]) {
		/* uncertain: counted left out when the truth is among the values named */
		bool among = c->v[k] == t->v[k];

		for (unsigned a = 0; a < c->nalt[k]; a++)
			among |= c->alt[k][a] == t->v[k];
		if (getenv("FB_FIT_VERBOSE"))
			printf("uncertain: %s %g or %g%s, truth %g: sim:%s\n", fit_key_name(k), c->v[k],
			       c->alt[k][0], c->nalt[k] > 1 ? " or more" : "", t->v[k], t->spec);
		tally[k][among ? UNSURE : WRONG]++;
		CHECK(among);
		if (!among)
			printf("  %s %g (uncertain, its others not the truth either), truth %g: sim:%s\n",
			       fit_key_name(k), c->v[k], t->v[k], t->spec);
		return;
	}
	if (is_exact) {
		tally[k][c->v[k] == t->v[k] ? RIGHT : WRONG]++;
		CHECK(c->v[k] == t->v[k]);
		if (c->v[k] != t->v[k])
			printf("  %s %g, truth %g: sim:%s\n", fit_key_name(k), c->v[k], t->v[k], t->spec);
		return;
	}
	e = 100 * (c->v[k] / t->v[k] - 1);
	err[k][nerr[k]++] = fabs(e);
	if (fit_rough(c, k)) {
		if (getenv("FB_FIT_VERBOSE"))
			printf("rough: %s %g +- %g, truth %g (%+.1f%%): sim:%s\n", fit_key_name(k),
			       c->v[k], c->se[k], t->v[k], e, t->spec);
		tally[k][ROUGH]++;
		return;
	}
	tally[k][fabs(e) <= tol ? RIGHT : WRONG]++;
	CHECK(fabs(e) <= tol);
	if (fabs(e) > tol)
		printf("  %s %g, truth %g (%+.1f%%, beyond %.0f%%): sim:%s\n", fit_key_name(k), c->v[k],
		       t->v[k], e, tol, t->spec);
}

/*
 * A small key against its truth: a card without it must not get it; one
 * with it, where the survey's smallest block shows it (seen), gets it
 * within 15% (small-buffer exactly), or left out (counted so); unseen, it
 * is left out.
 */
static void judge_small(const struct truth *t, const struct fit_card *c, enum fit_key k, bool seen)
{
	bool ok;
	double e;

	if (k == FK_SMALL_MERGE && !t->v[FK_SMALL_BUFFER])
		return;
	visible[k] += seen && t->v[k] > 0;
	if (!c->known[k]) {
		tally[k][t->v[k] > 0 ? UNSURE : RIGHT]++;
		if (t->v[k] > 0 && getenv("FB_FIT_VERBOSE"))
			printf("left out: %s (%s), truth %g%s: sim:%s\n", fit_key_name(k),
			       c->why[k] ? c->why[k] : "not seen", t->v[k], seen ? ", seen" : "", t->spec);
		return;
	}
	e = t->v[k] > 0 ? 100 * (c->v[k] / t->v[k] - 1) : INFINITY;
	if (t->v[k] > 0 && fit_rough(c, k)) {
		if (getenv("FB_FIT_VERBOSE"))
			printf("rough: %s %g +- %g, truth %g (%+.1f%%): sim:%s\n", fit_key_name(k),
			       c->v[k], c->se[k], t->v[k], e, t->spec);
		err[k][nerr[k]++] = fabs(e);
		tally[k][ROUGH]++;
		found[k] += seen;	/* (found: the survey tells it no closer) */
		return;
	}
	/* (the buffer: the largest line it took, the next line not; the truth between) */
	ok = k == FK_SMALL_BUFFER ? t->v[k] > 0 && c->v[k] <= t->v[k] &&
				    (!c->buffer_next || t->v[k] < c->buffer_next) : fabs(e) <= 15;
	if (t->v[k] > 0 && k != FK_SMALL_BUFFER)
		err[k][nerr[k]++] = fabs(e);
	tally[k][ok ? RIGHT : WRONG]++;
	found[k] += seen && ok;
	CHECK(ok);
	if (!ok)
		printf("  %s %g, truth %g (-b %llu): sim:%s\n", fit_key_name(k), c->v[k], t->v[k],
		       (unsigned long long)(t->bs ? t->bs : 16 * KiB), t->spec);
}

/* Each open-AU probe's lines, as the time a write took (µs). */
static void print_probes(const struct fit_input *in)
{
	for (size_t i = 0; i < in->nprobe; i++) {
		const struct fit_probe *p = &in->probe[i];

		printf("  %s N=%u:", p->random ? "rnd" : "lin", p->nr);
		for (size_t k = 0; k < p->agg.n; k++)
			printf(" %.0f", oa_write_ns(&p->agg, k) / 1000);
		printf("\n");
	}
}

static bool one_card(struct truth *t, struct twin_result *card, struct twin_result *twin)
{
	struct fb_opts o;
	struct twin_judgement j;
	struct fit_card c;
	char spec[1024];
	uint64_t smallest;
	static unsigned long nth;

	draw_card(t);
	draw_small(t);
	/* (FB_FIT_ONLY=N: the Nth card alone, the others drawn and passed over; =list: each
	 * card's number and spec, none surveyed) */
	if (getenv("FB_FIT_ONLY") && strcmp(getenv("FB_FIT_ONLY"), "list") == 0) {
		printf("card %lu: sim:%s (-b %llu)\n", nth++, t->spec,
		       (unsigned long long)(t->bs ? t->bs : 16 * KiB));
		return true;
	}
	if (getenv("FB_FIT_ONLY") && nth++ != strtoul(getenv("FB_FIT_ONLY"), NULL, 0))
		return true;
	opts_defaults(&o);
	fb_tests_defaults();
	o.erasesize = 0;	/* the survey's -a finds it */
	if (t->bs)
		o.blocksize = t->bs;	/* (the searches' smallest block; -a keeps its own) */
	/* the probes' smallest line: from an eighth of the erase block, halving down to the
	 * block size (modules/findopenau.c) -- only below it can the small keys show */
	smallest = (uint64_t)t->v[FK_ERASE] / 8;
	if (smallest < 8 * o.blocksize)
		smallest = (uint64_t)t->v[FK_ERASE];
	while (smallest / 2 >= o.blocksize)
		smallest /= 2;
	survey_of(t->spec, &o, 0, card);
	/* the twin: the same tests, with the erase size the card's search used */
	o.erasesize = card->facts.va.erase;
	o.erasesize_set = true;
	o.offset = card->in.offset;
	fit_card(&card->in, &card->facts, &c);
	if (getenv("FB_FIT_VERBOSE"))
		printf("first fit: write-lat %.0f write-bw %.0f copy-bw %.0f oa %g%s oar %g%s fat %g%s\n",
		       c.v[FK_WRITE_LAT], c.v[FK_WRITE_BW], c.v[FK_COPY_BW], c.v[FK_OPEN_AU],
		       c.known[FK_OPEN_AU] ? "" : "?", c.v[FK_OPEN_AU_RANDOM],
		       c.known[FK_OPEN_AU_RANDOM] ? "" : "?", c.v[FK_FAT_AUS],
		       c.known[FK_FAT_AUS] ? "" : "?");
	CHECK(twin_refine(&o, card->facts.va.page_state == VA_FOUND ? card->facts.va.page : 0,
			  &card->in, &card->facts, &c, twin) == 0);
	fit_card_spec(&c, spec, sizeof(spec));
	twin_judge(&card->in, &card->facts, twin, &j);
	if (getenv("FB_FIT_VERBOSE"))
		printf("card: truth oa %g oar %g fat %g | lin %u/%u rnd %u/%u (runs %u) ff %d/%u | fit %g %g %g\n",
		       t->v[FK_OPEN_AU], t->v[FK_OPEN_AU_RANDOM], t->v[FK_FAT_AUS],
		       card->facts.oa[0].fast, card->facts.oa[0].slow, card->facts.oa[1].fast,
		       card->facts.oa[1].slow, card->facts.oa_runs[1], card->facts.ff.state,
		       card->facts.ff.area, c.v[FK_OPEN_AU], c.v[FK_OPEN_AU_RANDOM], c.v[FK_FAT_AUS]);
	if (getenv("FB_FIT_VERBOSE")) {
		printf("spec: sim:%s\n", spec);
		print_probes(&card->in);
		printf("twin: lin %u/%u rnd %u/%u (runs %u) ff %d/%u\n", twin->facts.oa[0].fast,
		       twin->facts.oa[0].slow, twin->facts.oa[1].fast, twin->facts.oa[1].slow,
		       twin->facts.oa_runs[1], twin->facts.ff.state, twin->facts.ff.area);
		print_probes(&twin->in);
	}
	CHECK(j.same);
	if (!j.same)
		printf("  the twin sim:%s of sim:%s: erase %d page %d linear %d random %d fat %d\n",
		       spec, t->spec, j.erase_same, j.page_same, j.lin_same, j.rnd_same, j.fat_same);
	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		judge_key(t, &c, exact[i], true, 0);
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		judge_key(t, &c, rates[i], false, 10);
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++)
		judge_key(t, &c, times[i], false, 15);
	judge_small(t, &c, FK_SUBPAGE, smallest % (uint64_t)t->v[FK_PAGE] != 0);
	judge_small(t, &c, FK_SMALL_BUFFER, t->v[FK_SMALL_BUFFER] >= (double)smallest);
	judge_small(t, &c, FK_SMALL_MERGE, t->v[FK_SMALL_BUFFER] >= (double)smallest);
	return j.same;
}

static void print_errors(void)
{
	printf("fit: %-14s %5s %6s %8s %6s %6s %8s %6s %6s\n", "key", "cards", "right", "left out",
	       "rough", "wrong", "median%", "90%", "max%");
	for (int k = 0; k < FK_N; k++) {
		double *e = err[k];
		size_t n = nerr[k];
		unsigned all = tally[k][RIGHT] + tally[k][UNSURE] + tally[k][ROUGH] + tally[k][WRONG];

		if (!all)
			continue;
		qsort(e, n, sizeof(e[0]), cmp_double);
		printf("fit: %-14s %5u %6u %8u %6u %6u", fit_key_name(k), all, tally[k][RIGHT],
		       tally[k][UNSURE], tally[k][ROUGH], tally[k][WRONG]);
		if (n)
			printf(" %8.2f %6.2f %6.2f", stats_median(e, n),
			       e[(size_t)(0.9 * (double)(n - 1))], e[n - 1]);
		printf("\n");
	}
}

int main(int argc, char **argv)
{
	unsigned cards = argc > 1 ? (unsigned)atoi(argv[1]) : 60, same = 0;
	struct twin_result *card = calloc(1, sizeof(*card)), *twin = calloc(1, sizeof(*twin));
	struct truth t;

	if (getenv("FB_FIT_SEED")) {
		rng ^= strtoull(getenv("FB_FIT_SEED"), NULL, 0) * 0x9e3779b97f4a7c15ull;
		rng_small ^= strtoull(getenv("FB_FIT_SEED"), NULL, 0) * 0x2545f4914f6cdd1dull;
	}
	if (cards > MAX_CARDS)
		cards = MAX_CARDS;
	CHECK(card && twin);
	for (unsigned i = 0; card && twin && i < cards; i++) {
		/* (FB_FIT_ONLY: one_card passes over the others) */
		if (getenv("FB_FIT_VERBOSE") && !getenv("FB_FIT_ONLY"))
			printf("card %u of the draw\n", i);
		same += one_card(&t, card, twin);
	}
	print_errors();
	printf("fit: the twin reached the card's verdicts on %u of %u cards\n", same, cards);
	/* left out only where a verdict was not sure: the geometry never */
	CHECK(tally[FK_ERASE][UNSURE] + tally[FK_PAGE][UNSURE] == 0);
	/* rough only now and then: a card whose lines are few and noisy */
	for (int k = 0; k < FK_N; k++)
		CHECK(tally[k][ROUGH] * 6 <= cards);
	/* the small keys found on most cards whose survey could show them */
	printf("fit: the survey could show subpage-write on %u cards: found on %u (rough or right); "
	       "small-buffer on %u: found on %u\n", visible[FK_SUBPAGE], found[FK_SUBPAGE], visible[FK_SMALL_BUFFER],
	       found[FK_SMALL_BUFFER]);
	CHECK(4 * found[FK_SUBPAGE] >= 3 * visible[FK_SUBPAGE] &&
	      4 * found[FK_SMALL_BUFFER] >= 3 * visible[FK_SMALL_BUFFER]);
	free(card);
	free(twin);
	UNIT_DONE();
}
