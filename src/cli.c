/*
 * The command line: the option table, the help text, and every check
 * that can be made before the device is opened (and, with the target's
 * sector size, before the first I/O). It neither prints nor exits: the
 * messages go back to main(), and the unit tests and the fuzzer can call
 * cli_parse() again and again in one process.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "cli.h"
#include "parse.h"
#include "readahead.h"

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

/*
 * What each option changes, in one place. Tests and modes select
 * themselves (CLI_EVERY: never refused here; their conflicts are checked
 * in check_opts and analyze_main). --erasesize moves --interval's default
 * --offset (16 MiB rounded up to the erase size), so it counts there.
 */
const struct cli_use cli_uses[] = {
	{ "align", CLI_EVERY }, { "scatter", CLI_EVERY }, { "interval", CLI_EVERY },
	{ "readahead", CLI_EVERY }, { "open-au", CLI_EVERY }, { "find-fat", CLI_EVERY },
	{ "find-open-au", CLI_EVERY }, { "analyze", CLI_EVERY }, { "restore", CLI_EVERY },
	{ "list-sims", CLI_EVERY }, { "help", CLI_EVERY }, { "version", CLI_EVERY },
	{ "blocksize", CLI_ALIGN | CLI_SCATTER | CLI_WRITES },
	{ "erasesize", CLI_INTERVAL | CLI_WRITES },
	{ "count", CLI_ALIGN | CLI_SCATTER | CLI_INTERVAL },
	{ "offset", CLI_INTERVAL | CLI_READAHEAD | CLI_WRITES },
	{ "open-au-nr", CLI_OPEN_AU },
	{ "random", CLI_WRITES },
	{ "fat-nr", CLI_FIND_FAT },
	{ "scatter-order", CLI_SCATTER },
	{ "scatter-span", CLI_SCATTER },
	{ "interval-order", CLI_INTERVAL },
	{ "min-size", CLI_READAHEAD },
	{ "max-size", CLI_READAHEAD },
	{ "size", CLI_READAHEAD },
	{ "runs", CLI_READAHEAD },
	{ "buffered", CLI_READAHEAD },
	{ "plateau", CLI_READAHEAD },
	{ "preserve", CLI_WRITES },
	{ "backup", CLI_WRITES },
	{ "max-write", CLI_FIND_OPEN_AU },
	{ "max-time", CLI_FIND_OPEN_AU },
	{ "no-early-stop", CLI_WRITES },
	{ "out", CLI_TESTS | CLI_ANALYZE_MODE },
	{ "verbose", CLI_TESTS },
	{ NULL, 0 },
};

/* The names of the tests and modes, in the order of the CLI_ bits. */
static const char *const test_names[] = {
	"--align", "--scatter", "--interval", "--readahead", "--open-au", "--find-fat",
	"--find-open-au", "--analyze", "--restore",
};

