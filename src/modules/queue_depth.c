/*
 * --queue-depth[=LIST]: for each depth, keep that many requests of
 * --blocksize (default 4KiB) outstanding over --size bytes (default
 * 16MiB) from --offset, linear or --random, reads or --write, and show
 * IOPS (median, min..max of the runs), MB/s and latency p50/p99/max.
 *
 * --runs (default 3) are interleaved: run 1 of every depth, then run 2
 * of every depth..., so that a drift of the device (warming up, a cache
 * filling, another process) spreads over all depths instead of landing
 * on one. Each step to the next depth is judged by stats_compare() on
 * the runs' IOPS (Welch's t-test at 95% and the spread rule, stats.h):
 * "8 -> 16: +41%, significant" or "within noise".
 *
 * Requests go through the target's queued pair (engine.h eng_queue_*):
 * io_uring or Linux AIO on files and block devices (--engine, default the
 * first that works; --engine=sync: the engine's own reads and writes, see
 * qd_cell_sync), the channels of the simulated card on its virtual clock.
 * Each request has its own slot of the registered buffer: none share memory.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "core/progress.h"
#include "core/stats.h"
#include "core/units.h"
#include "modules/queue_depth.h"
#include "modules/steps.h"
#include "modules/test.h"

extern const struct fb_test test_queue_depth;

static struct {
	bool write;
	const char *engine;		/* --engine as given */
	enum qio_kind kind;
	unsigned depth[QD_MAX_DEPTHS];
	size_t n;
} qd;

static const unsigned qd_default_list[] = { 1, 2, 4, 8, 16, 32 };

/* One depth item "N" or "A..B" at *p; appends to depth[]. */
static int qd_item(const char *list, const char **p, unsigned *depth, size_t *n, char *err,
		   size_t len)
{
	unsigned long a, b;
	char *end;

	if (**p < '0' || **p > '9')
		goto bad;
	a = strtoul(*p, &end, 10);
	b = a;
	if (end[0] == '.' && end[1] == '.') {
		if (end[2] < '0' || end[2] > '9')
			goto bad;
		b = strtoul(end + 2, &end, 10);
	}
	if (*end != ',' && *end != '\0')
		goto bad;
	if (a < 1 || b > QD_MAX_DEPTH || a > b) {
		snprintf(err, len, "--queue-depth=%s: a depth is 1 to %u, and A..B needs A <= B",
			 list, QD_MAX_DEPTH);
		return -1;
	}
	for (unsigned long d = a; ; d = d * 2 > b && d < b ? b : d * 2) {
		if (*n == QD_MAX_DEPTHS) {
			snprintf(err, len, "--queue-depth=%s: more than %d depths", list,
				 QD_MAX_DEPTHS);
			return -1;
		}
		if (*n && depth[*n - 1] >= d) {
			snprintf(err, len, "--queue-depth=%s: the depths must rise (%u, then %lu)",
				 list, depth[*n - 1], d);
			return -1;
		}
		depth[(*n)++] = (unsigned)d;
		if (d == b)
			break;
	}
	*p = end;
	return 0;
bad:
	snprintf(err, len, "--queue-depth=%s: not a list of depths (1,2,4 or 1..32)", list);
	return -1;
}

int qd_parse_list(const char *s, unsigned *depth, size_t *n, char *err, size_t len)
{
	const char *p = s;

	*n = 0;
	for (;;) {
		if (qd_item(s, &p, depth, n, err, len) < 0)
			return -1;
		if (*p == '\0')
			return 0;
		p++;	/* the comma */
	}
}

size_t qd_saturation(const struct stats_cmp *cmp, size_t n)
{
	size_t at = 0;

	for (size_t i = 0; i + 1 < n; i++)
		if (cmp[i].verdict == STATS_SIGNIFICANT && cmp[i].change_pct > 0)
			at = i + 1;
	return at;
}

