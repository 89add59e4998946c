/*
 * flashbench: find out how a flash device really behaves.
 * The option table, validation of every value before any I/O, dispatch
 * to the test modules.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "modules.h"
#include "opts.h"
#include "parse.h"
#include "preserve.h"
#include "readahead.h"
#include "report.h"
#include "safety.h"
#include "sim_spec.h"
#include "target.h"
#include "units.h"

#define FB_VERSION "0.1"
#define MiB (1024ull * 1024)

enum {
	OPT_SCATTER_ORDER = 256, OPT_SCATTER_SPAN, OPT_FAT_NR, OPT_OPEN_AU_NR,
	OPT_OFFSET, OPT_INTERVAL_ORDER, OPT_VERSION, OPT_LIST_SIMS,
	OPT_READAHEAD, OPT_MIN_SIZE, OPT_MAX_SIZE, OPT_RUNS, OPT_SIZE, OPT_BUFFERED, OPT_PLATEAU,
	OPT_PRESERVE, OPT_BACKUP, OPT_RESTORE,
	OPT_FIND_OPEN_AU, OPT_ANALYZE, OPT_MAX_WRITE, OPT_MAX_TIME, OPT_NO_EARLY_STOP,
};

static const struct option long_opts[] = {
	{ "align", no_argument, NULL, 'a' },
	{ "scatter", no_argument, NULL, 's' },
	{ "scatter-order", required_argument, NULL, OPT_SCATTER_ORDER },
	{ "scatter-span", required_argument, NULL, OPT_SCATTER_SPAN },
	{ "find-fat", no_argument, NULL, 'f' },
	{ "fat-nr", required_argument, NULL, OPT_FAT_NR },
	{ "open-au", no_argument, NULL, 'O' },
	{ "open-au-nr", required_argument, NULL, OPT_OPEN_AU_NR },
	{ "offset", required_argument, NULL, OPT_OFFSET },
	{ "random", no_argument, NULL, 'r' },
	{ "interval", no_argument, NULL, 'i' },
	{ "interval-order", required_argument, NULL, OPT_INTERVAL_ORDER },
	{ "readahead", no_argument, NULL, OPT_READAHEAD },
	{ "min-size", required_argument, NULL, OPT_MIN_SIZE },
	{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
	{ "runs", required_argument, NULL, OPT_RUNS },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "buffered", no_argument, NULL, OPT_BUFFERED },
	{ "plateau", required_argument, NULL, OPT_PLATEAU },
	{ "preserve", no_argument, NULL, OPT_PRESERVE },
	{ "backup", required_argument, NULL, OPT_BACKUP },
	{ "restore", required_argument, NULL, OPT_RESTORE },
	{ "find-open-au", no_argument, NULL, OPT_FIND_OPEN_AU },
	{ "max-write", required_argument, NULL, OPT_MAX_WRITE },
	{ "max-time", required_argument, NULL, OPT_MAX_TIME },
	{ "no-early-stop", no_argument, NULL, OPT_NO_EARLY_STOP },
	{ "analyze", required_argument, NULL, OPT_ANALYZE },
	{ "verbose", no_argument, NULL, 'v' },
	{ "count", required_argument, NULL, 'c' },
	{ "blocksize", required_argument, NULL, 'b' },
	{ "erasesize", required_argument, NULL, 'e' },
	{ "out", required_argument, NULL, 'o' },
	{ "list-sims", no_argument, NULL, OPT_LIST_SIMS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: flashbench TEST [OPTIONS] DEVICE\n"
"       flashbench --analyze=FILE [--out=FILE]\n"
"Find out how a flash device behaves: erase block and page size, open\n"
"allocation units, FAT-optimised areas. DEVICE is a block device, a file,\n"
"or sim:[PRESET][,key=value...] for the built-in simulated card.\n"
"\n"
"Tests (read-only tests never write; write tests DESTROY data on DEVICE):\n"
"  -a, --align              read timing around power-of-two (and 3 x 2^n)\n"
"                           boundaries, then a verdict: erase block and page size\n"
"  -s, --scatter            read time across the device (gnuplot columns)\n"
"  -i, --interval           read time by request size, with a linear fit\n"
"      --readahead          sequential read rate by request (or readahead) size,\n"
"                           the start of the plateau marked with ==>\n"
"  -O, --open-au            write rates for --open-au-nr interleaved erase blocks (writes)\n"
"  -f, --find-fat           write rates of the first --fat-nr erase blocks (writes)\n"
"      --find-open-au       how many erase blocks stay fast written at once: tries\n"
"                           N = 1, 2, 4, ... until slow, then bisects (writes)\n"
"      --analyze=FILE       verdicts for saved output of this tool or the original\n"
"                           (FILE - is standard input); needs no DEVICE\n"
"\n"
"Options:\n"
"  -b, --blocksize=SIZE     smallest block size (default 16KiB)\n"
"  -e, --erasesize=SIZE     erase block (allocation unit) size (default 4MiB)\n"
"  -c, --count=N            tries per measurement, the fastest counts (default 8)\n"
"      --offset=SIZE        where --open-au starts (default 16MiB rounded up to\n"
"                           the erase size); --find-fat starts at 0 by default\n"
"      --open-au-nr=N       erase blocks written at once by --open-au (default 2)\n"
"  -r, --random             write inside each erase block in pseudo-random order\n"
"      --fat-nr=N           erase blocks tested by --find-fat (default 6)\n"
"      --scatter-order=N    scatter reads 2^N positions (default 9, at most 16)\n"
"      --scatter-span=N     blocks read at each scatter position (default 1)\n"
"      --interval-order=N   interval sizes 512B << 0..N (default 10, at most 20)\n"
"      --min-size=SIZE      --readahead: smallest size (default 4KiB)\n"
"      --max-size=SIZE      --readahead: largest size (default 8MiB); sizes double\n"
"      --size=SIZE          --readahead: bytes read per run (default a quarter of\n"
"                           DEVICE, at most 64MiB, at least --max-size)\n"
"      --runs=N             --readahead: runs (columns) per size (default 2)\n"
"      --buffered           --readahead: set the kernel readahead (BLKRASET) to each\n"
"                           size and read through the page cache (root; restored)\n"
"      --plateau=PCT        --readahead: within PCT%% of the best is the plateau\n"
"                           (default 5)\n"
"      --preserve           write tests: back up what they overwrite and put it\n"
"                           back afterwards, also after Ctrl-C or an error\n"
"      --backup=FILE        --preserve: the backup file (default\n"
"                           flashbench-DEVICE-DATE-TIME.backup here)\n"
"      --restore=FILE       put a backup left by a killed --preserve run back\n"
"                           onto DEVICE and verify it (runs no test)\n"
"      --max-write=SIZE     --find-open-au: write at most SIZE bytes in all\n"
"      --max-time=TIME      --find-open-au: stop after TIME of device time\n"
"                           (90s, 5m, 2h); both report the bracket found so far\n"
"      --no-early-stop      --open-au, --find-fat, --find-open-au: measure every\n"
"                           block size, even once every write is a garbage collection\n"
"  -o, --out=FILE           write results to FILE instead of standard output\n"
"  -v, --verbose            print the device geometry and parameters (stderr)\n"
"      --list-sims          list the simulated card presets and their parameters\n"
"  -h, --help               show this help\n"
"      --version            show the version\n"
"\n"
"SIZE: bytes (8388608), hex (0x800000) or with a binary suffix (8M, 8MiB, 16K).\n"
"Exit status: 0 done, 1 device error, 2 bad usage, 3 refused for safety,\n"
"130 interrupted (partial results printed). See flashbench(1).\n");
}

/* One-line usage error naming the option and the value; exit 2. */
static void __attribute__((noreturn, format(printf, 1, 2))) die_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("flashbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(FB_EUSAGE);
}

