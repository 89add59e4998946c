/*
 * The command line: the shared options, and the options and flags of
 * every test, taken from the test table (src/modules/table.c); the help
 * text; and every check that can be made before the device is opened
 * (and, with the target's sector size, before the first I/O). It neither
 * prints nor exits: the messages go back to main(), and the unit tests
 * and the fuzzer can call cli_parse() again and again in one process.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_impl.h"
#include "core/nearest.h"
#include "core/out.h"
#include "core/parse.h"
#include "modules/test.h"

#define MiB (1024ull * 1024)

static int set_blocksize(struct fb_opts *o, const char *arg, char *err, size_t len);
static int set_erasesize(struct fb_opts *o, const char *arg, char *err, size_t len);
static int set_offset(struct fb_opts *o, const char *arg, char *err, size_t len);
static int set_format(struct fb_opts *o, const char *arg, char *err, size_t len);
static int set_report(struct fb_opts *o, const char *arg, char *err, size_t len);
static int set_precondition(struct fb_opts *o, const char *arg, char *err, size_t len);

#define SHARED(name_, letter_, kind_, field_, scope_, arg_, help_) \
	{ .name = name_, .letter = letter_, .kind = kind_, .off = offsetof(struct fb_opts, field_), \
	  .scope = scope_, .arg = arg_, .help = help_ }

/*
 * The options shared by several tests, and the modes. scope says which
 * tests an option changes: SCOPE_LISTED those that name it in their uses,
 * SCOPE_WRITES every write test as well, SCOPE_ANY every test; SCOPE_ANALYZE:
 * also with --analyze. --erasesize moves the default --offset.
 */
static const struct fb_option shared_opts[] = {
	{ .name = "blocksize", .letter = 'b', .kind = FO_CALL, .call = set_blocksize,
	  .scope = SCOPE_LISTED, .arg = "SIZE",
	  .help = "smallest block size (default 16KiB; --queue-depth:\nthe request size, default 4KiB)" },
	{ .name = "erasesize", .letter = 'e', .kind = FO_CALL, .call = set_erasesize,
	  .scope = SCOPE_LISTED, .arg = "SIZE",
	  .help = "erase block (allocation unit) size (default 4MiB)" },
	{ .name = "count", .letter = 'c', .kind = FO_UINT, .off = offsetof(struct fb_opts, count),
	  .min = 1, .max = 1000000, .scope = SCOPE_LISTED, .arg = "N",
	  .help = "tries per measurement, the fastest counts (default 8,\nat most 1000000)" },
	{ .name = "offset", .kind = FO_CALL, .call = set_offset, .scope = SCOPE_LISTED,
	  .arg = "SIZE",
	  .help = "where --open-au, --find-open-au, --interval and\n"
		  "--queue-depth start (default 16MiB rounded up to the\n"
		  "erase size); --find-fat, --readahead and --sustained\n"
		  "start at 0 by default" },
	SHARED("random", 'r', FO_FLAG, random, SCOPE_LISTED, NULL,
	       "write inside each erase block in pseudo-random order;\n"
	       "--queue-depth: the blocks in pseudo-random order"),
	SHARED("size", 0, FO_SIZE, size, SCOPE_LISTED, "SIZE",
	       "--readahead: bytes read per run (default a quarter of\n"
	       "DEVICE, at most 64MiB, at least --max-size);\n"
	       "--queue-depth: bytes per run of each depth (16MiB);\n"
	       "--sustained: bytes written (default the rest of DEVICE)"),
	{ .name = "runs", .kind = FO_UINT, .off = offsetof(struct fb_opts, runs), .min = 1,
	  .max = FB_MAX_RUNS, .scope = SCOPE_LISTED, .arg = "N",
	  .help = "--readahead: runs (columns) per size (default 2, at\nmost 16); "
		  "--queue-depth: runs per depth,\ninterleaved (default 3); --open-au: "
		  "writes of each\nblock size (default 1); steps judged on them" },
	SHARED("max-write", 0, FO_SIZE, max_write, SCOPE_LISTED, "SIZE",
	       "--find-open-au, --survey: write at most SIZE bytes in all"),
	SHARED("max-time", 0, FO_DURATION, max_time, SCOPE_LISTED, "TIME",
	       "--find-open-au, --survey: stop after TIME of device time\n"
	       "(90s, 5m, 2h, 500ms; a bare number is seconds); both\n"
	       "report the bracket found so far"),
	SHARED("no-early-stop", 0, FO_FLAG, no_early_stop, SCOPE_LISTED, NULL,
	       "--open-au, --find-fat, --find-open-au: measure every\n"
	       "block size, even once every write is a garbage collection"),
	{ .name = "precondition", .kind = FO_CALL, .call = set_precondition,
	  .scope = SCOPE_WRITES, .arg = "MODE",
	  .help = "write tests: before them (after the backup), discard\n"
		  "the regions they write, or fill them sequentially\n"
		  "once, so that runs start from the same state: discard,\n"
		  "fill or none (the default: as the card was left)" },
	SHARED("preserve", 0, FO_FLAG, preserve, SCOPE_WRITES, NULL,
	       "write tests: back up what they overwrite and put it\n"
	       "back afterwards, also after Ctrl-C or an error"),
	SHARED("backup", 0, FO_TEXT, backup, SCOPE_WRITES, "FILE",
	       "--preserve: the backup file (default\nflashbench-DEVICE-DATE-TIME.backup here)"),
	SHARED("out", 'o', FO_TEXT, out, SCOPE_ANY | SCOPE_ANALYZE, "FILE",
	       "write results to FILE instead of standard output"),
	{ .name = "format", .kind = FO_CALL, .off = offsetof(struct fb_opts, format),
	  .scope = SCOPE_ANY | SCOPE_ANALYZE, .arg = "FMT", .call = set_format,
	  .help = "results as text (flashbench's lines, the default),\n"
		  "json (one document) or csv (one table per test)" },
	{ .name = "report", .kind = FO_CALL, .scope = SCOPE_ANY, .arg = "full",
	  .arg_optional = true, .call = set_report,
	  .help = "run --info, -a and --find-open-au (=full: and\n"
		  "--readahead) and print one plain-text block of at most\n"
		  "72 columns to paste into a mail (writes: see --find-open-au)" },
	SHARED("verbose", 'v', FO_FLAG, verbose, SCOPE_ANY, NULL,
	       "print the device geometry and parameters (stderr)"),
	{ .name = NULL },
};

