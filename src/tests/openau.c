/*
 * -O/--open-au: write rates for block sizes from the erase size down to
 * the block size, --open-au-nr erase blocks at once. A card with K
 * open-AU slots writes N <= K interleaved erase blocks at full speed;
 * with N > K every write forces a garbage collection, whose cost does
 * not depend on the block size, so the rate halves with each halving of
 * the block size.
 *
 * It ends with a verdict (verdict_sweep.h) on the rates as printed, also
 * when stopped early or interrupted, so that --analyze of the saved
 * output prints the same lines.
 */
#include <stdlib.h>

#include "core/engine.h"
#include "tests/au_write.h"
#include "core/units.h"
#include "tests/test.h"
#include "verdicts/verdict_openau.h"
#include "verdicts/verdict_sweep.h"

/* One row per block size: "512KiB\t5.98M/s". */
static void open_au_text(char *line, size_t len, const union out_val *v)
{
	char sz[FB_FMT_LEN], r[FB_FMT_LEN];

	snprintf(line, len, "%s\t%s", fmt_size(sz, sizeof(sz), v[0].u),
		 fmt_rate(r, sizeof(r), v[1].d));
}

static const struct out_field open_au_fields[] = {
	{ "block_bytes", OT_BYTES }, { "rate_bps", OT_BPS },
};

static const struct out_table open_au_table = {
	"open-au", open_au_fields, 2, open_au_text, NULL,
};

/* Its own option: the erase blocks written at once. */
static unsigned open_au_nr;

static void open_au_defaults(void)
{
	open_au_nr = 2;
}

/* The verdict of a run that measured or was interrupted (none after a device error). */
static void open_au_verdict(const struct fb_opts *o, const struct oa_run *run, int r)
{
	struct oa_result res;

	if ((r != FB_OK && r != FB_EINTR) || run->n == 0)
		return;
	vs_open_au(run, &res);
	oa_result_print(open_au_nr, o->random, &res);
}

static int open_au_run(const struct fb_opts *o, struct target *t)
{
	unsigned nr = open_au_nr;
	uint64_t *starts, *ns;
	void *buf;
	struct oa_stop *stop = NULL;
	struct oa_run run;
	int r = eng_check_end(t, "open-au", openau_end(o, nr));

	if (r != FB_OK)
		return r;
	starts = calloc(nr, sizeof(*starts));
	ns = calloc(nr, sizeof(*ns));
	buf = eng_buffer(t, eng_write_buffer_len(o->erasesize));
	if (!o->no_early_stop)
		stop = oa_stop_new(1, o->erasesize);
	if (!starts || !ns || !buf) {
		r = FB_EDEV;
		goto out;
	}
	for (unsigned i = 0; i < nr; i++)
		starts[i] = openau_start(o, i);
	oa_init(&run, o->erasesize);
	run.complete = true;
	for (uint64_t size = o->erasesize; au_sweep_size_ok(t, size, o->blocksize); size /= 2) {
		uint64_t total = 0;
		double rate;

		for (unsigned i = 0; i < nr; i++)
			ns[i] = 0;
		r = openau_write_round(t, buf, starts, nr, o->erasesize, size, o->random, ns);
		if (r != FB_OK) {
			run.complete = false;
			break;
		}
		for (unsigned i = 0; i < nr; i++)
			total += ns[i];
		rate = (double)o->erasesize * nr * 1e9 / (double)(total ? total : 1);
		out_row(&open_au_table, (union out_val[]){ { .u = size }, { .d = rate } });
		oa_add(&run, size, rate);
		/* Every write a garbage collection: the rest would say the same, slowly. */
		if (oa_stop_line(stop, size, &rate)) {
			run.complete = false;
			break;
		}
		if (size % 2)
			break;
	}
	open_au_verdict(o, &run, r);
out:
	oa_stop_free(stop);
	free(starts);
	free(ns);
	eng_buffer_free(buf);
	return r;
}


static size_t open_au_regions(const struct fb_opts *o, uint64_t size, struct region *r,
			      size_t max, uint64_t *end)
{
	(void)size;
	return au_openau_regions(o, open_au_nr, r, max, end);
}

static const struct fb_option open_au_options[] = {
	{ .name = "open-au-nr", .kind = FO_UINT, .var = &open_au_nr, .min = 1, .max = 4096,
	  .arg = "N", .help = "erase blocks written at once by --open-au (default 2,\nat most 4096)" },
	{ .name = NULL },
};

static const char *const open_au_uses[] = { "blocksize", "erasesize", "offset", "random",
						    "no-early-stop", NULL };

const struct fb_test test_open_au = {
	.name = "open-au",
	.letter = 'O',
	.help = "write rates for --open-au-nr interleaved erase blocks (writes)",
	.writes = true,
	.uses = open_au_uses,
	.options = open_au_options,
	.defaults = open_au_defaults,
	.regions = open_au_regions,
	.run = open_au_run,
	.tables = (const struct out_table *const[]){ &open_au_table, NULL },
};