static uint64_t opt_size(const char *name, const char *v)
{
	uint64_t x;

	if (parse_size(v, &x) < 0)
		die_usage("--%s: invalid size '%s'", name, v);
	if (x == 0)
		die_usage("--%s: size must not be zero: '%s'", name, v);
	return x;
}

static unsigned opt_uint(const char *name, const char *v, uint64_t min, uint64_t max)
{
	uint64_t x;

	if (parse_uint(v, min, max, &x) < 0)
		die_usage("--%s: '%s' is not a whole number from %llu to %llu", name, v,
			  (unsigned long long)min, (unsigned long long)max);
	return (unsigned)x;
}


static void parse_opt(struct fb_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'a': o->align = true; break;
	case 's': o->scatter = true; break;
	case 'f': o->find_fat = true; break;
	case 'O': o->open_au = true; break;
	case 'i': o->interval = true; break;
	case 'r': o->random = true; break;
	case 'v': o->verbose = true; break;
	case 'o': o->out = arg; break;
	case 'b': o->blocksize = opt_size("blocksize", arg); break;
	case 'e': o->erasesize = opt_size("erasesize", arg); o->erasesize_set = true; break;
	case 'c': o->count = opt_uint("count", arg, 1, 1000000); break;
	case OPT_OFFSET:
		if (parse_size(arg, &o->offset) < 0)
			die_usage("--offset: invalid size '%s'", arg);
		o->offset_set = true;
		break;
	case OPT_OPEN_AU_NR: o->open_au_nr = opt_uint("open-au-nr", arg, 1, 4096); break;
	case OPT_FAT_NR: o->fat_nr = opt_uint("fat-nr", arg, 1, 4096); break;
	case OPT_SCATTER_ORDER: o->scatter_order = opt_uint("scatter-order", arg, 0, 16); break;
	case OPT_SCATTER_SPAN: o->scatter_span = opt_uint("scatter-span", arg, 1, 1 << 20); break;
	case OPT_INTERVAL_ORDER: o->interval_order = opt_uint("interval-order", arg, 0, 20); break;
	case OPT_READAHEAD: o->readahead = true; break;
	case OPT_BUFFERED: o->buffered = true; break;
	case OPT_MIN_SIZE: o->min_size = opt_size("min-size", arg); break;
	case OPT_MAX_SIZE: o->max_size = opt_size("max-size", arg); break;
	case OPT_SIZE: o->size = opt_size("size", arg); break;
	case OPT_RUNS: o->runs = opt_uint("runs", arg, 1, RA_MAX_RUNS); break;
	case OPT_PRESERVE: o->preserve = true; break;
	case OPT_BACKUP: o->backup = arg; break;
	case OPT_RESTORE: o->restore = arg; break;
	case OPT_FIND_OPEN_AU: o->find_open_au = true; break;
	case OPT_NO_EARLY_STOP: o->no_early_stop = true; break;
	case OPT_ANALYZE: o->analyze = arg; break;
	case OPT_MAX_WRITE: o->max_write = opt_size("max-write", arg); break;
	case OPT_MAX_TIME:
		if (parse_duration(arg, &o->max_time) < 0 || o->max_time == 0)
			die_usage("--max-time: invalid duration '%s' (90s, 5m, 2h)", arg);
		break;
	case OPT_PLATEAU:
		if (parse_double(arg, &o->plateau) < 0 || o->plateau < 0 || o->plateau >= 100)
			die_usage("--plateau: '%s' is not a percentage from 0 to below 100", arg);
		break;
	}
}