/* The modes: they run no test. */
static const struct fb_option mode_opts[] = {
	SHARED("analyze", 0, FO_TEXT, analyze, SCOPE_MODE, "FILE",
	       "verdicts for saved output of this tool or the original\n"
	       "(FILE - is standard input); needs no DEVICE"),
	SHARED("compare", 0, FO_FLAG, compare, SCOPE_MODE, NULL,
	       "compare saved results A B [C...] of the same test\n"
	       "(text, JSON or CSV; A is the baseline; one FILE: the\n"
	       "runs it holds): is a difference real or noise?\n"
	       "needs no DEVICE"),
	SHARED("restore", 0, FO_TEXT, restore, SCOPE_MODE, "FILE",
	       "put a backup left by a killed --preserve run back\n"
	       "onto DEVICE and verify it (runs no test)"),
	{ .name = "list-sims", .kind = FO_FLAG, .scope = SCOPE_MODE,
	  .help = "list the simulated card presets and their parameters" },
	{ .name = "help", .letter = 'h', .kind = FO_FLAG, .scope = SCOPE_MODE,
	  .help = "show this help" },
	{ .name = "version", .kind = FO_FLAG, .scope = SCOPE_MODE, .help = "show the version" },
	{ .name = NULL },
};

struct entry cli_entries[MAX_ENTRIES];
static struct option long_opts[MAX_ENTRIES + 1];
static char short_opts[2 * MAX_ENTRIES + 2];
size_t cli_nentries;

