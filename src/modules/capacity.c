/*
 * --capacity: is the advertised size real? A quick check in the manner
 * of f3probe: stamped blocks (modules/stamp.h) at 64 positions spread over
 * the whole device, written in increasing order and read back. A card
 * that keeps only W bytes and wraps (offset o lands on o mod W) shows
 * its low blocks holding what was written W further on; one that drops
 * writes past its real end shows blocks that never arrived. Then a
 * second round of 64 blocks inside the one interval where the trouble
 * starts narrows the end down to 1/4096 of the device: a few hundred
 * kilobytes written in all, seconds rather than the hours of a full
 * write and read.
 *
 * Every block either round may write is announced as a region before
 * the first write (64 x 64 blocks), so the guard and --preserve work as
 * for any write test: --preserve backs up those 4096 blocks, 16 MiB.
 * The wrap-around distance found is the smallest at which two probes
 * land on the same block: W itself when W is a multiple of round 1's
 * spacing, or below it and a multiple of round 2's (fake cards wrap at a
 * power of two), else a multiple of W -- so the verdict says "at most".
 */
#include <stdlib.h>

#include "core/engine.h"
#include "core/units.h"
#include "modules/stamp.h"
#include "modules/test.h"
#include "verdicts/advice.h"
#include "verdicts/facts.h"

#define PROBES 64

/* One round: "round 1: 65 blocks 64MiB apart from 0B: 32 bad (32 wrapped, ...), first bad at 0B". */
static void cap_text(char *line, size_t len, const union out_val *v)
{
	char g[FB_FMT_LEN], a[FB_FMT_LEN], fb[FB_FMT_LEN];

	snprintf(line, len, "round %llu: %llu blocks %s apart from %s: %llu bad (%llu wrapped, "
		 "%llu dropped, %llu other), first bad at %s", (unsigned long long)v[0].u,
		 (unsigned long long)v[1].u, fmt_size(g, sizeof(g), v[2].u),
		 fmt_size(a, sizeof(a), v[3].u), (unsigned long long)v[4].u,
		 (unsigned long long)v[5].u, (unsigned long long)v[6].u,
		 (unsigned long long)v[7].u, v[4].u ? fmt_size(fb, sizeof(fb), v[8].u) : "-");
}

static const struct out_field cap_fields[] = {
	{ "round", OT_COUNT }, { "blocks", OT_COUNT }, { "spacing_bytes", OT_BYTES },
	{ "start_bytes", OT_BYTES }, { "bad", OT_COUNT }, { "wrapped", OT_COUNT },
	{ "dropped", OT_COUNT }, { "other", OT_COUNT }, { "first_bad_bytes", OT_BYTES },
};

static const struct out_table cap_table = { "capacity", cap_fields, 9, cap_text, NULL };

/* The probe grid: round 1 every g1 bytes, round 2 every g2 inside one of them. */
struct grid {
	uint64_t size, bs, g1, g2;
	unsigned n1, n2;
};

/* Blocks of 4 KiB: the regions are taken before the device's sector size is at hand. */
#define BLOCK 4096

static void grid_of(uint64_t size, struct grid *g)
{
	g->size = size;
	g->bs = BLOCK;
	g->g1 = size / PROBES / g->bs * g->bs;
	if (g->g1 < g->bs)
		g->g1 = g->bs;
	g->n1 = (unsigned)(size / g->g1 < PROBES ? size / g->g1 : PROBES);
	g->g2 = g->g1 / PROBES / g->bs * g->bs;
	if (g->g2 < g->bs)
		g->g2 = g->bs;
	g->n2 = (unsigned)(g->g1 / g->g2 < PROBES ? g->g1 / g->g2 : PROBES);
}

static size_t cap_regions(const struct fb_opts *o, uint64_t size, struct region *r, size_t max,
			  uint64_t *end)
{
	struct grid g;
	size_t n = 0;

	(void)o;
	*end = 0;
	if (size < 2 * BLOCK)
		return 0;
	grid_of(size, &g);
	for (unsigned k = 0; k < g.n1; k++)
		for (unsigned j = 0; j < g.n2; j++, n++)
			if (n < max)
				r[n] = (struct region){ k * g.g1 + j * g.g2, g.bs };
	if (n < max)
		r[n] = (struct region){ size - g.bs, g.bs };
	*end = size;
	return n + 1;
}

