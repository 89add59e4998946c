/*
 * The command line, in-process: cli_parse() fills every option, refuses
 * each bad input with one line naming the option and the value, and can
 * run again and again in one process (getopt reset). cli_check_geometry()
 * against made-up targets, cli_usage() into memory.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "core/opts.h"
#include "modules/readahead.h"
#include "core/target.h"
#include "modules/test.h"
#include "unit.h"

#define KiB 1024ull
#define MiB (1024ull * 1024)
#define MAX_ARGS 24

static char err[1024];
static struct fb_opts o;
static char *argv_[MAX_ARGS + 2];

/* cli_parse() of "flashbench" and the words up to NULL. */
static int parse(const char *first, ...)
{
	va_list ap;
	int argc = 0;

	argv_[argc++] = "flashbench";
	va_start(ap, first);
	for (const char *a = first; a && argc <= MAX_ARGS; a = va_arg(ap, const char *))
		argv_[argc++] = (char *)a;
	va_end(ap);
	argv_[argc] = NULL;
	return cli_parse(argc, argv_, &o, err, sizeof(err));
}

#define P(...) parse(__VA_ARGS__, (const char *)NULL)
/* Is the named test selected? The value of a test's own option. */
#define SEL(name) fb_test_selected(&o, fb_test_find(name))
#define OPT(name) fb_option_u64(fb_option_find(name), &o)
/* Accepted, with exactly this warning (and no other). */
#define WARN(msg, ...) do { \
	CHECK(P(__VA_ARGS__) == FB_OK); \
	CHECK_STR(cli_warnings(), msg "\n"); \
} while (0)
/* A usage error with exactly this message. */
#define BAD(msg, ...) do { \
	CHECK(P(__VA_ARGS__) == FB_EUSAGE); \
	CHECK_STR(err, msg); \
} while (0)

static void defaults(void)
{
	CHECK(P("-a", "sim:") == FB_OK);
	CHECK_STR(err, "");
	CHECK_STR(o.device, "sim:");
	CHECK(SEL("align") && !SEL("scatter") && !SEL("find-fat") && !SEL("open-au") && !SEL("interval"));
	CHECK(!SEL("readahead") && !SEL("find-open-au") && !o.random && !o.verbose);
	CHECK(o.blocksize == 16 * KiB);
	CHECK(o.erasesize == 4 * MiB && !o.erasesize_set);
	CHECK(o.offset == 16 * MiB && !o.offset_set);	/* 16 MiB, rounded up to 4 MiB */
	CHECK(o.count == 8 && OPT("open-au-nr") == 2 && OPT("fat-nr") == 6);
	CHECK(OPT("scatter-order") == 9 && OPT("scatter-span") == 1 && OPT("interval-order") == 10);
	CHECK(OPT("min-size") == 4 * KiB && OPT("max-size") == 8 * MiB && o.size == 0 && o.runs == 0);
	CHECK(ra_opts.plateau == 0 && o.max_write == 0 && o.max_time == 0);
	CHECK(!o.out && !o.analyze && !o.backup && !o.restore && !o.preserve);
	CHECK(o.nargs == 1 && o.args[0] == o.device);
	/* the default offset is 16 MiB rounded up to the erase size */
	CHECK(P("-O", "-e", "12M", "-b", "1M", "sim:") == FB_OK && o.offset == 24 * MiB);
	CHECK(P("-i", "-e", "32M", "sim:") == FB_OK && o.offset == 32 * MiB);
}

static void short_options(void)
{
	CHECK(P("-a", "-s", "-f", "-O", "-r", "-i", "-v", "sim:") == FB_OK);
	CHECK(SEL("align") && SEL("scatter") && SEL("find-fat") && SEL("open-au") && o.random && SEL("interval") &&
	      o.verbose);
	CHECK(P("-asfOriv", "sim:") == FB_OK);	/* clustered */
	CHECK(SEL("align") && SEL("scatter") && SEL("find-fat") && SEL("open-au") && o.random && SEL("interval") &&
	      o.verbose);
	CHECK(P("-a", "-O", "-c", "3", "-b", "32K", "-e", "8M", "-o", "out.txt", "sim:") == FB_OK);
	CHECK(o.count == 3 && o.blocksize == 32 * KiB && o.erasesize == 8 * MiB);
	CHECK(o.erasesize_set);
	CHECK_STR(o.out, "out.txt");
	CHECK(P("-aO", "-c3", "-b32K", "-e8M", "-oout", "sim:") == FB_OK);	/* attached */
	CHECK(o.count == 3 && o.blocksize == 32 * KiB && o.erasesize == 8 * MiB);
	CHECK_STR(o.out, "out");
	CHECK(P("-vab1M", "-c1", "sim:") == FB_OK);	/* value at the end of a cluster */
	CHECK(o.verbose && SEL("align") && o.blocksize == MiB && o.count == 1);
	CHECK(P("-h") == CLI_HELP);
	CHECK(P("-a", "-h", "sim:") == CLI_HELP);
	CHECK(P("sim:", "-a") == FB_OK && SEL("align"));	/* options after DEVICE, as getopt does */
	CHECK_STR(o.device, "sim:");
}

