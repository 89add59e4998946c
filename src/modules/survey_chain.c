/* The measurements of --survey as steps: see survey_chain.h. */
#include <stdio.h>
#include <stdlib.h>

#include "core/engine.h"
#include "core/stats.h"
#include "core/units.h"
#include "modules/findfat.h"
#include "modules/survey_chain.h"
#include "modules/test.h"
#include "verdicts/facts.h"

extern const struct fb_test test_find_fat, test_find_open_au;

uint64_t survey_align_bs(const struct fb_opts *o, const struct target *t)
{
	if (o->blocksize_set)
		return o->blocksize;
	return SURVEY_ALIGN_BS < 2 * t->sector ? 2 * t->sector : SURVEY_ALIGN_BS;
}

static void read_text(char *line, size_t len, const union out_val *v)
{
	char s[FB_FMT_LEN], a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN];

	snprintf(line, len, "read %s\t%s\tfastest %s, upper quartile %s", fmt_size(s, sizeof(s), v[0].u),
		 fmt_time(a, sizeof(a), v[2].d), fmt_time(b, sizeof(b), v[1].d),
		 fmt_time(c, sizeof(c), v[3].d));
}

static const struct out_field read_fields[] = {
	{ "block_bytes", OT_BYTES }, { "low_ns", OT_NS }, { "median_ns", OT_NS }, { "high_ns", OT_NS },
};

const struct out_table survey_read_table = {
	"survey-read", read_fields, 4, read_text, NULL,
};

