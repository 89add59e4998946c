/*
 * --sustained: write a region (--offset, --size, default the rest of the
 * device) sequentially or --random in --blocksize blocks, or for
 * --duration, and record every --log-interval of device time what was
 * written and how fast -- the story of an SLC cache running out, a
 * drive-managed SMR disk cleaning its media cache, slow episodes and
 * recovery. The records go through the output layer and, with --log, to
 * a CSV file of their own; the summary (sustained_sum below) is judged
 * by verdicts/verdict_sustained.c. --verify reads it all back
 * (sustained_verify.c).
 *
 * Intervals are measured in device time, the sum of the requests' times
 * (on the simulated card: its virtual clock), so a record closes after
 * the request that crosses its end: an interval holds whole requests.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/engine.h"
#include "core/lat_hist.h"
#include "core/parse.h"
#include "core/progress.h"
#include "core/units.h"
#include "modules/stamp.h"
#include "modules/sustained.h"
#include "verdicts/verdict_sustained.h"

struct sus_opts sus_opts;

/* One record: "1.00s\tat 150MiB\t143MiB\t150M/s\tp99 1.2ms\tmax 4ms". */
static void sus_text(char *line, size_t len, const union out_val *v)
{
	char at[FB_FMT_LEN], b[FB_FMT_LEN], r[FB_FMT_LEN], p[FB_FMT_LEN], m[FB_FMT_LEN];

	snprintf(line, len, "%.2fs\tat %s\t%s\t%s\tp99 %s\tmax %s", v[0].d / 1e9,
		 fmt_size(at, sizeof(at), v[1].u), fmt_size(b, sizeof(b), v[3].u),
		 fmt_rate(r, sizeof(r), v[4].d), fmt_time(p, sizeof(p), v[5].d),
		 fmt_time(m, sizeof(m), v[6].d));
}

static const struct out_field sus_fields[] = {
	{ "elapsed_ns", OT_NS }, { "offset_bytes", OT_BYTES }, { "written_bytes", OT_BYTES },
	{ "bytes", OT_BYTES }, { "rate_bps", OT_BPS }, { "p99_ns", OT_NS }, { "max_ns", OT_NS },
};

static const struct out_table sus_table = { "sustained", sus_fields, 7, sus_text, NULL };

/* ---- the run's state */

#define FINE_COVER 3	/* the intervals initial_rate looks at */
#define FINE_PARTS 10
#define FINE_MAX 64

struct sus_run {
	struct target *t;
	uint64_t start, len, bs, run_id;
	bool random;
	struct sus_perm perm;
	void *buf;
	FILE *log;
	struct lat_hist *all, *iv;
	struct sus_iv *ivs;		/* every record so far, for the summary */
	size_t n, cap;
	uint64_t elapsed, written, next, last_off;
	uint64_t iv_start, iv_bytes;	/* the open interval */
	/*
	 * The first FINE_COVER intervals again, in tenths: a cache that runs
	 * out inside the first interval shows only there (not printed; for
	 * the summary). nfine 0 once they no longer fit.
	 */
	struct sus_iv fine[FINE_MAX];
	size_t nfine;
	bool fine_full;
	uint64_t fine_start, fine_bytes;
};

void sus_region(const struct fb_opts *o, uint64_t size, uint64_t *start, uint64_t *len)
{
	*start = o->offset_set ? o->offset : 0;
	*len = o->size ? o->size : size > *start ? size - *start : 0;
}

static size_t sus_regions(const struct fb_opts *o, uint64_t size, struct region *r, size_t max,
			  uint64_t *end)
{
	uint64_t start, len;

	sus_region(o, size, &start, &len);
	*end = start + len < start ? UINT64_MAX : start + len;
	if (max)
		r[0] = (struct region){ start, len };
	return 1;
}

/* ---- records */

