/*
 * The output layer: tests emit records -- rows with named, typed fields
 * in base units, verdicts and notes -- and one renderer turns them into
 * flashbench's text lines, one JSON document, or CSV tables. A test
 * never prints a result itself.
 *
 * Columns are data (in the spirit of libsmartcols): a table is a name
 * and a list of fields; its text form is a function of one row, so that
 * the text output stays byte-identical to what flashbench printed.
 */
#ifndef FB_OUT_H
#define FB_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* OUT_REPORT: --report's block of at most 72 columns (not a --format). */
enum out_format { OUT_TEXT, OUT_JSON, OUT_CSV, OUT_REPORT };

/* Field types; the unit is part of the type and of the JSON/CSV name. */
enum out_type {
	OT_BYTES,	/* uint64 bytes */
	OT_NS,		/* double nanoseconds (may be negative: a diff) */
	OT_BPS,		/* double bytes per second */
	OT_COUNT,	/* uint64 count or index */
	OT_REAL,	/* double, unitless (a ratio, a percentage, MiB for gnuplot) */
	OT_TEXT,	/* string */
	OT_BOOL,
	OT_BPS_LIST,	/* list of bytes per second: one per erase block or run */
	OT_REAL_LIST,	/* list of unitless doubles */
};

struct out_field {
	const char *name;	/* JSON key and CSV column, with its unit: "pre_ns" */
	enum out_type type;
};

union out_val {
	uint64_t u;
	double d;
	const char *s;
	bool b;
	struct {
		const double *v;
		size_t n;	/* a CSV column per element: NAME_1 ... NAME_n */
	} list;
};

struct out_table {
	const char *name;	/* table name: the test's name, JSON "table" */
	const struct out_field *fields;
	size_t nfields;
	/* flashbench's text line for one row (no newline); NULL: tab-separated values */
	void (*text)(char *line, size_t len, const union out_val *v);
	/* optional text line printed before the first row (a column header) */
	void (*text_header)(char *line, size_t len, const union out_val *first);
};

/* A verdict: the text line plus what a program needs from it. */
struct out_verdict {
	const char *label;	/* its text line is "LABEL: TEXT"; NULL: "verdict: TEXT" */
	const char *name;	/* what is judged: "erase_block", "page", "open_aus" ... */
	const char *result;	/* "named", "uncertain", "none", "fast", "slow" ... */
	bool has_value;
	uint64_t value;		/* the named number (bytes or a count) */
	const char *unit;	/* "bytes", "count", "ns" (NULL: none) */
};

/*
 * Open the results: path NULL is standard output. fmt chooses the
 * renderer. 0 or -errno (nothing is created when the format is bad).
 */
int out_open(const char *path, enum out_format fmt);
/* The same on an open descriptor (name for messages; fd -1: standard output). */
int out_open_fd(int fd, const char *name, enum out_format fmt);
/*
 * Results held in memory, written nowhere yet: a run that may still be
 * refused (a test measured first) creates, grows and empties nothing.
 * out_unhold() writes what was held to fd (-1: standard output) and goes
 * on there; out_close() without it drops what was held.
 */
int out_hold(const char *name, enum out_format fmt);
int out_unhold(int fd);
/* Parse "text", "json", "csv"; -1 for anything else. */
int out_parse_format(const char *s, enum out_format *fmt);
enum out_format out_format(void);

/* The run: the command line, then the device, then parameters. */
void out_run_begin(const char *version, int argc, char *const *argv);
void out_device(const char *path, const char *kind, uint64_t size, uint32_t sector);
void out_param_u64(const char *name, uint64_t v);
void out_param_str(const char *name, const char *v);
void out_param_bool(const char *name, bool v);
void out_param_real(const char *name, double v);

/* One test's records, between out_test_begin() and out_test_end(). */
void out_test_begin(const char *test);
void out_row(const struct out_table *t, const union out_val *v);
/* A verdict; the text line is "verdict: " (or its label) + the formatted text. */
void out_verdict(const struct out_verdict *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Any other result line (a summary, a probe heading): text as it is. */
void out_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The test ends early by its own rule (reason: what it saw); its status is "stopped". */
void out_test_stopped(const char *reason);
/* status: "done" (or "stopped", as said above), "interrupted", "failed" */
void out_test_end(const char *status, const char *reason);

/*
 * End the run and close the output. status and reason as for a test; the
 * JSON document is complete after this, also after an interrupt.
 * Returns 0, or -errno when the results could not be written.
 */
int out_close(int exit_status, const char *status, const char *reason);

/*
 * The output broke (a full disk, a closed pipe): the errno of the first
 * failed write (said on stderr when it happened), else 0. The engine
 * stops every test at its next request then: there is no point in
 * overwriting a device whose results are lost.
 */
int out_error(void);
/*
 * A table in a file of its own, as plain CSV with the same columns as
 * --format=csv (a test's --log): the line of field names (first: the
 * first row, for the width of list fields), then one line per row.
 * The caller owns f and checks its errors.
 */
void out_csv_names(FILE *f, const struct out_table *t, const union out_val *first);
void out_csv_line(FILE *f, const struct out_table *t, const union out_val *v);

/*
 * An observer of every row as it is emitted (NULL: none), whatever the
 * format: --survey's fit of the card collects the numbers it fits here,
 * so that no test has to hand them over (test: the section's name).
 */
typedef void (*out_tap_fn)(const char *test, const struct out_table *t, const union out_val *v);
void out_set_tap(out_tap_fn tap);

/* The descriptor results go to (the lock on a new --out). */
int out_fileno(void);

/*
 * The clock that paces the formatting of rows (every 100 ms, see
 * out_row()); NULL: CLOCK_MONOTONIC_COARSE. For tests.
 */
void out_set_clock(uint64_t (*now)(void));

#endif
