/* The card as data: the fit of a sim: spec, see fit_card.h for each key's rule. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "core/units.h"
#include "verdicts/fit_card.h"
#include "verdicts/fit_impl.h"
#include "verdicts/verdict_oafamily.h"

/* --open-au's spacing of its erase blocks (modules/au_write.h), for the FAT area's share. */
#define FIT_SPACING 12

static const char *const names[FK_N] = {
	"size", "erase", "page", "read-lat", "read-bw", "page-cross", "erase-cross",
	"write-lat", "write-bw", "copy-bw", "erase-time", "open-au", "open-au-random", "fat-aus",
	"log-aus", "log-merge", "subpage-write", "small-buffer", "small-merge", "random-evict",
	"jitter",
};

const char *fit_key_name(enum fit_key k)
{
	return k < FK_N ? names[k] : "?";
}

void fit_set(struct fit_card *c, enum fit_key k, double v)
{
	c->known[k] = true;
	c->v[k] = v;
	c->se[k] = 0;
	c->atleast[k] = false;
}

bool fit_rough(const struct fit_card *c, enum fit_key k)
{
	double prec = k == FK_READ_BW || k == FK_WRITE_BW || k == FK_COPY_BW ? FIT_RATE_PREC :
		      FIT_TIME_PREC;

	return c->known[k] && c->v[k] > 0 && c->se[k] > prec / 2 * c->v[k];
}

void fit_lack(struct fit_card *c, enum fit_key k, const char *why)
{
	c->known[k] = false;
	c->why[k] = why;
}

/* The median diff of the align rows at multiples of unit (not of skip) in [lo, hi). */
static bool level(const struct fit_input *in, uint64_t unit, uint64_t skip, uint64_t lo,
		  uint64_t hi, double *med)
{
	double d[VA_MAX_ROWS];
	size_t n = 0;

	for (size_t i = 0; i < in->nalign; i++) {
		uint64_t b = in->align[i].b;

		if (b >= lo && b < hi && b % unit == 0 && (!skip || b % skip))
			d[n++] = in->align[i].diff;
	}
	if (n)
		*med = stats_median(d, n);
	return n > 0;
}

/*
 * The page the align rows show when the verdict named none (as with some
 * 3 x 2^n erase blocks): the smallest power of two up to VA_PAGE_MAX from
 * which every row below the erase block rises over half their median, with
 * every row below it under that (0: no such clean step).
 */
static double page_step(const struct fit_input *in, uint64_t erase)
{
	double top;

	if (!level(in, VA_PAGE_MAX, 0, VA_PAGE_MAX, erase, &top) || top <= 0)
		return 0;
	for (uint64_t p = 512; p <= VA_PAGE_MAX; p *= 2) {
		bool clean = true;

		for (size_t i = 0; i < in->nalign && clean; i++) {
			const struct va_row *r = &in->align[i];

			if (r->b >= erase || r->b % 512)
				continue;
			clean = (r->b % p == 0) == (r->diff > top / 2);
		}
		if (clean)
			return (double)p;
	}
	return 0;
}

static void fit_geometry(const struct fit_input *in, const struct vf_facts *f, struct fit_card *c)
{
	const struct va_verdict *v = &f->va;
	double pc = 0, ec;

	if (in->size)
		fit_set(c, FK_SIZE, (double)in->size);
	else
		fit_lack(c, FK_SIZE, "the device's size was not said");
	if (!f->align || v->erase_state != VA_FOUND) {
		fit_lack(c, FK_ERASE, "the align verdict named no erase block");
		fit_lack(c, FK_ERASE_CROSS, "no erase block");
	} else {
		fit_set(c, FK_ERASE, (double)v->erase);
	}
	if (f->align && v->page_state == VA_FOUND && v->page)
		fit_set(c, FK_PAGE, (double)v->page);
	else if (c->known[FK_ERASE] && (pc = page_step(in, v->erase)) > 0)
		fit_set(c, FK_PAGE, pc);
	else
		fit_lack(c, FK_PAGE, "the align verdict named no page");
	/* Below the erase block, every row at a page multiple crosses a page (a
	 * page not named: every row from VA_PAGE_MAX up, a page is no larger). */
	pc = 0;
	if (!c->known[FK_PAGE] && c->known[FK_ERASE])
		level(in, VA_PAGE_MAX, 0, VA_PAGE_MAX, v->erase, &pc);
	if (c->known[FK_PAGE] && c->known[FK_ERASE] &&
	    !level(in, (uint64_t)c->v[FK_PAGE], 0, (uint64_t)c->v[FK_PAGE], v->erase, &pc))
		fit_lack(c, FK_PAGE_CROSS, "no align row at a page boundary below the erase block");
	else if (in->nalign)
		fit_set(c, FK_PAGE_CROSS, pc > 0 ? pc : 0);
	else
		fit_lack(c, FK_PAGE_CROSS, "no align rows");
	if (c->known[FK_ERASE] && level(in, v->erase, 0, v->erase, UINT64_MAX, &ec))
		fit_set(c, FK_ERASE_CROSS, ec - pc > 0 ? ec - pc : 0);
	else if (c->known[FK_ERASE])
		fit_lack(c, FK_ERASE_CROSS, "no align row at the erase block or above");
}

