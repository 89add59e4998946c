/*
 * -O/--open-au and -f/--find-fat: write rates for block sizes from the
 * erase size down to the block size. A card with K open-AU slots writes
 * N <= K interleaved erase blocks at full speed; with N > K every write
 * forces a garbage collection, whose cost does not depend on the block
 * size, so the rate halves with each halving of the block size.
 */
#include <stdlib.h>

#include "engine.h"
#include "openau.h"
#include "report.h"
#include "verdict_openau.h"

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

int test_open_au(const struct fb_opts *o, struct target *t)
{
	unsigned nr = o->open_au_nr;
	uint64_t *starts, *ns;
	void *buf;
	struct oa_stop *stop = NULL;
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
	for (uint64_t size = o->erasesize; sweep_size_ok(t, size, o->blocksize); size /= 2) {
		uint64_t total = 0;
		double rate;

		for (unsigned i = 0; i < nr; i++)
			ns[i] = 0;
		r = openau_write_round(t, buf, starts, nr, o->erasesize, size, o->random, ns);
		if (r != FB_OK)
			break;
		for (unsigned i = 0; i < nr; i++)
			total += ns[i];
		rate = (double)o->erasesize * nr * 1e9 / (double)(total ? total : 1);
		report_rates(size, &rate, 1);
		/* Every write a garbage collection: the rest would say the same, slowly. */
		if (size % 2 || oa_stop_line(stop, size, &rate))
			break;
	}
out:
	oa_stop_free(stop);
	free(starts);
	free(ns);
	eng_buffer_free(buf);
	return r;
}

int test_find_fat(const struct fb_opts *o, struct target *t)
{
	unsigned nr = o->fat_nr;
	uint64_t *starts, *ns;
	double *rates;
	void *buf;
	struct oa_stop *stop = NULL;
	uint64_t base = findfat_start(o);
	int r = eng_check_end(t, "find-fat", base + (uint64_t)nr * o->erasesize);

	if (r != FB_OK)
		return r;
	starts = calloc(nr, sizeof(*starts));
	ns = calloc(nr, sizeof(*ns));
	rates = calloc(nr, sizeof(*rates));
	buf = eng_buffer(t, eng_write_buffer_len(o->erasesize));
	if (!o->no_early_stop)
		stop = oa_stop_new(nr, o->erasesize);
	if (!starts || !ns || !rates || !buf) {
		r = FB_EDEV;
		goto out;
	}
	for (unsigned i = 0; i < nr; i++)
		starts[i] = base + (uint64_t)i * o->erasesize;
	for (uint64_t size = o->erasesize; sweep_size_ok(t, size, o->blocksize); size /= 2) {
		/* One erase block at a time: each column is that block's own rate. */
		for (unsigned i = 0; i < nr && r == FB_OK; i++) {
			ns[i] = 0;
			r = openau_write_round(t, buf, &starts[i], 1, o->erasesize, size, o->random, &ns[i]);
			rates[i] = (double)o->erasesize * 1e9 / (double)(ns[i] ? ns[i] : 1);
		}
		if (r != FB_OK)
			break;
		report_rates(size, rates, nr);
		if (size % 2 || oa_stop_line(stop, size, rates))
			break;
	}
out:
	oa_stop_free(stop);
	free(starts);
	free(ns);
	free(rates);
	eng_buffer_free(buf);
	return r;
}
