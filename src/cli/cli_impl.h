/*
 * What cli.c and cli_unused.c share: getopt's entries (one per option
 * the command line knows, built from the test table) and the options a
 * parse saw. Private to the command line (cli.h is its interface).
 */
#ifndef FB_CLI_IMPL_H
#define FB_CLI_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/opts.h"
#include "modules/test.h"

/* One entry per long option getopt knows: a test's flag, or an option. */
struct entry {
	const struct fb_test *test;	/* the test it selects or belongs to (NULL: shared) */
	const struct fb_option *opt;	/* NULL: the test's flag */
	const char *name;
	char letter;
};

#define MAX_ENTRIES 128
extern struct entry cli_entries[MAX_ENTRIES];
extern size_t cli_nentries;

/* The options given (by entry), with the last value of each. */
struct given {
	bool on[MAX_ENTRIES];
	const char *arg[MAX_ENTRIES];
};

/* getopt's tables from the test table, once. */
void cli_build_entries(void);
const struct entry *cli_entry_named(const char *name);
/* A one-line usage error (no program name, no newline) into err; FB_EUSAGE. */
int cli_usage_err(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* cli_unused.c: an option that none of the selected tests (sel) or the
 * mode uses: a warning in a test run, refused (FB_EUSAGE) with a mode. */
int cli_check_unused(const struct given *g, uint32_t sel, const char *mode, char *err,
		     size_t len);
/* The tests of bits by name, "--a, --b and --c" (conj " and "), mode last. */
void cli_name_list(uint32_t bits, const char *mode, const char *conj, char *buf, size_t len);
/* The warnings of a parse start empty. */
void cli_warnings_clear(void);
/* A selected write test that takes --erasesize (its -b must fit in one). */
bool cli_cuts_erase_blocks(const struct fb_opts *o);

#endif