/* Close the open fine interval (the start in tenths of an interval). */
static void close_fine(struct sus_run *s)
{
	if (s->fine_bytes == 0)
		return;
	if (s->nfine == FINE_MAX) {
		s->fine_full = true;
		return;
	}
	s->fine[s->nfine++] = (struct sus_iv){ (double)s->elapsed,
					       (double)(s->elapsed - s->fine_start), s->written,
					       s->fine_bytes };
	s->fine_start = s->elapsed;
	s->fine_bytes = 0;
}

/* Close the open interval: a row, a --log line, and kept for the summary. */
static int close_interval(struct sus_run *s)
{
	double ns = (double)(s->elapsed - s->iv_start);
	double rate = ns > 0 ? (double)s->iv_bytes * 1e9 / ns : 0;
	union out_val v[7] = {
		{ .d = (double)s->elapsed }, { .u = s->last_off }, { .u = s->written },
		{ .u = s->iv_bytes }, { .d = rate }, { .d = lh_percentile(s->iv, 99) },
		{ .d = (double)lh_max(s->iv) },
	};

	if (s->iv_bytes == 0)
		return FB_OK;
	if (s->n < FINE_COVER)
		close_fine(s);
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		struct sus_iv *p = realloc(s->ivs, cap * sizeof(*p));

		if (!p)
			return FB_EDEV;
		s->ivs = p;
		s->cap = cap;
	}
	s->ivs[s->n++] = (struct sus_iv){ (double)s->elapsed, ns, s->written, s->iv_bytes };
	out_row(&sus_table, v);
	if (s->log) {
		if (s->n == 1)
			out_csv_names(s->log, &sus_table, v);
		out_csv_line(s->log, &sus_table, v);
	}
	lh_reset(s->iv);
	s->iv_start = s->elapsed;
	s->iv_bytes = 0;
	return FB_OK;
}

static void show_progress(const struct sus_run *s)
{
	char cur[FB_FMT_LEN], avg[FB_FMT_LEN], extra[96];
	const struct sus_iv *last = s->n ? &s->ivs[s->n - 1] : NULL;

	double now = last ? sus_rate(last) : 0;

	/* the interval under way, once it holds a few requests */
	if (s->elapsed - s->iv_start > sus_opts.interval / 8 || !last)
		now = s->elapsed > s->iv_start ?
		      (double)s->iv_bytes * 1e9 / (double)(s->elapsed - s->iv_start) : 0;
	snprintf(extra, sizeof(extra), "now %s, average %s", fmt_rate(cur, sizeof(cur), now),
		 fmt_rate(avg, sizeof(avg), s->elapsed ? (double)s->written * 1e9 /
			  (double)s->elapsed : 0));
	progress_update(s->written >> 20, extra);
}

/* ---- writing */

/* The next request: its offset and length; false when the region is done. */
static bool next_request(struct sus_run *s, uint64_t *off, size_t *len)
{
	if (s->random) {
		if (s->next >= s->perm.n)
			return false;
		s->next++;
		*off = s->start + sus_perm_next(&s->perm) * s->bs;
		*len = (size_t)s->bs;
		return true;
	}
	if (s->next >= s->len)
		return false;
	*off = s->start + s->next;
	*len = (size_t)(s->len - s->next < s->bs ? s->len - s->next : s->bs);
	s->next += *len;
	return true;
}

static int write_all(struct sus_run *s)
{
	uint64_t off, ns, count = 0;
	size_t len;
	int r = FB_OK;

	while (r == FB_OK && next_request(s, &off, &len)) {
		if (sus_opts.verify)
			stamp_put(s->buf, len, off, s->run_id);
		r = eng_write(s->t, s->buf, len, off, &ns);
		if (r != FB_OK)
			break;
		lh_add(s->all, ns);
		lh_add(s->iv, ns);
		s->elapsed += ns;
		s->written += len;
		s->iv_bytes += len;
		s->last_off = off + len;
		if (s->n < FINE_COVER) {
			s->fine_bytes += len;
			if (s->elapsed - s->fine_start >= sus_opts.interval / FINE_PARTS)
				close_fine(s);
		}
		if (s->elapsed - s->iv_start >= sus_opts.interval)
			r = close_interval(s);
		if (++count % 64 == 0)
			show_progress(s);
		if (sus_opts.duration && s->elapsed >= sus_opts.duration)
			break;
	}
	if (r == FB_OK || r == FB_EINTR) {
		int c = close_interval(s);

		r = r == FB_OK ? c : r;
	}
	return r;
}