static void long_tests(void)
{
	CHECK(P("--align", "--scatter", "--find-fat", "--open-au", "--interval", "--readahead",
		"--find-open-au", "--erasesize=4M", "sim:") == FB_OK);
	CHECK(SEL("align") && SEL("scatter") && SEL("find-fat") && SEL("open-au") && SEL("interval") && SEL("readahead") &&
	      SEL("find-open-au"));
	CHECK(P("--random", "--verbose", "--no-early-stop", "-O", "sim:") == FB_OK);
	CHECK(o.random && o.verbose && o.no_early_stop);
	CHECK(P("--preserve", "--backup=b.backup", "-O", "sim:") == FB_OK);
	CHECK(o.preserve);
	CHECK_STR(o.backup, "b.backup");
	CHECK(P("--restore=b.backup", "sim:") == FB_OK);
	CHECK_STR(o.restore, "b.backup");
	CHECK_STR(o.device, "sim:");
	CHECK(P("--analyze=saved.txt", "--out=o.txt") == CLI_ANALYZE);
	CHECK_STR(o.analyze, "saved.txt");
	CHECK_STR(o.out, "o.txt");
	CHECK(o.nargs == 0);
	/* --analyze leaves its stray arguments and tests to analyze_main() */
	CHECK(P("--analyze", "-", "-a", "sim:", "x") == CLI_ANALYZE);
	CHECK(o.nargs == 2 && SEL("align"));
	CHECK_STR(o.args[0], "sim:");
	CHECK_STR(o.args[1], "x");
	CHECK(P("--list-sims") == CLI_LIST_SIMS);
	CHECK(P("--version") == CLI_VERSION);
	CHECK(P("--help") == CLI_HELP);
}

static void long_values(void)
{
	CHECK(P("-O", "-s", "-f", "-i", "--scatter-order=4", "--scatter-span=3", "--fat-nr=7", "--open-au-nr=16",
		"--offset=0x100000", "--interval-order=20", "--count=5", "--blocksize=8K",
		"--erasesize=1MiB", "--out", "f", "sim:") == FB_OK);
	CHECK(OPT("scatter-order") == 4 && OPT("scatter-span") == 3 && OPT("fat-nr") == 7);
	CHECK(OPT("open-au-nr") == 16 && o.offset == MiB && o.offset_set);
	CHECK(OPT("interval-order") == 20 && o.count == 5);
	CHECK(o.blocksize == 8 * KiB && o.erasesize == MiB);
	CHECK_STR(o.out, "f");
	CHECK(P("--readahead", "--min-size", "8K", "--max-size=1M", "--size=4M", "--runs=16",
		"--plateau=2.5", "sim:") == FB_OK);
	CHECK(OPT("min-size") == 8 * KiB && OPT("max-size") == MiB && o.size == 4 * MiB && o.runs == 16);
	CHECK(ra_opts.plateau == 2.5);
	CHECK(P("--readahead", "--buffered", "sim:") == FB_OK && OPT("buffered"));
	CHECK(P("--find-open-au", "-e", "4M", "--max-write=1G", "--max-time=2m", "sim:") == FB_OK);
	CHECK(o.max_write == 1024 * MiB && o.max_time == 120ull * 1000000000);
	CHECK(P("--find-open-au", "-a", "sim:") == FB_OK);	/* takes -a's verdict */
	CHECK(P("--offset=0", "-O", "sim:") == FB_OK && o.offset == 0 && o.offset_set);
	CHECK(P("--al", "--blocks=1M", "sim:") == FB_OK);	/* unique prefixes */
	CHECK(SEL("align") && o.blocksize == MiB);
}

static void sizes(void)
{
	static const struct { const char *text; uint64_t bytes; } s[] = {
		{ "512", 512 }, { "0x200", 512 }, { "16K", 16 * KiB }, { "16k", 16 * KiB },
		{ "16KiB", 16 * KiB }, { "4M", 4 * MiB }, { "4MiB", 4 * MiB },
		{ "1.5M", 3 * MiB / 2 }, { "1G", 1024 * MiB }, { "8388608", 8 * MiB },
	};

	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		CHECK(P("-O", "-e", "2G", "-b", s[i].text, "sim:") == FB_OK);
		CHECK(o.blocksize == s[i].bytes);
		CHECK(P("-O", "-e", s[i].text, "-b", "512", "sim:") == FB_OK);
		CHECK(o.erasesize == s[i].bytes);
	}
}