/* One round's probes, increasing; the last block of the device closes round 1. */
struct round {
	unsigned no, n;
	uint64_t start, step;
	uint64_t off[PROBES + 1];
	enum stamp_class c[PROBES + 1];
	struct stamp_tally tally;
};

static void round_init(struct round *r, unsigned no, uint64_t start, uint64_t step,
		       unsigned n, const struct grid *g, uint64_t run)
{
	r->no = no;
	r->start = start;
	r->step = step;
	r->n = n;
	for (unsigned i = 0; i < n; i++)
		r->off[i] = start + i * step;
	if (no == 1 && r->off[n - 1] != g->size - g->bs)
		r->off[r->n++] = g->size - g->bs;
	stamp_tally_init(&r->tally, run);
}

static int round_run(struct target *t, void *buf, const struct grid *g, struct round *r,
		     uint64_t *written, uint64_t *ns_all)
{
	uint64_t ns;
	int e = FB_OK;

	for (unsigned i = 0; i < r->n && e == FB_OK; i++) {
		stamp_put(buf, (size_t)g->bs, r->off[i], r->tally.run);
		e = eng_write(t, buf, (size_t)g->bs, r->off[i], &ns);
		*written += g->bs;
		*ns_all += ns;
	}
	for (unsigned i = 0; i < r->n && e == FB_OK; i++) {
		e = eng_read(t, buf, (size_t)g->bs, r->off[i], &ns);
		if (e == FB_OK)
			r->c[i] = stamp_check(&r->tally, buf, (size_t)g->bs, r->off[i]);
		*ns_all += ns;
	}
	if (e == FB_OK) {
		const struct stamp_tally *s = &r->tally;

		out_row(&cap_table, (union out_val[]){
			{ .u = r->no }, { .u = r->n }, { .u = r->step }, { .u = r->start },
			{ .u = s->bad }, { .u = s->n[ST_WRAPPED] }, { .u = s->n[ST_DROPPED] },
			{ .u = s->bad - s->n[ST_WRAPPED] - s->n[ST_DROPPED] },
			{ .u = s->bad ? s->first_bad : 0 } });
	}
	return e;
}

/* The last good probe below the first lost one: where round 2 looks. */
static uint64_t good_below(const struct round *r, uint64_t lost)
{
	uint64_t at = 0;

	for (unsigned i = 0; i < r->n && r->off[i] < lost; i++)
		if (r->c[i] == ST_GOOD)
			at = r->off[i];
	return at;
}

/*
 * Where the device's real end lies, from round r: *lo the end of what
 * holds for sure, *hi the first byte known lost (lo == hi: exact).
 * False when the round found nothing wrong.
 */
static bool real_end(const struct round *r, const struct grid *g, uint64_t *lo, uint64_t *hi)
{
	const struct stamp_tally *s = &r->tally;

	if (!s->bad)
		return false;
	if (s->n[ST_WRAPPED] && s->period && s->period <= s->first_lost) {
		*lo = *hi = s->period;
		return true;
	}
	*hi = s->first_lost;
	*lo = good_below(r, s->first_lost) + g->bs;
	if (*lo > *hi)
		*lo = *hi;
	return true;
}

/* Smaller than it claims: --advise uses the real size, and the partition
 * table for it is printed here (what f3fix writes). */
static void real_size_advice(uint64_t real, uint64_t claimed, uint32_t sector)
{
	static struct adv a;

	vf_capacity(real);
	adv_real_size(real, claimed, sector, &a);
	adv_print(&a);
}

