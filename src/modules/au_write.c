/* Interleaved erase-block writes and where they go: see openau.h. */
#include "core/engine.h"
#include "modules/au_write.h"

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
bool au_sweep_size_ok(struct target *t, uint64_t size, uint64_t bs)
{
	return size >= bs && size % t->sector == 0;
}

uint64_t au_sweep_rows(struct target *t, uint64_t erase, uint64_t bs)
{
	uint64_t n = 0;

	for (uint64_t size = erase; au_sweep_size_ok(t, size, bs); size /= 2) {
		n++;
		if (size % 2)
			break;
	}
	return n;
}

/*
 * The first byte past nr blocks of len bytes, step bytes apart from start;
 * UINT64_MAX when that does not fit in 64 bits. Computed apart from the
 * region lists, whose offsets would wrap (-f -e 4096T --fat-nr=4096 is
 * 2^64 bytes: a region of length 0).
 */
uint64_t au_spaced_end(uint64_t start, unsigned nr, uint64_t step, uint64_t len)
{
	uint64_t span, end;

	if (nr == 0)
		return start;
	if (__builtin_mul_overflow((uint64_t)(nr - 1), step, &span) ||
	    __builtin_add_overflow(start, span, &end) || __builtin_add_overflow(end, len, &end))
		return UINT64_MAX;
	return end;
}

size_t au_openau_regions(const struct fb_opts *o, unsigned nr, struct region *r, size_t max,
			 uint64_t *end)
{
	uint64_t step;

	/* The erase blocks lie OPENAU_SPACING apart: one region each. */
	for (unsigned i = 0; i < nr && i < max; i++) {
		r[i].off = openau_start(o, i);
		r[i].len = o->erasesize;
	}
	if (__builtin_mul_overflow((uint64_t)OPENAU_SPACING, o->erasesize, &step))
		*end = nr > 1 ? UINT64_MAX : au_spaced_end(o->offset, nr, 0, o->erasesize);
	else
		*end = au_spaced_end(o->offset, nr, step, o->erasesize);
	return nr;
}