static int cmp_ns(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* SURVEY_READS reads of len bytes at page starts from base; their median and sd. */
static int read_size(struct target *t, void *buf, uint64_t base, uint64_t span, uint64_t page,
		     uint64_t len)
{
	double ns[SURVEY_READS];
	uint64_t one;
	int r;

	for (unsigned i = 0; i < SURVEY_READS; i++) {
		if ((r = eng_read(t, buf, len, base + (i * page) % span, &one)) != FB_OK)
			return r;
		ns[i] = (double)one;
	}
	/* (the fastest: a busy host's slow reads and a card's stalls only ever add) */
	qsort(ns, SURVEY_READS, sizeof(ns[0]), cmp_ns);
	out_row(&survey_read_table, (union out_val[]){
		{ .u = len }, { .d = ns[0] }, { .d = stats_median(ns, SURVEY_READS) },
		{ .d = ns[SURVEY_READS * 3 / 4] } });
	return FB_OK;
}

int survey_reads(const struct fb_opts *o, struct target *t, uint64_t page)
{
	uint64_t top = page && page <= SURVEY_READ_MAX ? page : 4096;
	uint64_t base = o->offset, span = o->erasesize ? o->erasesize : top;
	void *buf;
	int r = FB_OK;

	if (top < t->sector || base + span > t->size)
		return FB_OK;	/* nothing to read a page from: the fit says so */
	if (!(buf = eng_buffer(t, top)))
		return FB_EDEV;
	for (uint64_t len = t->sector; len <= top && r == FB_OK; len *= 2)
		r = read_size(t, buf, base, span, top, len);
	eng_buffer_free(buf);
	return r;
}

/* What the budget leaves after the writes so far (0 in *o: no limit); false: nothing left. */
static bool budget_left(const struct fb_opts *o, struct fb_opts *left, const char *next,
			uint64_t written, uint64_t spent)
{
	uint64_t bytes, ns;
	char a[FB_FMT_LEN];

	eng_write_totals(&bytes, &ns);
	bytes -= written;
	ns -= spent;
	if ((o->max_write && bytes >= o->max_write) || (o->max_time && ns >= o->max_time)) {
		out_note("survey: %s not run: %s reached (%s written)", next,
			 o->max_write && bytes >= o->max_write ? "--max-write" : "--max-time",
			 fmt_size(a, sizeof(a), bytes));
		out_test_stopped(o->max_write && bytes >= o->max_write ? "--max-write reached"
								      : "--max-time reached");
		return false;
	}
	left->max_write = o->max_write ? o->max_write - bytes : 0;
	left->max_time = o->max_time ? o->max_time - ns : 0;
	return true;
}

/* find-fat writes up to fat-nr erase blocks per block size: does that fit what is left? */
static bool fat_fits(const struct fb_opts *o, const struct fb_opts *left)
{
	struct region r;
	uint64_t end, sizes = 0, need;
	char a[FB_FMT_LEN], b[FB_FMT_LEN];

	test_find_fat.regions(o, UINT64_MAX, &r, 1, &end);
	for (uint64_t s = o->erasesize; s >= o->blocksize && s % 512 == 0; s /= 2)
		sizes++;
	need = r.len * sizes;
	if (!left->max_write || need <= left->max_write)
		return true;
	out_note("survey: find-fat not run: it may write %s, --max-write leaves %s",
		 fmt_size(a, sizeof(a), need), fmt_size(b, sizeof(b), left->max_write));
	out_test_stopped("--max-write reached");
	return false;
}

static unsigned fat_nr_fixed;

void survey_fat_nr_fix(unsigned n)
{
	fat_nr_fixed = n;
}

unsigned survey_fat_nr(unsigned random_fast)
{
	unsigned n = random_fast + SURVEY_FAT_AREA + 1;

	if (fat_nr_fixed)
		return fat_nr_fixed;
	if (random_fast + 2 > SURVEY_FAT_MAX)
		return SURVEY_FAT_MIN;
	return n < SURVEY_FAT_MIN ? SURVEY_FAT_MIN : n > SURVEY_FAT_MAX ? SURVEY_FAT_MAX : n;
}

/* find-fat --random on survey_fat_nr() erase blocks, and why that many. */
static int fat_run(const struct fb_opts *o, struct fb_opts *left, struct target *t,
		   uint64_t written, uint64_t spent)
{
	unsigned slots = vf_get()->oa[1].fast, n = survey_fat_nr(slots), was = findfat_nr();
	int r = FB_OK;

	if (!budget_left(o, left, "find-fat", written, spent))
		return FB_OK;
	findfat_set_nr(n);
	if (fat_fits(o, left)) {
		char why[160] = "";

		if (slots + 1 >= n)
			snprintf(why, sizeof(why), ", on %u erase blocks: an area in front of the "
				 "card's %u random-write slots cannot show", n, slots);
		else if (n > SURVEY_FAT_MIN)
			snprintf(why, sizeof(why), ", on %u erase blocks: beyond the card's %u "
				 "random-write slots, an area of up to %u shows", n, slots, n - slots - 1);
		out_note("survey: find-fat --random with the erase size found%s", why);
		r = test_find_fat.run(left, t);
	}
	findfat_set_nr(was);
	return r;
}

int survey_searches(const struct fb_opts *o, struct target *t, uint64_t written, uint64_t spent)
{
	const struct vf_facts *f = vf_get();
	struct fb_opts left = *o;
	int r;

	if (f->oa_runs[0] == 0) {
		out_note("survey: the linear open-AU search measured no count (its --max-write or "
			 "--max-time): nothing more is run");
		out_test_stopped("the linear search measured no count");
		return FB_OK;
	}
	if (f->oa[0].fast == 0) {
		out_note("survey: no linear open-AU count was fast: the card is too slow for the "
			 "random search and find-fat to say more; stopped");
		out_test_stopped("no linear open-AU count was fast");
		return FB_OK;
	}
	if (!budget_left(o, &left, "the random open-AU search", written, spent))
		return FB_OK;
	left.random = true;
	out_note("survey: the open-AU search in random order");
	if ((r = test_find_open_au.run(&left, t)) != FB_OK)
		return r;
	/* find-fat in random order: linear writes rarely show a FAT-optimised area */
	return fat_run(o, &left, t, written, spent);
}
