/*
 * The parsed command line: the options every test may share. A test's
 * own options (--open-au-nr, --scatter-order, ...) live in its own file
 * (src/modules/), declared in its descriptor; which tests run is a set of
 * bits, one per entry of the test table.
 */
#ifndef FB_OPTS_H
#define FB_OPTS_H

#include <stdbool.h>
#include <stdint.h>

/* Exit statuses (documented in the man page). */
enum {
	FB_OK = 0,
	FB_EDEV = 1,		/* the device failed or the test could not run */
	FB_EUSAGE = 2,		/* bad usage, nothing touched */
	FB_ESAFETY = 3,		/* refused for safety, nothing touched */
	FB_EINTR = 130,		/* interrupted, partial results printed */
};

#define FB_VERSION "0.1"

/* --precondition: what is done to the announced regions before the write tests. */
enum fb_precondition { PRECOND_NONE, PRECOND_DISCARD, PRECOND_FILL };

/* The most --runs a test takes. */
#define FB_MAX_RUNS 16

struct fb_opts {
	uint32_t tests;		/* selected: bit i is fb_tests[i] (src/modules/table.c) */
	/* flashbench's parameters */
	uint64_t blocksize;
	bool blocksize_set;	/* --blocksize given (else a test may use its own default) */
	uint64_t erasesize;
	bool erasesize_set;	/* --erasesize given (else --find-open-au takes -a's verdict) */
	uint64_t offset;
	bool offset_set;
	unsigned count;
	bool random;
	bool verbose;
	/* shared by several tests */
	bool no_early_stop;	/* the write tests measure every size */
	uint64_t size;		/* bytes per run or cell; 0: the test's default */
	unsigned runs;		/* repetitions of each measurement */
	uint64_t max_write;	/* bytes a search may write, 0 = no limit */
	uint64_t max_time;	/* ns of device time a search may take, 0 = no limit */
	int precondition;	/* enum fb_precondition */
	/* where results go */
	const char *out;
	int format;		/* enum out_format: text, json, csv (report: --report) */
	bool report;		/* --report[=full]: the tests it runs, as one block */
	/* modes: saved output, a backup put back */
	const char *analyze;
	bool compare;		/* --compare A B [C...]: the inputs in args */
	const char *restore;
	/* safety: --preserve, --backup=FILE */
	bool preserve;
	const char *backup;
	const char *device;
	/* what followed the options (getopt moves them to the end of argv):
	 * DEVICE, or the stray arguments --analyze refuses */
	char **args;
	int nargs;
	/* the command line as given, for the JSON document */
	int argc;
	char **argv;
};

/* Fill o with the default of every shared option. */
void opts_defaults(struct fb_opts *o);

#endif
