/*
 * --readahead: the sweep people ran by hand with blockdev --setra and dd.
 * For each size from --min-size to --max-size (doubling) read the same
 * range --runs times and print MB/s and %CPU per run, with "==>" in front
 * of the smallest size within --plateau percent of the best.
 *
 * Direct (default): O_DIRECT requests of exactly that size through the
 * engine, so it works on sim: too. --buffered: the kernel's readahead is
 * set to that size (BLKRASET on the disk), the range is dropped from the
 * page cache, and it is read with buffered reads of --min-size (at most
 * 1 MiB: see readahead.h) so that the window alone sizes the I/O; the
 * original readahead is put back on every way out, SIGINT/SIGTERM too.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/engine.h"
#include "core/sysfs.h"
#include "modules/readahead.h"
#include "modules/readahead_disk.h"
#include "modules/steps.h"
#include "core/progress.h"
#include "modules/test.h"
#include "core/units.h"
#include "verdicts/verdict_readahead.h"

struct ra_opts ra_opts;

struct ra_sweep {
	const struct fb_opts *o;
	struct target *t;
	unsigned runs;			/* --runs, or RA_DEFAULT_RUNS */
	uint64_t off, bytes;		/* the range every run reads */
	size_t rd;			/* --buffered: request size of the reads */
	uint64_t size[RA_MAX_SIZES];
	size_t n;			/* sizes in the sweep */
	size_t rows;			/* rows with every run measured */
	unsigned part;			/* runs measured of row 'rows' */
	double rate[RA_MAX_SIZES][RA_MAX_RUNS];	/* bytes/s */
	double cpu[RA_MAX_SIZES][RA_MAX_RUNS];	/* percent */
	void *buf;
	struct ra_disk disk;		/* --buffered: the disk whose readahead is swept */
};

size_t ra_plateau(const double *rate, size_t n, double pct)
{
	double best = 0;

	for (size_t i = 0; i < n; i++)
		if (rate[i] > best)
			best = rate[i];
	for (size_t i = 0; i < n; i++)
		if (rate[i] >= best * (1 - pct / 100))
			return i;
	return 0;
}

uint64_t ra_run_bytes(uint64_t avail, uint64_t max_size, uint64_t want)
{
	uint64_t b = want;

	if (!b) {
		b = avail / 4 < RA_DEFAULT_BYTES ? avail / 4 : RA_DEFAULT_BYTES;
		if (b < max_size)
			b = max_size;
	}
	b -= b % max_size;
	return b <= avail ? b : 0;
}

static bool pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

int ra_check_opts(const struct fb_opts *o, char *err, size_t len)
{
	if (!pow2(ra_opts.min_size) || !pow2(ra_opts.max_size)) {
		bool min = !pow2(ra_opts.min_size);
		snprintf(err, len, "--%s-size %llu is not a power of two times the sector size",
			 min ? "min" : "max", (unsigned long long)(min ? ra_opts.min_size : ra_opts.max_size));
		return -1;
	}
	if (ra_opts.min_size > ra_opts.max_size) {
		snprintf(err, len, "--min-size %llu is larger than --max-size %llu",
			 (unsigned long long)ra_opts.min_size, (unsigned long long)ra_opts.max_size);
		return -1;
	}
	if (o->size && o->size < ra_opts.max_size) {
		snprintf(err, len, "--size %llu is smaller than --max-size %llu: every size must "
			 "be read at least once", (unsigned long long)o->size,
			 (unsigned long long)ra_opts.max_size);
		return -1;
	}
	return 0;
}

int ra_check_target(const struct fb_opts *o, const struct target *t, char *err, size_t len)
{
	(void)o;	/* its own options are in ra_opts */
	long page = sysconf(_SC_PAGESIZE);

	if (ra_opts.min_size < t->sector) {
		snprintf(err, len, "--min-size %llu is not a power of two times the %u-byte sector of %s",
			 (unsigned long long)ra_opts.min_size, t->sector, t->path);
		return -1;
	}
	if (ra_opts.buffered && t->sim) {
		snprintf(err, len, "--buffered: %s is simulated and has no kernel readahead; "
			 "drop --buffered to sweep its request sizes", t->path);
		return -1;
	}
	if (ra_opts.buffered && page > 0 && ra_opts.min_size < (uint64_t)page) {
		snprintf(err, len, "--min-size %llu: with --buffered the kernel's readahead counts "
			 "whole %ld-byte pages", (unsigned long long)ra_opts.min_size, page);
		return -1;
	}
	return 0;
}