size_t qd_saturation_all(const double (*iops)[FB_MAX_RUNS], const unsigned *done, size_t n,
			 size_t from, size_t *scatter)
{
	size_t at;
	double best = 0;
	struct stats_cmp c;

	*scatter = n;
	for (at = from; at + 1 < n; at++) {
		bool beaten = false;

		for (size_t j = at + 1; j < n && !beaten; j++) {
			stats_compare(iops[at], done[at], iops[j], done[j], &c);
			beaten = c.verdict == STATS_SIGNIFICANT && c.change_pct > 0;
		}
		if (!beaten)
			break;
	}
	for (size_t j = at + 1; j < n; j++) {
		stats_compare(iops[at], done[at], iops[j], done[j], &c);
		if (c.change_pct > QD_SCATTER_PCT && c.change_pct > best) {
			best = c.change_pct;
			*scatter = j;
		}
	}
	return at;
}

/* The measurements of a sweep. */
struct qd_sweep {
	const struct fb_opts *o;
	struct target *t;
	uint64_t bs, off, bytes, nreq;	/* per cell: nreq requests of bs over bytes */
	unsigned runs;
	unsigned done[QD_MAX_DEPTHS];	/* runs measured of each depth */
	double iops[QD_MAX_DEPTHS][FB_MAX_RUNS];
	uint64_t *lat;			/* [depth][run][request] */
	unsigned *slots;		/* free buffer slots */
	struct qio_done *comp;
	char *buf;
};

static uint64_t *qd_lat(const struct qd_sweep *s, size_t i, unsigned run)
{
	return s->lat + ((uint64_t)i * s->runs + run) * s->nreq;
}

static uint64_t qd_bs(const struct fb_opts *o)
{
	return o->blocksize_set ? o->blocksize : QD_DEFAULT_BS;
}

static uint64_t qd_bytes(const struct fb_opts *o)
{
	return o->size ? o->size : QD_DEFAULT_SIZE;
}

/*
 * The sync engine of a file or device runs queued requests one at a time,
 * in order, timed around the system call: the engine's own reads or writes
 * do the same, at every depth, without the queue's bookkeeping (3% of a
 * 4 us request, issue 23); a short transfer goes on, as in every test.
 */
static int qd_cell_sync(struct qd_sweep *s, size_t i, unsigned run)
{
	uint64_t *lat = qd_lat(s, i, run), t0 = s->t->ops->now(s->t), elapsed;
	struct lfsr l;
	int r = FB_OK;

	lfsr_init(&l, s->nreq);
	for (uint64_t k = 0; k < s->nreq && r == FB_OK; k++) {
		uint64_t off = s->off + (s->o->random ? lfsr_next(&l) : k) * s->bs;

		r = qd.write ? eng_write(s->t, s->buf, s->bs, off, &lat[k])
			     : eng_read(s->t, s->buf, s->bs, off, &lat[k]);
	}
	if (r != FB_OK)
		return r;
	elapsed = s->t->ops->now(s->t) - t0;
	s->iops[i][run] = elapsed ? (double)s->nreq * 1e9 / (double)elapsed : 0;
	s->done[i] = run + 1;
	return FB_OK;
}

/* Keep depth requests in flight until every block of the cell is done. */
static int qd_cell(struct qd_sweep *s, size_t i, unsigned run)
{
	unsigned depth = qd.depth[i], nfree = depth, got;
	uint64_t *lat = qd_lat(s, i, run), sub = 0, fin = 0, t0, elapsed;
	struct lfsr l;
	int r;

	if (qd.kind == QIO_SYNC && !s->t->sim)
		return qd_cell_sync(s, i, run);
	lfsr_init(&l, s->nreq);
	for (unsigned k = 0; k < depth; k++)
		s->slots[k] = k;
	t0 = s->t->ops->now(s->t);
	while (fin < s->nreq) {
		for (; sub < s->nreq && nfree; sub++) {
			unsigned slot = s->slots[--nfree];
			uint64_t blk = s->o->random ? lfsr_next(&l) : sub;

			r = eng_queue_submit(s->t, qd.write, s->buf + slot * s->bs, s->bs,
					     s->off + blk * s->bs, slot);
			if (r != FB_OK)
				return r;
		}
		r = eng_queue_reap(s->t, 1, s->comp, depth, &got);
		if (r != FB_OK)
			return r;
		if (!got && fb_stop)
			return FB_EINTR;
		for (unsigned k = 0; k < got; k++) {
			lat[fin++] = s->comp[k].ns;
			s->slots[nfree++] = (unsigned)s->comp[k].tag;
		}
	}
	elapsed = s->t->ops->now(s->t) - t0;
	s->iops[i][run] = elapsed ? (double)s->nreq * 1e9 / (double)elapsed : 0;
	s->done[i] = run + 1;
	return FB_OK;
}