static void add_entry(const struct fb_test *t, const struct fb_option *opt)
{
	struct entry *e = &cli_entries[cli_nentries];
	int has_arg = !opt ? (t->flag_call ? optional_argument : no_argument)
		      : opt->kind == FO_FLAG ? no_argument
		      : opt->arg_optional ? optional_argument : required_argument;

	e->test = t;
	e->opt = opt;
	e->name = opt ? opt->name : t->name;
	e->letter = opt ? opt->letter : t->letter;
	long_opts[cli_nentries] = (struct option){ e->name, has_arg, NULL, 256 + (int)cli_nentries };
	if (e->letter) {
		size_t n = strlen(short_opts);

		short_opts[n++] = e->letter;
		if (has_arg == required_argument)
			short_opts[n++] = ':';
		short_opts[n] = '\0';
	}
	cli_nentries++;
}

/* getopt's tables from the test table, once. */
void cli_build_entries(void)
{
	if (cli_nentries)
		return;
	/* The leading ':' makes getopt return ':' for a missing argument. */
	strcpy(short_opts, ":");
	for (const struct fb_test *const *t = fb_tests; *t; t++) {
		add_entry(*t, NULL);
		for (const struct fb_option *p = (*t)->options; p && p->name; p++)
			add_entry(*t, p);
	}
	for (const struct fb_option *p = shared_opts; p->name; p++)
		add_entry(NULL, p);
	for (const struct fb_option *p = mode_opts; p->name; p++)
		add_entry(NULL, p);
}

/* The entry of getopt's value (a letter or 256 + index); NULL if none. */
static const struct entry *entry_of(int val)
{
	if (val >= 256 && (size_t)(val - 256) < cli_nentries)
		return &cli_entries[val - 256];
	for (size_t i = 0; val > 0 && i < cli_nentries; i++)
		if (cli_entries[i].letter == val)
			return &cli_entries[i];
	return NULL;
}

const struct entry *cli_entry_named(const char *name)
{
	for (size_t i = 0; i < cli_nentries; i++)
		if (strcmp(cli_entries[i].name, name) == 0)
			return &cli_entries[i];
	return NULL;
}

/* A one-line usage error (no program name, no newline) into err. */
int __attribute__((format(printf, 3, 4)))
cli_usage_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return FB_EUSAGE;
}

/* ---- values ---- */

static void *value_ptr(const struct fb_option *p, struct fb_opts *o)
{
	return p->var ? p->var : (char *)o + p->off;
}

static int opt_size(const char *name, const char *v, uint64_t *x, bool zero_ok, char *err,
		    size_t len)
{
	if (parse_size(v, x) < 0)
		return cli_usage_err(err, len, "--%s: invalid size '%s'", name, v);
	if (*x == 0 && !zero_ok)
		return cli_usage_err(err, len, "--%s: size must not be zero: '%s'", name, v);
	return FB_OK;
}

static int opt_uint(const struct fb_option *p, const char *v, unsigned *x, char *err, size_t len)
{
	uint64_t v64;

	if (parse_uint(v, p->min, p->max, &v64) < 0)
		return cli_usage_err(err, len, "--%s: '%s' is not a whole number from %llu to %llu",
				 p->name, v, (unsigned long long)p->min,
				 (unsigned long long)p->max);
	*x = (unsigned)v64;
	return FB_OK;
}

static int set_blocksize(struct fb_opts *o, const char *arg, char *err, size_t len)
{
	o->blocksize_set = true;	/* a test may have its own default */
	return opt_size("blocksize", arg, &o->blocksize, false, err, len);
}

static int set_erasesize(struct fb_opts *o, const char *arg, char *err, size_t len)
{
	o->erasesize_set = true;
	return opt_size("erasesize", arg, &o->erasesize, false, err, len);
}

static int set_offset(struct fb_opts *o, const char *arg, char *err, size_t len)
{
	o->offset_set = true;	/* 0 is a valid offset */
	return opt_size("offset", arg, &o->offset, true, err, len);
}

static int set_format(struct fb_opts *o, const char *arg, char *err, size_t len)
{
	enum out_format f;

	if (out_parse_format(arg, &f) < 0)
		return cli_usage_err(err, len, "--format: '%s' is not text, json or csv", arg);
	o->format = (int)f;
	return FB_OK;
}

