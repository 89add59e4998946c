/*
 * Readahead tables read back (saved_readahead.h) and judged by the
 * plateau rule (verdict_readahead.h): the two tables of seed 001 as
 * mailed, where Wu Fengguang marks 4M and a fixed 5% band gives 2M;
 * our own rows; runs that disagree where the plateau is decided.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "saved/saved_output.h"
#include "saved/saved_readahead.h"
#include "verdicts/verdict_readahead.h"
#include "unit.h"

#define KiB 1024ull
#define MiB (1024 * KiB)
#define SEED "tests/fixtures/seeds/001_776ea3fbf29b988e.txt"

struct tables {
	struct sr_table t[4];
	size_t n;
	unsigned headers[4];
	unsigned long long line;
};

static void collect(void *ctx, const struct so_line *l)
{
	struct tables *g = ctx;

	if (l->kind == SO_RA_HEADER && g->n < 4) {
		g->headers[g->n] = l->runs;
		sr_init(&g->t[g->n++]);
	} else if (l->kind == SO_RA_ROW && g->n) {
		CHECK(!l->bare);	/* the mail's rows carry MB/s */
		CHECK(sr_add(&g->t[g->n - 1], l, g->line) == 0);
	}
}

static void seed_001(void)
{
	static struct tables g;
	char line[512];
	FILE *f = fopen(SEED, "r");
	struct vr_result r;

	CHECK(f != NULL);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		g.line++;
		so_scan(line, collect, &g);
	}
	fclose(f);
	CHECK(g.n == 2);
	for (size_t k = 0; k < g.n && k < 2; k++) {
		const struct sr_table *t = &g.t[k];

		CHECK(g.headers[k] == 2 && t->runs == 2 && t->n == 11);
		CHECK(t->size[0] == 4 * KiB && t->size[6] == 512 * KiB && t->size[10] == 8 * MiB);
		CHECK(t->size[7] == 1 * MiB);	/* "1M" in the first, "1024k" in the second */
		CHECK(t->marked == 9 && t->size[t->marked] == 4 * MiB);	/* his "==>" */
		vr_judge(t, 0, &r);
		CHECK(r.judged && !r.disagree && t->size[r.at] == 4 * MiB);
		CHECK(t->size[r.below] == 2 * MiB && t->size[r.over] == 4 * MiB);
		/* today's fixed band: 259 and 258 are within 5% of 269 and 266 */
		vr_judge(t, 5, &r);
		CHECK(t->size[r.at] == 2 * MiB);
	}
	CHECK(g.t[0].rate[9][0] == 269e6 && g.t[0].rate[9][1] == 264e6);
	/* the second table's 64k runs (125, 144 MB/s) disagree: said, and
	 * far below the plateau, so it is still named */
	vr_judge(&g.t[1], 0, &r);
	CHECK(r.ndis == 1 && g.t[1].size[r.dis[0]] == 64 * KiB);
	vr_judge(&g.t[0], 0, &r);
	CHECK(r.ndis == 0);
}

static struct sr_table *table(const double (*rate)[2], size_t n, unsigned runs)
{
	static struct sr_table t;

	sr_init(&t);
	t.runs = runs;
	for (size_t i = 0; i < n; i++, t.n++) {
		t.size[i] = (64 * KiB) << i;
		t.rate[i][0] = rate[i][0] * 1e6;
		t.rate[i][1] = rate[i][1] * 1e6;
	}
	return &t;
}

static void rules(void)
{
	/* a slow climb of small steps, each within the 3% spread, is no plateau
	 * until it ends: judged against every larger size */
	static const double climb[][2] = { { 100, 103 }, { 102, 105 }, { 104, 107 }, { 106, 109 },
					   { 108, 111 }, { 110, 113 }, { 110, 113 } };
	/* the loop device of issue 20: first runs from the page cache */
	static const double wild[][2] = { { 900, 910 }, { 7800, 7888 }, { 7850, 1124 },
					  { 7880, 3377 }, { 7870, 2001 } };
	/* one run: 1% is the noise */
	static const double one[][2] = { { 100, NAN }, { 150, NAN }, { 151, NAN }, { 149, NAN } };
	struct vr_result r;
	struct sr_table *t;

	t = table(climb, 7, 2);
	vr_judge(t, 0, &r);
	CHECK(r.judged && !r.disagree && r.at == 4);	/* 108-111 vs the best 110-113 */
	t = table(wild, 5, 2);
	vr_judge(t, 0, &r);
	CHECK(r.judged && r.disagree && r.ndis == 3);
	t = table(one, 4, 1);
	vr_judge(t, 0, &r);
	CHECK(r.judged && !r.disagree && r.at == 1 && r.runs == 1);
}

/* Our own rows: MB/s without a unit, then %CPU; "-" not measured. */
static void ours(void)
{
	struct so_line l;

	so_classify("==> 128KiB       24.0       24.1        3.1          -", &l);
	CHECK(l.kind == SO_RA_ROW && l.mark && l.bare && l.size == 128 * KiB && l.nrates == 2);
	so_classify("      size   1st MB/s   2nd MB/s   3rd MB/s   1st %CPU   2nd %CPU   3rd %CPU", &l);
	CHECK(l.kind == SO_RA_HEADER && l.runs == 3);
	so_classify("        rasize  1st             2nd", &l);
	CHECK(l.kind == SO_RA_HEADER && l.runs == 2);
	so_classify("    4KiB 5.21 5.21 -", &l);	/* odd: not our row */
	CHECK(l.kind == SO_SKIP);
	so_classify("4096,false,5209989.5,5209990.5,,", &l);
	CHECK(l.kind == SO_RA_ROW && l.bare && !l.mark && l.size == 4096 && l.nrates == 2);
	so_classify("size_bytes,plateau,rate_bps_1,rate_bps_2,cpu_pct_1,cpu_pct_2", &l);
	CHECK(l.kind == SO_RA_HEADER && l.runs == 2);
	so_classify("readahead: O_DIRECT reads of each size, 16MiB from offset 0B of sim:sd", &l);
	CHECK(l.kind == SO_COMMAND && l.is_readahead && !l.buffered);
	so_classify("# readahead: buffered 16KiB reads of 4MiB from offset 0B of /dev/loop0", &l);
	CHECK(l.kind == SO_COMMAND && l.is_readahead && l.buffered);
	so_classify("> 2.6.39.4  269.73  50.3  162.03  10.9  161.58  10.9  161.64  11.0", &l);
	CHECK(l.kind == SO_SKIP);	/* the seed's other table: no sizes */
	so_classify("# device: the card, as mailed", &l);
	CHECK(l.kind != SO_OURS);
}

int main(void)
{
	seed_001();
	rules();
	ours();
	UNIT_DONE();
}
