/*
 * --survey: the chain the original's users ran by hand. It selects -a,
 * --find-open-au and --advise (src/modules/table.c, .selects): -a finds
 * the erase size, --find-open-au searches the open-AU count with it
 * (linear); this test, between them and the advice, runs the same search
 * with --random and then --find-fat --random, each with what --max-write and
 * --max-time left, and stops early when the card is obviously slow (no
 * linear count was fast: a random search or a FAT probe would only
 * collect garbage collections). The advice reads all their verdicts.
 */
#include <stdio.h>

#include "core/engine.h"
#include "core/units.h"
#include "modules/align.h"
#include "modules/test.h"
#include "verdicts/facts.h"
#include "verdicts/verdict_align.h"

/*
 * The block size of the survey's -a when --blocksize is not given: small
 * enough that its rows reach below the page (a 4KiB or 16KiB page needs
 * rows of 2KiB..8KiB to show the floor under it), so that the page is
 * named and the ext4 stride and FAT cluster advice rest on it, not on an
 * assumption. At least twice the sector (-a reads half a block on each
 * side of a boundary). The open-AU searches keep the default block size.
 */
#define SURVEY_ALIGN_BS 1024u

/* survey_check took -a over (see survey_prepare); was --erasesize given? */
static bool survey_runs_align, survey_erase_given;

extern const struct fb_test test_align, test_find_fat, test_find_open_au, test_advise;

/* What the budget leaves after the writes so far (0 in *o: no limit); false: nothing left. */
static bool budget_left(const struct fb_opts *o, struct fb_opts *left, const char *next)
{
	uint64_t bytes, ns;
	char a[FB_FMT_LEN];

	eng_write_totals(&bytes, &ns);
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

static int survey_run(const struct fb_opts *o, struct target *t)
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
	if (!budget_left(o, &left, "the random open-AU search"))
		return FB_OK;
	left.random = true;
	out_note("survey: the open-AU search in random order");
	if ((r = test_find_open_au.run(&left, t)) != FB_OK)
		return r;
	/* find-fat in random order: linear writes rarely show a FAT-optimised area */
	if (!budget_left(o, &left, "find-fat") || !fat_fits(o, &left))
		return FB_OK;
	out_note("survey: find-fat --random with the erase size found");
	return test_find_fat.run(&left, t);
}

/*
 * Both searches in one run: --random would make the linear one random too.
 * The survey runs -a itself, before the searches, with a block size small
 * enough to see the page; without --erasesize, --find-open-au's
 * preparation would run it with the search's block size instead: the
 * erase size is marked given here (that preparation then leaves it
 * alone), and set back to what the user gave once survey_prepare has
 * measured it.
 */
static int survey_check(struct fb_opts *o, char *err, size_t len)
{
	if (o->random) {
		snprintf(err, len, "--survey: runs the open-AU search both linear and random; "
			 "--random has no place in it");
		return FB_EUSAGE;
	}
	survey_runs_align = true;
	survey_erase_given = o->erasesize_set;
	o->erasesize_set = true;
	return FB_OK;
}

static bool survey_measures_first(const struct fb_opts *o)
{
	(void)o;
	return survey_runs_align;
}

/* -a with a block size that sees the page, then its erase size for the searches. */
static int survey_prepare(struct fb_opts *o, struct target *t)
{
	const struct va_verdict *v;
	struct fb_opts a = *o;
	int r;

	if (!survey_runs_align)
		return FB_OK;
	survey_runs_align = false;
	o->erasesize_set = survey_erase_given;	/* --advise tells given from measured */
	o->tests &= ~fb_test_bit(&test_align);	/* it runs here, not again */
	if (!o->blocksize_set)
		a.blocksize = SURVEY_ALIGN_BS < 2 * t->sector ? 2 * t->sector : SURVEY_ALIGN_BS;
	out_test_begin(test_align.name);
	r = align_run(&a, t);
	v = vf_align_verdict();
	if (r == FB_EINTR || fb_stop)
		return FB_EINTR;	/* run/run.c ends the section with the interruption */
	out_test_end(r == FB_OK ? "done" : "failed", NULL);
	if (r != FB_OK || survey_erase_given)
		return r;
	if (!v || v->erase_state != VA_FOUND) {
		fprintf(stderr, "flashbench: --survey: the align verdict found no erase block "
			"size; give --erasesize\n");
		return FB_EDEV;
	}
	o->erasesize = v->erase;
	if (!o->offset_set)
		o->offset = ((16ull << 20) + o->erasesize - 1) / o->erasesize * o->erasesize;
	return FB_OK;
}

/* The erase blocks of both open-AU searches and of find-fat. */
static size_t survey_regions(const struct fb_opts *o, uint64_t size, struct region *r,
			     size_t max, uint64_t *end)
{
	uint64_t e1, e2;
	size_t n1 = test_find_open_au.regions(o, size, r, max, &e1);
	size_t n2 = test_find_fat.regions(o, size, n1 < max ? r + n1 : NULL,
					  n1 < max ? max - n1 : 0, &e2);

	*end = e1 > e2 ? e1 : e2;
	return n1 + n2;
}

static const char *const survey_uses[] = {
	"blocksize", "erasesize", "offset", "max-write", "max-time", "no-early-stop", NULL,
};

const struct fb_test test_survey = {
	.name = "survey",
	.help = "-a, --find-open-au linear and random with the erase size\n"
		"found, --find-fat, then --advise, within --max-write and\n"
		"--max-time (writes)",
	.writes = true,
	.uses = survey_uses,
	.selects = (const struct fb_test *const[]){ &test_align, &test_find_open_au, &test_advise,
						    NULL },
	.check = survey_check,
	.prepare = survey_prepare,
	.measures_first = survey_measures_first,
	.regions = survey_regions,
	.run = survey_run,
};