/* --report[=full]: the tests of a report; the block itself is chosen in check_opts(). */
static int set_report(struct fb_opts *o, const char *arg, char *err, size_t len)
{
	static const char *const tests[] = { "info", "align", "find-open-au" };

	if (arg && strcmp(arg, "full") != 0)
		return cli_usage_err(err, len, "--report=%s: takes nothing or 'full'", arg);
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		fb_test_select(o, fb_test_find(tests[i]));
	if (arg)
		fb_test_select(o, fb_test_find("readahead"));
	o->report = true;
	return FB_OK;
}

static int set_precondition(struct fb_opts *o, const char *arg, char *err, size_t len)
{
	static const char *const mode[] = {
		[PRECOND_NONE] = "none", [PRECOND_DISCARD] = "discard", [PRECOND_FILL] = "fill",
	};

	for (int i = 0; i < 3; i++)
		if (strcmp(arg, mode[i]) == 0) {
			o->precondition = i;
			return FB_OK;
		}
	return cli_usage_err(err, len, "--precondition: '%s' is not discard, fill or none", arg);
}

static int set_option(const struct fb_option *p, struct fb_opts *o, const char *arg, char *err,
		      size_t len)
{
	void *v = value_ptr(p, o);
	uint64_t ns;

	switch (p->kind) {
	case FO_FLAG: *(bool *)v = true; return FB_OK;
	case FO_TEXT:
		/* (getopt hands "--analyze --format=json FILE" the option as the file) */
		if (arg && strncmp(arg, "--", 2) == 0 && p->arg && strcmp(p->arg, "FILE") == 0)
			return cli_usage_err(err, len, "--%s: '%s' looks like an option, not a "
					     "FILE: give the FILE right after it (--%s=./%s for "
					     "a file of that name)", p->name, arg, p->name, arg);
		*(const char **)v = arg;
		return FB_OK;
	case FO_SIZE: return opt_size(p->name, arg, v, false, err, len);
	case FO_SIZE0: return opt_size(p->name, arg, v, true, err, len);
	case FO_UINT: return opt_uint(p, arg, v, err, len);
	case FO_DURATION:
		if (parse_duration(arg, &ns) < 0 || ns == 0)
			return cli_usage_err(err, len, "--%s: invalid duration '%s' (90s, 5m, 2h)",
					 p->name, arg);
		*(uint64_t *)v = ns;
		return FB_OK;
	case FO_PERCENT:
		if (parse_double(arg, v) < 0 || *(double *)v < 0 || *(double *)v >= 100)
			return cli_usage_err(err, len, "--%s: '%s' is not a percentage from 0 to below 100",
					 p->name, arg);
		return FB_OK;
	case FO_CALL:
		return p->call(o, arg, err, len);
	}
	return FB_OK;
}

/* ---- getopt's complaints ---- */

/* The option a mistyped name (n bytes) most likely meant, or NULL. */
static const char *nearest(const char *name, size_t n)
{
	static const char *names[MAX_ENTRIES];

	for (size_t i = 0; i < cli_nentries; i++)
		names[i] = cli_entries[i].name;
	return nearest_name(name, n, names, cli_nentries);
}

/* optopt 0: glibc found no long option of that name, or (it takes unique
 * prefixes) more than one. */
