/*
 * --find-open-au: the number of erase blocks the card keeps open, found
 * without a shell loop over --open-au-nr. Probes with N = 1, 2, 4, 8, ...
 * erase blocks until one is slow, then bisects between the largest fast
 * and the smallest slow N.
 *
 * A probe is a short --open-au: lines from erase/8 down to the block
 * size, each writing erase/8 bytes to each erase block (not a whole
 * erase block: that is what makes the search cheap), continuing where
 * the previous line stopped, so the card sees the same interleaved,
 * ever-forward writes as in --open-au.
 *
 * Probes must not disturb each other, and no write may go backwards into
 * an erase block the card may still hold open: on a card with random-
 * write slots that switches the block to random mode, and the next probe
 * would measure that mode instead of the open-AU limit. So each erase
 * block keeps its cursor from one probe to the next, and wraps to its
 * start only after its end was written. Before its lines a probe writes,
 * unmeasured and forward: first the rest of every erase block a probe
 * that was not fast left half-written (the card may have garbage-collected
 * it mid-way; continued, it would open mid-way and cost a copy of its
 * front when it fills), then one chunk to each of its erase blocks, so
 * the card opens them and evicts what the previous probe left open before
 * the measurement starts.
 *
 * Every line also shows the slowest erase block: with --random, N = limit
 * + 1 makes one erase block collect garbage while the others stay fast.
 * A probe stops as soon as the garbage-collection signature is clear.
 *
 * An inconclusive probe ends the growth only when a smaller N was fast:
 * then it is the upper end of a bracket. Before any probe was fast there
 * is nothing to bracket with, so the search goes on looking for a slow N
 * (an upper bound is still worth knowing) and then bisects down to the
 * largest N that is not slow; the last line says the bracket has no fast
 * lower end.
 */
#include <stdlib.h>
#include <string.h>

#include "modules/align.h"
#include "core/out.h"
#include "core/engine.h"
#include "modules/findopenau.h"
#include "modules/au_write.h"
#include "core/progress.h"
#include "modules/test.h"
#include "core/units.h"
#include "verdicts/facts.h"
#include "verdicts/verdict_align.h"
#include "verdicts/verdict_openau.h"

/* Each line writes erase / FAU_FRACTION bytes to each erase block. */
#define FAU_FRACTION 8
/* The most erase blocks the search tries (and --preserve saves). */
#define FAU_MAX_NR 128

struct fau {
	const struct fb_opts *o;
	struct target *t;
	void *buf;
	uint64_t cursor[FAU_MAX_NR];	/* next offset inside each erase block */
	bool dirty[FAU_MAX_NR];		/* half-written during a probe that was not fast */
	uint64_t ns[FAU_MAX_NR];	/* time of each erase block in this line */
	uint64_t top;			/* largest block size of a probe */
	uint64_t written, spent;	/* bytes, ns of device time */
	struct oa_run base;		/* the probe with one erase block */
	bool have_base;
	unsigned inconclusive;		/* the largest inconclusive N */
	struct oa_bracket br;
	const char *limit;		/* why the search ended early */
	uint64_t lines;			/* printed so far, for the progress line */
};

static uint64_t probe_top(const struct fb_opts *o, const struct target *t)
{
	uint64_t top = o->erasesize / FAU_FRACTION;

	if (o->erasesize % FAU_FRACTION || top < 8 * o->blocksize || top % t->sector)
		return o->erasesize;
	return top;
}

/* One write of size at pos inside erase block i, timed and counted. */
static int fau_write(struct fau *f, unsigned i, uint64_t pos, uint64_t size)
{
	uint64_t ns;
	int r = eng_write_long(f->t, f->buf, size, openau_start(f->o, i) + pos, &ns);

	if (r == FB_OK) {
		f->ns[i] += ns;
		f->spent += ns;
		f->written += size;
	}
	return r;
}

/* Move erase block i's cursor past one chunk, back to 0 at its end. */
static void step(struct fau *f, unsigned i)
{
	f->cursor[i] = (f->cursor[i] + f->top) % f->o->erasesize;
}

static void advance(struct fau *f, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++)
		step(f, i);
}

/* Bytes finish() will write to the first nr erase blocks. */
static uint64_t finish_bytes(const struct fau *f, unsigned nr)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < nr; i++)
		if (f->dirty[i] && f->cursor[i])
			sum += f->o->erasesize - f->cursor[i];
	return sum;
}