/* Everything that can be checked before the device is opened. */
static void check_opts(struct fb_opts *o)
{
	char err[256];

	if (o->restore && (o->preserve || o->backup))
		die_usage("--restore=%s: cannot be combined with --preserve or --backup", o->restore);
	if (o->restore && (o->align || o->scatter || o->find_fat || o->open_au || o->interval ||
			   o->readahead || o->find_open_au))
		die_usage("--restore=%s: runs no test; give it with DEVICE alone", o->restore);
	if (o->restore)
		return;
	if (o->backup && !o->preserve)
		die_usage("--backup=%s: only used with --preserve", o->backup);
	if (!(o->align || o->scatter || o->find_fat || o->open_au || o->interval || o->readahead ||
	      o->find_open_au))
		die_usage("no test selected: use --align, --scatter, --interval, --readahead, "
			  "--open-au, --find-fat or --find-open-au (or --analyze FILE)");
	if ((o->readahead || o->buffered) && ra_check_opts(o, err, sizeof(err)) < 0)
		die_usage("%s", err);
	if (o->blocksize > o->erasesize)
		die_usage("--blocksize %llu is larger than --erasesize %llu",
			  (unsigned long long)o->blocksize, (unsigned long long)o->erasesize);
	if (!o->offset_set) {
		/* 16 MiB rounded up to the erase size, as the original did. */
		o->offset = (16 * MiB + o->erasesize - 1) / o->erasesize * o->erasesize;
	}
}