static int long_unknown(const char *elem, char *err, size_t len)
{
	size_t n = strcspn(elem + 2, "="), at = 0;
	char list[2048] = "";	/* every name of the table fits */
	int matches = 0;

	for (size_t i = 0; i < cli_nentries; i++) {
		if (strncmp(cli_entries[i].name, elem + 2, n) != 0)
			continue;
		matches++;
		if (at < sizeof(list))
			at += snprintf(list + at, sizeof(list) - at, " '--%s'", cli_entries[i].name);
	}
	if (matches > 1)
		return cli_usage_err(err, len, "option '%s' is ambiguous; possibilities:%s", elem, list);
	if (nearest(elem + 2, n))
		return cli_usage_err(err, len, "unrecognized option '%s': did you mean '--%s'? "
				 "(flashbench --help lists them all)", elem, nearest(elem + 2, n));
	return cli_usage_err(err, len, "unrecognized option '%s' (flashbench --help lists them all)",
			 elem);
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
	const char *elem = argv[optind - 1];
	const struct entry *e = optopt >= 256 ? entry_of(optopt) : NULL;
	bool is_long = strncmp(elem, "--", 2) == 0;

	if (c == ':' && is_long && e)
		return cli_usage_err(err, len, "option '--%s' requires an argument", e->name);
	if (c == ':')
		return cli_usage_err(err, len, "option '-%c' requires an argument", optopt);
	if (optopt == 0 && is_long)
		return long_unknown(elem, err, len);
	if (e)
		return cli_usage_err(err, len, "option '--%s' doesn't allow an argument", e->name);
	return cli_usage_err(err, len, "invalid option '-%c' (flashbench --help lists them all)",
			 (unsigned char)optopt);
}

/* ---- checks ---- */

static int no_test(char *err, size_t len)
{
	char names[512];
	uint32_t bits = 0;

	/* The tests that measure (not --advise, which reads their verdicts). */
	for (unsigned i = 0; fb_tests[i]; i++)
		if (!fb_tests[i]->after_analyze)
			bits |= 1u << i;
	cli_name_list(bits, NULL, " or ", names, sizeof(names));
	return cli_usage_err(err, len, "no test selected: use %s (or --analyze FILE)", names);
}

/* Everything that can be checked before the device is opened. */
static int check_opts(struct fb_opts *o, const struct given *g, char *err, size_t len)
{
	int r;

	if (o->restore && (o->preserve || o->backup))
		return cli_usage_err(err, len, "--restore=%s: cannot be combined with --preserve or --backup",
				 o->restore);
	if (o->restore && o->tests)
		return cli_usage_err(err, len, "--restore=%s: runs no test; give it with DEVICE alone",
				 o->restore);
	if (o->restore)
		return cli_check_unused(g, 0, "--restore", err, len);
	if (o->backup && !o->preserve)
		return cli_usage_err(err, len, "--backup=%s: only used with --preserve", o->backup);
	if (!o->tests)
		return no_test(err, len);
	if (o->report && o->format != OUT_TEXT)
		return cli_usage_err(err, len, "--report: is plain text, it does not go with --format=%s",
				 o->format == OUT_JSON ? "json" : "csv");
	if (o->report)
		o->format = OUT_REPORT;
	fb_tests_expand(o);	/* --survey runs -a, --find-open-au and --advise */
	if ((r = cli_check_unused(g, o->tests, NULL, err, len)) != FB_OK)
		return r;
	/* Only the write tests that take --erasesize cut erase blocks into blocks. */
	if (cli_cuts_erase_blocks(o) && o->blocksize > o->erasesize)
		return cli_usage_err(err, len, "--blocksize %llu is larger than --erasesize %llu",
				 (unsigned long long)o->blocksize, (unsigned long long)o->erasesize);
	if (!o->offset_set) {
		/* 16 MiB rounded up to the erase size, as the original did. */
		o->offset = (16 * MiB + o->erasesize - 1) / o->erasesize * o->erasesize;
	}
	for (const struct fb_test *const *t = fb_tests; *t; t++)
		if (fb_test_selected(o, *t) && (*t)->check && (r = (*t)->check(o, err, len)) != FB_OK)
			return r;
	return FB_OK;
}

/* DEVICE: exactly one argument after the options. */
static int check_args(struct fb_opts *o, const struct given *g, char *err, size_t len)
{
	if (o->nargs < 1)
		return cli_usage_err(err, len, "missing DEVICE (a block device, a file or sim:)");
	if (o->nargs > 1)
		return cli_usage_err(err, len, "unexpected argument '%s' after DEVICE '%s'",
				 o->args[1], o->args[0]);
	o->device = o->args[0];
	return check_opts(o, g, err, len);
}

/* Every option back to its default: the shared ones and each test's own. */
static void all_defaults(struct fb_opts *o)
{
	opts_defaults(o);
	fb_tests_defaults();
}