static void bad_values(void)
{
	BAD("--blocksize: invalid size 'abc'", "-O", "-b", "abc", "sim:");
	BAD("--blocksize: size must not be zero: '0'", "-O", "-b", "0", "sim:");
	BAD("--erasesize: invalid size '-4M'", "-O", "-e", "-4M", "sim:");
	BAD("--erasesize: invalid size '99999999999999999999'", "-O", "-e",
	    "99999999999999999999", "sim:");
	BAD("--erasesize: invalid size '17179869184G'", "-O", "-e", "17179869184G", "sim:");
	BAD("--blocksize 8388608 is larger than --erasesize 4194304", "-O", "-b", "8M", "-e", "4M",
	    "sim:");
	BAD("--open-au-nr: '0' is not a whole number from 1 to 4096", "-O", "--open-au-nr=0",
	    "sim:");
	BAD("--open-au-nr: '-3' is not a whole number from 1 to 4096", "-O", "--open-au-nr=-3",
	    "sim:");
	BAD("--scatter-order: '17' is not a whole number from 0 to 16", "-s",
	    "--scatter-order=17", "sim:");
	BAD("--count: 'x' is not a whole number from 1 to 1000000", "-a", "-c", "x", "sim:");
	BAD("--count: '0' is not a whole number from 1 to 1000000", "-a", "--count=0", "sim:");
	BAD("--fat-nr: '0' is not a whole number from 1 to 4096", "-f", "--fat-nr=0", "sim:");
	BAD("--scatter-span: '0' is not a whole number from 1 to 1048576", "-s",
	    "--scatter-span=0", "sim:");
	/* blocksize x span wrapped to 0 once, and read nothing at offsets past the end */
	BAD("--scatter-span 16 times --blocksize 1152921504606846976 overflows", "-s",
	    "-b", "1048576T", "--scatter-span=16", "sim:");
	BAD("--interval-order: '21' is not a whole number from 0 to 20", "-i",
	    "--interval-order=21", "sim:");
	BAD("--runs: '17' is not a whole number from 1 to 16", "--readahead", "--runs=17", "sim:");
	BAD("--offset: invalid size 'abc'", "-O", "--offset=abc", "sim:");
	BAD("--min-size: size must not be zero: '0'", "--readahead", "--min-size=0", "sim:");
	BAD("--max-size: invalid size '1x'", "--readahead", "--max-size=1x", "sim:");
	BAD("--size: invalid size ''", "--readahead", "--size=", "sim:");
	BAD("--max-write: size must not be zero: '0'", "--find-open-au", "--max-write=0", "sim:");
	BAD("--max-time: invalid duration '0' (90s, 5m, 2h)", "--find-open-au", "--max-time=0",
	    "sim:");
	BAD("--max-time: invalid duration 'soon' (90s, 5m, 2h)", "--find-open-au",
	    "--max-time=soon", "sim:");
	BAD("--plateau: '100' is not a percentage from 0 to below 100", "--readahead",
	    "--plateau=100", "sim:");
	BAD("--plateau: '-1' is not a percentage from 0 to below 100", "--readahead",
	    "--plateau=-1", "sim:");
}

static void bad_combinations(void)
{
	BAD("missing DEVICE (a block device, a file or sim:)", "-O");
	BAD("missing DEVICE (a block device, a file or sim:)", (const char *)NULL);
	BAD("unexpected argument 'b' after DEVICE 'a'", "-O", "a", "b");
	BAD("no test selected: use --info, --align, --scatter, --interval, --readahead, --queue-depth, --find-fat, "
	    "--open-au, --find-open-au, --sustained, --capacity, --app-class or --survey (or --analyze FILE)", "sim:");
	BAD("--restore=f: cannot be combined with --preserve or --backup", "--restore=f",
	    "--preserve", "sim:");
	BAD("--restore=f: runs no test; give it with DEVICE alone", "--restore=f", "-a", "sim:");
	BAD("--backup=b: only used with --preserve", "--backup=b", "-O", "sim:");
	BAD("--find-open-au: needs --erasesize (or --align, to use its verdict)",
	    "--find-open-au", "sim:");
	WARN("--buffered: has no effect with --align (it applies to --readahead)", "--buffered",
	    "-a", "sim:");
	BAD("--min-size 65536 is larger than --max-size 4096", "--readahead", "--min-size=64K",
	    "--max-size=4K", "sim:");
	BAD("--min-size 3072 is not a power of two times the sector size", "--readahead",
	    "--min-size=3K", "sim:");
	/* the first problem, in the order of the options, is the one reported */
	BAD("--blocksize: invalid size 'x'", "-b", "x", "-e", "y", "sim:");
	BAD("--blocksize: invalid size 'x'", "-b", "x", "--help");
	CHECK(P("--help", "-b", "x") == CLI_HELP);
}