/* A zoned device: reset the sequential zones of the region, and say what they are. */
static int reset_zones(struct sus_run *s)
{
	struct target_zone z[64];
	uint64_t at = s->start, end = s->start + s->len;
	unsigned nz = 0, conv = 0;
	size_t n = 1;
	int r = FB_OK;
	char zs[FB_FMT_LEN];

	while (r == FB_OK && at < end && n > 0) {
		r = eng_report_zones(s->t, at, z, 64, &n);
		for (size_t i = 0; r == FB_OK && i < n && z[i].start < end; i++) {
			nz++;
			if (z[i].type == ZONE_CONVENTIONAL)
				conv++;
			else
				r = eng_reset_zones(s->t, z[i].start, z[i].len);
			at = z[i].start + z[i].len;
		}
	}
	if (r == FB_OK)
		out_note("zones of %s: %u in the region, %u conventional, %u reset to their start",
			 fmt_size(zs, sizeof(zs), s->t->zone_size), nz, conv, nz - conv);
	return r;
}

/* ---- the summary (sustained_summary.c) */

static void summary(const struct sus_run *s)
{
	struct sus_record r = {
		.ivs = s->ivs, .n = s->n, .fine = s->fine, .nfine = s->fine_full ? 0 : s->nfine,
		.covered = s->n < FINE_COVER ? s->n : FINE_COVER, .fine_parts = FINE_PARTS,
		.all = s->all, .written = s->written, .elapsed = s->elapsed,
		.cliff_pct = sus_opts.cliff_pct, .slow_bps = sus_opts.slow_bps,
		.interval = sus_opts.interval,
	};

	sus_summary(&r);
}

/* ---- the run */

/* --log as the run opened it (checked and locked there); -1: not handed over. */
static int log_fd = -1;

static void sus_out_fd(int fd)
{
	log_fd = fd;
}

static int open_log(struct sus_run *s)
{
	if (!sus_opts.log)
		return FB_OK;
	s->log = log_fd >= 0 ? fdopen(log_fd, "w") : fopen(sus_opts.log, "w");
	log_fd = -1;
	if (s->log)
		return FB_OK;
	fprintf(stderr, "flashbench: --log=%s: %s\n", sus_opts.log, strerror(errno));
	return FB_EDEV;
}

static int close_log(struct sus_run *s, int r)
{
	if (!s->log)
		return r;
	bool bad = fflush(s->log) != 0 || ferror(s->log);

	/* closed in any case; either failure loses records */
	if (fclose(s->log) != 0 || bad) {
		fprintf(stderr, "flashbench: --log=%s: %s\n", sus_opts.log, strerror(errno));
		return r == FB_OK ? FB_EDEV : r;
	}
	return r;
}

static void announce(const struct sus_run *s)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN], d[FB_FMT_LEN];

	out_note("sustained %s writes of %s over %s from %s%s%s%s",
		 s->random ? "random" : "sequential", fmt_size(a, sizeof(a), s->bs),
		 fmt_size(b, sizeof(b), s->len), fmt_size(c, sizeof(c), s->start),
		 sus_opts.duration ? " for at most " : "",
		 sus_opts.duration ? fmt_time(d, sizeof(d), (double)sus_opts.duration) : "",
		 sus_opts.sync ? ", O_DSYNC" : "");
}

static void free_run(struct sus_run *s)
{
	eng_buffer_free(s->buf);
	lh_free(s->all);
	lh_free(s->iv);
	free(s->ivs);
}

