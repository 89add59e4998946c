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
 *
 * With --runs=N each block size is written N times in a row; the line
 * shows the median rate (so the verdicts read it as before), JSON and
 * CSV every run, and each step to the next size is judged on the runs
 * (modules/steps.h): a garbage collection's halving stands out as
 * "significant", a wobble as "within noise".
 */
#include <stdlib.h>

#include "core/stats.h"
#include "modules/steps.h"

#include "core/engine.h"
#include "modules/au_write.h"
#include "core/units.h"
#include "core/progress.h"
#include "modules/test.h"
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
	{ "block_bytes", OT_BYTES }, { "rate_bps", OT_BPS }, { "rate_runs_bps", OT_BPS_LIST },
};

static const struct out_table open_au_table = {
	"open-au", open_au_fields, 3, open_au_text, NULL,
};

static const struct out_field open_au_step_fields[] = {
	{ "from_bytes", OT_BYTES }, { "to_bytes", OT_BYTES }, { "change_pct", OT_REAL },
	{ "p", OT_REAL }, { "verdict", OT_TEXT },
};

static const struct out_table open_au_step_table = {
	"open-au-step", open_au_step_fields, 5, steps_text_bytes, NULL,
};

/* The block sizes a sweep can visit: erase size down to a sector, halving. */
#define OA_MAX_SIZES 64

/* The rates of every run of every block size measured. */
struct oa_runs {
	unsigned runs;			/* --runs, or 1 */
	size_t rows;
	uint64_t size[OA_MAX_SIZES];
	double rate[OA_MAX_SIZES][FB_MAX_RUNS];
};

/* With --runs given (2 or more): the steps between block sizes. */
static void open_au_steps(const struct fb_opts *o, const struct oa_runs *m)
{
	struct step_cell cell[OA_MAX_SIZES] = { { 0 } };
	struct stats_cmp c[OA_MAX_SIZES];

	if (!o->runs || m->runs < 2 || m->rows < 2)
		return;
	for (size_t i = 0; i < m->rows; i++)
		cell[i] = (struct step_cell){ m->rate[i], m->runs };
	steps_emit(&open_au_step_table, m->size, cell, m->rows, c);
}

/* Write every block of size m->runs times; the row holds their median. */
static int open_au_size(struct target *t, const struct fb_opts *o, const void *buf,
			const uint64_t *starts, unsigned nr, uint64_t size, uint64_t *ns,
			struct oa_runs *m, double *rate)
{
	double *v = m->rate[m->rows];

	for (unsigned j = 0; j < m->runs; j++) {
		uint64_t total = 0;
		int r;

		for (unsigned i = 0; i < nr; i++)
			ns[i] = 0;
		r = openau_write_round(t, buf, starts, nr, o->erasesize, size, o->random, ns);
		if (r != FB_OK)
			return r;
		for (unsigned i = 0; i < nr; i++)
			total += ns[i];
		v[j] = (double)o->erasesize * nr * 1e9 / (double)(total ? total : 1);
	}
	*rate = stats_median(v, m->runs);
	m->size[m->rows] = size;
	out_row(&open_au_table, (union out_val[]){ { .u = size }, { .d = *rate },
						   { .list = { v, m->runs } } });
	m->rows++;
	return FB_OK;
}

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
	struct oa_runs *m = calloc(1, sizeof(*m));
	int r = m ? eng_check_end(t, "open-au", openau_end(o, nr)) : FB_EDEV;

	if (r != FB_OK) {
		free(m);
		return r;
	}
	m->runs = o->runs ? o->runs : 1;
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
	progress_begin("open-au block sizes", au_sweep_rows(t, o->erasesize, o->blocksize));
	for (uint64_t size = o->erasesize;
	     m->rows < OA_MAX_SIZES && au_sweep_size_ok(t, size, o->blocksize); size /= 2) {
		double rate;

		r = open_au_size(t, o, buf, starts, nr, size, ns, m, &rate);
		if (r != FB_OK) {
			run.complete = false;
			break;
		}
		oa_add(&run, size, rate);
		progress_update(run.n, NULL);
		/* Every write a garbage collection: the rest would say the same, slowly. */
		if (oa_stop_line(stop, size, &rate)) {
			run.complete = false;
			break;
		}
		if (size % 2)
			break;
	}
	open_au_steps(o, m);
	open_au_verdict(o, &run, r);
out:
	free(m);
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

static const char *const open_au_uses[] = { "blocksize", "erasesize", "offset", "random", "runs",
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
	.tables = (const struct out_table *const[]){ &open_au_table, &open_au_step_table, NULL },
};
