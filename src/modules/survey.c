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
#include <stdlib.h>

#include "core/engine.h"
#include "modules/align.h"
#include "modules/findfat.h"
#include "modules/survey_chain.h"
#include "modules/survey_twin.h"
#include "modules/test.h"
#include "verdicts/facts.h"
#include "verdicts/fit_card.h"
#include "verdicts/verdict_align.h"

/* survey_check took -a over (see survey_prepare); was --erasesize given? */
static bool survey_runs_align, survey_erase_given;

extern const struct fb_test test_align, test_find_fat, test_find_open_au, test_advise;

/* What the card's survey measured, for the fit (collected from its rows as they go out). */
static struct fit_input card_in;

static void survey_tap(const char *test, const struct out_table *t, const union out_val *v)
{
	fit_input_row(&card_in, test, t, v);
}

/* The card as a sim: spec, refined on its twin; then how close the twin came. */
static void survey_card(const struct fb_opts *o)
{
	const struct vf_facts *f = vf_get();
	struct twin_result *twin = calloc(1, sizeof(*twin));
	uint64_t page = f->align && f->va.page_state == VA_FOUND ? f->va.page : 0;
	struct twin_judgement j;
	struct fit_card c;
	bool ran;

	out_set_tap(NULL);
	fit_card(&card_in, f, &c);
	ran = twin && twin_refine(o, page, &card_in, f, &c, twin) == 0;
	fit_card_print(&c);
	if (ran) {
		twin_judge(&card_in, f, twin, &j);
		twin_print(&j, f, twin);
	}
	free(twin);
	/* The card's line ends the output, after the advice (modules/advise.c). */
	if (!fb_test_selected(o, &test_advise))
		fit_card_print_last();
}

static int survey_run(const struct fb_opts *o, struct target *t)
{
	int r = survey_searches(o, t, 0, 0);

	if (r == FB_OK && !fb_stop)
		survey_card(o);
	return r;
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
	a.blocksize = survey_align_bs(o, t);
	fit_input_reset(&card_in);
	card_in.size = t->size;
	out_set_tap(survey_tap);
	out_test_begin(test_align.name);
	r = align_run(&a, t);
	v = vf_align_verdict();
	if (r == FB_EINTR || fb_stop)
		return FB_EINTR;	/* run/run.c ends the section with the interruption */
	if (r == FB_OK && !survey_erase_given && (!v || v->erase_state != VA_FOUND)) {
		out_test_end("done", NULL);
		fprintf(stderr, "flashbench: --survey: the align verdict found no erase block "
			"size; give --erasesize\n");
		return FB_EDEV;
	}
	if (r == FB_OK && !survey_erase_given) {
		o->erasesize = v->erase;
		if (!o->offset_set)
			o->offset = ((16ull << 20) + o->erasesize - 1) / o->erasesize * o->erasesize;
	}
	/* the reads the fit of the card needs, before anything is written */
	if (r == FB_OK)
		r = survey_reads(o, t, v && v->page_state == VA_FOUND ? v->page : 0);
	if (r == FB_EINTR || fb_stop)
		return FB_EINTR;
	out_test_end(r == FB_OK ? "done" : "failed", NULL);
	card_in.offset = o->offset;
	card_in.erase = o->erasesize;
	return r;
}

/* The erase blocks of both open-AU searches and of find-fat. */
static size_t survey_regions(const struct fb_opts *o, uint64_t size, struct region *r,
			     size_t max, uint64_t *end)
{
	uint64_t e1, e2;
	unsigned was = findfat_nr();
	size_t n1 = test_find_open_au.regions(o, size, r, max, &e1), n2;

	/* (the most find-fat may test: how many depends on the random search) */
	findfat_set_nr(SURVEY_FAT_MAX);
	n2 = test_find_fat.regions(o, size, n1 < max ? r + n1 : NULL, n1 < max ? max - n1 : 0, &e2);
	findfat_set_nr(was);
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
	.tables = (const struct out_table *const[]){ &survey_read_table, NULL },
};