/* One option: the modes end the parse, a test is selected, a value is set. */
static int take(const struct entry *e, struct fb_opts *o, char *err, size_t len)
{
	if (e->opt && !e->test && (e->opt->scope & SCOPE_MODE) && e->opt->kind == FO_FLAG &&
	    strcmp(e->name, "compare") != 0)
		return strcmp(e->name, "help") == 0 ? CLI_HELP
		       : strcmp(e->name, "version") == 0 ? CLI_VERSION : CLI_LIST_SIMS;
	if (!e->opt) {
		fb_test_select(o, e->test);
		return e->test->flag_call ? e->test->flag_call(optarg, err, len) : FB_OK;
	}
	return set_option(e->opt, o, optarg, err, len);
}

int cli_parse(int argc, char **argv, struct fb_opts *o, char *err, size_t errlen)
{
	static struct given g;
	int c, r;

	cli_build_entries();
	all_defaults(o);
	memset(&g, 0, sizeof(g));
	cli_warnings_clear();
	o->argc = argc;
	o->argv = argv;
	if (errlen > 0)
		err[0] = '\0';
	/* glibc: optind 0 starts a fresh scan, also forgetting a half-read
	 * "-abc", so that a process can parse again and again. */
	optind = 0;
	opterr = 0;	/* our message names the option, in one line, and is not printed here */
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1) {
		const struct entry *e = c == '?' || c == ':' ? NULL : entry_of(c);

		if (!e)
			return getopt_error(c, argv, err, errlen);
		if ((r = take(e, o, err, errlen)) != FB_OK)
			return r;
		g.on[e - cli_entries] = true;
		g.arg[e - cli_entries] = optarg;
	}
	o->nargs = optind < argc ? argc - optind : 0;
	o->args = argv + (optind < argc ? optind : argc);
	/* Saved output: analyze_main() refuses a DEVICE, a test or --restore. */
	if (o->analyze && !(o->tests & ~fb_tests_after_analyze()) && !o->restore &&
	    cli_check_unused(&g, o->tests, "--analyze", err, errlen) != FB_OK)
		return FB_EUSAGE;
	if (o->analyze)
		return CLI_ANALYZE;
	/* Saved results: compare_main() refuses a test and counts the inputs. */
	if (o->compare && !o->tests && !o->restore &&
	    cli_check_unused(&g, 0, "--compare", err, errlen) != FB_OK)
		return FB_EUSAGE;
	if (o->compare)
		return CLI_COMPARE;
	return check_args(o, &g, err, errlen);
}

int cli_check_geometry(const struct fb_opts *o, const struct target *t, char *err, size_t errlen)
{
	uint64_t s = t->sector;
	int r;

	if (o->blocksize % s)
		return cli_usage_err(err, errlen,
				 "--blocksize %llu is not a multiple of the %llu-byte sector of %s",
				 (unsigned long long)o->blocksize, (unsigned long long)s, t->path);
	if (o->erasesize % s)
		return cli_usage_err(err, errlen,
				 "--erasesize %llu is not a multiple of the %llu-byte sector of %s",
				 (unsigned long long)o->erasesize, (unsigned long long)s, t->path);
	if (o->offset % s)
		return cli_usage_err(err, errlen,
				 "--offset %llu is not a multiple of the %llu-byte sector of %s",
				 (unsigned long long)o->offset, (unsigned long long)s, t->path);
	for (const struct fb_test *const *p = fb_tests; *p; p++)
		if (fb_test_selected(o, *p) && (*p)->check_target &&
		    (r = (*p)->check_target(o, t, err, errlen)) != FB_OK)
			return r;
	/* at the very end nothing is left to test ("will overwrite 0B", exit 0); past it
	 * each test says what it would access */
	if (o->offset_set && o->offset == t->size)
		return cli_usage_err(err, errlen, "--offset %llu is the end of %s: nothing to test",
				 (unsigned long long)o->offset, t->path);
	return FB_OK;
}

const struct fb_option *cli_shared_options(void)
{
	return shared_opts;
}

const struct fb_option *cli_mode_options(void)
{
	return mode_opts;
}