static void getopt_errors(void)
{
	BAD("unrecognized option '--frobnicate' (flashbench --help lists them all)", "--frobnicate", "sim:");
	BAD("unrecognized option '--frobnicate=3' (flashbench --help lists them all)", "-a", "--frobnicate=3", "sim:");
	CHECK(P("--help", "--frobnicate") == CLI_HELP);
	BAD("invalid option '-x' (flashbench --help lists them all)", "-x", "sim:");
	BAD("invalid option '-x' (flashbench --help lists them all)", "-axO", "sim:");	/* inside a cluster */
	BAD("invalid option '-:' (flashbench --help lists them all)", "-:", "sim:");
	/* a near miss names the option meant (issue 22: --allign) */
	BAD("unrecognized option '--allign': did you mean '--align'? (flashbench --help lists them all)", "--allign", "sim:");
	BAD("unrecognized option '--erasize=4M': did you mean '--erasesize'? (flashbench --help lists them all)", "-O",
	    "--erasize=4M", "sim:");
	BAD("unrecognized option '--fnd-fat': did you mean '--find-fat'? (flashbench --help lists them all)", "--fnd-fat", "sim:");
	BAD("unrecognized option '--ab' (flashbench --help lists them all)", "--ab", "sim:");	/* two letters: no guess */
	BAD("option '--blocksize' requires an argument", "-a", "--blocksize");
	BAD("option '--blocksize' requires an argument", "-a", "--blocks");
	BAD("option '--open-au-nr' requires an argument", "-O", "--open-au-nr");
	BAD("option '-b' requires an argument", "-a", "-b");
	BAD("option '-c' requires an argument", "-avc");
	BAD("option '--open' is ambiguous; possibilities: '--open-au' '--open-au-nr'", "--open",
	    "sim:");
	BAD("option '--align' doesn't allow an argument", "--align=3", "sim:");
	BAD("option '--help' doesn't allow an argument", "--help=3");
	/* "--" ends the options: what follows is DEVICE, even "-a" */
	BAD("no test selected: use --info, --align, --scatter, --interval, --readahead, --queue-depth, --find-fat, "
	    "--open-au, --find-open-au, --sustained, --capacity, --app-class or --survey (or --analyze FILE)", "--", "-a");
	CHECK(P("-a", "--", "-weird-device") == FB_OK);
	CHECK_STR(o.device, "-weird-device");
}

