/*
 * The command line: the shared options and the modes (cli.c), each
 * test's flag and own options (its descriptor in src/modules/), the help
 * text (cli_usage.c), and the validation of every value before the
 * device is opened. Nothing here prints or exits, so that the unit tests
 * and the fuzzer can run it many times in one process; main() prints the
 * messages and picks the status.
 */
#ifndef FB_CLI_H
#define FB_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/opts.h"
#include "core/target.h"

/* cli_parse() results besides FB_OK and FB_EUSAGE; apart from the exit statuses. */
enum {
	CLI_HELP = 1000,	/* -h/--help: print cli_usage(stdout) */
	CLI_VERSION,		/* --version */
	CLI_LIST_SIMS,		/* --list-sims */
	CLI_ANALYZE,		/* --analyze=FILE: o->args/o->nargs not yet checked */
	CLI_COMPARE,		/* --compare: the inputs in o->args, not yet checked */
};

/*
 * Which tests a shared option changes (struct fb_option's scope). An
 * option none of whose tests is selected does nothing, and is refused;
 * with several tests in one run it is enough that one of them uses it.
 * A test's own options change that test only.
 */
enum {
	SCOPE_LISTED = 1u << 0,	/* the tests that name it in their uses */
	SCOPE_WRITES = 1u << 1,	/* every write test */
	SCOPE_ANY = 1u << 2,	/* every test */
	SCOPE_ANALYZE = 1u << 3,	/* --analyze too */
	SCOPE_MODE = 1u << 4,	/* a mode: --analyze, --restore, --help ... */
};

/*
 * Parse argv into o (defaults first, the tests' own options too) and
 * check everything that needs no device: FB_OK with o->device set,
 * FB_EUSAGE with a one-line message (no "flashbench: " prefix, no
 * newline) in err, or one of the CLI_ requests above. Options are taken
 * in order: the first bad value, or the first --help, --version or
 * --list-sims, ends the parse. getopt reorders argv's pointers (never the
 * strings); o->args points into it. Safe to call any number of times.
 */
int cli_parse(int argc, char **argv, struct fb_opts *o, char *err, size_t errlen);

/* The warnings of the last cli_parse() that returned FB_OK: options that
 * none of the selected tests uses, one line each ("\n"-terminated, no
 * "flashbench: " prefix); "" when there are none. */
const char *cli_warnings(void);

/* Checks that need the opened target's sector size; still before any I/O.
 * FB_OK, or FB_EUSAGE with a one-line message in err. */
int cli_check_geometry(const struct fb_opts *o, const struct target *t, char *err, size_t errlen);

/* Does the long option (without "--") change what the named test does? */
bool cli_option_applies(const char *option, const char *test);

struct fb_option;
/* The shared options and the modes, NULL-name terminated (for the help). */
const struct fb_option *cli_shared_options(void);
const struct fb_option *cli_mode_options(void);

/* The --help text, made from the tables. */
void cli_usage(FILE *f);

#endif