/* Run 1 of every depth, then run 2 of every depth, ... */
static int qd_sweep_all(struct qd_sweep *s)
{
	char what[64];
	int r;

	snprintf(what, sizeof(what), "queue-depth %zu depths x %u runs", qd.n, s->runs);
	progress_begin(what, (uint64_t)qd.n * s->runs);
	for (unsigned run = 0; run < s->runs; run++)
		for (size_t i = 0; i < qd.n; i++) {
			if ((r = qd_cell(s, i, run)) != FB_OK)
				return r;
			progress_update((uint64_t)run * qd.n + i + 1, NULL);
		}
	return FB_OK;
}

/* "depth    IOPS   min..max    MB/s    p50    p99    max" */
static void qd_header(char *line, size_t len, const union out_val *first)
{
	(void)first;
	snprintf(line, len, "%5s %9s %-19s %8s %9s %9s %9s", "depth", "IOPS", "  (min..max)",
		 "MB/s", "p50", "p99", "max");
}

/* A time right-aligned in width columns ("µ" is two bytes but one column). */
static int qd_put_time(char *line, size_t len, int width, double ns)
{
	char t[FB_FMT_LEN];
	int cols = 0;

	fmt_time(t, sizeof(t), ns);
	for (const char *p = t; *p; p++)
		cols += ((unsigned char)*p & 0xc0) != 0x80;
	return snprintf(line, len, " %*s%s", width > cols ? width - cols : 0, "", t);
}

/* "    8     24410   (24023..24587)      100.0     302µs     1.1ms    3.02ms" */
static void qd_text(char *line, size_t len, const union out_val *v)
{
	char mm[48];
	int k;

	snprintf(mm, sizeof(mm), "  (%.0f..%.0f)", v[3].d, v[4].d);
	k = snprintf(line, len, "%5llu %9.0f %-19s %8.1f", (unsigned long long)v[0].u, v[2].d,
		     mm, v[5].d / 1e6);
	for (int f = 6; f <= 8 && k > 0 && (size_t)k < len; f++)
		k += qd_put_time(line + k, len - (size_t)k, 9, v[f].d);
}

static const struct out_field qd_fields[] = {
	{ "depth", OT_COUNT }, { "runs", OT_COUNT }, { "iops", OT_REAL },
	{ "iops_min", OT_REAL }, { "iops_max", OT_REAL }, { "rate_bps", OT_BPS },
	{ "p50_ns", OT_NS }, { "p99_ns", OT_NS }, { "max_ns", OT_NS },
	{ "iops_runs", OT_REAL_LIST },
};

static const struct out_table qd_table = { "queue-depth", qd_fields, 10, qd_text, qd_header };

static const struct out_field qd_step_fields[] = {
	{ "from_depth", OT_COUNT }, { "to_depth", OT_COUNT }, { "change_pct", OT_REAL },
	{ "p", OT_REAL }, { "verdict", OT_TEXT },
};

static const struct out_table qd_step_table = { "queue-depth-step", qd_step_fields, 5,
						steps_text_count, NULL };

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Depth i's row: the IOPS of its runs, and the latencies of all of them pooled. */
static void qd_row(const struct qd_sweep *s, size_t i)
{
	unsigned m = s->done[i];
	uint64_t n = (uint64_t)m * s->nreq, *all = qd_lat(s, i, 0);
	double med = stats_median(s->iops[i], m);

	/* the runs of one depth lie next to each other: sort them as one */
	qsort(all, n, sizeof(*all), cmp_u64);
	out_row(&qd_table, (union out_val[]){
		{ .u = qd.depth[i] }, { .u = m }, { .d = med },
		{ .d = stats_min(s->iops[i], m) }, { .d = stats_max(s->iops[i], m) },
		{ .d = med * (double)s->bs },
		{ .d = (double)stats_percentile_u64(all, n, 50) },
		{ .d = (double)stats_percentile_u64(all, n, 99) },
		{ .d = (double)all[n - 1] },
		{ .list = { s->iops[i], m } } });
}