/* A value each option accepts (NULL: it takes none). */
static const char *sample_value(const char *name)
{
	static const struct { const char *name, *value; } v[] = {
		{ "blocksize", "1M" }, { "erasesize", "8M" }, { "count", "3" },
		{ "offset", "32M" }, { "open-au-nr", "3" }, { "fat-nr", "4" },
		{ "scatter-order", "4" }, { "scatter-span", "2" }, { "interval-order", "8" },
		{ "min-size", "8K" }, { "max-size", "1M" }, { "size", "16M" }, { "runs", "3" },
		{ "plateau", "2.5" }, { "max-write", "1G" }, { "max-time", "5m" },
		{ "out", "o.txt" }, { "backup", "b.backup" }, { "engine", "aio" },
		{ "precondition", "fill" }, { "app-area", "16M" },
		{ "duration", "1h" }, { "log-interval", "10s" }, { "log", "l.csv" },
		{ "cliff", "30" }, { "slow", "1M/s" },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (strcmp(v[i].name, name) == 0)
			return v[i].value;
	return NULL;
}

/* The tests and modes, as the expected table below numbers them. */
enum {
	U_ALIGN = 1u << 0, U_SCATTER = 1u << 1, U_INTERVAL = 1u << 2, U_READAHEAD = 1u << 3,
	U_OPEN_AU = 1u << 4, U_FIND_FAT = 1u << 5, U_FIND_OPEN_AU = 1u << 6,
	U_ANALYZE = 1u << 7, U_RESTORE = 1u << 8,
	/* --queue-depth reads; with --write it is a write test */
	U_QD = 1u << 9, U_QD_WRITE = 1u << 10, U_QDS = U_QD | U_QD_WRITE, U_INFO = 1u << 11,
	U_APP_CLASS = 1u << 12, U_SUSTAINED = 1u << 13, U_CAPACITY = 1u << 14,
	/* the tests checked on their own (their words are not in test_words) */
	U_ADVISE = 1u << 16,
	U_AU_WRITES = U_OPEN_AU | U_FIND_FAT | U_FIND_OPEN_AU,	/* erase-block writers */
	U_WRITES = U_AU_WRITES | U_APP_CLASS,
	U_TESTS = U_ALIGN | U_SCATTER | U_INTERVAL | U_READAHEAD | U_WRITES | U_QDS | U_INFO |
		  U_SUSTAINED | U_CAPACITY,
};

/* The words that select test bit b (DEVICE added by the caller, but not for
 * --analyze), and its name. */
static const char *const test_words[][3] = {
	{ "--align" }, { "--scatter" }, { "--interval" }, { "--readahead" }, { "--open-au" },
	{ "--find-fat" }, { "--find-open-au", "--erasesize=4M" }, { "--analyze=saved.txt" },
	{ "--restore=b.backup" }, { "--queue-depth=1,4" }, { "--queue-depth=1,4", "--write" },
	{ "--info" }, { "--app-class" }, { "--sustained" }, { "--capacity" },
};

/*
 * What each option changes, written down here apart from the descriptors
 * that decide it (src/modules/, src/cli/cli.c), so that a descriptor that forgets an
 * option, or claims one, fails. --erasesize moves --interval's default
 * --offset (16 MiB rounded up to the erase size), so it counts there.
 */
static const struct { const char *name; unsigned tests; } expect_uses[] = {
	{ "blocksize", U_ALIGN | U_SCATTER | U_AU_WRITES | U_QDS | U_SUSTAINED },
	{ "erasesize", U_INTERVAL | U_AU_WRITES | U_ADVISE },
	{ "count", U_ALIGN | U_SCATTER | U_INTERVAL },
	{ "offset", U_INTERVAL | U_READAHEAD | U_WRITES | U_QDS | U_SUSTAINED },
	{ "open-au-nr", U_OPEN_AU },
	{ "random", U_AU_WRITES | U_QDS | U_SUSTAINED },
	{ "fat-nr", U_FIND_FAT },
	{ "scatter-order", U_SCATTER },
	{ "scatter-span", U_SCATTER },
	{ "interval-order", U_INTERVAL },
	{ "min-size", U_READAHEAD },
	{ "max-size", U_READAHEAD },
	{ "size", U_READAHEAD | U_QDS | U_SUSTAINED },
	{ "runs", U_READAHEAD | U_OPEN_AU | U_QDS },
	{ "write", U_QDS },
	{ "engine", U_QDS },
	{ "buffered", U_READAHEAD },
	{ "plateau", U_READAHEAD },
	{ "preserve", U_WRITES | U_QD_WRITE | U_SUSTAINED | U_CAPACITY },
	{ "backup", U_WRITES | U_QD_WRITE | U_SUSTAINED | U_CAPACITY },
	{ "precondition", U_WRITES | U_QD_WRITE | U_SUSTAINED | U_CAPACITY },
	{ "max-write", U_FIND_OPEN_AU },
	{ "max-time", U_FIND_OPEN_AU },
	{ "no-early-stop", U_AU_WRITES },
	{ "app-area", U_APP_CLASS },
	{ "out", U_TESTS | U_ANALYZE | U_ADVISE },
	{ "format", U_TESTS | U_ANALYZE | U_ADVISE },
	{ "verbose", U_TESTS | U_ADVISE },
	{ "duration", U_SUSTAINED },
	{ "log-interval", U_SUSTAINED },
	{ "log", U_SUSTAINED },
	{ "cliff", U_SUSTAINED },
	{ "slow", U_SUSTAINED },
	{ "sync", U_SUSTAINED },
	{ "verify", U_SUSTAINED },
};

#define NEXPECT (sizeof(expect_uses) / sizeof(expect_uses[0]))

/* Option i with the test of bit b: accepted exactly when the table says
 * the test uses it, and else refused with a message naming both. */
static void one_use(size_t i, unsigned b)
{
	char opt[64], want[160];
	const char *name = expect_uses[i].name, *value = sample_value(name);
	const char *const *t = test_words[b];
	bool analyze = (1u << b) == U_ANALYZE, uses = expect_uses[i].tests & (1u << b);
	int r;

	if (strcmp(name, "format") == 0)
		value = "json";
	snprintf(opt, sizeof(opt), "--%s%s%s", name, value ? "=" : "", value ? value : "");
	if (strcmp(name, "backup") == 0)	/* only with --preserve */
		r = P(t[0], t[1] ? t[1] : "--preserve", "--preserve", opt, analyze ? NULL : "sim:");
	else
		r = P(t[0], t[1] ? t[1] : opt, opt, analyze ? NULL : "sim:");
	if (uses) {
		CHECK(r == (analyze ? CLI_ANALYZE : FB_OK));
		if (r != (analyze ? CLI_ANALYZE : FB_OK))
			printf("FAIL: %s with %s refused: %s\n", opt, t[0], err);
		if (r == FB_OK && strstr(cli_warnings(), opt))
			printf("FAIL: %s with %s warned: %s\n", opt, t[0], cli_warnings());
		CHECK(r != FB_OK || !strstr(cli_warnings(), opt));
		return;
	}
	snprintf(want, sizeof(want), "%s: has no effect with %.*s (it applies to ", opt,
		 (int)strcspn(t[0], "="), t[0]);
	/* A test run warns and goes on (issue 22: old scripts); a mode refuses. */
	if (!analyze && (1u << b) != U_RESTORE) {
		CHECK(r == FB_OK);
		if (r != FB_OK || !strstr(cli_warnings(), want))
			printf("FAIL: %s with %s: %d '%s', warnings '%s', want '%s...'\n", opt, t[0],
			       r, err, cli_warnings(), want);
		CHECK(strstr(cli_warnings(), want) != NULL);
		return;
	}
	CHECK(r == FB_EUSAGE);
	/* --backup without --preserve, and --restore with either, have their own message */
	if (strcmp(name, "backup") == 0 ||
	    ((1u << b) == U_RESTORE && strcmp(name, "preserve") == 0))
		return;
	if (strstr(err, want) != err)
		printf("FAIL: %s with %s: got '%s', want '%s...'\n", opt, t[0], err, want);
	CHECK(strstr(err, want) == err);
}

/* Every option against every test and mode, as expect_uses says; and the
 * descriptors' own answer (cli_option_applies) agrees for every test. */
static void option_uses(void)
{
	/* by their bits: 7 and 8 are the modes */
	static const char *const tests[] = {
		"align", "scatter", "interval", "readahead", "open-au", "find-fat", "find-open-au",
		NULL, NULL, NULL, NULL, NULL, "app-class", "sustained", "capacity",
	};

	for (size_t i = 0; i < NEXPECT; i++) {
		for (unsigned b = 0; b < sizeof(test_words) / sizeof(test_words[0]); b++)
			one_use(i, b);
		for (unsigned b = 0; b < sizeof(tests) / sizeof(tests[0]); b++)
			if (tests[b])
				CHECK(cli_option_applies(expect_uses[i].name, tests[b]) ==
				      ((expect_uses[i].tests >> b) & 1));
		CHECK(cli_option_applies(expect_uses[i].name, "info") ==
		      ((expect_uses[i].tests & U_INFO) != 0));
	}
	/* the tests checked on their own, by the descriptors' answer */
	for (size_t i = 0; i < NEXPECT; i++)
		CHECK(cli_option_applies(expect_uses[i].name, "advise") ==
		      ((expect_uses[i].tests & U_ADVISE) != 0));
	/* --advise reads the verdicts of another test, or of --analyze, with its options */
	CHECK(P("-a", "--advise", "--erasesize=8M", "sim:") == FB_OK && o.erasesize == 8 * MiB);
	CHECK(P("--analyze=saved.txt", "--advise", "--erasesize=8M") == CLI_ANALYZE);
	CHECK(P("--analyze=saved.txt", "--advise") == CLI_ANALYZE);
	BAD("--advise: needs the verdicts of a test in the same run (-a, -O, -f, --find-open-au, "
	    "--survey) or of --analyze FILE", "--advise", "sim:");
	BAD("--fat-nr=3: has no effect with --advise and --analyze (it applies to --find-fat)",
	    "--analyze=saved.txt", "--advise", "--fat-nr=3");
	BAD("--count=3: has no effect with --analyze (it applies to --align, --scatter and "
	    "--interval)", "--analyze=saved.txt", "--count=3");
	/* the reproductions of issue 10 */
	WARN("--max-write=1M: has no effect with --open-au (it applies to --find-open-au and --survey)",
	    "-O", "--max-write=1M", "sim:");
	WARN("--max-time=1h: has no effect with --open-au (it applies to --find-open-au and --survey)",
	    "-O", "--max-time=1h", "sim:");
	WARN("--preserve: has no effect with --align, --scatter, --interval and --readahead "
	    "(it applies to --find-fat, --open-au, --find-open-au, --sustained, --capacity, --app-class and --survey)",
	    "-asi", "--readahead", "--preserve", "sim:");
	WARN("--open-au-nr=3: has no effect with --find-open-au (it applies to --open-au)",
	    "--find-open-au", "-e", "4M", "--open-au-nr=3", "sim:");
	/* short options are named by their long name; several tests in one run */
	WARN("--count=3: has no effect with --find-fat and --open-au (it applies to --align, "
	    "--scatter and --interval)", "-Of", "-c3", "sim:");
	CHECK(P("-O", "-a", "-c3", "sim:") == FB_OK && o.count == 3);	/* -a uses it */
	CHECK_STR(cli_warnings(), "");
	/* each option no test uses, one line each; a bad value is still an error */
	WARN("--erasesize=8M: has no effect with --align (it applies to --interval, --find-fat, "
	     "--open-au, --find-open-au, --survey and --advise)\n"
	     "--random: has no effect with --align (it applies to --queue-depth, --find-fat, "
	     "--open-au, --find-open-au and --sustained)", "-a", "-e", "8M", "-r", "sim:");
	BAD("--erasesize: invalid size '8X'", "-a", "-e", "8X", "sim:");
	BAD("--count: '0' is not a whole number from 1 to 1000000", "-O", "-c", "0", "sim:");
	BAD("--verbose: has no effect with --restore (it applies to every test)",
	    "--restore=b", "-v", "sim:");
	BAD("--out=x: has no effect with --restore (it applies to every test and --analyze)",
	    "--restore=b", "-o", "x", "sim:");
	/* -b above -e matters to the write tests only: -s and -a take any block */
	CHECK(P("-s", "-b", "8M", "sim:") == FB_OK && o.blocksize == 8 * MiB);
	CHECK(P("-a", "-b", "8M", "sim:") == FB_OK);
	BAD("--blocksize 8388608 is larger than --erasesize 4194304", "-a", "-O", "-b", "8M",
	    "sim:");
}

/* --compare: a mode whose arguments are the inputs; --out and --format go with it. */
static void compare_mode(void)
{
	CHECK(P("--compare", "a.csv", "b.json") == CLI_COMPARE && o.compare && o.nargs == 2);
	CHECK(P("--compare", "--format=json", "-o", "x.json", "a.csv", "b.json") == CLI_COMPARE &&
	      o.format == OUT_JSON);
	BAD("--count=3: has no effect with --compare (it applies to --align, --scatter and "
	    "--interval)", "--compare", "-c3", "a.csv", "b.csv");
}

/* Every option of --help is in expect_uses or is a test or mode, and every
 * entry of expect_uses is in --help. */
static void uses_cover_help(void)
{
	static const char *const selectors[] = {
		"align", "scatter", "interval", "readahead", "open-au", "find-fat", "find-open-au",
		"analyze", "restore", "list-sims", "help", "version", "queue-depth", "info", "report",
		"advise", "app-class", "survey", "sustained", "capacity", "compare",
	};
	char *text = NULL, *p;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	cli_usage(f);
	fclose(f);
	for (p = strstr(text, "--"); p; p = strstr(p + 2, "--")) {
		size_t k = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
		bool known = k == 0;

		for (size_t i = 0; i < NEXPECT && !known; i++)
			known = strlen(expect_uses[i].name) == k &&
				strncmp(expect_uses[i].name, p + 2, k) == 0;
		for (size_t i = 0; i < sizeof(selectors) / sizeof(selectors[0]) && !known; i++)
			known = strlen(selectors[i]) == k && strncmp(selectors[i], p + 2, k) == 0;
		if (!known)
			printf("FAIL: --%.*s of --help is not in expect_uses\n", (int)k, p + 2);
		CHECK(known);
	}
	for (size_t i = 0; i < NEXPECT; i++) {
		char want[64];

		snprintf(want, sizeof(want), "--%s", expect_uses[i].name);
		CHECK(strstr(text, want) != NULL);
	}
	free(text);
}

/* The largest value of each counted option is accepted, one more refused,
 * and --help says "at most" it on the option's lines. */
static void limits(void)
{
	static const struct { const char *test, *name; unsigned max; } l[] = {
		{ "-a", "count", 1000000 }, { "-O", "open-au-nr", 4096 },
		{ "-f", "fat-nr", 4096 }, { "-s", "scatter-order", 16 },
		{ "-s", "scatter-span", 1048576 }, { "-i", "interval-order", 20 },
		{ "--readahead", "runs", 16 },
	};
	char *text = NULL, a[64], want[64];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	cli_usage(f);
	fclose(f);
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++) {
		char *line, *next;

		snprintf(a, sizeof(a), "--%s=%u", l[i].name, l[i].max);
		CHECK(P(l[i].test, a, "sim:") == FB_OK);
		snprintf(a, sizeof(a), "--%s=%u", l[i].name, l[i].max + 1);
		CHECK(P(l[i].test, a, "sim:") == FB_EUSAGE);
		/* the option's line and its continuation lines */
		snprintf(a, sizeof(a), "--%s=N ", l[i].name);
		line = strstr(text, a);
		CHECK(line != NULL);
		if (!line)
			continue;
		next = strstr(line, "\n      --");
		if (next)
			*next = '\0';
		snprintf(want, sizeof(want), "most %u)", l[i].max);
		if (!strstr(line, want))
			printf("FAIL: --help for --%s does not say '%s'\n", l[i].name, want);
		CHECK(strstr(line, want) != NULL);
		if (next)
			*next = '\n';
	}
	free(text);
}

