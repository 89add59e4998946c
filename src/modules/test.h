/*
 * The test table: every test is one file in src/modules/ that defines one
 * descriptor -- its name and options, its help, whether it writes, the
 * regions it writes, how it runs and the records it emits. The command
 * line, the usage text, the dispatch, the safety check, the region
 * announcement, --preserve and the write guard all come from the table
 * (src/modules/table.c), so a write test cannot reach a device without
 * the safety check, and adding a test touches its own file and one line
 * of the table.
 */
#ifndef FB_TEST_H
#define FB_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/opts.h"
#include "core/out.h"
#include "core/regions.h"
#include "core/target.h"

/* How an option's value is read (cli/cli.c does it, with the same messages for all). */
enum fb_opt_kind {
	FO_FLAG,	/* no value: sets a bool */
	FO_SIZE,	/* a size, not 0: uint64_t */
	FO_SIZE0,	/* a size, 0 allowed (an offset): uint64_t */
	FO_UINT,	/* a whole number from min to max: unsigned */
	FO_DURATION,	/* 90s, 5m, 2h, not 0: uint64_t ns */
	FO_PERCENT,	/* 0 to below 100: double */
	FO_TEXT,	/* a string, taken as it is: const char * */
	FO_CALL,	/* parsed by call() */
};

struct fb_option {
	const char *name;	/* the long option, without "--" */
	char letter;		/* the short option, 0 for none */
	enum fb_opt_kind kind;
	void *var;		/* where the value goes (a test's own option) */
	size_t off;		/* ...or its offset in struct fb_opts, when var is NULL */
	uint64_t min, max;	/* FO_UINT */
	unsigned scope;		/* shared options only: the tests it changes (cli.h) */
	const char *arg;	/* in --help: SIZE, N, TIME, LIST; NULL for FO_FLAG */
	bool arg_optional;	/* --name[=ARG] */
	/* --help: one or more lines of text, '\n' between them */
	const char *help;
	/* FO_CALL: 0, or FB_EUSAGE with a one-line message in err (arg NULL: absent) */
	int (*call)(struct fb_opts *o, const char *arg, char *err, size_t len);
};

struct fb_test {
	const char *name;	/* --NAME selects it; the JSON "test" */
	char letter;		/* -L selects it (0: none) */
	const char *help;	/* --help: what it measures, '\n' between lines */
	/*
	 * A value its flag may take (--queue-depth=1,4,16): the word for
	 * --help ("LIST") and the parser, called with the value or with NULL
	 * when none is given; 0 or FB_EUSAGE with a one-line message. NULL:
	 * the flag takes no value.
	 */
	const char *flag_arg;
	int (*flag_call)(const char *arg, char *err, size_t len);
	bool writes;		/* overwrites data on DEVICE: every safety rule applies */
	/*
	 * A test that writes only when one of its own FO_FLAG options is
	 * given (--queue-depth --write): that option's name. Its .writes is
	 * true; without the option it is a read-only test in every respect.
	 */
	const char *writes_with;
	/* reads only the verdicts before it, not the device: it also runs after
	 * --analyze, as run(o, NULL) (--advise) */
	bool after_analyze;
	/* the tests it runs with it (--survey): selected before any check (NULL: none) */
	const struct fb_test *const *selects;
	/* the shared options it reads (cli/cli.c's table): anything else is refused */
	const char *const *uses;
	/* its own options (NULL-name terminated; NULL: none) */
	const struct fb_option *options;
	/* put its own options back to their defaults (NULL: none) */
	void (*defaults)(void);
	/* checks that need no device: 0 or FB_EUSAGE with a message (NULL: none) */
	int (*check)(struct fb_opts *o, char *err, size_t len);
	/* checks against the opened target, still before any I/O (NULL: none) */
	int (*check_target)(const struct fb_opts *o, const struct target *t, char *err,
			    size_t len);
	/* a results file of its own (--log), checked as --out is before the run (NULL: none) */
	const char *(*out_file)(const struct fb_opts *o);
	/* that file, checked, created or emptied and locked by the run: the test
	 * writes through this descriptor (and closes it), never by the name */
	void (*out_fd)(int fd);
	/* extra target_open() flags (TGT_SYNC) it needs (NULL: none) */
	unsigned (*open_flags)(const struct fb_opts *o);
	/*
	 * Before the regions are taken: a parameter measured first (--find-open-au
	 * without --erasesize runs -a). NULL: none. measures_first says whether
	 * it will emit records, so that the output is opened before it.
	 */
	int (*prepare)(struct fb_opts *o, struct target *t);
	bool (*measures_first)(const struct fb_opts *o);
	/*
	 * Write tests: the regions it overwrites on a device of size bytes,
	 * unsorted; fills at most max (r may be NULL when max is 0) and
	 * returns how many there are. *end is the first byte past them,
	 * computed without wrapping (UINT64_MAX when it does not fit): a run
	 * whose end lies past the device is refused (exit 2) before anything.
	 */
	size_t (*regions)(const struct fb_opts *o, uint64_t size, struct region *r, size_t max,
			  uint64_t *end);
	/* Measure and emit records; returns an exit status (core/opts.h). */
	int (*run)(const struct fb_opts *o, struct target *t);
	/* the tables of the rows it emits (NULL-terminated), for docs and tests */
	const struct out_table *const *tables;
};

/* Every test, in the order a run takes them; NULL-terminated (table.c). */
extern const struct fb_test *const fb_tests[];

/* The test of that name, or NULL. */
const struct fb_test *fb_test_find(const char *name);
/* Its bit in struct fb_opts' selection (modules/selection.c): its place in the table. */
uint32_t fb_test_bit(const struct fb_test *t);
/* The order the bits follow: table.c's fb_tests, handed down before main(). */
void fb_test_order(const struct fb_test *const *tests);
bool fb_test_selected(const struct fb_opts *o, const struct fb_test *t);
/* Select it (a test that runs another first, as --find-open-au runs -a). */
void fb_test_select(struct fb_opts *o, const struct fb_test *t);
/* Does this test write in this run (.writes, and its .writes_with given)? */
bool fb_test_writes(const struct fb_test *t);
/* Does any selected test write? */
bool fb_tests_write(const struct fb_opts *o);
/* The tests that also run after --analyze, as bits. */
uint32_t fb_tests_after_analyze(void);
/* The extra open flags the selected tests ask for. */
unsigned fb_tests_open_flags(const struct fb_opts *o);
/* Every test's own options back to their defaults. */
void fb_tests_defaults(void);
/* Select the tests that the selected ones select (.selects). */
void fb_tests_expand(struct fb_opts *o);
/* A test's own option of that long name, or NULL. */
const struct fb_option *fb_option_find(const char *name);
/* The whole-number value of a test's own option (FO_UINT, FO_SIZE, ...). */
uint64_t fb_option_u64(const struct fb_option *opt, const struct fb_opts *o);

#endif