/*
 * A deeper depth reads far more than the saturation depth, by its
 * median, but its runs scatter too much to call it a rise: the verdict
 * says the runs disagree instead of naming a depth the table contradicts.
 */
static void qd_scatter(const struct qd_sweep *s, size_t at, size_t j)
{
	double a = stats_median(s->iops[at], s->done[at]), b = stats_median(s->iops[j], s->done[j]);

	out_verdict(&(struct out_verdict){ .label = "queue-depth", .name = "saturation_depth",
					   .result = "uncertain" },
		    "the runs disagree: %s depth %u, but depth %u reads %.1fx depth %u by the "
		    "median (runs %.0f..%.0f IOPS vs %.0f..%.0f), too scattered to call a rise; "
		    "measure again with more --runs",
		    at ? "throughput rises significantly up to" : "no significant rise from",
		    qd.depth[at], qd.depth[j], b / a, qd.depth[at],
		    stats_min(s->iops[j], s->done[j]), stats_max(s->iops[j], s->done[j]),
		    stats_min(s->iops[at], s->done[at]), stats_max(s->iops[at], s->done[at]));
}

/* One line per adjacent pair, then where the rise ends. */
static void qd_steps(const struct qd_sweep *s, size_t rows)
{
	struct stats_cmp c[QD_MAX_DEPTHS];
	struct step_cell cell[QD_MAX_DEPTHS] = { { 0 } };
	uint64_t key[QD_MAX_DEPTHS] = { 0 };
	size_t at, sc;

	for (size_t i = 0; i < rows; i++) {
		cell[i] = (struct step_cell){ s->iops[i], s->done[i] };
		key[i] = qd.depth[i];
	}
	steps_emit(&qd_step_table, key, cell, rows, c);
	/* no verdict on a depth without a spread (--runs=1, an interrupted run) */
	for (size_t i = 0; i < rows; i++)
		if (s->done[i] < 2)
			return;
	if (rows < 2)
		return;
	at = qd_saturation_all((const double (*)[FB_MAX_RUNS])s->iops, s->done, rows,
			       qd_saturation(c, rows), &sc);
	if (sc < rows)
		qd_scatter(s, at, sc);
	else if (at == rows - 1)
		out_verdict(&(struct out_verdict){ .label = "queue-depth", .name = "saturation_depth",
						   .result = "rising", .has_value = true,
						   .value = qd.depth[at], .unit = "count" },
			    "throughput still rises significantly at depth %u, the deepest measured",
			    qd.depth[at]);
	else if (at == 0)
		out_verdict(&(struct out_verdict){ .label = "queue-depth", .name = "saturation_depth",
						   .result = "none", .has_value = true,
						   .value = qd.depth[0], .unit = "count" },
			    "throughput does not rise significantly from depth %u to %u",
			    qd.depth[0], qd.depth[rows - 1]);
	else
		out_verdict(&(struct out_verdict){ .label = "queue-depth", .name = "saturation_depth",
						   .result = "named", .has_value = true,
						   .value = qd.depth[at], .unit = "count" },
			    "throughput rises significantly up to depth %u, not beyond", qd.depth[at]);
}

static void qd_describe(const struct qd_sweep *s, const char *engine)
{
	char b[FB_FMT_LEN], z[FB_FMT_LEN], o[FB_FMT_LEN];

	out_note("queue-depth: %s %s %s, %s per cell from offset %s of %s, %u run%s, %s",
		 fmt_size(b, sizeof(b), s->bs), s->o->random ? "random" : "linear",
		 qd.write ? "writes" : "reads", fmt_size(z, sizeof(z), s->bytes),
		 fmt_size(o, sizeof(o), s->off), s->t->path, s->runs,
		 s->runs == 1 ? "" : "s interleaved", engine);
}

