/*
 * --advise: after the verdicts of the run (or of --analyze FILE), the
 * partition layout and the file-system options they call for. It reads
 * the verdicts as they were printed (verdicts/facts.h) and the device's
 * size, never the device itself; the advice is advice/advice.c's. After
 * it, the card a --survey fitted (verdicts/fit_card.h): the output's last line.
 */
#include <stdio.h>

#include "modules/test.h"
#include "advice/advice.h"
#include "verdicts/facts.h"
#include "verdicts/fit_card.h"

static int advise_run(const struct fb_opts *o, struct target *t)
{
	struct adv_in in;
	static struct adv a;

	adv_from_facts(vf_get(), t ? t->size : 0, t ? t->sector : 0, &in);
	if (o->erasesize_set)
		in.erase_given = o->erasesize;
	adv_plan(&in, &a);
	adv_print(&a);
	fit_card_print_last();	/* --survey's card: the line to paste, last */
	return FB_OK;
}

/* Alone it would advise on nothing. */
static int advise_check(struct fb_opts *o, char *err, size_t len)
{
	extern const struct fb_test test_advise;

	if (o->tests & ~fb_test_bit(&test_advise))
		return FB_OK;
	snprintf(err, len, "--advise: needs the verdicts of a test in the same run (-a, -O, -f, "
		 "--find-open-au, --survey) or of --analyze FILE");
	return FB_EUSAGE;
}

static const char *const advise_uses[] = { "erasesize", NULL };

const struct fb_test test_advise = {
	.name = "advise",
	.help = "after the verdicts (also of --analyze): the partition\n"
		"layout as an sfdisk script, and ext4, f2fs and FAT options",
	.after_analyze = true,
	.uses = advise_uses,
	.check = advise_check,
	.run = advise_run,
	.tables = (const struct out_table *const[]){ &adv_sfdisk_table, NULL },
};