/* One run of direct reads of 'size'; the time is the engine's. */
static int ra_run_direct(struct ra_sweep *s, uint64_t size, uint64_t *ns)
{
	uint64_t sum = 0, one;
	int r;

	for (uint64_t p = 0; p < s->bytes; p += size) {
		r = eng_read(s->t, s->buf, size, s->off + p, &one);
		if (r != FB_OK)
			return r;
		sum += one;
	}
	*ns = sum;
	return FB_OK;
}

/* Read [off, off + bytes) through fd in requests of s->rd bytes. */
static int ra_read_range(struct ra_sweep *s, int fd)
{
	uint64_t p = 0;

	while (p < s->bytes) {
		size_t len = s->bytes - p < s->rd ? s->bytes - p : s->rd;
		ssize_t n;

		if (fb_stop)
			return FB_EINTR;
		n = pread(fd, s->buf, len, (off_t)(s->off + p));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "flashbench: read at offset %llu, length %zu: %s\n",
				(unsigned long long)(s->off + p), len, n < 0 ? strerror(errno)
				: "unexpected end of file");
			return FB_EDEV;
		}
		p += (uint64_t)n;
	}
	return FB_OK;
}

/* One run through the page cache with the readahead already set. */
static int ra_run_buffered(struct ra_sweep *s, uint64_t *ns)
{
	/* A file takes its readahead window from the disk when it is opened,
	 * so open it anew after each BLKRASET. */
	int fd = open(s->t->path, O_RDONLY | O_CLOEXEC);
	uint64_t t0;
	int r, e;

	if (fd < 0) {
		fprintf(stderr, "flashbench: %s: %s\n", s->t->path, strerror(errno));
		return FB_EDEV;
	}
	e = posix_fadvise(fd, (off_t)s->off, (off_t)s->bytes, POSIX_FADV_DONTNEED);
	if (e) {
		fprintf(stderr, "flashbench: %s: cannot drop the cached pages: %s\n",
			s->t->path, strerror(e));
		close(fd);
		return FB_EDEV;
	}
	t0 = clock_now_ns();
	r = ra_read_range(s, fd);
	*ns = clock_now_ns() - t0;
	close(fd);
	return r;
}

static uint64_t cpu_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

/* Measure run j of row i: rate and %CPU (user + system over wall time). */
static int ra_cell(struct ra_sweep *s, size_t i, unsigned j)
{
	uint64_t wall0 = clock_now_ns(), cpu0 = cpu_ns(), ns = 0, wall;
	int r;

	if (ra_opts.buffered)
		r = ra_run_buffered(s, &ns);
	else
		r = ra_run_direct(s, s->size[i], &ns);
	if (r != FB_OK)
		return r;
	wall = clock_now_ns() - wall0;
	s->rate[i][j] = ns ? (double)s->bytes * 1e9 / (double)ns : 0;
	/* On sim: the time is virtual, so CPU over it would mean nothing. */
	s->cpu[i][j] = s->t->sim || !wall ? -1 : 100.0 * (double)(cpu_ns() - cpu0) / (double)wall;
	return FB_OK;
}

static void ra_progress(const struct ra_sweep *s, size_t i)
{
	char sz[FB_FMT_LEN];

	if (!s->o->verbose && !isatty(STDERR_FILENO))
		return;
	progress_clear();	/* the line comes back at the next request */
	fprintf(stderr, "readahead: %s:", fmt_size(sz, sizeof(sz), s->size[i]));
	for (unsigned j = 0; j < s->runs; j++)
		fprintf(stderr, " %.1f", s->rate[i][j] / 1e6);
	fprintf(stderr, " MB/s\n");
}

