/*
 * -i/--interval: read time for request sizes 512 B << i, i = 0..order,
 * and a straight line through them: its slope is the throughput, its
 * intercept the access time.
 */
#include <stdlib.h>

#include "core/engine.h"
#include "core/stats.h"
#include "core/progress.h"
#include "modules/test.h"
#include "core/units.h"

/* One row per size: "512B\t623µs". */
static void interval_text(char *line, size_t len, const union out_val *v)
{
	char s[FB_FMT_LEN], t[FB_FMT_LEN];

	snprintf(line, len, "%s\t%s", fmt_size(s, sizeof(s), v[0].u), fmt_time(t, sizeof(t), v[1].d));
}

static const struct out_field interval_fields[] = {
	{ "size_bytes", OT_BYTES }, { "time_ns", OT_NS },
};

static const struct out_table interval_table = {
	"interval", interval_fields, 2, interval_text, NULL,
};

/* Its own option: sizes 512 B << 0..order. */
static unsigned interval_order;

static void interval_defaults(void)
{
	interval_order = 10;
}

/* Distinct positions per size, so that no cache answers. */
#define INTERVAL_POSITIONS 8

static int interval_size(const struct fb_opts *o, struct target *t, void *buf,
			 uint64_t size, double *ns_out)
{
	uint64_t stride = size * 2 > 1048576 ? size * 2 : 1048576;
	uint64_t best = UINT64_MAX, ns;
	int r;

	for (unsigned j = 0; j < INTERVAL_POSITIONS; j++) {
		uint64_t off = o->offset + j * stride;

		if (off + size > t->size)
			break;
		r = eng_read_min(t, buf, size, off, o->count, &ns);
		if (r != FB_OK)
			return r;
		if (ns < best)
			best = ns;
	}
	*ns_out = (double)best;
	return FB_OK;
}

static int interval_run(const struct fb_opts *o, struct target *t)
{
	uint64_t first = t->sector > 512 ? t->sector : 512;
	uint64_t last = (uint64_t)512 << interval_order;
	double x[64], y[64], a, b;
	char s[FB_FMT_LEN], tm[FB_FMT_LEN];
	size_t n = 0;
	uint64_t sizes = 0;
	void *buf;
	int r = eng_check_end(t, "interval", o->offset + last);

	if (r != FB_OK)
		return r;
	buf = eng_buffer(t, last);
	if (!buf)
		return FB_EDEV;
	for (uint64_t size = first; size <= last; size *= 2)
		sizes++;
	progress_begin("interval sizes", sizes);
	for (uint64_t size = first; size <= last; size *= 2) {
		r = interval_size(o, t, buf, size, &y[n]);
		if (r != FB_OK)
			break;
		x[n] = (double)size;
		out_row(&interval_table, (union out_val[]){ { .u = size }, { .d = y[n] } });
		progress_update(++n, NULL);
	}
	if (r == FB_OK && n >= 2 && stats_linfit(x, y, n, &a, &b) == 0 && b > 0) {
		struct out_verdict v = { .label = "interval", .name = "access_time", .result = "fit",
					 .has_value = a >= 0, .value = a >= 0 ? (uint64_t)a : 0,
					 .unit = "ns" };

		out_verdict(&v, "access time %s, throughput %s", fmt_time(tm, sizeof(tm), a),
			    fmt_rate(s, sizeof(s), 1e9 / b));
	} else if (r == FB_OK) {
		struct out_verdict v = { .label = "interval", .name = "access_time",
					 .result = "none" };

		out_verdict(&v, "no fit: the read time does not grow with the size "
			    "(too fast or too noisy to tell; try a larger --interval-order)");
	}
	eng_buffer_free(buf);
	return r;
}

/* It reads its largest size at --offset, which is 16 MiB unless given: a
 * 16 MiB file is too small, and the message says why. */
static int interval_check_target(const struct fb_opts *o, const struct target *t, char *err,
				 size_t len)
{
	uint64_t last = 512ull << interval_order;

	if (o->offset <= t->size && last <= t->size - o->offset)
		return FB_OK;
	snprintf(err, len, "--interval reads up to %llu bytes (--interval-order %u) at --offset "
		 "%llu%s, but %s has only %llu bytes: give a smaller --offset or --interval-order",
		 (unsigned long long)last, interval_order, (unsigned long long)o->offset,
		 o->offset_set ? "" : " (the default: 16MiB, rounded up to the erase size)",
		 t->path, (unsigned long long)t->size);
	return FB_EUSAGE;
}

static const struct fb_option interval_options[] = {
	{ .name = "interval-order", .kind = FO_UINT, .var = &interval_order, .min = 0, .max = 20,
	  .arg = "N", .help = "interval sizes 512B << 0..N (default 10, at most 20)" },
	{ .name = NULL },
};

/* --erasesize moves the default --offset, so it changes this test too. */
static const char *const interval_uses[] = { "count", "offset", "erasesize", NULL };

const struct fb_test test_interval = {
	.name = "interval",
	.letter = 'i',
	.help = "read time by request size, with a linear fit; reads\n"
		"at --offset (16MiB: a 16MiB file needs --offset=0)",
	.uses = interval_uses,
	.options = interval_options,
	.defaults = interval_defaults,
	.check_target = interval_check_target,
	.run = interval_run,
	.tables = (const struct out_table *const[]){ &interval_table, NULL },
};
