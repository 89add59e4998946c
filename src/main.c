/*
 * flashbench: find out how a flash device really behaves.
 * The command line (cli.c), then dispatch to the test modules around
 * opening the target and the --preserve backup.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "engine.h"
#include "modules.h"
#include "opts.h"
#include "preserve.h"
#include "report.h"
#include "runlock.h"
#include "safety.h"
#include "sim_spec.h"
#include "target.h"
#include "units.h"

#define FB_VERSION "0.1"

/*
 * Room for any usage message: at most two arguments (each below Linux's
 * MAX_ARG_STRLEN, 32 pages) or a 4 KiB path, plus the words. Messages were
 * printed whole before cli.c wrote them into a buffer, and still are.
 */
static char usage_msg[2 * 128 * 1024 + 8192];

static void print_verbose(const struct fb_opts *o, const struct target *t)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN], d[FB_FMT_LEN];

	fprintf(stderr, "%s (%s), %llu bytes (%s), sector %u\n", t->path, t->ops->kind,
		(unsigned long long)t->size, fmt_size(a, sizeof(a), t->size), t->sector);
	fprintf(stderr, "blocksize %s, erasesize %s, offset %s, count %u, open-au-nr %u, "
		"fat-nr %u, scatter-order %u, scatter-span %u, interval-order %u%s\n",
		fmt_size(b, sizeof(b), o->blocksize), fmt_size(c, sizeof(c), o->erasesize),
		fmt_size(d, sizeof(d), o->offset), o->count, o->open_au_nr, o->fat_nr,
		o->scatter_order, o->scatter_span, o->interval_order, o->random ? ", random" : "");
	if (o->readahead)
		fprintf(stderr, "readahead: min-size %s, max-size %s, runs %u, plateau %g%%%s\n",
			fmt_size(b, sizeof(b), o->min_size), fmt_size(c, sizeof(c), o->max_size),
			o->runs, o->plateau, o->buffered ? ", buffered" : "");
}

/*
 * Every path the run writes, resolved to its storage, checked against
 * what must stay untouched and locked (safety.h), before anything is
 * opened for writing, created or truncated.
 */
static int check_paths(struct fb_opts *o)
{
	static char name[256];
	bool writes = o->open_au || o->find_fat || o->find_open_au;
	struct run_paths p = { .device = o->device, .writes = writes, .out = o->out };

	if (writes && o->preserve && !o->backup) {
		preserve_default_name(o->device, name, sizeof(name));
		o->backup = name;
	}
	p.backup = writes && o->preserve ? o->backup : NULL;
	return safety_check_run(&p);
}

static int open_target(const struct fb_opts *o, struct target **t)
{
	bool writes = o->open_au || o->find_fat || o->find_open_au;
	char err[512] = "";
	int r;

	r = target_open(o->device, writes ? TGT_WRITE | TGT_EXCL : 0, t, err, sizeof(err));
	if (r == 0)
		return FB_OK;
	fprintf(stderr, "flashbench: %s\n", err[0] ? err : strerror(-r));
	if (r == -ENOENT || r == -EINVAL || r == -ENODEV)
		return FB_EUSAGE;
	if (r == -EBUSY)
		return FB_ESAFETY;
	return FB_EDEV;
}

/* Create or empty --out; a new one is locked at once (an existing one already is). */
static int open_out(const struct fb_opts *o)
{
	struct stat st;
	bool fresh = o->out && stat(o->out, &st) < 0;

	if (report_open(o->out) < 0) {
		fprintf(stderr, "flashbench: --out: cannot open '%s': %s\n", o->out, strerror(errno));
		return FB_EUSAGE;
	}
	if (!fresh)
		return FB_OK;
	snprintf(usage_msg, sizeof(usage_msg), "--out=%s", o->out);
	return runlock_fd(report_fileno(), usage_msg, o->out);
}

/*
 * The last steps before the tests: the regions announced, the guard armed
 * and the backup made (--preserve), then --out created: a run refused on
 * the way creates nothing. Only --find-open-au without --erasesize opens
 * --out first, for the -a table it runs to find the erase size.
 */
static int prepare(struct fb_opts *o, struct target *t, struct preserve **saved)
{
	bool align_first = o->find_open_au && !o->erasesize_set;
	int r = FB_OK;

	eng_signals();
	if (align_first)
		r = open_out(o);
	if (r == FB_OK)
		r = find_open_au_prepare(o, t);
	if (r == FB_OK)
		r = preserve_begin(o, t, saved);
	if (r == FB_OK && !align_first && (r = open_out(o)) != FB_OK) {
		preserve_discard(*saved);
		*saved = NULL;
	}
	return r;
}

static int run_tests(const struct fb_opts *o, struct target *t)
{
	int r = FB_OK;

	if (o->align && r == FB_OK)
		r = test_align(o, t);
	if (o->scatter && r == FB_OK)
		r = test_scatter(o, t);
	if (o->interval && r == FB_OK)
		r = test_interval(o, t);
	if (o->readahead && r == FB_OK)
		r = test_readahead(o, t);
	if (o->find_fat && r == FB_OK)
		r = test_find_fat(o, t);
	if (o->open_au && r == FB_OK)
		r = test_open_au(o, t);
	if (o->find_open_au && r == FB_OK)
		r = test_find_open_au(o, t);
	if (r == FB_EINTR || (r == FB_OK && fb_stop)) {
		report_line("interrupted by signal %d: the lines above are all that was measured",
			    (int)fb_stop);
		r = FB_EINTR;
	}
	return r;
}

/* Open the target and run the tests; the options are all checked. */
static int run(struct fb_opts *o)
{
	struct preserve *saved = NULL;
	struct target *t;
	int r;

	if ((r = check_paths(o)) != FB_OK)
		return r;
	if ((r = open_target(o, &t)) != FB_OK)
		return r;
	if (cli_check_geometry(o, t, usage_msg, sizeof(usage_msg)) != FB_OK) {
		fprintf(stderr, "flashbench: %s\n", usage_msg);
		target_close(t);
		return FB_EUSAGE;
	}
	if (o->verbose)
		print_verbose(o, t);
	r = prepare(o, t, &saved);
	if (r == FB_OK)
		r = run_tests(o, t);
	/* ...and put the data back, also after a signal or an error. */
	r = preserve_end(saved, t, r);
	if (o->verbose && t->ops->stats)
		t->ops->stats(t, stderr);
	/* A result that could not be written was reported when it happened. */
	if (report_close() < 0 && r == FB_OK)
		r = FB_EDEV;
	target_close(t);
	return r;
}

int main(int argc, char **argv)
{
	struct fb_opts o;

	switch (cli_parse(argc, argv, &o, usage_msg, sizeof(usage_msg))) {
	case FB_OK:
		break;
	case CLI_HELP:
		cli_usage(stdout);
		return FB_OK;
	case CLI_VERSION:
		printf("flashbench %s\n", FB_VERSION);
		return FB_OK;
	case CLI_LIST_SIMS:
		sim_list_presets(stdout);
		return FB_OK;
	case CLI_ANALYZE:	/* reads saved output: no DEVICE, no test */
		return analyze_main(&o, o.nargs, o.args);
	default:
		fprintf(stderr, "flashbench: %s\n", usage_msg);
		return FB_EUSAGE;
	}
	if (o.restore)
		return preserve_restore_file(o.restore, o.device);
	return run(&o);
}