static int ra_sweep_all(struct ra_sweep *s)
{
	int r;

	progress_begin("readahead runs", (uint64_t)s->n * s->runs);
	for (size_t i = 0; i < s->n; i++) {
		if (ra_opts.buffered && (r = ra_disk_set(&s->disk, s->size[i])) != FB_OK)
			return r;
		for (s->part = 0; s->part < s->runs; s->part++) {
			if ((r = ra_cell(s, i, s->part)) != FB_OK)
				return r;
			progress_update(i * s->runs + s->part + 1, NULL);
		}
		s->rows++;
		s->part = 0;
		ra_progress(s, i);
	}
	return FB_OK;
}

static const char *ordinal(char *buf, size_t len, unsigned n)
{
	const char *suf = "th";

	if (n % 100 < 11 || n % 100 > 13)
		suf = n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
	snprintf(buf, len, "%u%s", n, suf);
	return buf;
}

static void ra_describe(const struct ra_sweep *s)
{
	char b[FB_FMT_LEN], o[FB_FMT_LEN], rd[FB_FMT_LEN];

	fmt_size(b, sizeof(b), s->bytes);
	fmt_size(rd, sizeof(rd), s->rd);
	fmt_size(o, sizeof(o), s->off);
	if (ra_opts.buffered)
		out_note("readahead: buffered %s reads of %s from offset %s of %s, readahead "
			 "of %s set to each size, page cache dropped before each run",
			 rd, b, o, s->t->path, s->disk.dev);
	else
		out_note("readahead: O_DIRECT reads of each size, %s from offset %s of %s%s",
			 b, o, s->t->path, s->t->sim ? " (virtual time: no %CPU)" : "");
}

/* "      size   1st MB/s   2nd MB/s   1st %CPU   2nd %CPU": one column per run. */
static void ra_header(char *line, size_t len, const union out_val *first)
{
	char ord[16], col[32];
	size_t runs = first[2].list.n;
	int k = snprintf(line, len, "    %6s", "size");

	for (unsigned j = 0; j < runs; j++) {
		snprintf(col, sizeof(col), "%s MB/s", ordinal(ord, sizeof(ord), j + 1));
		k += snprintf(line + k, len - (size_t)k, " %10s", col);
	}
	for (unsigned j = 0; j < runs; j++) {
		snprintf(col, sizeof(col), "%s %%CPU", ordinal(ord, sizeof(ord), j + 1));
		k += snprintf(line + k, len - (size_t)k, " %10s", col);
	}
}

/* A rate in MB/s with three or more significant digits; "-" if missing. */
static char *fmt_mbs(char *buf, size_t len, double bps, bool have)
{
	double m = bps / 1e6;

	if (!have)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, m >= 100 ? "%.0f" : m >= 10 ? "%.1f" : "%.2f", m);
	return buf;
}

/* "==>  128KiB       24.0          -": a run not measured (NaN) prints "-". */
static void ra_text(char *line, size_t len, const union out_val *v)
{
	char sz[FB_FMT_LEN], x[32];
	int k = snprintf(line, len, "%s%6s", v[1].b ? "==> " : "    ",
			 fmt_size(sz, sizeof(sz), v[0].u));

	for (size_t j = 0; j < v[2].list.n; j++)
		k += snprintf(line + k, len - (size_t)k, " %10s",
			      fmt_mbs(x, sizeof(x), v[2].list.v[j], !isnan(v[2].list.v[j])));
	for (size_t j = 0; j < v[3].list.n; j++) {
		if (v[3].list.v[j] >= 0)
			snprintf(x, sizeof(x), "%.1f", v[3].list.v[j]);
		else
			snprintf(x, sizeof(x), "-");
		k += snprintf(line + k, len - (size_t)k, " %10s", x);
	}
}

static const struct out_field ra_fields[] = {
	{ "size_bytes", OT_BYTES }, { "plateau", OT_BOOL }, { "rate_bps", OT_BPS_LIST },
	{ "cpu_pct", OT_REAL_LIST },
};

static const struct out_table ra_table = { "readahead", ra_fields, 4, ra_text, ra_header };

