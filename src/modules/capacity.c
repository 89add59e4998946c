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
 * spacing, or below it and a multiple of round 2's, else a multiple of
 * W -- so the verdict says "at most". A W that is no multiple of round
 * 1's spacing (a "64 GB" card keeping 58 GiB) lands no two of its probes
 * on one block, so a clean round 1 is followed by the wrap search (see
 * comb_of), which finds any W below the device's size.
 */
#include <stdlib.h>

#include "core/engine.h"
#include "core/units.h"
#include "modules/stamp.h"
#include "modules/test.h"
#include "advice/advice.h"
#include "verdicts/facts.h"

#define PROBES 64

/*
 * One round: "round 1: 65 blocks 64MiB apart from 0B: 32 bad (32 wrapped,
 * ...), first bad at 0B"; the wrap search says "round 2: 1811 blocks:
 * 5.66MiB whole from 0B, then 5.66MiB apart from 2GiB: ...".
 */
static void cap_text(char *line, size_t len, const union out_val *v)
{
	char g[FB_FMT_LEN], a[FB_FMT_LEN], fb[FB_FMT_LEN], w[FB_FMT_LEN], head[FB_FMT_LEN * 3 + 64];

	if (v[9].u)
		snprintf(head, sizeof(head), "blocks: %s whole from 0B, then",
			 fmt_size(w, sizeof(w), v[9].u));
	else
		snprintf(head, sizeof(head), "blocks");
	snprintf(line, len, "round %llu: %llu %s %s apart from %s: %llu bad (%llu wrapped, "
		 "%llu dropped, %llu other), first bad at %s", (unsigned long long)v[0].u,
		 (unsigned long long)v[1].u, head, fmt_size(g, sizeof(g), v[2].u),
		 fmt_size(a, sizeof(a), v[3].u), (unsigned long long)v[4].u,
		 (unsigned long long)v[5].u, (unsigned long long)v[6].u,
		 (unsigned long long)v[7].u, v[4].u ? fmt_size(fb, sizeof(fb), v[8].u) : "-");
}

static const struct out_field cap_fields[] = {
	{ "round", OT_COUNT }, { "blocks", OT_COUNT }, { "spacing_bytes", OT_BYTES },
	{ "start_bytes", OT_BYTES }, { "bad", OT_COUNT }, { "wrapped", OT_COUNT },
	{ "dropped", OT_COUNT }, { "other", OT_COUNT }, { "first_bad_bytes", OT_BYTES },
	{ "whole_bytes", OT_BYTES },
};

static const struct out_table cap_table = { "capacity", cap_fields, 10, cap_text, NULL };

/* The probe grid: round 1 every g1 bytes, round 2 every g2 inside one of them. */
struct grid {
	uint64_t size, bs, g1, g2;
	unsigned n1, n2;
};

/* Blocks of 4 KiB: the regions are taken before the device's sector size is at hand. */
#define BLOCK 4096

