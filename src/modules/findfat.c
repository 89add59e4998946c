/*
 * -f/--find-fat: the write rates of each of the first --fat-nr erase
 * blocks (from offset 0), one column each, for block sizes from the
 * erase size down to the block size. Many SD cards handle small random
 * writes well only in the first few erase blocks, where FAT keeps its
 * tables. It ends with a verdict (verdict_findfat.h) on the rates as
 * printed.
 */
#include <stdlib.h>

#include "core/engine.h"
#include "modules/au_write.h"
#include "modules/findfat.h"
#include "core/units.h"
#include "core/progress.h"
#include "modules/test.h"
#include "verdicts/verdict_findfat.h"
#include "verdicts/verdict_openau.h"

/* One row per block size, a rate per erase block: "4MiB\t7.99M/s\t7.95M/s...". */
static void find_fat_text(char *line, size_t len, const union out_val *v)
{
	char r[FB_FMT_LEN];
	int k = snprintf(line, len, "%s", fmt_size(r, sizeof(r), v[0].u));

	for (size_t i = 0; i < v[1].list.n && (size_t)k < len; i++)
		k += snprintf(line + k, len - (size_t)k, "\t%s",
			      fmt_rate(r, sizeof(r), v[1].list.v[i]));
}

static const struct out_field find_fat_fields[] = {
	{ "block_bytes", OT_BYTES }, { "rate_bps", OT_BPS_LIST },
};

static const struct out_table find_fat_table = {
	"find-fat", find_fat_fields, 2, find_fat_text, NULL,
};

/* Its own option: the erase blocks tested. */
static unsigned fat_nr;

static void find_fat_defaults(void)
{
	fat_nr = 6;
}

unsigned findfat_nr(void)
{
	return fat_nr;
}

void findfat_set_nr(unsigned n)
{
	fat_nr = n;
}

/* Each erase block's column as printed; complete: every size measured. */
static void find_fat_verdict(const struct fb_opts *o, struct oa_run *cols, bool complete, int r)
{
	struct ff_result res;

	if ((r != FB_OK && r != FB_EINTR) || cols[0].n == 0)
		return;
	for (unsigned i = 0; i < fat_nr; i++)
		cols[i].complete = complete;
	ff_judge(cols, fat_nr, o->random, &res);
	ff_print(&res);
}

static int find_fat_run(const struct fb_opts *o, struct target *t)
{
	unsigned nr = fat_nr;
	uint64_t *starts, *ns;
	double *rates;
	void *buf;
	struct oa_stop *stop = NULL;
	struct oa_run *cols;
	bool complete = true;
	uint64_t base = findfat_start(o);
	int r = eng_check_end(t, "find-fat", base + (uint64_t)nr * o->erasesize);

	if (r != FB_OK)
		return r;
	starts = calloc(nr, sizeof(*starts));
	ns = calloc(nr, sizeof(*ns));
	rates = calloc(nr, sizeof(*rates));
	cols = calloc(nr, sizeof(*cols));
	buf = eng_buffer(t, eng_write_buffer_len(o->erasesize));
	if (!o->no_early_stop)
		stop = oa_stop_new(nr, o->erasesize);
	if (!starts || !ns || !rates || !cols || !buf) {
		r = FB_EDEV;
		goto out;
	}
	for (unsigned i = 0; i < nr; i++) {
		starts[i] = base + (uint64_t)i * o->erasesize;
		oa_init(&cols[i], o->erasesize);
	}
	progress_begin("find-fat block sizes", au_sweep_rows(t, o->erasesize, o->blocksize));
	for (uint64_t size = o->erasesize; au_sweep_size_ok(t, size, o->blocksize); size /= 2) {
		/* One erase block at a time: each column is that block's own rate. */
		for (unsigned i = 0; i < nr && r == FB_OK; i++) {
			ns[i] = 0;
			r = openau_write_round(t, buf, &starts[i], 1, o->erasesize, size, o->random, &ns[i]);
			rates[i] = (double)o->erasesize * 1e9 / (double)(ns[i] ? ns[i] : 1);
		}
		if (r != FB_OK) {
			complete = false;
			break;
		}
		out_row(&find_fat_table, (union out_val[]){ { .u = size }, { .list = { rates, nr } } });
		for (unsigned i = 0; i < nr; i++)
			oa_add(&cols[i], size, rates[i]);
		progress_update(cols[0].n, NULL);
		if (oa_stop_line(stop, size, rates)) {
			complete = false;
			break;
		}
		if (size % 2)
			break;
	}
	find_fat_verdict(o, cols, complete, r);
out:
	oa_stop_free(stop);
	free(starts);
	free(ns);
	free(rates);
	free(cols);
	eng_buffer_free(buf);
	return r;
}

static size_t find_fat_regions(const struct fb_opts *o, uint64_t size, struct region *r,
			       size_t max, uint64_t *end)
{
	(void)size;
	if (max > 0) {
		r[0].off = findfat_start(o);
		r[0].len = (uint64_t)fat_nr * o->erasesize;
	}
	*end = au_spaced_end(findfat_start(o), fat_nr, o->erasesize, o->erasesize);
	return 1;
}

static const struct fb_option find_fat_options[] = {
	{ .name = "fat-nr", .kind = FO_UINT, .var = &fat_nr, .min = 1, .max = 4096, .arg = "N",
	  .help = "erase blocks tested by --find-fat (default 6, at\nmost 4096)" },
	{ .name = NULL },
};

static const char *const find_fat_uses[] = { "blocksize", "erasesize", "offset", "random",
						   "no-early-stop", NULL };

const struct fb_test test_find_fat = {
	.name = "find-fat",
	.letter = 'f',
	.help = "write rates of the first --fat-nr erase blocks (writes)",
	.writes = true,
	.uses = find_fat_uses,
	.options = find_fat_options,
	.defaults = find_fat_defaults,
	.regions = find_fat_regions,
	.run = find_fat_run,
	.tables = (const struct out_table *const[]){ &find_fat_table, NULL },
};