static void ra_row(const struct ra_sweep *s, size_t i, bool mark)
{
	double rate[RA_MAX_RUNS], cpu[RA_MAX_RUNS];
	unsigned have = i < s->rows ? s->runs : s->part;

	for (unsigned j = 0; j < s->runs; j++) {
		rate[j] = j < have ? s->rate[i][j] : NAN;
		cpu[j] = j < have && s->cpu[i][j] >= 0 ? s->cpu[i][j] : NAN;
	}
	out_row(&ra_table, (union out_val[]){ { .u = s->size[i] }, { .b = mark },
					      { .list = { rate, s->runs } },
					      { .list = { cpu, s->runs } } });
}

static const struct out_field ra_step_fields[] = {
	{ "from_bytes", OT_BYTES }, { "to_bytes", OT_BYTES }, { "change_pct", OT_REAL },
	{ "p", OT_REAL }, { "verdict", OT_TEXT },
};

static const struct out_table ra_step_table = { "readahead-step", ra_step_fields, 5,
						steps_text_bytes, NULL };

/* With --runs given (2 or more): each step to the next size judged on its runs. */
static void ra_steps(const struct ra_sweep *s)
{
	struct step_cell cell[RA_MAX_SIZES] = { { 0 } };
	struct stats_cmp c[RA_MAX_SIZES];

	if (!s->o->runs || s->runs < 2 || s->rows < 2)
		return;
	for (size_t i = 0; i < s->rows; i++)
		cell[i] = (struct step_cell){ s->rate[i], s->runs };
	steps_emit(&ra_step_table, s->size, cell, s->rows, c);
}

/* The complete rows as the table the plateau rule reads (verdict_readahead.h). */
static void ra_table_of(const struct ra_sweep *s, struct sr_table *t)
{
	sr_init(t);
	t->runs = s->runs;
	for (size_t i = 0; i < s->rows && i < SR_MAX_ROWS; i++, t->n++) {
		t->size[i] = s->size[i];
		for (unsigned j = 0; j < s->runs; j++)
			t->rate[i][j] = sr_printed(s->rate[i][j]);
	}
}

static void ra_verdict(const struct ra_sweep *s, const struct sr_table *t,
		       const struct vr_result *v)
{
	char tail[PATH_MAX + 64] = "";

	if (ra_opts.buffered)
		snprintf(tail, sizeof(tail), "; set it with: blockdev --setra %llu %s",
			 (unsigned long long)(s->size[v->at] / 512), s->disk.dev);
	vr_print(t, v, ra_opts.buffered ? "a readahead" : "requests", tail);
	vr_print_edge(t, v, ra_opts.plateau > 0);
}

/* The table (complete rows and a partial one), then the verdict. */
static void ra_report(const struct ra_sweep *s, bool complete)
{
	struct sr_table *t = malloc(sizeof(*t));
	struct vr_result v = { .judged = false };
	bool mark;

	if (!t || (s->rows == 0 && s->part == 0)) {
		free(t);
		return;
	}
	ra_table_of(s, t);
	if (complete)
		vr_judge(t, ra_opts.plateau, &v);
	/* Runs that disagree where the plateau is decided mark no size. */
	mark = v.judged && !(v.disagree && ra_opts.plateau <= 0);
	ra_describe(s);
	for (size_t i = 0; i < s->rows + (s->part > 0); i++)
		ra_row(s, i, mark && i == v.at);
	ra_steps(s);
	if (v.judged)
		ra_verdict(s, t, &v);
	free(t);
}