static int sus_run(const struct fb_opts *o, struct target *t)
{
	struct sus_run s = { .t = t, .bs = o->blocksize, .random = o->random };
	int r;

	sus_region(o, t->size, &s.start, &s.len);
	s.run_id = stamp_run_id();
	sus_perm_init(&s.perm, s.len / s.bs);
	s.buf = eng_buffer(t, (size_t)s.bs);
	s.all = lh_new();
	s.iv = lh_new();
	r = s.buf && s.all && s.iv ? open_log(&s) : FB_EDEV;
	if (r == FB_OK) {
		announce(&s);
		r = t->zone_size ? reset_zones(&s) : FB_OK;
		if (r == FB_OK) {
			progress_begin("sustained writes, MiB",
				       (s.random ? s.perm.n * s.bs : s.len) >> 20);
			r = write_all(&s);
			progress_end();
		}
		if (r == FB_OK || r == FB_EINTR)
			summary(&s);
		r = close_log(&s, r);
	}
	if (r == FB_OK && sus_opts.verify)
		r = sus_verify(t, s.start, s.len, s.bs, s.run_id, s.written, s.random);
	free_run(&s);
	return r;
}

/* ---- options and checks */

static void sus_defaults(void)
{
	sus_opts = (struct sus_opts){ .interval = 1000000000ull, .cliff_pct = 50 };
}

static int set_slow(struct fb_opts *o, const char *arg, char *err, size_t len)
{
	(void)o;
	if (parse_rate(arg, &sus_opts.slow_bps) < 0 || sus_opts.slow_bps == 0) {
		snprintf(err, len, "--slow: bad rate '%s' (a rate such as 20M/s or 500K/s)", arg);
		return FB_EUSAGE;
	}
	return FB_OK;
}

static int sus_check(struct fb_opts *o, char *err, size_t len)
{
	if (sus_opts.cliff_pct <= 0) {
		snprintf(err, len, "--cliff: %g is not a percentage above 0", sus_opts.cliff_pct);
		return FB_EUSAGE;
	}
	if (sus_opts.verify && o->blocksize < STAMP_LEN) {
		snprintf(err, len, "--verify: --blocksize %llu is smaller than a block's %d-byte stamp",
			 (unsigned long long)o->blocksize, STAMP_LEN);
		return FB_EUSAGE;
	}
	/* the limit --queue-depth has: -e is none of theirs */
	if (o->blocksize > ENG_MAX_REQUEST) {
		snprintf(err, len, "--blocksize %llu: --sustained takes requests of at most %llu",
			 (unsigned long long)o->blocksize, ENG_MAX_REQUEST);
		return FB_EUSAGE;
	}
	if (sus_opts.log && !sus_opts.log[0]) {
		snprintf(err, len, "--log=: an empty file name");
		return FB_EUSAGE;
	}
	return FB_OK;
}

/* Can --log be created (or written) at all? Said before anything is written. */
static int log_writable(const char *path, char *err, size_t len)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode) || access(path, W_OK) < 0) {
			snprintf(err, len, "--log=%s: %s", path,
				 S_ISDIR(st.st_mode) ? "is a directory" : strerror(errno));
			return FB_EUSAGE;
		}
		return FB_OK;
	}
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
		 slash ? path : ".");
	if (access(dir, W_OK | X_OK) < 0) {
		snprintf(err, len, "--log=%s: cannot be created in %s: %s", path, dir,
			 strerror(errno));
		return FB_EUSAGE;
	}
	return FB_OK;
}

/*
 * A zoned device takes writes only at each zone's write pointer: the
 * region must be whole zones, written in order after their reset, and
 * nothing can be put back where it was.
 */
static int check_zoned(const struct fb_opts *o, const struct target *t, uint64_t start,
		       uint64_t n, char *err, size_t len)
{
	const char *why = !t->ops->reset_zones ? "zone resets are not supported on it yet" :
			  o->random ? "--random cannot write at the write pointers" :
			  o->preserve ? "--preserve cannot put data back behind a write pointer" :
			  start % t->zone_size || ((start + n) % t->zone_size && start + n != t->size) ?
			  "the region (--offset, --size) must begin and end at zone boundaries" : NULL;

	if (!why)
		return FB_OK;
	snprintf(err, len, "--sustained: %s is zoned (zones of %llu bytes, written only at their "
		 "write pointers): %s", t->path, (unsigned long long)t->zone_size, why);
	return FB_EUSAGE;
}

