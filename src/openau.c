/*
 * -O/--open-au and -f/--find-fat: write rates for block sizes from the
 * erase size down to the block size. A card with K open-AU slots writes
 * N <= K interleaved erase blocks at full speed; with N > K every write
 * forces a garbage collection, whose cost does not depend on the block
 * size, so the rate halves with each halving of the block size.
 *
 * Both end with a verdict (verdict_sweep.h, verdict_findfat.h) on the
 * rates as printed, also when stopped early or interrupted, so that
 * --analyze of the saved output prints the same lines.
 */
#include <stdlib.h>

#include "engine.h"
#include "openau.h"
#include "report.h"
#include "verdict_findfat.h"
#include "verdict_openau.h"
#include "verdict_sweep.h"

uint64_t openau_start(const struct fb_opts *o, unsigned i)
{
	return o->offset + (uint64_t)i * OPENAU_SPACING * o->erasesize;
}

uint64_t openau_end(const struct fb_opts *o, unsigned nr)
{
	return openau_start(o, nr - 1) + o->erasesize;
}

uint64_t findfat_start(const struct fb_opts *o)
{
	return o->offset_set ? o->offset : 0;
}

int openau_write_round(struct target *t, const void *buf, const uint64_t *starts,
		       unsigned nr, uint64_t erase, uint64_t size, bool random, uint64_t *ns)
{
	uint64_t chunks = erase / size, ts;
	struct lfsr l;
	int r;

	lfsr_init(&l, chunks);
	for (uint64_t c = 0; c < chunks; c++) {
		uint64_t pos = random ? lfsr_next(&l) : c;

		for (unsigned i = 0; i < nr; i++) {
			r = eng_write_long(t, buf, size, starts[i] + pos * size, &ts);
			if (r != FB_OK)
				return r;
			ns[i] += ts;
		}
	}
	return FB_OK;
}

/* Is size one of the block sizes the sweep visits? (sector-aligned) */
static bool sweep_size_ok(struct target *t, uint64_t size, uint64_t bs)
{
	return size >= bs && size % t->sector == 0;
}

/* The verdict of a run that measured or was interrupted (none after a device error). */
static void open_au_verdict(const struct fb_opts *o, const struct oa_run *run, int r)
{
	struct oa_result res;

	if ((r != FB_OK && r != FB_EINTR) || run->n == 0)
		return;
	vs_open_au(run, &res);
	oa_result_print(o->open_au_nr, o->random, &res);
}

int test_open_au(const struct fb_opts *o, struct target *t)
{
	unsigned nr = o->open_au_nr;
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
	for (uint64_t size = o->erasesize; sweep_size_ok(t, size, o->blocksize); size /= 2) {
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
		report_rates(size, &rate, 1);
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

/* Each erase block's column as printed; complete: every size measured. */
static void find_fat_verdict(const struct fb_opts *o, struct oa_run *cols, bool complete, int r)
{
	struct ff_result res;

	if ((r != FB_OK && r != FB_EINTR) || cols[0].n == 0)
		return;
	for (unsigned i = 0; i < o->fat_nr; i++)
		cols[i].complete = complete;
	ff_judge(cols, o->fat_nr, o->random, &res);
	ff_print(&res);
}

int test_find_fat(const struct fb_opts *o, struct target *t)
{
	unsigned nr = o->fat_nr;
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
	for (uint64_t size = o->erasesize; sweep_size_ok(t, size, o->blocksize); size /= 2) {
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
		report_rates(size, rates, nr);
		for (unsigned i = 0; i < nr; i++)
			oa_add(&cols[i], size, rates[i]);
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