/* Sizes, range and buffer; FB_OK or FB_EUSAGE/FB_EDEV with a message. */
static int ra_setup(struct ra_sweep *s, const struct fb_opts *o, struct target *t)
{
	uint64_t avail;

	s->o = o;
	s->t = t;
	s->runs = o->runs ? o->runs : RA_DEFAULT_RUNS;
	s->disk.fd = -1;
	s->off = o->offset_set ? o->offset : 0;
	s->rd = ra_opts.min_size < RA_BUFFERED_READ ? (size_t)ra_opts.min_size : RA_BUFFERED_READ;
	for (uint64_t z = ra_opts.min_size; z <= ra_opts.max_size && s->n < RA_MAX_SIZES; z *= 2)
		s->size[s->n++] = z;
	if (s->off + ra_opts.max_size > t->size || s->off + ra_opts.max_size < s->off)
		return eng_check_end(t, "readahead", s->off + ra_opts.max_size);
	avail = t->size - s->off;
	if (o->size && o->size > avail)
		return eng_check_end(t, "readahead --size", s->off + o->size);
	s->bytes = ra_run_bytes(avail, ra_opts.max_size, o->size);
	if (!s->bytes) {	/* not reached: the checks above leave room */
		fprintf(stderr, "flashbench: readahead: no room for --max-size in %s\n", t->path);
		return FB_EUSAGE;
	}
	s->buf = eng_buffer(t, ra_opts.max_size > RA_BUFFERED_READ ? ra_opts.max_size : RA_BUFFERED_READ);
	return s->buf ? FB_OK : FB_EDEV;
}

static int readahead_run(const struct fb_opts *o, struct target *t)
{
	struct ra_sweep *s = calloc(1, sizeof(*s));
	int r, r2;

	if (!s)
		return FB_EDEV;
	r = ra_setup(s, o, t);
	if (r == FB_OK && ra_opts.buffered)
		r = ra_disk_prepare(&s->disk, s->t);
	if (r == FB_OK) {
		r = ra_sweep_all(s);
		/* Whatever happened in the sweep, the disk gets its setting back. */
		if (ra_opts.buffered && (r2 = ra_disk_restore(&s->disk)) != FB_OK && r == FB_OK)
			r = r2;
		ra_report(s, r == FB_OK);
	}
	if (s->disk.own_fd)
		close(s->disk.fd);
	if (ra_opts.buffered)
		ra_unlock();
	eng_buffer_free(s->buf);
	free(s);
	return r;
}

static void readahead_defaults(void)
{
	ra_opts.min_size = 4096;
	ra_opts.max_size = 8 * (1024ull * 1024);
	ra_opts.buffered = false;
	ra_opts.plateau = 0;	/* by the runs' own spread (verdict_readahead.h) */
}

static int readahead_check(struct fb_opts *o, char *err, size_t len)
{
	return ra_check_opts(o, err, len) < 0 ? FB_EUSAGE : FB_OK;
}

static int readahead_check_target(const struct fb_opts *o, const struct target *t, char *err,
				  size_t len)
{
	if (ra_check_target(o, t, err, len) < 0)
		return FB_EUSAGE;
	/* before any test of the run writes or reads: a refusal touches nothing */
	return ra_opts.buffered ? ra_lock(t, err, len) : FB_OK;
}

static const struct fb_option readahead_options[] = {
	{ .name = "min-size", .kind = FO_SIZE, .var = &ra_opts.min_size, .arg = "SIZE",
	  .help = "--readahead: smallest size (default 4KiB)" },
	{ .name = "max-size", .kind = FO_SIZE, .var = &ra_opts.max_size, .arg = "SIZE",
	  .help = "--readahead: largest size (default 8MiB); sizes double" },
	{ .name = "buffered", .kind = FO_FLAG, .var = &ra_opts.buffered,
	  .help = "--readahead: set the kernel readahead (BLKRASET) to each\n"
		  "size and read through the page cache (root; restored)" },
	{ .name = "plateau", .kind = FO_PERCENT, .var = &ra_opts.plateau, .arg = "PCT",
	  .help = "--readahead: the smallest size\n"
		  "within PCT% of the best is the plateau (default 0:\n"
		  "where the rise stops being larger than the runs' spread)" },
	{ .name = NULL },
};

static const char *const readahead_uses[] = { "offset", "size", "runs", NULL };

const struct fb_test test_readahead = {
	.name = "readahead",
	.help = "sequential read rate by request (or readahead) size,\n"
		"the start of the plateau marked with ==>",
	.uses = readahead_uses,
	.options = readahead_options,
	.defaults = readahead_defaults,
	.check = readahead_check,
	.check_target = readahead_check_target,
	.run = readahead_run,
	.tables = (const struct out_table *const[]){ &ra_table, &ra_step_table, NULL },
};
