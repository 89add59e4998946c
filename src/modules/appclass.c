/*
 * --app-class: the three figures of the SD Association's application
 * performance classes A1 and A2 -- 4 KiB random reads and writes per
 * second and the sustained sequential write rate -- measured in one area
 * (--app-area bytes from --offset) and judged against each class's
 * minimum. The order: the area written sequentially first (the
 * sequential figure, and every block then holds data, so that the
 * random reads read mapped blocks), then random reads, then random
 * writes, each 4 KiB-aligned in an LFSR order that visits a block once.
 *
 * This approximates the SD specification's measurement, it does not
 * reproduce it (see the man page): one request at a time through the
 * kernel, no command queue or card cache enabled by the host.
 */
#include <stdlib.h>

#include "core/engine.h"
#include "core/units.h"
#include "modules/test.h"

#define APP_BLOCK 4096u			/* the classes' random request size */
#define APP_SEQ_PIECE (512u << 10)	/* the sequential phase's request size */
#define APP_READS 4000u			/* random reads timed (A2's 4000 IOPS: ~1 s) */
#define APP_WRITES 2000u		/* random writes timed (A2's 2000 IOPS: ~1 s) */
#define APP_PHASE_NS (20ull * 1000000000ull)	/* a phase stops after this much device time */

/* The classes' minimums (SD Physical Layer Specification, "Application Performance Class"). */
static const struct app_class {
	const char *name;
	double read_iops, write_iops, seq_bps;
} app_classes[] = {
	{ "A1", 1500, 500, 10e6 },
	{ "A2", 4000, 2000, 10e6 },
};

enum app_figure { APP_SEQ_WRITE, APP_RAND_READ, APP_RAND_WRITE, APP_NFIG };

static const char *const fig_text[APP_NFIG] = {
	"sequential write", "random read 4KiB", "random write 4KiB",
};
static const char *const fig_name[APP_NFIG] = { "seq_write", "random_read", "random_write" };

/* One row per figure: "random read 4KiB\t1623 IOPS\t4000 requests in 2.46s". */
static void app_text(char *line, size_t len, const union out_val *v)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN];

	if (v[2].u == APP_SEQ_PIECE)
		snprintf(line, len, "%s\t%s\t%s in %s", v[0].s, fmt_rate(a, sizeof(a), v[6].d),
			 fmt_size(b, sizeof(b), v[3].u), fmt_time(c, sizeof(c), v[4].d));
	else
		snprintf(line, len, "%s\t%.0f IOPS\t%llu requests in %s", v[0].s, v[5].d,
			 (unsigned long long)v[1].u, fmt_time(b, sizeof(b), v[4].d));
}

static const struct out_field app_fields[] = {
	{ "figure", OT_TEXT }, { "requests", OT_COUNT }, { "request_bytes", OT_BYTES },
	{ "bytes", OT_BYTES }, { "time_ns", OT_NS }, { "iops", OT_REAL }, { "rate_bps", OT_BPS },
};

static const struct out_table app_table = {
	"app-class", app_fields, 7, app_text, NULL,
};

/* Its own option: the size of the area measured. */
static uint64_t app_area;

static void app_defaults(void)
{
	app_area = 64ull << 20;
}

struct app_meas {
	uint64_t requests, bytes, ns;
};

static void app_row(enum app_figure f, uint64_t req_bytes, const struct app_meas *m,
		    double *figure)
{
	double s = (double)(m->ns ? m->ns : 1) / 1e9;
	double iops = (double)m->requests / s, bps = (double)m->bytes / s;

	*figure = f == APP_SEQ_WRITE ? bps : iops;
	out_row(&app_table, (union out_val[]){ { .s = fig_text[f] }, { .u = m->requests },
		{ .u = req_bytes }, { .u = m->bytes }, { .d = (double)m->ns }, { .d = iops },
		{ .d = bps } });
}

static int app_sequential(const struct fb_opts *o, struct target *t, void *buf,
			  struct app_meas *m)
{
	int r = FB_OK;
	uint64_t ns;

	for (uint64_t at = 0; at < app_area && r == FB_OK && m->ns < APP_PHASE_NS;
	     at += APP_SEQ_PIECE) {
		uint64_t piece = app_area - at < APP_SEQ_PIECE ? app_area - at : APP_SEQ_PIECE;

		if ((r = eng_write(t, buf, piece, o->offset + at, &ns)) == FB_OK) {
			m->requests++;
			m->bytes += piece;
			m->ns += ns;
		}
	}
	return r;
}

/* count random 4 KiB requests over the area (fewer once APP_PHASE_NS is spent). */
static int app_random(const struct fb_opts *o, struct target *t, void *buf, bool wr,
		      unsigned count, struct app_meas *m)
{
	struct lfsr l;
	int r = FB_OK;
	uint64_t ns;

	lfsr_init(&l, app_area / APP_BLOCK);
	for (unsigned i = 0; i < count && r == FB_OK && m->ns < APP_PHASE_NS; i++) {
		uint64_t off = o->offset + lfsr_next(&l) * APP_BLOCK;

		r = wr ? eng_write(t, buf, APP_BLOCK, off, &ns) : eng_read(t, buf, APP_BLOCK, off, &ns);
		if (r == FB_OK) {
			m->requests++;
			m->bytes += APP_BLOCK;
			m->ns += ns;
		}
	}
	return r;
}