/* Checks that need the device's sector size; still before any I/O. */
static void check_geometry(const struct fb_opts *o, const struct target *t)
{
	uint64_t s = t->sector;
	char err[4352];

	if (o->blocksize % s)
		die_usage("--blocksize %llu is not a multiple of the %llu-byte sector of %s",
			  (unsigned long long)o->blocksize, (unsigned long long)s, t->path);
	if (o->align && (o->blocksize / 2) % s)
		die_usage("--blocksize %llu: --align reads half a block across each boundary, "
			  "so the block size must be at least twice the %llu-byte sector",
			  (unsigned long long)o->blocksize, (unsigned long long)s);
	if (o->erasesize % s)
		die_usage("--erasesize %llu is not a multiple of the %llu-byte sector of %s",
			  (unsigned long long)o->erasesize, (unsigned long long)s, t->path);
	if (o->offset % s)
		die_usage("--offset %llu is not a multiple of the %llu-byte sector of %s",
			  (unsigned long long)o->offset, (unsigned long long)s, t->path);
	if (o->readahead && ra_check_target(o, t, err, sizeof(err)) < 0)
		die_usage("%s", err);
}

static void print_verbose(const struct fb_opts *o, const struct target *t)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN], d[FB_FMT_LEN];

	fprintf(stderr, "%s: %s, %llu bytes (%s), sector %u\n", t->path, t->ops->kind,
		(unsigned long long)t->size, fmt_size(a, sizeof(a), t->size), t->sector);
	fprintf(stderr, "blocksize %s, erasesize %s, offset %s, count %u, open-au-nr %u, "
		"fat-nr %u, scatter-order %u, scatter-span %u, interval-order %u%s\n",
		fmt_size(b, sizeof(b), o->blocksize), fmt_size(c, sizeof(c), o->erasesize),
		fmt_size(d, sizeof(d), o->offset), o->count, o->open_au_nr, o->fat_nr,
		o->scatter_order, o->scatter_span, o->interval_order, o->random ? ", random" : "");
}

static int open_target(const struct fb_opts *o, struct target **t)
{
	bool writes = o->open_au || o->find_fat || o->find_open_au;
	char err[512] = "";
	int r;

	/* Mounted, swap, held: refused with the name of the user, before the open. */
	if (writes && (r = safety_check_writable(o->device)) != FB_OK)
		return r;
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

int main(int argc, char **argv)
{
	struct fb_opts o;
	struct target *t;
	struct preserve *saved = NULL;
	int c, r;

	opts_defaults(&o);
	opterr = 1;
	while ((c = getopt_long(argc, argv, "asfOrivc:b:e:o:h", long_opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return FB_OK;
		} else if (c == OPT_VERSION) {
			printf("flashbench %s\n", FB_VERSION);
			return FB_OK;
		} else if (c == OPT_LIST_SIMS) {
			sim_list_presets(stdout);
			return FB_OK;
		} else if (c == '?') {
			return FB_EUSAGE;	/* getopt named the option */
		}
		parse_opt(&o, c, optarg);
	}
	if (o.analyze)		/* reads saved output: no DEVICE, no test */
		return analyze_main(&o, argc - optind, argv + optind);
	if (optind >= argc)
		die_usage("missing DEVICE (a block device, a file or sim:)");
	if (optind + 1 < argc)
		die_usage("unexpected argument '%s' after DEVICE '%s'", argv[optind + 1], argv[optind]);
	o.device = argv[optind];
	check_opts(&o);
	if (o.find_open_au && !o.erasesize_set && !o.align)
		die_usage("--find-open-au: needs --erasesize (or --align, to use its verdict)");
	if (o.restore)
		return preserve_restore_file(o.restore, o.device);
	if ((r = open_target(&o, &t)) != FB_OK)
		return r;
	check_geometry(&o, t);
	if (o.verbose)
		print_verbose(&o, t);
	if (report_open(o.out) < 0) {
		fprintf(stderr, "flashbench: --out: cannot open '%s': %s\n", o.out, strerror(errno));
		target_close(t);
		return FB_EUSAGE;
	}
	eng_signals();
	/* --find-open-au without --erasesize runs -a first and takes its verdict. */
	r = find_open_au_prepare(&o, t);
	/* Announce the regions, arm the write guard, back up (--preserve)... */
	if (r == FB_OK)
		r = preserve_begin(&o, t, &saved);
	if (r == FB_OK)
		r = run_tests(&o, t);
	/* ...and put the data back, also after a signal or an error. */
	r = preserve_end(saved, t, r);
	if (o.verbose && t->ops->stats)
		t->ops->stats(t, stderr);
	if (report_close() < 0 && r == FB_OK) {
		fprintf(stderr, "flashbench: cannot write the results: %s\n", strerror(EIO));
		r = FB_EDEV;
	}
	target_close(t);
	return r;
}