/* Write each dirty erase block of the first nr up to its end, so it starts afresh at 0. */
static int finish(struct fau *f, unsigned nr)
{
	int r;

	for (unsigned i = 0; i < nr; i++) {
		while (f->dirty[i] && f->cursor[i]) {
			if ((r = fau_write(f, i, f->cursor[i], f->top)) != FB_OK)
				return r;
			step(f, i);
		}
		f->dirty[i] = false;
	}
	return FB_OK;
}

/* One line: top bytes to each of nr erase blocks in chunks of size, interleaved. */
static int fau_line(struct fau *f, unsigned nr, uint64_t size)
{
	uint64_t chunks = f->top / size;
	struct lfsr l;
	int r;

	memset(f->ns, 0, sizeof(f->ns));
	lfsr_init(&l, chunks);
	for (uint64_t c = 0; c < chunks; c++) {
		uint64_t pos = f->o->random ? lfsr_next(&l) : c;

		for (unsigned i = 0; i < nr; i++)
			if ((r = fau_write(f, i, f->cursor[i] + pos * size, size)) != FB_OK)
				return r;
	}
	advance(f, nr);
	return FB_OK;
}

/* Is there budget for extra bytes and a line of nr erase blocks? Sets f->limit when not. */
static bool fau_budget(struct fau *f, uint64_t extra, unsigned nr)
{
	if (f->o->max_write && f->written + extra + (uint64_t)nr * f->top > f->o->max_write)
		f->limit = "--max-write reached";
	else if (f->o->max_time && f->spent >= f->o->max_time)
		f->limit = "--max-time reached";
	return f->limit == NULL;
}

/* One line of a probe: "512KiB\t9.92M/s\tslowest 9.92M/s" (its N in the records). */
static void probe_text(char *line, size_t len, const union out_val *v)
{
	char s[FB_FMT_LEN], a[FB_FMT_LEN], b[FB_FMT_LEN];

	snprintf(line, len, "%s\t%s\tslowest %s", fmt_size(s, sizeof(s), v[1].u),
		 fmt_rate(a, sizeof(a), v[2].d), fmt_rate(b, sizeof(b), v[3].d));
}

static const struct out_field probe_fields[] = {
	{ "open_au_nr", OT_COUNT }, { "block_bytes", OT_BYTES }, { "rate_bps", OT_BPS },
	{ "slowest_bps", OT_BPS },
};

static const struct out_table probe_table = {
	"find-open-au", probe_fields, 4, probe_text, NULL,
};

static void print_line(struct fau *f, unsigned nr, uint64_t size, struct oa_run *agg,
		       struct oa_run *slowest)
{
	uint64_t total = 0, worst = 1;
	char now[32];

	for (unsigned i = 0; i < nr; i++) {
		total += f->ns[i];
		if (f->ns[i] > worst)
			worst = f->ns[i];
	}
	oa_add(agg, size, (double)f->top * nr * 1e9 / (double)(total ? total : 1));
	oa_add(slowest, size, (double)f->top * 1e9 / (double)worst);
	out_row(&probe_table, (union out_val[]){ { .u = nr }, { .u = size },
						 { .d = agg->rate[agg->n - 1] },
						 { .d = slowest->rate[slowest->n - 1] } });
	/* How many probes there will be, the search decides as it goes: no total. */
	snprintf(now, sizeof(now), "probing N=%u", nr);
	progress_update(++f->lines, now);
}

/* The lines of one probe; returns FB_OK (also when stopped early) or an error. */
static int probe_lines(struct fau *f, unsigned nr, struct oa_run *agg, struct oa_run *slowest)
{
	uint64_t size;
	int r = FB_OK;

	for (size = f->top; size >= f->o->blocksize && size % f->t->sector == 0; size /= 2) {
		if (!fau_budget(f, 0, nr))
			return FB_OK;
		if ((r = fau_line(f, nr, size)) != FB_OK)
			return r;
		print_line(f, nr, size, agg, slowest);
		if (!f->o->no_early_stop && (oa_gc_clear(agg, NULL) || oa_gc_clear(slowest, NULL)))
			return FB_OK;
		if (size % 2 || size / 2 < f->o->blocksize || (size / 2) % f->t->sector)
			break;
	}
	agg->complete = slowest->complete = true;
	return r;
}

