/*
 * -s/--scatter: read time at 2^order positions spread over the device,
 * measured in LFSR order (so no read-ahead helps) and printed in offset
 * order as two gnuplot columns: offset in MiB, time in ms.
 */
#include <stdlib.h>

#include "engine.h"
#include "modules.h"
#include "report.h"

int test_scatter(const struct fb_opts *o, struct target *t)
{
	uint64_t npos = 1ull << o->scatter_order;
	uint64_t len = o->blocksize * o->scatter_span;
	uint64_t stride, ns;
	double *ms;
	struct lfsr l;
	void *buf;
	int r = FB_OK;

	if (len > t->size)
		return eng_check_end(t, "scatter", len);
	/* Block-aligned positions, so that no read straddles a page for nothing. */
	stride = t->size / npos / o->blocksize * o->blocksize;
	if (stride == 0)
		stride = o->blocksize;
	while (npos > 1 && (npos - 1) * stride + len > t->size)
		npos--;
	ms = calloc(npos, sizeof(*ms));
	buf = eng_buffer(t, len);
	if (!ms || !buf) {
		r = FB_EDEV;
		goto out;
	}
	for (uint64_t i = 0; i < npos; i++)
		ms[i] = -1;
	lfsr_init(&l, npos);
	for (uint64_t i = 0; i < npos; i++) {
		uint64_t p = lfsr_next(&l);

		r = eng_read_min(t, buf, len, p * stride, o->count, &ns);
		if (r != FB_OK)
			break;
		ms[p] = (double)ns / 1e6;
	}
	/* Print what was measured, also when stopped half-way. */
	for (uint64_t i = 0; i < npos; i++)
		if (ms[i] >= 0)
			report_line("%g\t%g", (double)(i * stride) / 1048576.0, ms[i]);
out:
	free(ms);
	eng_buffer_free(buf);
	return r;
}
