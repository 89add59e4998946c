/*
 * --find-open-au as a test of the table: its erase size from -a when none
 * is given, its checks, the regions it may write, its options. The search
 * itself: findopenau.c.
 */
#include <stdio.h>

#include "core/engine.h"
#include "core/out.h"
#include "core/units.h"
#include "modules/align.h"
#include "modules/au_write.h"
#include "modules/findopenau.h"
#include "modules/test.h"
#include "verdicts/facts.h"
#include "verdicts/verdict_align.h"

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
		return FB_EINTR;	/* run/run.c ends the section with the interruption */
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
	.help = "how many erase blocks stay fast written at once (slow: a\n"
		"write costs a garbage collection, a quarter of an erase-block\n"
		"copy or more): tries N = 1, 2, 4, ... until slow, then bisects\n"
		"(writes)",
	.writes = true,
	.uses = find_open_au_uses,
	.check = find_open_au_check,
	.prepare = find_open_au_prepare,
	.measures_first = find_open_au_measures_first,
	.regions = find_open_au_regions,
	.run = find_open_au_run,
	.tables = (const struct out_table *const[]){ &find_open_au_table, NULL },
};