void cli_usage(FILE *f)
{
	fprintf(f,
"Usage: flashbench TEST... [OPTIONS] DEVICE   (TEST: -a -s -i --readahead -O -f\n"
"                                             or --find-open-au, below)\n"
"       flashbench --restore=BACKUP DEVICE\n"
"       flashbench --analyze=FILE [--out=FILE]\n"
"       flashbench --list-sims | --help | --version\n"
"Find out how a flash device behaves: erase block and page size, open\n"
"allocation units, FAT-optimised areas. DEVICE is a block device, a file,\n"
"or sim:[PRESET][,key=value...] for the built-in simulated card.\n"
"\n"
"Tests (read-only tests never write; write tests DESTROY data on DEVICE):\n"
"  -a, --align              read timing around power-of-two (and 3 x 2^n)\n"
"                           boundaries, then a verdict: erase block and page size\n"
"  -s, --scatter            read time across the device (gnuplot columns)\n"
"  -i, --interval           read time by request size, with a linear fit; reads\n"
"                           at --offset (16MiB: a 16MiB file needs --offset=0)\n"
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
"  -c, --count=N            tries per measurement, the fastest counts (default 8,\n"
"                           at most 1000000)\n"
"      --offset=SIZE        where --open-au, --find-open-au and --interval start\n"
"                           (default 16MiB rounded up to the erase size);\n"
"                           --find-fat and --readahead start at 0 by default\n"
"      --open-au-nr=N       erase blocks written at once by --open-au (default 2,\n"
"                           at most 4096)\n"
"  -r, --random             write inside each erase block in pseudo-random order\n"
"      --fat-nr=N           erase blocks tested by --find-fat (default 6, at\n"
"                           most 4096)\n"
"      --scatter-order=N    scatter reads 2^N positions (default 9, at most 16)\n"
"      --scatter-span=N     blocks read at each scatter position (default 1, at\n"
"                           most 1048576)\n"
"      --interval-order=N   interval sizes 512B << 0..N (default 10, at most 20)\n"
"      --min-size=SIZE      --readahead: smallest size (default 4KiB)\n"
"      --max-size=SIZE      --readahead: largest size (default 8MiB); sizes double\n"
"      --size=SIZE          --readahead: bytes read per run (default a quarter of\n"
"                           DEVICE, at most 64MiB, at least --max-size)\n"
"      --runs=N             --readahead: runs (columns) per size (default 2, at\n"
"                           most 16)\n"
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
"                           (90s, 5m, 2h, 500ms; a bare number is seconds); both\n"
"                           report the bracket found so far\n"
"      --no-early-stop      --open-au, --find-fat, --find-open-au: measure every\n"
"                           block size, even once every write is a garbage collection\n"
"  -o, --out=FILE           write results to FILE instead of standard output\n"
"  -v, --verbose            print the device geometry and parameters (stderr)\n"
"      --list-sims          list the simulated card presets and their parameters\n"
"  -h, --help               show this help\n"
"      --version            show the version\n"
"\n"
"SIZE: bytes (8388608), hex (0x800000), either with a binary suffix: B,\n"
"k K KB KiB kiB, m M MB MiB, g G GB GiB, t T TB TiB (KB and MB are binary too);\n"
"a fraction with a suffix when the bytes are whole (1.5M, 0.5K). Only --offset\n"
"may be 0.\n"
"An option that none of the selected tests uses is refused (see flashbench(1)).\n"
"Exit status: 0 done, 1 device error, 2 bad usage, 3 refused for safety,\n"
"130 interrupted (partial results printed). See flashbench(1).\n");
}

/* The leading ':' makes getopt return ':' for a missing argument, so that
 * it can be told from an unknown option ('?'). */
static const char short_opts[] = ":asfOrivc:b:e:o:h";

/* A one-line usage error (no program name, no newline) into err. */
static int __attribute__((format(printf, 3, 4)))
usage_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return FB_EUSAGE;
}

static int opt_size(const char *name, const char *v, uint64_t *x, char *err, size_t len)
{
	if (parse_size(v, x) < 0)
		return usage_err(err, len, "--%s: invalid size '%s'", name, v);
	if (*x == 0)
		return usage_err(err, len, "--%s: size must not be zero: '%s'", name, v);
	return FB_OK;
}

static int opt_uint(const char *name, const char *v, uint64_t min, uint64_t max, unsigned *x,
		    char *err, size_t len)
{
	uint64_t v64;

	if (parse_uint(v, min, max, &v64) < 0)
		return usage_err(err, len, "--%s: '%s' is not a whole number from %llu to %llu",
				 name, v, (unsigned long long)min, (unsigned long long)max);
	*x = (unsigned)v64;
	return FB_OK;
}

/* The options that take no value, or a name taken as it is; false for the others. */
static bool set_plain(struct fb_opts *o, int c, const char *arg)
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
	case OPT_READAHEAD: o->readahead = true; break;
	case OPT_BUFFERED: o->buffered = true; break;
	case OPT_PRESERVE: o->preserve = true; break;
	case OPT_BACKUP: o->backup = arg; break;
	case OPT_RESTORE: o->restore = arg; break;
	case OPT_FIND_OPEN_AU: o->find_open_au = true; break;
	case OPT_NO_EARLY_STOP: o->no_early_stop = true; break;
	case OPT_ANALYZE: o->analyze = arg; break;
	default: return false;
	}
	return true;
}

