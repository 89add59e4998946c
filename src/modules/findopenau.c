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
 * An inconclusive probe ends the growth only when a smaller N was fast
 * (the upper end of a bracket); before, the search looks on for a slow N
 * and bisects down to the largest N that is not slow; the last line says
 * the bracket has no fast lower end.
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
#include "verdicts/verdict_oafamily.h"
#include "verdicts/verdict_openau.h"

/* Each line writes erase / FAU_FRACTION bytes to each erase block. */
#define FAU_FRACTION 8
/* The most erase blocks the search tries (and --preserve saves). */
#define FAU_MAX_NR 128
/* A probe stops early after this many lines at least (down to top / 4)... */
#define FAU_STOP_LINES 3
/* ...and a look above after this many, starting at top / 4. */
#define FAU_LOOK_LINES 2

struct fau {
	const struct fb_opts *o;
	struct target *t;
	void *buf;
	uint64_t cursor[FAU_MAX_NR];	/* next offset inside each erase block */
	bool dirty[FAU_MAX_NR];		/* half-written during a probe that was not fast */
	uint64_t ns[FAU_MAX_NR];	/* time of each erase block of the probe in this line */
	unsigned idx[FAU_MAX_NR];	/* the erase blocks of the probe (their numbers) */
	unsigned max;			/* erase blocks the search may use */
	uint64_t top;			/* largest block size of a probe */
	uint64_t chunk;			/* ...of this probe: top, or top / 4 for a look above */
	bool looked;			/* the look above was probed */
	bool looking;			/* ...is being probed (a whole one, --random) */
	uint64_t written, spent;	/* bytes, ns of device time */
	struct oa_run base;		/* the probe with one erase block */
	bool have_base;
	unsigned inconclusive;		/* the largest inconclusive N */
	struct oa_family fam;		/* every probe, as --analyze reads them */
	struct oaf_verdict v;		/* ...and what they say together */
	unsigned char probed[FAU_MAX_NR + 1];	/* probes of each N */
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

/* One write of size at pos inside the probe's p-th erase block, timed and counted. */
static int fau_write(struct fau *f, unsigned p, uint64_t pos, uint64_t size)
{
	uint64_t ns;
	int r = eng_write_long(f->t, f->buf, size, openau_start(f->o, f->idx[p]) + pos, &ns);

	if (r == FB_OK) {
		f->ns[p] += ns;
		f->spent += ns;
		f->written += size;
	}
	return r;
}

/* Move erase block a's cursor on by n bytes, back to 0 at its end. */
static void step(struct fau *f, unsigned a, uint64_t n)
{
	f->cursor[a] = (f->cursor[a] + n) % f->o->erasesize;
}

static void advance(struct fau *f, unsigned nr, uint64_t n)
{
	for (unsigned p = 0; p < nr; p++)
		step(f, f->idx[p], n);
}

/*
 * The erase blocks of a probe of nr: first those the last fast probe left
 * open (continued, as --open-au would), then fresh ones, then those a
 * probe that was not fast left half-written (finish() writes them to
 * their end first): trying other erase blocks costs no such writes.
 * Not with --random: there the erase blocks of the probe before keep the
 * card's few random-write slots until they are closed, so a probe takes
 * the same first nr erase blocks as that one did.
 */
static void pick(struct fau *f, unsigned nr)
{
	unsigned n = 0;

	if (f->o->random) {
		for (unsigned a = 0; a < nr; a++)
			f->idx[a] = a;
		return;
	}
	for (int pass = 0; pass < 3; pass++)
		for (unsigned a = 0; a < f->max && n < nr; a++) {
			bool open = !f->dirty[a] && f->cursor[a], fresh = !f->dirty[a] && !f->cursor[a];

			if ((pass == 0 && open) || (pass == 1 && fresh) || (pass == 2 && f->dirty[a]))
				f->idx[n++] = a;
		}
}

/* Bytes finish() will write to the probe's erase blocks. */
static uint64_t finish_bytes(const struct fau *f, unsigned nr)
{
	uint64_t sum = 0;

	for (unsigned p = 0; p < nr; p++)
		if (f->dirty[f->idx[p]] && f->cursor[f->idx[p]])
			sum += f->o->erasesize - f->cursor[f->idx[p]];
	return sum;
}

/* Write each dirty erase block of the probe up to its end, so it starts afresh at 0. */
static int finish(struct fau *f, unsigned nr)
{
	int r;

	for (unsigned p = 0; p < nr; p++) {
		unsigned a = f->idx[p];

		while (f->dirty[a] && f->cursor[a]) {
			uint64_t n = f->o->erasesize - f->cursor[a];

			n = n < f->top ? n : f->top;
			if ((r = fau_write(f, p, f->cursor[a], n)) != FB_OK)
				return r;
			step(f, a, n);
		}
		f->dirty[a] = false;
	}
	return FB_OK;
}

/* One line: top bytes to each of nr erase blocks in chunks of size, interleaved. */
static int fau_line(struct fau *f, unsigned nr, uint64_t size)
{
	uint64_t chunks = f->chunk / size;
	struct lfsr l;
	int r;

	memset(f->ns, 0, sizeof(f->ns));
	lfsr_init(&l, chunks);
	for (uint64_t c = 0; c < chunks; c++) {
		uint64_t pos = f->o->random ? lfsr_next(&l) : c;

		for (unsigned p = 0; p < nr; p++)
			if ((r = fau_write(f, p, f->cursor[f->idx[p]] + pos * size, size)) != FB_OK)
				return r;
	}
	advance(f, nr, f->chunk);
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

const struct out_table find_open_au_table = {
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
	oa_add(agg, size, (double)f->chunk * nr * 1e9 / (double)(total ? total : 1));
	oa_add(slowest, size, (double)f->chunk * 1e9 / (double)worst);
	out_row(&find_open_au_table, (union out_val[]){ { .u = nr }, { .u = size },
						 { .d = agg->rate[agg->n - 1] },
						 { .d = slowest->rate[slowest->n - 1] } });
	/* How many probes there will be, the search decides as it goes: no total. */
	snprintf(now, sizeof(now), "probing N=%u", nr);
	progress_update(++f->lines, now);
}

/*
 * After a probe: the card may have garbage-collected mid-way any erase
 * block of a probe that was not fast, and evicted any other it held
 * open. Continued, such a block would open mid-way and cost a copy of its
 * front when it fills: it is written to its end before it is used again.
 */
static void mark_dirty(struct fau *f, unsigned nr, bool fast)
{
	bool in[FAU_MAX_NR] = { false };

	for (unsigned p = 0; p < nr; p++)
		in[f->idx[p]] = true;
	for (unsigned a = 0; a < f->max; a++)
		if ((in[a] && !fast) || (!in[a] && f->cursor[a]))
			f->dirty[a] = true;
}

/* The lines of one probe; returns FB_OK (also when stopped early) or an error. */
/* Does the probe stop after this line? Says why in a "stopped:" line, so
 * that --analyze of the output knows where it ended. */
static bool probe_stops(const struct fau *f, const struct oa_run *agg, const struct oa_run *slowest)
{
	char t[FB_FMT_LEN];
	double wns;

	if (f->o->no_early_stop)
		return false;
	if (oa_gc_clear(agg, &wns) || oa_gc_clear(slowest, &wns))
		out_note("stopped: every write costs the same %s: garbage collection",
			 fmt_time(t, sizeof(t), wns));
	/* (a collection's worth more than with one erase block: the family judges it) */
	else if (f->have_base && agg->n >= FAU_STOP_LINES &&
		 oaf_stop_probe(&f->base, f->o->random ? slowest : agg))
		out_note("stopped: every write costs a collection's worth more than with 1 "
			 "erase block");
	else
		return false;
	return true;
}

static int probe_lines(struct fau *f, unsigned nr, struct oa_run *agg, struct oa_run *slowest)
{
	uint64_t size;
	int r = FB_OK;

	for (size = f->chunk; size >= f->o->blocksize && size % f->t->sector == 0; size /= 2) {
		if (!fau_budget(f, 0, nr))
			return FB_OK;
		if ((r = fau_line(f, nr, size)) != FB_OK)
			return r;
		print_line(f, nr, size, agg, slowest);
		if (probe_stops(f, agg, slowest))
			return FB_OK;
		/* A look above stays within one chunk of top per erase block. */
		if (f->chunk < f->top && agg->n >= FAU_LOOK_LINES) {
			out_note("stopped: a look above measures %d block sizes", FAU_LOOK_LINES);
			return FB_OK;
		}
		if (size % 2 || size / 2 < f->o->blocksize || (size / 2) % f->t->sector)
			break;
	}
	agg->complete = slowest->complete = true;
	return r;
}

/* One probe with nr erase blocks (look: a look above, see grow_next()); *c is
 * its class, or -1 when a limit cut it short. */
static int probe(struct fau *f, unsigned nr, bool look, int *c)
{
	char e[FB_FMT_LEN];
	struct oa_run agg, slowest;
	struct oa_result res;
	uint64_t open;
	int r;

	*c = -1;
	/* A look above only sees what a write costs: a quarter of the bytes,
	 * and the half-written erase blocks are not written to their end. */
	f->chunk = look && f->top / 4 >= FAU_LOOK_LINES * f->o->blocksize &&
		   (f->top / 4) % f->t->sector == 0 ? f->top / 4 : f->top;
	pick(f, nr);
	if (!fau_budget(f, look || f->looking ? 0 : finish_bytes(f, nr), 2 * nr))
		return FB_OK;
	out_note("probe: --open-au-nr=%u --erasesize=%s%s", nr,
		 fmt_size(e, sizeof(e), f->o->erasesize), f->o->random ? " --random" : "");
	/*
	 * Open the probe's erase blocks outside the measurement, so that no
	 * probe pays for evicting what the one before left open. The write
	 * goes at the cursor, never back to the start: see the top comment.
	 */
	if (!look && !f->looking && (r = finish(f, nr)) != FB_OK)
		return r;
	/* A look above of a quarter opens each with one block: it writes little
	 * anyway. One whose erase block has no quarter to spare is a whole probe:
	 * a block, then whole chunks, would cross the erase block's end. */
	open = look && f->chunk < f->top ? f->o->blocksize : f->chunk;
	for (unsigned p = 0; p < nr; p++)
		if ((r = fau_write(f, p, f->cursor[f->idx[p]], open)) != FB_OK)
			return r;
	advance(f, nr, open);
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
		oa_against(&f->base, 1, f->o->random ? &slowest : &agg, &res);
	else if (nr == 1)
		f->base = f->o->random ? slowest : agg, f->have_base = true;
	oa_result_print(nr, f->o->random, &res);
	/* The slowest erase block where one of them may collect alone (--random);
	 * in linear order all of them alike, and their sum is the less noisy. */
	oaf_add(&f->fam, nr, f->o->random ? &slowest : &agg);
	oaf_judge(&f->fam, &f->v);
	f->probed[nr]++;
	*c = (int)oaf_class(&f->v, nr);
	if (*c == OA_INCONCLUSIVE && nr > f->inconclusive)
		f->inconclusive = nr;
	mark_dirty(f, nr, oaf_kind_of(&f->v, nr) == OAF_FAST && f->chunk == f->top);
	return FB_OK;
}

/* The largest N probed below n whose kind is fast (merge too when merge), or 0. */
static unsigned below(const struct fau *f, unsigned n, bool merge)
{
	unsigned best = 0;

	for (size_t k = 0; k < f->v.n && f->v.nr[k] < n; k++)
		if (f->v.kind[k] == OAF_FAST || (merge && f->v.kind[k] == OAF_MERGE))
			best = f->v.nr[k];
	return best;
}

/* The smallest N probed above n that is not fast (nor a merge), or 0. */
static unsigned other_above(const struct fau *f, unsigned n)
{
	for (size_t k = 0; k < f->v.n; k++)
		if (f->v.nr[k] > n && f->v.kind[k] != OAF_FAST && f->v.kind[k] != OAF_MERGE)
			return f->v.nr[k];
	return 0;
}

/* A probe below a fast one that was not fast, probed once: probed again
 * (a slow episode of the card or the host; each N counts its best). */
static unsigned doubtful(const struct fau *f, unsigned top)
{
	for (size_t k = 0; k < f->v.n && f->v.nr[k] < top; k++)
		if (oaf_class(&f->v, f->v.nr[k]) != OA_FAST && f->probed[f->v.nr[k]] < 2)
			return f->v.nr[k];
	return 0;
}

/* A collection near its threshold, not seen at a larger N too (an episode
 * of noise does not repeat itself at another N): worth probing again. */
static bool doubted(const struct fau *f, unsigned nr)
{
	for (size_t k = 0; k < f->v.n; k++)
		if (f->v.nr[k] > nr && f->v.kind[k] == OAF_GC)
			return false;
	return oaf_marginal(&f->v, nr);
}

/*
 * The next N to probe (0: done). N grows, doubling, until a probe is not
 * fast (a merge is fast); the cutoff is bisected. A cost between a
 * merge's and a collection's (inconclusive) is looked above once, at four
 * times the smallest N showing it (*look): a collection there gives the
 * bracket its slow end (verdict_oafamily.h). Then
 * the start of a merge regime is bisected, and the upper end probed once
 * more when its cost is near its threshold: a slow episode of the card
 * (or the host) looks like a collection for the few lines after which a
 * probe stops.
 */
static unsigned next_probe(struct fau *f, unsigned max, bool *look)
{
	unsigned fast = below(f, max + 1, true), hi = other_above(f, fast), lo, d;
	enum oaf_kind k = oaf_kind_of(&f->v, hi);

	*look = false;
	if ((d = doubtful(f, fast)) != 0)
		return d;
	if (!hi)
		return fast && fast < max ? (fast * 2 > max ? max : fast * 2) : 0;
	if (hi - fast > 1)
		return fast + (hi - fast) / 2;
	/* (a cost short of a plain collection is probed twice before anything
	 * is built on it: on a busy host an episode of noise looks like one) */
	if (f->probed[hi] < 2 && (k != OAF_GC || doubted(f, hi)))
		return hi;
	/* (with --random a quarter chunk holds too few writes to be in random
	 * order: a whole probe at twice the N, where the card's open-AU limit
	 * lies that its random-write slots stay below) */
	if (!f->looked && k == OAF_ELEVATED && hi < max) {
		f->looked = f->looking = true;
		*look = !f->o->random;
		d = f->o->random ? 2 : 4;
		return hi * d > max ? max : hi * d;
	}
	if (f->v.merge_from && f->v.merge_from - (lo = below(f, f->v.merge_from, false)) > 1)
		return lo + (f->v.merge_from - lo) / 2;
	/* (noise only ever adds: the start of a merge probed again, its best counts) */
	if (f->v.merge_from && f->probed[f->v.merge_from] < 2)
		return f->v.merge_from;
	if (f->probed[hi] < 2 && oaf_class(&f->v, hi) == OA_SLOW && doubted(f, hi))
		return hi;
	return 0;
}

/*
 * The search ends when its probes do not settle: one N probed a third
 * time, or more probes than a bisection over every N with each probed
 * twice would need. Each probe of N is decided by the others' verdicts
 * (the family judges every N against the cheapest), so a card whose
 * costs sit between the rules' bands can move the bracket with every
 * probe: a card with collections 17 times cheaper than a copy
 * (sim:write-lat=1.36ms,write-bw=24.3M/s,copy-bw=268M/s,open-au=2) made
 * the search go back to 3, 4, 7 and 13 for ever, writing 732GiB in the
 * erase blocks it announced. Bounded, it reports the bracket so far.
 */
#define FAU_MAX_REPEAT 3
#define FAU_MAX_PROBES 48
static const char *unsettled(const struct fau *f, unsigned n, unsigned probes)
{
	if (f->probed[n] >= FAU_MAX_REPEAT)
		return "the probes do not settle (an N probed a third time)";
	if (probes >= FAU_MAX_PROBES)
		return "the probes do not settle (48 probes)";
	return NULL;
}

static int search(struct fau *f, unsigned max)
{
	unsigned n = 1, probes = 0;
	bool look = false;
	int c, r = FB_OK;

	while (n && !f->limit) {
		if ((f->limit = unsettled(f, n, probes++)) != NULL)
			break;
		if ((r = probe(f, n, look, &c)) != FB_OK || c < 0)
			break;
		f->looking = false;
		n = next_probe(f, max, &look);
	}
	if (r == FB_OK && !f->limit && !other_above(f, below(f, max + 1, true)) &&
	    below(f, max + 1, true) >= max)
		f->limit = max >= FAU_MAX_NR ? "the search tries at most 128 erase blocks"
					     : "no room on the device for more erase blocks";
	return r;
}

static void summary(struct fau *f, int r)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN];

	oaf_print(&f->v, f->o->random);
	if (r == FB_EINTR || f->limit)
		out_note("find-open-au: %s: the bracket above is what was found so far",
			 r == FB_EINTR ? "interrupted" : f->limit);
	if (r != FB_EINTR && f->limit)
		out_test_stopped(f->limit);
	if (!f->v.fast && f->inconclusive)
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

int find_open_au_run(const struct fb_opts *o, struct target *t)
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
	f->max = max;
	oaf_init(&f->fam);
	f->fam.random = o->random;
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