/* A figure against one class: "app-class: A1 random read 4KiB: pass: 1623 IOPS, needs 1500". */
static bool app_judge(const struct app_class *c, enum app_figure f, double got)
{
	char name[48], a[FB_FMT_LEN], b[FB_FMT_LEN];
	double need = f == APP_SEQ_WRITE ? c->seq_bps : f == APP_RAND_READ ? c->read_iops
									  : c->write_iops;
	bool pass = got >= need;

	snprintf(name, sizeof(name), "%c%c_%s", c->name[0] | 0x20, c->name[1], fig_name[f]);
	if (f == APP_SEQ_WRITE)
		out_verdict(&(struct out_verdict){ .label = "app-class", .name = name,
			    .result = pass ? "pass" : "fail", .has_value = true,
			    .value = (uint64_t)got, .unit = "bps" },
			    "%s %s: %s: %s, needs %s", c->name, fig_text[f], pass ? "pass" : "fail",
			    fmt_rate(a, sizeof(a), got), fmt_rate(b, sizeof(b), need));
	else
		out_verdict(&(struct out_verdict){ .label = "app-class", .name = name,
			    .result = pass ? "pass" : "fail", .has_value = true,
			    .value = (uint64_t)(got + 0.5), .unit = "iops" },
			    "%s %s: %s: %.0f IOPS, needs %.0f", c->name, fig_text[f],
			    pass ? "pass" : "fail", got, need);
	return pass;
}

/* Every figure against every class, then the best class all three figures meet. */
static void app_verdicts(const double *fig)
{
	const char *best = NULL;

	for (size_t c = 0; c < sizeof(app_classes) / sizeof(app_classes[0]); c++) {
		bool all = true;

		for (int f = 0; f < APP_NFIG; f++)
			all &= app_judge(&app_classes[c], f, fig[f]);
		if (all)
			best = app_classes[c].name;
	}
	out_verdict(&(struct out_verdict){ .name = "app_class", .result = best ? best : "none" },
		    "application performance class: %s (as measured here, not certified)",
		    best ? best : "none: it fails A1");
}

static int app_run(const struct fb_opts *o, struct target *t)
{
	struct app_meas m[APP_NFIG] = { { 0, 0, 0 } };
	double fig[APP_NFIG];
	void *buf;
	int r = eng_check_end(t, "app-class", o->offset + app_area);

	if (r != FB_OK)
		return r;
	if (!(buf = eng_buffer(t, APP_SEQ_PIECE)))
		return FB_EDEV;
	r = app_sequential(o, t, buf, &m[APP_SEQ_WRITE]);
	if (r == FB_OK)
		app_row(APP_SEQ_WRITE, APP_SEQ_PIECE, &m[APP_SEQ_WRITE], &fig[APP_SEQ_WRITE]);
	if (r == FB_OK && (r = app_random(o, t, buf, false, APP_READS, &m[APP_RAND_READ])) == FB_OK)
		app_row(APP_RAND_READ, APP_BLOCK, &m[APP_RAND_READ], &fig[APP_RAND_READ]);
	if (r == FB_OK && (r = app_random(o, t, buf, true, APP_WRITES, &m[APP_RAND_WRITE])) == FB_OK)
		app_row(APP_RAND_WRITE, APP_BLOCK, &m[APP_RAND_WRITE], &fig[APP_RAND_WRITE]);
	if (r == FB_OK)
		app_verdicts(fig);
	eng_buffer_free(buf);
	return r;
}

/* 4 KiB requests need a sector of at most 4 KiB; the area whole sequential pieces. */
static int app_check_target(const struct fb_opts *o, const struct target *t, char *err,
			    size_t len)
{
	(void)o;
	if (t->zone_size) {
		snprintf(err, len, "--app-class: %s is a zoned device (writes only at each zone's "
			 "write pointer); its random writes are not supported", t->path);
		return FB_EUSAGE;
	}
	if (t->sector > APP_BLOCK) {
		snprintf(err, len, "--app-class: 4KiB requests are impossible on the %u-byte "
			 "sectors of %s", t->sector, t->path);
		return FB_EUSAGE;
	}
	return FB_OK;
}

static int app_check(struct fb_opts *o, char *err, size_t len)
{
	if (o->offset % APP_BLOCK) {
		snprintf(err, len, "--offset=%llu: --app-class needs it 4KiB-aligned, as its requests are",
			 (unsigned long long)o->offset);
		return FB_EUSAGE;
	}
	if (app_area % APP_SEQ_PIECE || app_area / APP_BLOCK < APP_READS) {
		snprintf(err, len, "--app-area=%llu: must be a multiple of 512KiB, at least 16MiB",
			 (unsigned long long)app_area);
		return FB_EUSAGE;
	}
	return FB_OK;
}

static size_t app_regions(const struct fb_opts *o, uint64_t size, struct region *r, size_t max,
			  uint64_t *end)
{
	(void)size;
	*end = o->offset > UINT64_MAX - app_area ? UINT64_MAX : o->offset + app_area;
	if (max >= 1)
		r[0] = (struct region){ o->offset, app_area };
	return 1;
}

static const struct fb_option app_options[] = {
	{ .name = "app-area", .kind = FO_SIZE, .var = &app_area, .arg = "SIZE",
	  .help = "the area --app-class measures, from --offset\n"
		  "(default 64MiB; a multiple of 512KiB, at least 16MiB)" },
	{ .name = NULL },
};

static const char *const app_uses[] = { "offset", NULL };

const struct fb_test test_app_class = {
	.name = "app-class",
	.help = "the SD A1/A2 application class figures: 4KiB random\n"
		"read and write IOPS, sequential write rate (writes)",
	.writes = true,
	.uses = app_uses,
	.options = app_options,
	.defaults = app_defaults,
	.check = app_check,
	.check_target = app_check_target,
	.regions = app_regions,
	.run = app_run,
	.tables = (const struct out_table *const[]){ &app_table, NULL },
};