/* The rows measured (a partial run counts up to its last complete cell). */
static void qd_report(const struct qd_sweep *s, const char *engine)
{
	size_t rows = 0;

	while (rows < qd.n && s->done[rows])
		rows++;
	if (!rows)
		return;
	qd_describe(s, engine);
	for (size_t i = 0; i < rows; i++)
		qd_row(s, i);
	qd_steps(s, rows);
}

/* The engine's name from its description: up to the first comma. */
static void qd_engine_name(struct target *t, char *name, size_t len)
{
	const char *d = t->ops->qdescribe ? t->ops->qdescribe(t) : "";

	snprintf(name, len, "%.*s", (int)strcspn(d, ",:"), d);
}

static int qd_setup(struct qd_sweep *s, const struct fb_opts *o, struct target *t)
{
	unsigned deepest = qd.depth[qd.n - 1];

	s->o = o;
	s->t = t;
	s->bs = qd_bs(o);
	s->off = o->offset;
	s->bytes = qd_bytes(o);
	s->nreq = s->bytes / s->bs;
	s->runs = o->runs ? o->runs : QD_DEFAULT_RUNS;
	s->lat = malloc(s->nreq * s->runs * qd.n * sizeof(*s->lat));
	s->slots = malloc(deepest * sizeof(*s->slots));
	s->comp = malloc(deepest * sizeof(*s->comp));
	s->buf = eng_buffer(t, deepest * s->bs);
	if (!s->lat || !s->slots || !s->comp || !s->buf) {
		fprintf(stderr, "flashbench: queue-depth: %s\n", strerror(ENOMEM));
		return FB_EDEV;
	}
	return eng_queue_open(t, qd.kind, deepest, s->buf, deepest * s->bs);
}

static int qd_run(const struct fb_opts *o, struct target *t)
{
	struct qd_sweep *s = calloc(1, sizeof(*s));
	char engine[64] = "";
	int r;

	if (!s)
		return FB_EDEV;
	r = qd_setup(s, o, t);
	if (r == FB_OK) {
		qd_engine_name(t, engine, sizeof(engine));
		if (o->verbose)
			fprintf(stderr, "queue-depth: engine %s\n", t->ops->qdescribe(t));
		r = qd_sweep_all(s);
		progress_end();
		if (o->verbose)	/* io_uring counts its waits that polled */
			fprintf(stderr, "queue-depth: engine at the end: %s\n", t->ops->qdescribe(t));
		eng_queue_close(t);
		qd_report(s, engine);
	}
	eng_buffer_free(s->buf);
	free(s->lat);
	free(s->slots);
	free(s->comp);
	free(s);
	return r;
}

static int qd_flag(const char *arg, char *err, size_t len)
{
	if (!arg) {
		memcpy(qd.depth, qd_default_list, sizeof(qd_default_list));
		qd.n = sizeof(qd_default_list) / sizeof(qd_default_list[0]);
		return FB_OK;
	}
	return qd_parse_list(arg, qd.depth, &qd.n, err, len) < 0 ? FB_EUSAGE : FB_OK;
}

static void qd_defaults(void)
{
	qd.write = false;
	qd.engine = "auto";
	qd.kind = QIO_AUTO;
	qd_flag(NULL, NULL, 0);
}