/* The options with a size, a count, a duration or a percentage. */
static int set_value(struct fb_opts *o, int c, const char *arg, char *err, size_t len)
{
	switch (c) {
	case 'b': return opt_size("blocksize", arg, &o->blocksize, err, len);
	case 'e':
		o->erasesize_set = true;
		return opt_size("erasesize", arg, &o->erasesize, err, len);
	case 'c': return opt_uint("count", arg, 1, 1000000, &o->count, err, len);
	case OPT_OFFSET:	/* 0 is a valid offset: not opt_size() */
		o->offset_set = true;
		if (parse_size(arg, &o->offset) < 0)
			return usage_err(err, len, "--offset: invalid size '%s'", arg);
		return FB_OK;
	case OPT_OPEN_AU_NR: return opt_uint("open-au-nr", arg, 1, 4096, &o->open_au_nr, err, len);
	case OPT_FAT_NR: return opt_uint("fat-nr", arg, 1, 4096, &o->fat_nr, err, len);
	case OPT_SCATTER_ORDER:
		return opt_uint("scatter-order", arg, 0, 16, &o->scatter_order, err, len);
	case OPT_SCATTER_SPAN:
		return opt_uint("scatter-span", arg, 1, 1 << 20, &o->scatter_span, err, len);
	case OPT_INTERVAL_ORDER:
		return opt_uint("interval-order", arg, 0, 20, &o->interval_order, err, len);
	case OPT_MIN_SIZE: return opt_size("min-size", arg, &o->min_size, err, len);
	case OPT_MAX_SIZE: return opt_size("max-size", arg, &o->max_size, err, len);
	case OPT_SIZE: return opt_size("size", arg, &o->size, err, len);
	case OPT_RUNS: return opt_uint("runs", arg, 1, RA_MAX_RUNS, &o->runs, err, len);
	case OPT_MAX_WRITE: return opt_size("max-write", arg, &o->max_write, err, len);
	case OPT_MAX_TIME:
		if (parse_duration(arg, &o->max_time) < 0 || o->max_time == 0)
			return usage_err(err, len, "--max-time: invalid duration '%s' (90s, 5m, 2h)",
					 arg);
		return FB_OK;
	case OPT_PLATEAU:
		if (parse_double(arg, &o->plateau) < 0 || o->plateau < 0 || o->plateau >= 100)
			return usage_err(err, len,
					 "--plateau: '%s' is not a percentage from 0 to below 100", arg);
		return FB_OK;
	}
	return FB_OK;
}

/* The long name of an option's getopt value (each value appears once). */
static const char *long_name(int val)
{
	for (const struct option *p = long_opts; p->name; p++)
		if (p->val == val)
			return p->name;
	return NULL;
}

/* optopt 0: glibc found no long option of that name, or (it takes unique
 * prefixes) more than one. */
static int long_unknown(const char *elem, char *err, size_t len)
{
	size_t n = strcspn(elem + 2, "="), at = 0;
	char list[1024] = "";	/* every name of the table fits */
	int matches = 0;

	for (const struct option *p = long_opts; p->name; p++) {
		if (strncmp(p->name, elem + 2, n) != 0)
			continue;
		matches++;
		if (at < sizeof(list))
			at += snprintf(list + at, sizeof(list) - at, " '--%s'", p->name);
	}
	if (matches > 1)
		return usage_err(err, len, "option '%s' is ambiguous; possibilities:%s", elem, list);
	return usage_err(err, len, "unrecognized option '%s'", elem);
}

/*
 * getopt's complaint in our words: opterr is 0, so it printed nothing.
 * c is ':' for a missing argument, else '?'. optopt is the option's value
 * (missing argument; a long option given "=value" it does not take), the
 * unknown short option, or 0 for an unknown or ambiguous long option.
 * glibc has stepped past a long option and past the last letter of a
 * "-abc" cluster, so only then is argv[optind - 1] the element it read.
 */
static int getopt_error(int c, char **argv, char *err, size_t len)
{
	const char *elem = argv[optind - 1], *name = long_name(optopt);
	bool is_long = strncmp(elem, "--", 2) == 0;

	if (c == ':' && is_long && name)
		return usage_err(err, len, "option '--%s' requires an argument", name);
	if (c == ':')
		return usage_err(err, len, "option '-%c' requires an argument", optopt);
	if (optopt == 0 && is_long)
		return long_unknown(elem, err, len);
	if (name)
		return usage_err(err, len, "option '--%s' doesn't allow an argument", name);
	return usage_err(err, len, "invalid option '-%c'", (unsigned char)optopt);
}

static bool any_test(const struct fb_opts *o)
{
	return o->align || o->scatter || o->find_fat || o->open_au || o->interval ||
	       o->readahead || o->find_open_au;
}

#define NOPTS (sizeof(long_opts) / sizeof(long_opts[0]) - 1)

/* The options given on the command line (by index in long_opts), with the
 * last value of each, for check_unused(). */
struct given {
	uint64_t mask;
	const char *arg[NOPTS];
};

_Static_assert(NOPTS <= 64, "struct given has one bit per option");

static void given_add(struct given *g, int val, const char *arg)
{
	for (size_t i = 0; i < NOPTS; i++) {
		if (long_opts[i].val == val) {
			g->mask |= 1ull << i;
			g->arg[i] = arg;
			return;
		}
	}
}