/*
 * read-lat, read-bw and the jitter from the survey's read sweep: the
 * fastest reads (a busy host, a card's stalls only ever add; on a card
 * with uniform jitter j the fastest of SURVEY_READS is about j low,
 * latency and rate alike), and how far the median lies above them: the
 * fastest of n reads uniform in [1 - j, 1 + j] lies j (1 - 2 / (n + 1))
 * below the median. At most FIT_JITTER_MAX: more is the host's.
 */
#define FIT_JITTER_MAX 5.0
#define FIT_MIN_SPAN 0.94

/*
 * The standard errors of read-lat and read-bw: the fastest of n reads
 * uniform in [1 - j, 1 + j] scatters by about the gap between the
 * fastest two, 2 j / (n + 1) of the read's time, (1 - FIT_MIN_SPAN) j.
 * Where a read's bytes take little of its time (a page of 4 KiB at
 * 70M/s is 60 us of an 800 us read), the sweep's slope, the rate, is
 * told no closer than that scatter over the sweep's span of bytes: the
 * key is then rough (fit_rough), not wrong.
 */
static void read_errors(const double *x, const double *y, size_t n, double j, double b,
			struct fit_card *c)
{
	double mx = 0, sxx = 0, sd = 0;

	for (size_t i = 0; i < n; i++) {
		mx += x[i] / (double)n;
		sd += j * (1 - FIT_MIN_SPAN) * y[i] / (double)n;
	}
	for (size_t i = 0; i < n; i++)
		sxx += (x[i] - mx) * (x[i] - mx);
	if (sxx <= 0)
		return;
	c->se[FK_READ_BW] = sd / sqrt(sxx) / b * c->v[FK_READ_BW];
	c->se[FK_READ_LAT] = sd * sqrt(1 / (double)n + mx * mx / sxx);
}

static void fit_reads(const struct fit_input *in, struct fit_card *c)
{
	double x[FIT_READS], y[FIT_READS], j[FIT_READS], a, b;
	size_t n = in->nread;

	for (size_t i = 0; i < n; i++) {
		x[i] = (double)in->read[i].len;
		y[i] = in->read[i].low;
		j[i] = in->read[i].ns > 0 ? (in->read[i].ns - in->read[i].low) / in->read[i].ns /
					    FIT_MIN_SPAN : 0;
	}
	if (n < 2 || stats_linfit(x, y, n, &a, &b) != 0 || b <= 0 || a <= 0) {
		fit_lack(c, FK_READ_LAT, "no read sweep of two sizes or more, rising");
		fit_lack(c, FK_READ_BW, "no read sweep of two sizes or more, rising");
		fit_lack(c, FK_JITTER, "no read sweep");
		return;
	}
	fit_set(c, FK_READ_LAT, a);
	fit_set(c, FK_READ_BW, 1e9 / b);
	fit_set(c, FK_JITTER, fmin(FIT_JITTER_MAX, 100 * stats_median(j, n)));
	read_errors(x, y, n, c->v[FK_JITTER] / 100, b, c);
}

const struct fit_probe *fit_probe_of(const struct fit_input *in, unsigned nr, bool random)
{
	for (size_t i = 0; i < in->nprobe; i++)
		if (in->probe[i].nr == nr && in->probe[i].random == random &&
		    in->probe[i].agg.n >= 2)
			return &in->probe[i];
	return NULL;
}

static unsigned in_fat(const struct fit_input *in, const struct fit_card *c, unsigned n)
{
	unsigned k = fit_in_fat(in, c, n);

	return k < c->fat_cap ? k : c->fat_cap;
}