static int qd_check(struct fb_opts *o, char *err, size_t len)
{
	uint64_t bs = qd_bs(o), bytes = qd_bytes(o), deepest = qd.depth[qd.n - 1];
	unsigned runs = o->runs ? o->runs : QD_DEFAULT_RUNS;

	/* Alone, it states its own default in the run's parameters too. */
	if (!o->blocksize_set && o->tests == fb_test_bit(&test_queue_depth))
		o->blocksize = QD_DEFAULT_BS;
	if (qio_kind_parse(qd.engine, &qd.kind) < 0) {
		snprintf(err, len, "--engine=%s: not an I/O engine (auto, sync, aio, uring)",
			 qd.engine);
		return FB_EUSAGE;
	}
	if (bs > ENG_MAX_REQUEST) {
		snprintf(err, len, "--blocksize %llu: --queue-depth takes requests of at most %llu",
			 (unsigned long long)bs, ENG_MAX_REQUEST);
		return FB_EUSAGE;
	}
	if (bytes % bs || bytes / bs < deepest) {
		snprintf(err, len, "--size %llu: --queue-depth needs a multiple of --blocksize %llu, "
			 "at least %llu requests (the deepest depth)", (unsigned long long)bytes,
			 (unsigned long long)bs, (unsigned long long)deepest);
		return FB_EUSAGE;
	}
	if (deepest * bs > QD_MAX_BUFFER || bytes / bs * runs * qd.n > QD_MAX_SAMPLES) {
		snprintf(err, len, "--size %llu: --queue-depth would keep more than %llu latencies "
			 "or %llu bytes in flight; use a smaller --size, --blocksize or fewer depths",
			 (unsigned long long)bytes, QD_MAX_SAMPLES, QD_MAX_BUFFER);
		return FB_EUSAGE;
	}
	return FB_OK;
}

static int qd_check_target(const struct fb_opts *o, const struct target *t, char *err,
			   size_t len)
{
	uint64_t bs = qd_bs(o), end = o->offset + qd_bytes(o);

	/* refused here, before any I/O, not by the first write or the queue's set-up */
	if (qd.write && t->zone_size) {
		snprintf(err, len, "--queue-depth --write: %s is a zoned device (writes only at each "
			 "zone's write pointer); not supported", t->path);
		return FB_EUSAGE;
	}
	if (!t->ops->qopen) {
		snprintf(err, len, "--queue-depth: %s takes no queued requests", t->path);
		return FB_EUSAGE;
	}
	if (bs % t->sector) {
		snprintf(err, len, "--blocksize %llu is not a multiple of the %u-byte sector of %s",
			 (unsigned long long)bs, t->sector, t->path);
		return FB_EUSAGE;
	}
	if (end > t->size || end < o->offset) {
		snprintf(err, len, "--queue-depth: --offset %llu + --size %llu passes the end of "
			 "%s (%llu bytes)", (unsigned long long)o->offset,
			 (unsigned long long)qd_bytes(o), t->path, (unsigned long long)t->size);
		return FB_EUSAGE;
	}
	return FB_OK;
}

/* --write: the one range every cell writes. */
static size_t qd_regions(const struct fb_opts *o, uint64_t size, struct region *r, size_t max,
			 uint64_t *end)
{
	uint64_t bytes = qd_bytes(o);

	(void)size;
	*end = o->offset + bytes < o->offset ? UINT64_MAX : o->offset + bytes;
	if (max)
		r[0] = (struct region){ .off = o->offset, .len = bytes };
	return 1;
}

static const struct fb_option qd_options[] = {
	{ .name = "write", .kind = FO_FLAG, .var = &qd.write,
	  .help = "--queue-depth: write instead of read (DESTROYS the\n"
		  "data from --offset over --size)" },
	{ .name = "engine", .kind = FO_TEXT, .var = &qd.engine, .arg = "NAME",
	  .help = "--queue-depth: the I/O engine: uring, aio, sync, or\n"
		  "auto (the default: the first of them that works)" },
	{ .name = NULL },
};

static const char *const qd_uses[] = { "blocksize", "offset", "random", "size", "runs", NULL };

const struct fb_test test_queue_depth = {
	.name = "queue-depth",
	.flag_arg = "LIST",
	.flag_call = qd_flag,
	.help = "IOPS, MB/s and latency p50/p99/max by queue depth\n"
		"(LIST: 1,4,16 or 1..64; default 1,2,4,8,16,32), each\n"
		"step judged significant or within noise over --runs",
	.writes = true,
	.writes_with = "write",
	.uses = qd_uses,
	.options = qd_options,
	.defaults = qd_defaults,
	.check = qd_check,
	.check_target = qd_check_target,
	.regions = qd_regions,
	.run = qd_run,
	.tables = (const struct out_table *const[]){ &qd_table, &qd_step_table, NULL },
};