/* 0 for a name missing from cli_uses: refused everywhere, which test_cli's
 * walk over --help finds. */
static unsigned uses_of(const char *name)
{
	for (const struct cli_use *u = cli_uses; u->name; u++)
		if (strcmp(u->name, name) == 0)
			return u->tests;
	return 0;
}

/* The CLI_ bits of what this command line runs. */
static unsigned selected(const struct fb_opts *o)
{
	return (o->align ? CLI_ALIGN : 0) | (o->scatter ? CLI_SCATTER : 0) |
	       (o->interval ? CLI_INTERVAL : 0) | (o->readahead ? CLI_READAHEAD : 0) |
	       (o->open_au ? CLI_OPEN_AU : 0) | (o->find_fat ? CLI_FIND_FAT : 0) |
	       (o->find_open_au ? CLI_FIND_OPEN_AU : 0) | (o->analyze ? CLI_ANALYZE_MODE : 0) |
	       (o->restore ? CLI_RESTORE_MODE : 0);
}

/* "--align, --scatter and --interval" ("every test" for all seven). */
static void name_list(unsigned bits, char *buf, size_t len)
{
	size_t n = sizeof(test_names) / sizeof(test_names[0]), at = 0, left = 0;

	buf[0] = '\0';
	if ((bits & CLI_TESTS) == CLI_TESTS) {
		at = (size_t)snprintf(buf, len, "every test");
		bits &= ~(unsigned)CLI_TESTS;
	}
	for (size_t i = 0; i < n; i++)
		left += (bits >> i) & 1;
	for (size_t i = 0; i < n && at < len; i++) {
		if (!((bits >> i) & 1))
			continue;
		left--;
		at += (size_t)snprintf(buf + at, len - at, "%s%s", at == 0 ? "" :
				       left == 0 ? " and " : ", ", test_names[i]);
	}
}

/* An option that none of the selected tests uses does nothing: refused. */
static int check_unused(const struct given *g, unsigned sel, char *err, size_t len)
{
	char with[160], uses[160];

	for (size_t i = 0; i < NOPTS; i++) {
		unsigned u = uses_of(long_opts[i].name);
		const char *arg = g->arg[i];

		if (!(g->mask & (1ull << i)) || (u & sel))
			continue;
		name_list(sel, with, sizeof(with));
		name_list(u, uses, sizeof(uses));
		return usage_err(err, len, "--%s%s%s: has no effect with %s (it applies to %s)",
				 long_opts[i].name, arg ? "=" : "", arg ? arg : "", with,
				 u ? uses : "nothing");
	}
	return FB_OK;
}

/* Everything that can be checked before the device is opened. */
static int check_opts(struct fb_opts *o, const struct given *g, char *err, size_t len)
{
	char ra[256];
	int r;

	if (o->restore && (o->preserve || o->backup))
		return usage_err(err, len, "--restore=%s: cannot be combined with --preserve or --backup",
				 o->restore);
	if (o->restore && any_test(o))
		return usage_err(err, len, "--restore=%s: runs no test; give it with DEVICE alone",
				 o->restore);
	if (o->restore)
		return check_unused(g, selected(o), err, len);
	if (o->backup && !o->preserve)
		return usage_err(err, len, "--backup=%s: only used with --preserve", o->backup);
	if (!any_test(o))
		return usage_err(err, len, "no test selected: use --align, --scatter, --interval, "
				 "--readahead, --open-au, --find-fat or --find-open-au (or --analyze FILE)");
	if ((r = check_unused(g, selected(o), err, len)) != FB_OK)
		return r;
	if (o->readahead && ra_check_opts(o, ra, sizeof(ra)) < 0)
		return usage_err(err, len, "%s", ra);
	/* Only the write tests cut erase blocks into blocks. */
	if ((selected(o) & CLI_WRITES) && o->blocksize > o->erasesize)
		return usage_err(err, len, "--blocksize %llu is larger than --erasesize %llu",
				 (unsigned long long)o->blocksize, (unsigned long long)o->erasesize);
	if (o->scatter && o->scatter_span > UINT64_MAX / 2 / o->blocksize)
		return usage_err(err, len, "--scatter-span %u times --blocksize %llu overflows",
				 o->scatter_span, (unsigned long long)o->blocksize);
	if (!o->offset_set) {
		/* 16 MiB rounded up to the erase size, as the original did. */
		o->offset = (16 * MiB + o->erasesize - 1) / o->erasesize * o->erasesize;
	}
	if (o->find_open_au && !o->erasesize_set && !o->align)
		return usage_err(err, len,
				 "--find-open-au: needs --erasesize (or --align, to use its verdict)");
	return FB_OK;
}