/* getopt keeps state between calls; cli_parse must start afresh each time. */
static void again_and_again(void)
{
	char *v[] = { "flashbench", "sim:", "-O", "-e", "1M", NULL }, *w[6];

	memcpy(w, v, sizeof(v));
	CHECK(cli_parse(5, v, &o, err, sizeof(err)) == FB_OK);
	CHECK(SEL("open-au") && o.erasesize == MiB);
	CHECK_STR(o.device, "sim:");
	CHECK(cli_parse(5, v, &o, err, sizeof(err)) == FB_OK);	/* argv as getopt left it */
	CHECK(SEL("open-au") && o.erasesize == MiB);
	CHECK_STR(o.device, "sim:");
	CHECK(cli_parse(5, w, &o, err, sizeof(err)) == FB_OK);
	CHECK_STR(o.device, "sim:");
	/* an error in the middle of "-axO" leaves getopt inside the cluster */
	BAD("invalid option '-x' (flashbench --help lists them all)", "-axO", "sim:");
	CHECK(P("-O", "sim:") == FB_OK && SEL("open-au") && !SEL("align"));
	BAD("--count: 'x' is not a whole number from 1 to 1000000", "-c", "x", "sim:");
	CHECK(P("-s", "sim:") == FB_OK && SEL("scatter") && o.count == 8);	/* defaults again */
	for (int i = 0; i < 100; i++)
		CHECK(P("-a", "-c", "2", "sim:") == FB_OK && o.count == 2);
}

