/*
 * -s/--scatter: read time at 2^order positions spread over the device,
 * measured in LFSR order (so no read-ahead helps) and printed in offset
 * order as two gnuplot columns: offset in MiB, time in ms.
 */
#include <stdlib.h>

#include "core/engine.h"
#include "core/progress.h"
#include "modules/test.h"

/* One row per position: offset in MiB and time in ms, for gnuplot. */
static void scatter_text(char *line, size_t len, const union out_val *v)
{
	snprintf(line, len, "%g\t%g", (double)v[0].u / 1048576.0, v[1].d / 1e6);
}

static const struct out_field scatter_fields[] = {
	{ "offset_bytes", OT_BYTES }, { "time_ns", OT_NS },
};

static const struct out_table scatter_table = { "scatter", scatter_fields, 2, scatter_text, NULL };

/* Its own options: 2^order positions, span blocks read at each. */
static struct {
	unsigned order, span;
} so;

static void scatter_defaults(void)
{
	so.order = 9;
	so.span = 1;
}

static int test_scatter_run(const struct fb_opts *o, struct target *t)
{
	uint64_t npos = 1ull << so.order;
	uint64_t len = o->blocksize * so.span;
	uint64_t stride, ns, done = 0;
	double *t_ns, *seen;
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
	t_ns = calloc(npos, sizeof(*t_ns));
	seen = calloc(npos, sizeof(*seen));
	buf = eng_buffer(t, len);
	if (!t_ns || !seen || !buf) {
		r = FB_EDEV;
		goto out;
	}
	for (uint64_t i = 0; i < npos; i++)
		t_ns[i] = -1;
	lfsr_init(&l, npos);
	progress_begin("scatter positions", npos);
	/* The times in the order measured, one after the other: between two
	 * requests a store to the next slot, not to a random one of 2^16. */
	for (done = 0; done < npos; done++) {
		r = eng_read_min(t, buf, len, lfsr_next(&l) * stride, o->count, &ns);
		if (r != FB_OK)
			break;
		seen[done] = (double)ns;
		progress_update(done + 1, NULL);
	}
	/* ...then each to its position: the same sequence again. */
	lfsr_init(&l, npos);
	for (uint64_t i = 0; i < done; i++)
		t_ns[lfsr_next(&l)] = seen[i];
	/* Print what was measured, also when stopped half-way. */
	for (uint64_t i = 0; i < npos; i++) {
		union out_val v[2] = { { .u = i * stride }, { .d = t_ns[i] } };

		if (t_ns[i] >= 0)
			out_row(&scatter_table, v);
	}
out:
	free(seen);
	free(t_ns);
	eng_buffer_free(buf);
	return r;
}

static int scatter_check(struct fb_opts *o, char *err, size_t len)
{
	if (so.span <= UINT64_MAX / 2 / o->blocksize)
		return FB_OK;
	snprintf(err, len, "--scatter-span %u times --blocksize %llu overflows", so.span,
		 (unsigned long long)o->blocksize);
	return FB_EUSAGE;
}

static const struct fb_option scatter_options[] = {
	{ .name = "scatter-order", .kind = FO_UINT, .var = &so.order, .min = 0, .max = 16,
	  .arg = "N", .help = "scatter reads 2^N positions (default 9, at most 16)" },
	{ .name = "scatter-span", .kind = FO_UINT, .var = &so.span, .min = 1, .max = 1 << 20,
	  .arg = "N", .help = "blocks read at each scatter position (default 1, at\nmost 1048576)" },
	{ .name = NULL },
};

static const char *const scatter_uses[] = { "blocksize", "count", NULL };

const struct fb_test test_scatter = {
	.name = "scatter",
	.letter = 's',
	.help = "read time across the device (gnuplot columns)",
	.uses = scatter_uses,
	.options = scatter_options,
	.defaults = scatter_defaults,
	.check = scatter_check,
	.run = test_scatter_run,
	.tables = (const struct out_table *const[]){ &scatter_table, NULL },
};