/* One probe with nr erase blocks; *c is its class, or -1 when a limit cut it short. */
static int probe(struct fau *f, unsigned nr, int *c)
{
	char e[FB_FMT_LEN];
	struct oa_run agg, slowest;
	struct oa_result res;
	int r;

	*c = -1;
	if (!fau_budget(f, finish_bytes(f, nr), 2 * nr))
		return FB_OK;
	out_note("probe: --open-au-nr=%u --erasesize=%s%s", nr,
		 fmt_size(e, sizeof(e), f->o->erasesize), f->o->random ? " --random" : "");
	/*
	 * Open the probe's erase blocks outside the measurement, so that no
	 * probe pays for evicting what the one before left open. The write
	 * goes at the cursor, never back to the start: see the top comment.
	 */
	if ((r = finish(f, nr)) != FB_OK)
		return r;
	for (unsigned i = 0; i < nr; i++)
		if ((r = fau_write(f, i, f->cursor[i], f->top)) != FB_OK)
			return r;
	advance(f, nr);
	oa_init(&agg, f->o->erasesize);
	oa_init(&slowest, f->o->erasesize);
	if ((r = probe_lines(f, nr, &agg, &slowest)) != FB_OK)
		return r;
	/* Cut short by a limit: say so, as --analyze will read it (inconclusive). */
	if (f->limit && !slowest.complete && !oa_gc_clear(&agg, NULL) &&
	    !oa_gc_clear(&slowest, NULL))
		out_note("stopped: %s", f->limit);
	oa_classify_pair(&agg, &slowest, &res);
	if (f->have_base)
		oa_against(&f->base, 1, &slowest, &res);
	else if (nr == 1)
		f->base = slowest, f->have_base = true;
	oa_result_print(nr, f->o->random, &res);
	oa_bracket_add(&f->br, nr, res.c);
	if (res.c == OA_INCONCLUSIVE && nr > f->inconclusive)
		f->inconclusive = nr;
	/* Not fast: the card may have garbage-collected any erase block mid-way. */
	for (unsigned i = 0; res.c != OA_FAST && i < FAU_MAX_NR; i++)
		f->dirty[i] = true;
	*c = (int)res.c;
	return FB_OK;
}

/* Is a probe of class c an upper end? Inconclusive only above a fast one. */
static bool upper(const struct fau *f, int c)
{
	return c == OA_SLOW || (c == OA_INCONCLUSIVE && f->br.fast);
}

/* Grow N until a probe is an upper end, then bisect down to neighbours. */
/* Grow N from lo (doubling) until a probe is an upper end, then bisect down to neighbours. */
static int bracket(struct fau *f, unsigned max, unsigned *lo, unsigned *hi)
{
	unsigned n = *lo ? (*lo * 2 > max ? max : *lo * 2) : 1;
	int c, r;

	while (!*hi && !f->limit && *lo < max) {
		if ((r = probe(f, n, &c)) != FB_OK || c < 0)
			return r;
		if (upper(f, c))
			*hi = n;
		else if ((*lo = n) < max)
			n = n * 2 > max ? max : n * 2;
	}
	while (*hi && *hi - *lo > 1 && !f->limit) {
		unsigned mid = *lo + (*hi - *lo) / 2;

		if ((r = probe(f, mid, &c)) != FB_OK || c < 0)
			return r;
		if (upper(f, c))
			*hi = mid;
		else
			*lo = mid;
	}
	return FB_OK;
}

/*
 * The bracket, its upper end probed once more before it is believed: a
 * slow episode of the card (or the host) looks like garbage collection
 * for the few lines after which a probe stops, a card that collects
 * garbage at N does so again. When the second probe is not an upper end,
 * the search goes on above it (the bracket counts each N's best result).
 */
static int search(struct fau *f, unsigned max)
{
	unsigned lo = 0, hi = 0;
	int c, r;

	for (;;) {
		if ((r = bracket(f, max, &lo, &hi)) != FB_OK || !hi || f->limit)
			break;
		if ((r = probe(f, hi, &c)) != FB_OK || c < 0 || upper(f, c))
			break;
		lo = hi;
		hi = 0;
	}
	if (r == FB_OK && lo >= max && !hi)
		f->limit = max >= FAU_MAX_NR ? "the search tries at most 128 erase blocks"
					     : "no room on the device for more erase blocks";
	return r;
}