/*
 * copy-bw from the smallest slow linear probe: each write of s bytes
 * evicts an erase block written s bytes since it opened, and copies
 * the rest of it (erase - s) before the erase. Its erase blocks in the
 * FAT area collect nothing: the probe's rate averages them in.
 */
void fit_copy(const struct fit_input *in, const struct vf_facts *f, struct fit_card *c)
{
	const struct fit_probe *p = f->oa[0].slow ? fit_probe_of(in, f->oa[0].slow, false) : NULL;
	double e = c->v[FK_ERASE], r[OA_MAX_LINES], share, merge;
	double erase = c->known[FK_ERASE_TIME] ? c->v[FK_ERASE_TIME] : FIT_ERASE_NS;
	size_t n = 0;

	if (!p || !c->known[FK_ERASE] || !c->known[FK_WRITE_BW]) {
		fit_lack(c, FK_COPY_BW, "no slow linear probe (or no erase block, no write rate)");
		return;
	}
	/* (a slow write pays the merge of a merge regime too) */
	merge = c->known[FK_LOG_MERGE] ? c->v[FK_LOG_MERGE] : 0;
	share = (double)p->nr / (double)(p->nr - in_fat(in, c, p->nr));
	for (size_t i = 0; i < p->agg.n; i++) {
		double s = (double)p->agg.size[i];
		double gc = (oa_write_ns(&p->agg, i) - c->v[FK_WRITE_LAT] -
			     s * 1e9 / c->v[FK_WRITE_BW] - merge -
			     fit_subpage_ns(c, p->agg.size[i])) * share;

		/* (a buffered write collects nothing: its line tells no copy) */
		if (fit_buffered(c, p->agg.size[i]))
			continue;

		if (gc > erase && s < e)
			r[n++] = (e - s) * 1e9 / (gc - erase);
	}
	if (n)
		fit_set(c, FK_COPY_BW, stats_median(r, n));
	else
		fit_lack(c, FK_COPY_BW, "the slow linear probe paid no collection");
}

unsigned fit_in_fat(const struct fit_input *in, const struct fit_card *c, unsigned n)
{
	uint64_t e = (uint64_t)c->v[FK_ERASE], fat, off, k = 0;

	if (!c->known[FK_FAT_AUS] || !c->known[FK_ERASE] || !e)
		return 0;
	fat = (uint64_t)c->v[FK_FAT_AUS] * e;
	off = in->offset ? in->offset : ((16ull << 20) + e - 1) / e * e;
	for (unsigned i = 0; i < n; i++)
		k += off + (uint64_t)i * FIT_SPACING * e < fat;
	return (unsigned)k;
}

static void fit_open(const struct fit_input *in, const struct vf_facts *f,
		     const struct oaf_verdict *v, int fat, struct fit_card *c)
{
	const struct oa_bracket *lin = &f->oa[0], *rnd = &f->oa[1];

	if (fat >= 0)
		fit_set(c, FK_FAT_AUS, fat);
	else if (f->fat && f->ff.state == FF_AREA)
		fit_set(c, FK_FAT_AUS, f->ff.area);
	else if (f->fat && f->ff.state == FF_NONE && in->fat_cols && f->oa_runs[1] &&
		 rnd->fast + 1 >= in->fat_cols)
		/* (find-fat's erase blocks past a first one all got random-write slots) */
		fit_lack(c, FK_FAT_AUS, "find-fat's erase blocks fit in the random-write slots: "
		     "a FAT area would not show");
	else if (f->fat && f->ff.state == FF_NONE && f->ff.random)
		fit_set(c, FK_FAT_AUS, 0);
	else
		fit_lack(c, FK_FAT_AUS, f->fat ? "the find-fat verdict was not sure" : "no find-fat verdict");
	if (lin->fast && lin->slow == lin->fast + 1 && !lin->contradicts)
		fit_set(c, FK_OPEN_AU, lin->fast - in_fat(in, c, lin->fast));
	else if (lin->fast && !lin->slow && !lin->contradicts) {
		/* (at least that many: a twin keeping that many open ends the search alike) */
		fit_set(c, FK_OPEN_AU, lin->fast - in_fat(in, c, lin->fast));
		c->atleast[FK_OPEN_AU] = true;
	} else
		fit_lack(c, FK_OPEN_AU, "the linear bracket is not one N wide");
	fit_random(in, f, v, c);
	if (c->known[FK_OPEN_AU] && c->v[FK_OPEN_AU] < 1)
		fit_lack(c, FK_OPEN_AU, "the FAT area holds every fast erase block");
}