/* A message cut to the buffer, never past it. */
static void small_buffer(void)
{
	char *v[] = { "flashbench", "-b", "abc", "sim:", NULL };
	char small[8];

	memset(small, 'x', sizeof(small));
	CHECK(cli_parse(4, v, &o, small, sizeof(small)) == FB_EUSAGE);
	CHECK_STR(small, "--block");
	CHECK(cli_parse(4, v, &o, NULL, 0) == FB_EUSAGE);
}

static void geometry(void)
{
	static struct target t;

	snprintf(t.path, sizeof(t.path), "sim:");
	t.sector = 512;
	CHECK(P("-O", "-b", "4K", "sim:") == FB_OK);
	CHECK(cli_check_geometry(&o, &t, err, sizeof(err)) == FB_OK);
	t.sector = 4096;
	CHECK(P("-O", "-b", "2K", "sim:") == FB_OK);
	CHECK(cli_check_geometry(&o, &t, err, sizeof(err)) == FB_EUSAGE);
	CHECK_STR(err, "--blocksize 2048 is not a multiple of the 4096-byte sector of sim:");
	CHECK(P("-a", "-b", "4K", "sim:") == FB_OK);
	CHECK(cli_check_geometry(&o, &t, err, sizeof(err)) == FB_EUSAGE);
	CHECK_STR(err, "--blocksize 4096: --align reads half a block on each side of a "
		  "boundary, so the block size must be a multiple of twice the 4096-byte "
		  "sector (8192)");
	CHECK(P("-a", "-b", "24K", "sim:") == FB_OK);	/* six sectors: halves of three */
	CHECK(cli_check_geometry(&o, &t, err, sizeof(err)) == FB_OK);
	t.sector = 512;
	/* three sectors is more than twice the sector, and still refused: the message says why */
	CHECK(P("-a", "-b", "1536", "sim:") == FB_OK);
	CHECK(cli_check_geometry(&o, &t, err, sizeof(err)) == FB_EUSAGE);
	CHECK_STR(err, "--blocksize 1536: --align reads half a block on each side of a "
		  "boundary, so the block size must be a multiple of twice the 512-byte "
		  "sector (1024)");
	CHECK(P("-a", "-b", "3072", "sim:") == FB_OK);
	CHECK(cli_check_geometry(&o, &t, err, sizeof(err)) == FB_OK);
	CHECK(P("-O", "-b", "1536", "-e", "96K", "sim:") == FB_OK);	/* no --align: fine */
	CHECK(cli_check_geometry(&o, &t, err, sizeof(err)) == FB_OK);
	t.sector = 512;
	CHECK(P("-O", "-e", "1000000", "-b", "512", "sim:") == FB_OK);
	CHECK(cli_check_geometry(&o, &t, err, sizeof(err)) == FB_EUSAGE);
	CHECK_STR(err, "--erasesize 1000000 is not a multiple of the 512-byte sector of sim:");
	CHECK(P("-O", "--offset=1000", "-e", "1M", "sim:") == FB_OK);
	CHECK(cli_check_geometry(&o, &t, err, sizeof(err)) == FB_EUSAGE);
	CHECK_STR(err, "--offset 1000 is not a multiple of the 512-byte sector of sim:");
	/* --interval at the default --offset of 16 MiB: a 16 MiB device is too small */
	t.size = 16 * MiB;
	CHECK(P("-i", "sim:") == FB_OK);
	CHECK(cli_check_geometry(&o, &t, err, sizeof(err)) == FB_EUSAGE);
	CHECK_STR(err, "--interval reads up to 524288 bytes (--interval-order 10) at --offset "
		  "16777216 (the default: 16MiB, rounded up to the erase size), but sim: has only "
		  "16777216 bytes: give a smaller --offset or --interval-order");
	CHECK(P("-i", "--offset=0", "sim:") == FB_OK);
	CHECK(cli_check_geometry(&o, &t, err, sizeof(err)) == FB_OK);
	CHECK(P("-i", "--offset=0xFFFFFFFFFFFFFE00", "sim:") == FB_OK);	/* no wrap-around */
	CHECK(cli_check_geometry(&o, &t, err, sizeof(err)) == FB_EUSAGE);
	CHECK(P("-i", "--offset=16M", "--interval-order=0", "sim:") == FB_OK);
	CHECK(cli_check_geometry(&o, &t, err, sizeof(err)) == FB_EUSAGE);
	CHECK(P("-i", "--offset=15M", "--interval-order=11", "sim:") == FB_OK);	/* just fits */
	CHECK(cli_check_geometry(&o, &t, err, sizeof(err)) == FB_OK);
	t.size = 0;
	t.sim = true;
	CHECK(P("--readahead", "--buffered", "sim:") == FB_OK);
	CHECK(cli_check_geometry(&o, &t, err, sizeof(err)) == FB_EUSAGE);
	CHECK(strstr(err, "--buffered: sim: is simulated") == err);
}