static int sus_check_target(const struct fb_opts *o, const struct target *t, char *err,
			    size_t len)
{
	uint64_t start, n;

	sus_region(o, t->size, &start, &n);
	if (t->zone_size && check_zoned(o, t, start, n, err, len) != FB_OK)
		return FB_EUSAGE;
	/* (past the end: refused with the numbers when the regions are taken) */
	if (start < t->size && (n < o->blocksize || start % t->sector || n % t->sector)) {
		snprintf(err, len, "--sustained: the region of %llu bytes at %llu is not whole "
			 "%u-byte sectors of at least one --blocksize (%llu)", (unsigned long long)n,
			 (unsigned long long)start, t->sector, (unsigned long long)o->blocksize);
		return FB_EUSAGE;
	}
	if (sus_opts.verify && t->data_discarded) {
		snprintf(err, len, "--verify: %s keeps no data (a simulated card needs image=PATH)",
			 t->path);
		return FB_EUSAGE;
	}
	return sus_opts.log ? log_writable(sus_opts.log, err, len) : FB_OK;
}

static const char *sus_out_file(const struct fb_opts *o)
{
	(void)o;
	return sus_opts.log;
}

static unsigned sus_open_flags(const struct fb_opts *o)
{
	(void)o;
	return sus_opts.sync ? TGT_SYNC : 0;
}

static const struct fb_option sus_options[] = {
	{ .name = "duration", .kind = FO_DURATION, .var = &sus_opts.duration, .arg = "TIME",
	  .help = "--sustained: stop after TIME of device time (default:\nwhen the region is written)" },
	{ .name = "log-interval", .kind = FO_DURATION, .var = &sus_opts.interval, .arg = "TIME",
	  .help = "--sustained: a record every TIME of device time\n(default 1s)" },
	{ .name = "log", .kind = FO_TEXT, .var = &sus_opts.log, .arg = "FILE",
	  .help = "--sustained: the records also as CSV in FILE" },
	{ .name = "cliff", .kind = FO_PERCENT, .var = &sus_opts.cliff_pct, .arg = "PCT",
	  .help = "--sustained: the cliff is where the rate stays below PCT\n"
		  "percent of the initial rate (default 50)" },
	{ .name = "slow", .kind = FO_CALL, .var = &sus_opts.slow_bps, .call = set_slow, .arg = "RATE",
	  .help = "--sustained: intervals below RATE are slow (default a\n"
		  "quarter of the initial rate)" },
	{ .name = "sync", .kind = FO_FLAG, .var = &sus_opts.sync,
	  .help = "--sustained: open DEVICE with O_DSYNC" },
	{ .name = "verify", .kind = FO_FLAG, .var = &sus_opts.verify,
	  .help = "--sustained: read everything back; every block carries\n"
		  "its offset, the run's id and a checksum" },
	{ .name = NULL },
};

static const char *const sus_uses[] = { "blocksize", "offset", "size", "random", NULL };

const struct fb_test test_sustained = {
	.name = "sustained",
	.letter = 0,
	.help = "write the region (--offset, --size) and log the rate over\n"
		"time: cache cliff, slow episodes, latency (writes)",
	.writes = true,
	.uses = sus_uses,
	.options = sus_options,
	.defaults = sus_defaults,
	.check = sus_check,
	.check_target = sus_check_target,
	.out_file = sus_out_file,
	.out_fd = sus_out_fd,
	.open_flags = sus_open_flags,
	.regions = sus_regions,
	.run = sus_run,
	.tables = (const struct out_table *const[]){ &sus_table, &sus_sum_table, &sus_verify_table,
						   NULL },
};
