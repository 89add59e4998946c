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

/* The --help text. */
void cli_usage(FILE *f);

#endif