/* The probed size: whole blocks (a device of 512-byte sectors may end inside one). */
static void grid_of(uint64_t size, struct grid *g)
{
	g->size = size / BLOCK * BLOCK;
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

/*
 * One round's probes, increasing; the last block of the device closes
 * round 1. Round 2 after a clean round 1 (the wrap search) also writes
 * the first `whole` bytes block by block before its probes.
 */
struct round {
	unsigned no;
	size_t n;
	uint64_t start, step, whole;
	uint64_t *off;
	enum stamp_class *c;
	struct stamp_tally tally;
};

static int round_alloc(struct round *r, unsigned no, size_t n, uint64_t run)
{
	r->no = no;
	r->n = 0;
	r->start = r->step = r->whole = 0;
	r->off = calloc(n, sizeof(*r->off));
	r->c = calloc(n, sizeof(*r->c));
	stamp_tally_init(&r->tally, run);
	return r->off && r->c ? FB_OK : FB_EDEV;
}

static void round_free(struct round *r)
{
	free(r->off);
	free(r->c);
}

static void round_init(struct round *r, uint64_t start, uint64_t step, unsigned n,
		       const struct grid *g)
{
	r->start = start;
	r->step = step;
	for (unsigned i = 0; i < n; i++)
		r->off[r->n++] = start + i * step;
	if (r->no == 1 && r->off[r->n - 1] != g->size - g->bs)
		r->off[r->n++] = g->size - g->bs;
}

/*
 * The wrap search, for a card whose wrap-around round 1's steps missed
 * (a real size that is not a power of two: they never land two probes
 * on one block). The first L blocks whole, then probes L blocks apart
 * from the last block down to the middle of the device: a card that
 * keeps W bytes (W below the device's size) lands one probe inside the
 * first L blocks, since some multiple of W lies in the probes' span and
 * they leave no gap of L; a W below L wraps the whole stretch onto
 * itself. L is about the square root of twice the blocks, so both parts
 * stay small: 5.7 MiB and 362 probes on 4 GiB, 90 MiB and 5793 probes
 * on 1 TiB.
 */
struct comb {
	uint64_t whole_blocks, step_blocks;
	size_t probes;
};

static bool comb_of(const struct grid *g, struct comb *c)
{
	uint64_t nb = g->size / g->bs, l = 1;

	while (l * l < 2 * nb)
		l++;
	c->whole_blocks = l;
	c->step_blocks = l;
	c->probes = 0;
	if (2 * l >= nb)
		return false;	/* too small for a wrap search: round 1 saw every step */
	for (uint64_t p = nb - 1; p >= l; p -= l) {
		c->probes++;
		if (p <= nb / 2 || p < 2 * l)
			break;
	}
	return true;
}

/* The comb's offsets, increasing: the whole stretch, then the probes. */
static void comb_init(struct round *r, const struct grid *g, const struct comb *c)
{
	uint64_t nb = g->size / g->bs;

	r->whole = c->whole_blocks * g->bs;
	r->step = c->step_blocks * g->bs;
	for (uint64_t b = 0; b < c->whole_blocks; b++)
		r->off[r->n++] = b * g->bs;
	r->start = (nb - 1 - (c->probes - 1) * c->step_blocks) * g->bs;
	for (size_t k = 0; k < c->probes; k++)
		r->off[r->n++] = r->start + k * r->step;
}

static void put_region(struct region *r, size_t max, size_t *n, uint64_t off, uint64_t len)
{
	if (*n < max)
		r[*n] = (struct region){ off, len };
	(*n)++;
}

/* Every block either round 2 may write, and the wrap search's, before the first write. */
static size_t cap_regions(const struct fb_opts *o, uint64_t size, struct region *r, size_t max,
			  uint64_t *end)
{
	struct grid g;
	struct comb c;
	size_t n = 0;

	(void)o;
	*end = 0;
	if (size < 2 * BLOCK)
		return 0;
	grid_of(size, &g);
	for (unsigned k = 0; k < g.n1; k++)
		for (unsigned j = 0; j < g.n2; j++)
			put_region(r, max, &n, k * g.g1 + j * g.g2, g.bs);
	put_region(r, max, &n, g.size - g.bs, g.bs);
	if (comb_of(&g, &c)) {
		uint64_t nb = g.size / g.bs, low = nb - 1 - (c.probes - 1) * c.step_blocks;

		put_region(r, max, &n, 0, c.whole_blocks * g.bs);
		for (size_t k = 0; k < c.probes; k++)
			put_region(r, max, &n, (low + k * c.step_blocks) * g.bs, g.bs);
	}
	*end = g.size;
	return n;
}

#define CHUNK 64	/* blocks per request where the offsets follow on each other */

/* How many of the offsets from i on follow on each other, at most CHUNK. */
static size_t run_len(const struct round *r, size_t i, uint64_t bs)
{
	size_t k = 1;

	while (k < CHUNK && i + k < r->n && r->off[i + k] == r->off[i] + k * bs)
		k++;
	return k;
}

static int round_io(struct target *t, unsigned char *buf, const struct grid *g,
		    struct round *r, bool write, uint64_t *ns_all)
{
	uint64_t ns;
	int e = FB_OK;

	for (size_t i = 0; i < r->n && e == FB_OK; ) {
		size_t k = run_len(r, i, g->bs), len = (size_t)(k * g->bs);

		if (write) {
			for (size_t j = 0; j < k; j++)
				stamp_put(buf + j * g->bs, (size_t)g->bs, r->off[i + j], r->tally.run);
			e = eng_write(t, buf, len, r->off[i], &ns);
		} else {
			e = eng_read(t, buf, len, r->off[i], &ns);
			for (size_t j = 0; j < k && e == FB_OK; j++)
				r->c[i + j] = stamp_check(&r->tally, buf + j * g->bs,
							  (size_t)g->bs, r->off[i + j]);
		}
		*ns_all += ns;
		i += k;
	}
	return e;
}

static int round_run(struct target *t, void *buf, const struct grid *g, struct round *r,
		     uint64_t *written, uint64_t *ns_all)
{
	int e = round_io(t, buf, g, r, true, ns_all);

	if (e == FB_OK) {
		*written += r->n * g->bs;
		e = round_io(t, buf, g, r, false, ns_all);
	}
	if (e == FB_OK) {
		const struct stamp_tally *s = &r->tally;

		out_row(&cap_table, (union out_val[]){
			{ .u = r->no }, { .u = r->n }, { .u = r->step }, { .u = r->start },
			{ .u = s->bad }, { .u = s->n[ST_WRAPPED] }, { .u = s->n[ST_DROPPED] },
			{ .u = s->bad - s->n[ST_WRAPPED] - s->n[ST_DROPPED] },
			{ .u = s->bad ? s->first_bad : 0 }, { .u = r->whole } });
	}
	return e;
}

/* The last good probe below the first lost one: where round 2 looks. */
static uint64_t good_below(const struct round *r, uint64_t lost)
{
	uint64_t at = 0;

	for (size_t i = 0; i < r->n && r->off[i] < lost; i++)
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

static void verdict(const struct round *r, const struct grid *g, size_t places, bool bad,
		    uint64_t lo, uint64_t hi, uint64_t written, uint64_t ns, uint32_t sector)
{
	struct out_verdict v = { .label = "capacity", .name = "capacity", .result = "real",
				 .has_value = true, .value = g->size, .unit = "bytes" };
	char a[FB_FMT_LEN], b[FB_FMT_LEN], w[FB_FMT_LEN], tm[FB_FMT_LEN];

	out_note("wrote %s in %u rounds, %s of device time", fmt_size(w, sizeof(w), written),
		 r->no, fmt_time(tm, sizeof(tm), (double)ns));
	if (!bad) {
		out_verdict(&v, "real: all %s hold what was written at the %zu places tried",
			    fmt_size(a, sizeof(a), g->size), places);
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

/*
 * Round 2: inside the step where the blocks stop holding; for a wrap,
 * inside the first step (a wrap at W that round 1's steps do not divide
 * shows there as a distance they miss); after a clean round 1, the wrap
 * search.
 */
static int round_two(struct target *t, void *buf, const struct grid *g, struct round *r,
		     bool *bad, uint64_t *lo, uint64_t *hi, uint64_t *written, uint64_t *ns)
{
	struct comb c;
	int e;

	if ((*bad = real_end(&r[0], g, lo, hi))) {
		uint64_t start = *lo == *hi ? 0 : *lo - g->bs;

		if (g->g2 >= g->g1)
			return FB_OK;
		if ((e = round_alloc(&r[1], 2, g->n2, r[0].tally.run)) != FB_OK)
			return e;
		round_init(&r[1], start / g->g1 * g->g1, g->g2, g->n2, g);
		e = round_run(t, buf, g, &r[1], written, ns);
		if (e == FB_OK && !real_end(&r[1], g, lo, hi))
			r[1].tally = r[0].tally;	/* nothing new: round 1's answer stands */
		return e;
	}
	if (!comb_of(g, &c))
		return FB_OK;
	if ((e = round_alloc(&r[1], 2, c.whole_blocks + c.probes, r[0].tally.run)) != FB_OK)
		return e;
	comb_init(&r[1], g, &c);
	e = round_run(t, buf, g, &r[1], written, ns);
	if (e == FB_OK)
		*bad = real_end(&r[1], g, lo, hi);
	return e;
}

static int cap_run(const struct fb_opts *o, struct target *t)
{
	struct grid g;
	struct round r[2] = { { 0 }, { 0 } };
	uint64_t lo = 0, hi = 0, written = 0, ns = 0, run = stamp_run_id();
	bool bad = false;
	void *buf;
	int e;

	(void)o;
	grid_of(t->size, &g);
	buf = eng_buffer(t, (size_t)(CHUNK * g.bs));
	e = buf ? round_alloc(&r[0], 1, PROBES + 1, run) : FB_EDEV;
	if (e == FB_OK) {
		round_init(&r[0], 0, g.g1, g.n1, &g);
		e = round_run(t, buf, &g, &r[0], &written, &ns);
	}
	if (e == FB_OK)
		e = round_two(t, buf, &g, r, &bad, &lo, &hi, &written, &ns);
	if (e == FB_OK || e == FB_EINTR)
		verdict(&r[r[1].no ? 1 : 0], &g, r[0].n + (r[1].whole ? r[1].n : 0), bad, lo, hi,
			written, ns, t->sector);
	round_free(&r[0]);
	round_free(&r[1]);
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
	if (t->size % t->sector) {
		/* a file, not a device: its last bytes cannot be written in whole sectors */
		snprintf(err, len, "--capacity: %s is %llu bytes, not a whole number of its "
			 "%u-byte sectors", t->path, (unsigned long long)t->size, t->sector);
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
