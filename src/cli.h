/*
 * The command line: the option table, the help text, and the parsing and
 * validation of every value before the device is opened. Nothing here
 * prints or exits, so that the unit tests and the fuzzer can run it many
 * times in one process; main() prints the messages and picks the status.
 */
#ifndef FB_CLI_H
#define FB_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "opts.h"
#include "target.h"

/* cli_parse() results besides FB_OK and FB_EUSAGE; apart from the exit statuses. */
enum {
	CLI_HELP = 1000,	/* -h/--help: print cli_usage(stdout) */
	CLI_VERSION,		/* --version */
	CLI_LIST_SIMS,		/* --list-sims */
	CLI_ANALYZE,		/* --analyze=FILE: o->args/o->nargs not yet checked */
};

/*
 * Parse argv into o (defaults first) and check everything that needs no
 * device: FB_OK with o->device set, FB_EUSAGE with a one-line message
 * (no "flashbench: " prefix, no newline) in err, or one of the CLI_
 * requests above. Options are taken in order: the first bad value, or
 * the first --help, --version or --list-sims, ends the parse. getopt
 * reorders argv's pointers (never the strings); o->args points into it.
 * Safe to call any number of times in one process.
 */
int cli_parse(int argc, char **argv, struct fb_opts *o, char *err, size_t errlen);

/* Checks that need the opened target's sector size; still before any I/O.
 * FB_OK, or FB_EUSAGE with a one-line message in err. */
int cli_check_geometry(const struct fb_opts *o, const struct target *t, char *err, size_t errlen);

/*
 * Which tests (and modes) an option changes. An option none of whose
 * tests is selected does nothing, and is refused; with several tests in
 * one run it is enough that one of them uses it. (Issue 11's test table
 * is meant to take this over.)
 */
enum {
	CLI_ALIGN = 1u << 0, CLI_SCATTER = 1u << 1, CLI_INTERVAL = 1u << 2,
	CLI_READAHEAD = 1u << 3, CLI_OPEN_AU = 1u << 4, CLI_FIND_FAT = 1u << 5,
	CLI_FIND_OPEN_AU = 1u << 6, CLI_ANALYZE_MODE = 1u << 7, CLI_RESTORE_MODE = 1u << 8,
	CLI_WRITES = CLI_OPEN_AU | CLI_FIND_FAT | CLI_FIND_OPEN_AU,
	CLI_TESTS = CLI_ALIGN | CLI_SCATTER | CLI_INTERVAL | CLI_READAHEAD | CLI_WRITES,
	CLI_EVERY = CLI_TESTS | CLI_ANALYZE_MODE | CLI_RESTORE_MODE,
};

struct cli_use {
	const char *name;	/* the long option */
	unsigned tests;		/* CLI_ bits of the tests and modes it changes */
};

/* Every long option (a test unit walks them against --help); the last has no name. */
extern const struct cli_use cli_uses[];

/* The --help text. */
void cli_usage(FILE *f);

#endif