/* DEVICE: exactly one argument after the options. */
static int check_args(struct fb_opts *o, const struct given *g, char *err, size_t len)
{
	if (o->nargs < 1)
		return usage_err(err, len, "missing DEVICE (a block device, a file or sim:)");
	if (o->nargs > 1)
		return usage_err(err, len, "unexpected argument '%s' after DEVICE '%s'",
				 o->args[1], o->args[0]);
	o->device = o->args[0];
	return check_opts(o, g, err, len);
}

int cli_parse(int argc, char **argv, struct fb_opts *o, char *err, size_t errlen)
{
	struct given g = { 0 };
	int c, r;

	opts_defaults(o);
	if (errlen > 0)
		err[0] = '\0';
	/* glibc: optind 0 starts a fresh scan, also forgetting a half-read
	 * "-abc", so that a process can parse again and again. */
	optind = 0;
	opterr = 0;	/* our message names the option, in one line, and is not printed here */
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1) {
		if (c == 'h')
			return CLI_HELP;
		if (c == OPT_VERSION)
			return CLI_VERSION;
		if (c == OPT_LIST_SIMS)
			return CLI_LIST_SIMS;
		if (c == '?' || c == ':')
			return getopt_error(c, argv, err, errlen);
		if (!set_plain(o, c, optarg) && (r = set_value(o, c, optarg, err, errlen)) != FB_OK)
			return r;
		given_add(&g, c, optarg);
	}
	o->nargs = optind < argc ? argc - optind : 0;
	o->args = argv + (optind < argc ? optind : argc);
	/* Saved output: analyze_main() refuses a DEVICE, a test or --restore. */
	if (o->analyze && !any_test(o) && !o->restore &&
	    check_unused(&g, CLI_ANALYZE_MODE, err, errlen) != FB_OK)
		return FB_EUSAGE;
	if (o->analyze)
		return CLI_ANALYZE;
	return check_args(o, &g, err, errlen);
}

/* --interval reads its largest size at --offset, which is 16 MiB unless
 * given: a 16 MiB file is too small, and the message says why. */
static int check_interval_end(const struct fb_opts *o, const struct target *t,
			      char *err, size_t errlen)
{
	uint64_t last = 512ull << o->interval_order;

	if (!o->interval || (o->offset <= t->size && last <= t->size - o->offset))
		return FB_OK;
	return usage_err(err, errlen, "--interval reads up to %llu bytes (--interval-order %u) "
			 "at --offset %llu%s, but %s has only %llu bytes: give a smaller "
			 "--offset or --interval-order",
			 (unsigned long long)last, o->interval_order, (unsigned long long)o->offset,
			 o->offset_set ? "" : " (the default: 16MiB, rounded up to the erase size)",
			 t->path, (unsigned long long)t->size);
}

int cli_check_geometry(const struct fb_opts *o, const struct target *t, char *err, size_t errlen)
{
	uint64_t s = t->sector;
	char ra[4352];	/* room for the 4 KiB path */

	if (o->blocksize % s)
		return usage_err(err, errlen,
				 "--blocksize %llu is not a multiple of the %llu-byte sector of %s",
				 (unsigned long long)o->blocksize, (unsigned long long)s, t->path);
	/* The read "on" a boundary starts half a block before it. */
	if (o->align && (o->blocksize / 2) % s)
		return usage_err(err, errlen, "--blocksize %llu: --align reads half a block on each "
				 "side of a boundary, so the block size must be a multiple of twice "
				 "the %llu-byte sector (%llu)",
				 (unsigned long long)o->blocksize, (unsigned long long)s,
				 (unsigned long long)(2 * s));
	if (o->erasesize % s)
		return usage_err(err, errlen,
				 "--erasesize %llu is not a multiple of the %llu-byte sector of %s",
				 (unsigned long long)o->erasesize, (unsigned long long)s, t->path);
	if (o->offset % s)
		return usage_err(err, errlen,
				 "--offset %llu is not a multiple of the %llu-byte sector of %s",
				 (unsigned long long)o->offset, (unsigned long long)s, t->path);
	if (o->readahead && ra_check_target(o, t, ra, sizeof(ra)) < 0)
		return usage_err(err, errlen, "%s", ra);
	return check_interval_end(o, t, err, errlen);
}