static void usage_text(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(f != NULL);
	if (!f)
		return;
	cli_usage(f);
	fclose(f);
	CHECK(strstr(text, "Usage: flashbench TEST... [OPTIONS] DEVICE") == text);
	/* the usage lines name every mode, before the description starts */
	{
		const char *modes[] = { "-a ", "-s ", "-i ", "--readahead", "-O", "-f",
					"--find-open-au", "--restore=", "--analyze=", "--list-sims",
					"--help", "--version" };
		char *end = strstr(text, "\nFind out");

		CHECK(end != NULL);
		if (end)
			*end = '\0';
		for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
			if (!strstr(text, modes[i]))
				printf("FAIL: %s not in the usage lines\n", modes[i]);
			CHECK(strstr(text, modes[i]) != NULL);
		}
		if (end)
			*end = '\n';
	}
	CHECK(strstr(text, "--open-au-nr=N") != NULL);
	CHECK(strstr(text, "within PCT% of the best") != NULL);	/* %% printed as % */
	free(text);
}

int main(void)
{
	defaults();
	short_options();
	long_tests();
	long_values();
	sizes();
	bad_values();
	bad_combinations();
	getopt_errors();
	option_uses();
	uses_cover_help();
	compare_mode();
	limits();
	again_and_again();
	small_buffer();
	geometry();
	usage_text();
	UNIT_DONE();
}
