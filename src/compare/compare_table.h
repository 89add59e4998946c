/*
 * The tables of a --compare input: each a test's rows, a row a key and
 * the values of its runs; the input's verdict lines and what it says
 * about itself. Filled by the readers of each format (compare_csv.h,
 * compare_json.h, compare_text.h), read by the comparison.
 */
#ifndef FB_COMPARE_TABLE_H
#define FB_COMPARE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

enum { CI_NO = 1, CI_YES = 2 };

/* The most runs of one row: --runs' limit, or repeated rows of a text file. */
#define CI_MAX_RUNS 64
#define CI_MAX_TABLES 8
#define CI_MAX_VERDICTS 32

enum ci_key { CK_BYTES, CK_COUNT, CK_TEXT, CK_TIME };
enum ci_unit { CU_BPS, CU_IOPS, CU_NS };

/* A test whose rows can be compared: where its key and its values are. */
struct ci_kind {
	const char *table;	/* its table in JSON and CSV ("readahead") */
	const char *option;	/* the test as it is given ("--readahead") */
	const char *key;	/* the field rows are paired by */
	enum ci_key key_type;
	const char *runs;	/* a list field of every run's value (NULL: none) */
	const char *value;	/* the single value, when there is no list */
	const char *value_random;	/* --app-class: the value of its random rows */
	enum ci_unit unit;
	int better;		/* +1 higher is better, -1 lower, 0 neither */
	bool has_runs;		/* the test takes --runs */
	bool uses_blocksize, uses_erasesize;
	bool text_median;	/* its text keeps one value a row (-O: the median of its runs) */
};

/* The kind of a table name; NULL for one that is not compared. */
const struct ci_kind *ci_kind_of(const char *table);

struct ci_row {
	char key[48];		/* as shown: "4KiB", "4", "random read 4KiB", "3s" */
	double order;		/* where it sorts (the key's number; text: first seen) */
	double *v;		/* its runs' values, up to CI_MAX_RUNS (a log has a
				 * million rows of one run: no room kept for 64) */
	unsigned n, cap;
	double step;		/* the coarsest rounding of its values as printed */
};

struct ci_table {
	const struct ci_kind *kind;
	struct ci_row *rows;
	size_t nrows, cap;
	size_t *index, nindex;	/* rows by a hash of their key (+1; 0: free) */
	double interval;	/* --sustained: the log interval in ns */
	unsigned long ordinal;	/* --sustained: the rows of the log being read so far */
};

struct ci_verdict {
	char topic[48];		/* the test and the line's label: "readahead", "cliff" */
	char claim[160];	/* what it says, without its evidence */
	char text[400];		/* the whole line */
};

struct ci_input {
	const char *path;
	const char *format;	/* "text", "csv", "json" */
	char command[512];	/* "" when it carries none */
	char device[256];
	char dev_kind[64];
	uint64_t dev_size;	/* 0: not carried */
	uint64_t erasesize, blocksize;	/* 0: not carried */
	/* What else decides what a test measures: CI_NO, CI_YES, or 0 (not carried). */
	int write, random;
	unsigned open_au_nr;		/* 0: not carried */
	double log_interval;		/* --sustained's, ns (0: not carried) */
	char date[64];		/* the date the input carries (a mail's "Date:") */
	time_t mtime;
	uint64_t ra_mark;	/* the readahead row marked "==>" (0: none) */
	unsigned run;		/* ci_read_runs: which run of its file (from 1); 0: all */
	struct ci_table tables[CI_MAX_TABLES];
	size_t ntables;
	struct ci_verdict verdicts[CI_MAX_VERDICTS];
	size_t nverdicts;
	unsigned long rows_ignored;	/* text: rows of a test that is not compared (find-fat) */
	unsigned long rows_bad;		/* rows skipped: cut short, no number, no plausible value */
	char bad[256];			/* the first of them: "line 27: 3 of 12 cells (cut short)" */
	unsigned merged;		/* runs after the first read as more runs of its rows */
	bool csv_run, csv_status;	/* CSV: a "# flashbench" line seen; its "# status" line */
	char ignored[128];		/* CSV, JSON: the tables of such tests, for the note */
	/* reading state */
	unsigned long long line;	/* the line being read */
	const struct ci_kind *cur;	/* the table being read */
	char topic[32];
	char **cols;			/* CSV: the column names of the current table */
	size_t ncols;
	bool csv_header_next;
};

void ci_free(struct ci_input *in);

/* The table of a kind in an input; NULL when it has none. */
const struct ci_table *ci_table_of(const struct ci_input *in, const struct ci_kind *k);

struct ci_table *ci_table_for(struct ci_input *in, const struct ci_kind *k);
/* A value of a row: a new row, or another run of a row with that key.
 * rel: their rounding as printed, relative to each (so_rel_step). */
void ci_add(struct ci_table *t, const char *key, double order, const double *v, size_t n,
	    double rel);
/* A row skipped, and why: counted, the first named (in->line). */
void ci_bad_row(struct ci_input *in, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A line "LABEL: TEXT" of a verdict (topic: the test) into in->verdicts. */
void ci_verdict_line(struct ci_input *in, const char *line);
/* Reading a file: its inputs (one, or one per run). */
struct ci_reader {
	struct ci_input *ins;
	size_t n, max;
	char title[160];	/* the last line that was no saved output: a run's title */
	bool skipped;		/* the line being read had nothing usable */
	bool in_readahead;	/* inside a readahead table: rows without units count */
	unsigned long long overflow;	/* the line of the first run beyond max (0: none) */
};
#endif