static void verdict(const struct round *r, const struct grid *g, uint64_t lo, uint64_t hi,
		    uint64_t written, uint64_t ns, uint32_t sector)
{
	struct out_verdict v = { .label = "capacity", .name = "capacity", .result = "real",
				 .has_value = true, .value = g->size, .unit = "bytes" };
	char a[FB_FMT_LEN], b[FB_FMT_LEN], w[FB_FMT_LEN], tm[FB_FMT_LEN];

	out_note("wrote %s in %u rounds, %s of device time", fmt_size(w, sizeof(w), written),
		 r->no, fmt_time(tm, sizeof(tm), (double)ns));
	if (!r->tally.bad && r->no == 1) {
		out_verdict(&v, "real: all %s hold what was written at the %u places tried",
			    fmt_size(a, sizeof(a), g->size), r->n);
		return;
	}
	v.value = lo;
	if (lo == hi && r->tally.n[ST_WRAPPED]) {
		v.result = "wrapped";
		out_verdict(&v, "wrapped: the device keeps at most %s of the %s it reports "
			    "(writes %s apart land on the same blocks)", fmt_size(a, sizeof(a), lo),
			    fmt_size(b, sizeof(b), g->size), fmt_size(w, sizeof(w), lo));
	} else {
		v.result = "lost";
		out_verdict(&v, "lost: blocks written from %s on do not hold; the real end lies "
			    "between bytes %llu and %llu", fmt_size(a, sizeof(a), hi),
			    (unsigned long long)lo, (unsigned long long)hi);
	}
	real_size_advice(lo, g->size, sector);
}

static int cap_run(const struct fb_opts *o, struct target *t)
{
	struct grid g;
	struct round *r = calloc(2, sizeof(*r));
	uint64_t lo = 0, hi = 0, written = 0, ns = 0, run = stamp_run_id();
	void *buf;
	int e;

	(void)o;
	grid_of(t->size, &g);
	buf = eng_buffer(t, (size_t)g.bs);
	if (!r || !buf) {
		free(r);
		eng_buffer_free(buf);
		return FB_EDEV;
	}
	round_init(&r[0], 1, 0, g.g1, g.n1, &g, run);
	e = round_run(t, buf, &g, &r[0], &written, &ns);
	/*
	 * Round 2 inside the step where the blocks stop holding; for a wrap,
	 * inside the first step: a wrap at W that round 1's steps do not
	 * divide shows there as a distance they miss.
	 */
	if (e == FB_OK && real_end(&r[0], &g, &lo, &hi) && g.g2 < g.g1) {
		uint64_t start = lo == hi ? 0 : lo - g.bs;

		round_init(&r[1], 2, start / g.g1 * g.g1, g.g2, g.n2, &g, run);
		e = round_run(t, buf, &g, &r[1], &written, &ns);
		if (e == FB_OK && !real_end(&r[1], &g, &lo, &hi))
			r[1].tally = r[0].tally;	/* nothing new: round 1's answer stands */
	}
	if (e == FB_OK || e == FB_EINTR)
		verdict(&r[r[1].no ? 1 : 0], &g, lo, hi, written, ns, t->sector);
	free(r);
	eng_buffer_free(buf);
	return e;
}

static int cap_check_target(const struct fb_opts *o, const struct target *t, char *err,
			    size_t len)
{
	(void)o;
	if (t->data_discarded) {
		snprintf(err, len, "--capacity: %s keeps no data (a simulated card needs "
			 "image=PATH)", t->path);
		return FB_EUSAGE;
	}
	if (t->size < 2 * BLOCK || t->zone_size || BLOCK % t->sector) {
		snprintf(err, len, "--capacity: %s is %s", t->path,
			 t->zone_size ? "a zoned device; not supported" :
			 BLOCK % t->sector ? "of sectors larger than its 4KiB blocks" :
			 "too small to probe");
		return FB_EUSAGE;
	}
	return FB_OK;
}

static const char *const cap_uses[] = { NULL };

const struct fb_test test_capacity = {
	.name = "capacity",
	.help = "is the advertised size real? stamped blocks spread over\n"
		"the device, read back, the real end narrowed down (writes)",
	.writes = true,
	.uses = cap_uses,
	.check_target = cap_check_target,
	.regions = cap_regions,
	.run = cap_run,
	.tables = (const struct out_table *const[]){ &cap_table, NULL },
};