/* The linear family, judged again as --find-open-au judged it (without the smallest lines
 * that pay a sub-page write or a buffer's merge as c has them: not the family's costs). */
void fit_judge_linear(const struct fit_input *in, const struct fit_card *c, struct oaf_verdict *v)
{
	struct oa_family *fam = calloc(1, sizeof(*fam));
	struct oa_run r;

	memset(v, 0, sizeof(*v));
	if (!fam)
		return;
	oaf_init(fam);
	for (size_t i = 0; i < in->nprobe; i++) {
		if (in->probe[i].random)
			continue;
		r = in->probe[i].agg;
		while (c && r.n > 1 && fit_small_skip(c, r.size[r.n - 1]))
			r.n--;
		oaf_add(fam, in->probe[i].nr, &r);
	}
	oaf_judge(fam, v);
	free(fam);
}

/* log-aus, log-merge: the linear family's merge regime. */
static void fit_merge(const struct fit_input *in, const struct oaf_verdict *v, struct fit_card *c)
{
	if (!v->n || !v->merge_from) {
		fit_lack(c, FK_LOG_AUS, "no merge regime seen");
		fit_lack(c, FK_LOG_MERGE, "no merge regime seen");
		return;
	}
	fit_set(c, FK_LOG_AUS, v->merge_from - 1 - in_fat(in, c, v->merge_from - 1));
	fit_set(c, FK_LOG_MERGE, v->merge_ns - v->cost[0] > 0 ? v->merge_ns - v->cost[0] : 0);
}

static void fit_all(const struct fit_input *in, const struct vf_facts *f, int fat,
		    unsigned cap, struct fit_card *c)
{
	struct oaf_verdict *v = calloc(1, sizeof(*v));

	memset(c, 0, sizeof(*c));
	c->fat_cap = cap;
	if (!v)
		return;
	fit_judge_linear(in, NULL, v);
	fit_geometry(in, f, c);
	fit_reads(in, c);
	fit_writes(in, v, c);
	fit_small_first(in, v, c);
	fit_open(in, f, v, fat, c);
	fit_merge(in, v, c);
	fit_copy(in, f, c);
	fit_set(c, FK_RANDOM_EVICT, 0);	/* the sim's own rule, until a twin says otherwise */
	free(v);
}

void fit_card(const struct fit_input *in, const struct vf_facts *f, struct fit_card *c)
{
	fit_all(in, f, -1, ~0u, c);
}

void fit_card_fat(const struct fit_input *in, const struct vf_facts *f, unsigned fat,
		  unsigned cap, struct fit_card *c)
{
	fit_all(in, f, (int)fat, cap, c);
}

static void key_value(const struct fit_card *c, enum fit_key k, char *buf, size_t len)
{
	switch (k) {
	case FK_SIZE: case FK_ERASE: case FK_PAGE: case FK_SMALL_BUFFER:
		fmt_size_exact(buf, len, (uint64_t)c->v[k], "");
		break;
	case FK_READ_BW: case FK_WRITE_BW: case FK_COPY_BW:
		fmt_rate(buf, len, c->v[k]);
		break;
	case FK_OPEN_AU: case FK_OPEN_AU_RANDOM: case FK_FAT_AUS: case FK_LOG_AUS:
	case FK_RANDOM_EVICT:
		snprintf(buf, len, "%u", (unsigned)c->v[k]);
		break;
	case FK_JITTER:
		if (c->v[k] < 0.05)
			snprintf(buf, len, "0");
		else
			snprintf(buf, len, "%.1f", c->v[k]);
		break;
	default:	/* times */
		if (c->v[k] < 1)
			snprintf(buf, len, "0");
		else
			fmt_time(buf, len, c->v[k]);
	}
}

/* Is key k in the spec? random-evict only when it is not the sim's default. */
static bool in_spec(const struct fit_card *c, int k)
{
	return c->known[k] && (k != FK_RANDOM_EVICT || c->v[k] != 0);
}

char *fit_card_spec(const struct fit_card *c, char *buf, size_t len)
{
	size_t u = 0;

	buf[0] = '\0';
	for (int k = 0; k < FK_N && u < len; k++) {
		char v[FB_FMT_LEN];

		if (!in_spec(c, k))
			continue;
		key_value(c, (enum fit_key)k, v, sizeof(v));
		u += (size_t)snprintf(buf + u, len - u, "%s%s=%s", u ? "," : "", names[k], v);
	}
	return buf;
}