static void summary(struct fau *f, int r)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN];

	oa_bracket_print(&f->br, f->o->random, NULL);
	if (r == FB_EINTR || f->limit)
		out_note("find-open-au: %s: the bracket above is what was found so far",
			 r == FB_EINTR ? "interrupted" : f->limit);
	if (r != FB_EINTR && f->limit)
		out_test_stopped(f->limit);
	if (!f->br.fast && f->inconclusive)
		out_note("find-open-au: no probe was fast (the largest inconclusive: %u erase "
			 "block%s), so the bracket has no fast lower end", f->inconclusive,
			 f->inconclusive == 1 ? "" : "s");
	if (f->spent >= 100000000000ull)
		snprintf(b, sizeof(b), "%.0fs", (double)f->spent / 1e9);
	else
		fmt_time(b, sizeof(b), (double)f->spent);
	out_note("find-open-au: wrote %s in %s", fmt_size(a, sizeof(a), f->written), b);
}

unsigned find_open_au_max(const struct fb_opts *o, uint64_t size)
{
	unsigned n = 0;

	while (n < FAU_MAX_NR && openau_end(o, n + 1) <= size)
		n++;
	return n;
}

static int find_open_au_run(const struct fb_opts *o, struct target *t)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN];
	unsigned max = find_open_au_max(o, t->size);
	struct fau *f;
	int r;

	if (max == 0)
		return eng_check_end(t, "find-open-au", openau_end(o, 1));
	f = calloc(1, sizeof(*f));
	if (!f)
		return FB_EDEV;
	f->o = o;
	f->t = t;
	f->top = probe_top(o, t);
	oa_bracket_init(&f->br);
	f->buf = eng_buffer(t, eng_write_buffer_len(f->top));
	if (!f->buf) {
		free(f);
		return FB_EDEV;
	}
	out_note("find-open-au: erase block %s, block size %s, %s per erase block and line, %s",
		 fmt_size(a, sizeof(a), o->erasesize), fmt_size(b, sizeof(b), o->blocksize),
		 fmt_size(c, sizeof(c), f->top), o->random ? "random" : "linear");
	progress_begin("find-open-au lines", 0);
	r = search(f, max);
	summary(f, r);
	eng_buffer_free(f->buf);
	free(f);
	return r;
}

extern const struct fb_test test_align;

/* Without --erasesize: run -a now (it only reads) and take its verdict's erase size. */
static int find_open_au_prepare(struct fb_opts *o, struct target *t)
{
	const struct va_verdict *v;
	int r;

	if (o->erasesize_set)
		return FB_OK;
	o->tests &= ~fb_test_bit(&test_align);	/* it runs here, not again */
	out_test_begin(test_align.name);
	r = align_run(o, t);
	v = vf_align_verdict();
	if (r == FB_EINTR || fb_stop)
		return FB_EINTR;	/* run.c ends the section with the interruption */
	out_test_end(r == FB_OK ? "done" : "failed", NULL);
	if (r != FB_OK)
		return r;
	if (!v || v->erase_state != VA_FOUND) {
		fprintf(stderr, "flashbench: --find-open-au: the align verdict found no erase "
			"block size; give --erasesize\n");
		return FB_EDEV;
	}
	o->erasesize = v->erase;
	if (!o->offset_set)
		o->offset = ((16ull << 20) + o->erasesize - 1) / o->erasesize * o->erasesize;
	return FB_OK;
}

static bool find_open_au_measures_first(const struct fb_opts *o)
{
	return !o->erasesize_set;
}

static int find_open_au_check(struct fb_opts *o, char *err, size_t len)
{
	if (o->erasesize_set || fb_test_selected(o, &test_align))
		return FB_OK;
	snprintf(err, len, "--find-open-au: needs --erasesize (or --align, to use its verdict)");
	return FB_EUSAGE;
}

/* The erase blocks --open-au would write with the largest N the search may try. */
static size_t find_open_au_regions(const struct fb_opts *o, uint64_t size, struct region *r,
				   size_t max, uint64_t *end)
{
	unsigned nr = find_open_au_max(o, size);

	if (nr == 0) {
		au_openau_regions(o, 1, r, 0, end);	/* past the end: refused */
		return 0;
	}
	return au_openau_regions(o, nr, r, max, end);
}

static const char *const find_open_au_uses[] = {
	"blocksize", "erasesize", "offset", "random", "max-write", "max-time", "no-early-stop",
	NULL,
};

const struct fb_test test_find_open_au = {
	.name = "find-open-au",
	.help = "how many erase blocks stay fast written at once: tries\n"
		"N = 1, 2, 4, ... until slow, then bisects (writes)",
	.writes = true,
	.uses = find_open_au_uses,
	.check = find_open_au_check,
	.prepare = find_open_au_prepare,
	.measures_first = find_open_au_measures_first,
	.regions = find_open_au_regions,
	.run = find_open_au_run,
	.tables = (const struct out_table *const[]){ &probe_table, NULL },
};