/*
 * "card: open-au=16 is uncertain: with 15 too the twin reaches the card's
 * verdicts": a verdict record of its own (JSON: "verdict":"open-au",
 * "result":"uncertain", the value kept in the spec), labelled card.
 */
static void fit_print_alts(const struct fit_card *c, enum fit_key k)
{
	char v[FB_FMT_LEN], others[4 * FB_FMT_LEN] = "";
	size_t u = 0;

	for (unsigned a = 0; a < c->nalt[k] && u < sizeof(others); a++) {
		struct fit_card one = *c;

		one.v[k] = c->alt[k][a];
		key_value(&one, k, v, sizeof(v));
		u += (size_t)snprintf(others + u, sizeof(others) - u, "%s%s",
				      a ? (a + 1 == c->nalt[k] ? " or " : ", ") : "", v);
	}
	key_value(c, k, v, sizeof(v));
	out_verdict(&(struct out_verdict){ .label = "card", .name = names[k], .result = "uncertain",
					   .has_value = true, .value = (uint64_t)c->v[k],
					   .unit = "count" },
		    "%s=%s is uncertain: with %s too the twin reaches the card's verdicts, its "
		    "find-fat table as close (the FAT area and the search's history trade off)",
		    names[k], v, others);
}

/* "card: open-au=11 is a lower bound: ..." (JSON: "result":"at_least"). */
static void fit_print_atleast(const struct fit_card *c, enum fit_key k)
{
	char v[FB_FMT_LEN];

	key_value(c, k, v, sizeof(v));
	out_verdict(&(struct out_verdict){ .label = "card", .name = names[k], .result = "at_least",
					   .has_value = true, .value = (uint64_t)c->v[k],
					   .unit = "count" },
		    "%s=%s is a lower bound: the %s search found that many fast and no slow count "
		    "(no room on the device for more, or its budget ended): the card may keep more",
		    names[k], v, k == FK_OPEN_AU ? "linear" : "random");
}

/*
 * The card's line, held until fit_card_print_last(): the survey ends with
 * it, after the twin and the advice (the line a user pastes is the last),
 * and --analyze after its advice too. One run prints one card.
 */
static struct {
	bool held;
	int known;
	char spec[1024];
} last;

void fit_card_print(const struct fit_card *c)
{
	char left[1024];
	size_t u = 0;
	int known = 0;

	left[0] = '\0';
	for (int k = 0; k < FK_N; k++) {
		known += in_spec(c, k);
		/* (no reason: not seen where the survey would have seen it, the default right) */
		if (!c->known[k] && c->why[k] && u < sizeof(left))
			u += (size_t)snprintf(left + u, sizeof(left) - u, "%s: %s; ", names[k],
					      c->why[k]);
	}
	fit_card_spec(c, last.spec, sizeof(last.spec));
	last.known = known;
	last.held = true;
	out_note("card: not in the spec, the simulated card's defaults stand in: %s"
		 "read-chunk, channels, cache, cmd-overhead: the survey measures none of them "
		 "(a write cache only a long sustained write fills; a command's overhead is "
		 "within read-lat and write-lat)", left);
	for (int k = 0; k < FK_N; k++)
		if (c->known[k] && c->nalt[k])
			fit_print_alts(c, (enum fit_key)k);
	for (int k = 0; k < FK_N; k++)
		if (c->known[k] && c->atleast[k])
			fit_print_atleast(c, (enum fit_key)k);
	if (c->known[FK_SMALL_BUFFER] && c->buffer_next > 0) {
		char a[FB_FMT_LEN], b[FB_FMT_LEN];

		out_note("card: small-buffer=%s is the largest block the probes buffered, the next "
			 "%s not: the buffer takes %s or more, less than %s", fmt_size(a, sizeof(a),
			 (uint64_t)c->v[FK_SMALL_BUFFER]), fmt_size(b, sizeof(b), (uint64_t)c->buffer_next),
			 a, b);
	}
	for (int k = 0; k < FK_N; k++)
		if (fit_rough(c, (enum fit_key)k))
			out_note("card: %s is rough, within %.0f%% (its standard error): the survey's "
				 "lines tell it no closer", names[k], 100 * c->se[k] / c->v[k]);
}

bool fit_card_print_last(void)
{
	if (!last.held)
		return false;
	last.held = false;
	out_verdict(&(struct out_verdict){ .label = "card", .name = "card", .result = "fitted",
					   .has_value = true, .value = (uint64_t)last.known,
					   .unit = "count" },
		    "sim:%s", last.spec);
	return true;
}
