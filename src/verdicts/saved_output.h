/*
 * Reading saved output: of this tool, and of the original flashbench as
 * people pasted it into mails, bug reports, gists and paste sites: tabs
 * turned into spaces, "> " quoting, "- " list items, "|" table columns,
 * several rows run together on one line, a "µ" lost in copying ("308s"),
 * stderr lines in between, several runs each after its "$ ./flashbench
 * ..." or "# flashbench ..." line, "^C", the original's "1e+03µ" and
 * negative diffs printed without a unit. A line is used only when all of
 * it parses; nothing is guessed.
 */
#ifndef FB_SAVED_OUTPUT_H
#define FB_SAVED_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longer lines are not saved output (--analyze skips them). */
#define SO_MAX_LINE (64 * 1024)
/* The most columns of a find-fat row (--fat-nr). */
#define SO_MAX_RATES 4096

/* A time such as "735µs", "1.08ms", "-6799ns", "1e+03µ", "-412331" (ns). */
int so_parse_time(const char *s, double *ns);
/* A size such as "4MiB", "512KiB", "2KiB", "512B", "1.5GiB". */
int so_parse_size(const char *s, uint64_t *bytes);
/* A rate such as "22M/s", "471K/s", "1.2G/s" (decimal). */
int so_parse_rate(const char *s, double *bps);

/* The value a number shows after a round trip through the output. */
double so_round_time(double ns);
double so_round_rate(double bps);

enum so_kind {
	SO_SKIP,	/* nothing usable: counted */
	SO_BLANK,	/* empty, or only table decoration: ignored */
	SO_COMMAND,	/* a command line or header that starts a run */
	SO_INTERRUPT,	/* "^C", "interrupted by signal ..." */
	SO_STOPPED,	/* "stopped: ...": this tool ended the run early */
	SO_ALIGN,	/* align B pre T on T post T diff T */
	SO_RATE,	/* SIZE RATE... [slowest RATE]: open-au, find-fat, a probe */
	SO_VERDICT,	/* this tool's own "verdict: ..." line */
	SO_OURS,	/* another summary line of this tool: no data */
	SO_RA_HEADER,	/* the header of a readahead table (saved_readahead.h) */
	SO_RA_ROW,	/* SIZE RATE...: a row of a readahead table */
};

/* The diff of an align row against its own pre, on and post. */
enum so_check {
	SO_AGREES,	/* as printed */
	SO_RESTORED,	/* only with a lost unit restored (note says which) */
	SO_INCONSISTENT,	/* in no reading of its units (note says why) */
};

struct so_line {
	enum so_kind kind;
	/* SO_ALIGN */
	uint64_t boundary;
	double pre, on, post, diff;
	enum so_check check;
	/* SO_RATE: rates[0..nrates-1], valid during the so_scan() callback;
	 * rate = rates[0]; slowest: 0 when the line has none */
	uint64_t size;
	double rate, slowest;
	size_t nrates;
	const double *rates;
	/* SO_COMMAND, SO_VERDICT: what the line says (0/false: not said) */
	bool is_align, is_open_au, is_find_fat, is_probe, random, linear;
	bool is_flashbench;	/* a flashbench command line (defaults apply);
				 * SO_INTERRUPT: this tool's own line */
	bool is_readahead, buffered;	/* --readahead [--buffered], its table */
	/* SO_RA_ROW: marked "==>"; values without a unit (only inside a
	 * readahead table); SO_RA_HEADER: its runs (rate columns) */
	bool mark, bare;
	unsigned runs;
	unsigned nr;		/* --open-au-nr=N, AU=N, "verdict: N open AUs" */
	unsigned fat_nr;	/* --fat-nr=N */
	uint64_t erase;		/* --erasesize=N */
	uint64_t blocksize;	/* --blocksize=N */
	/* SO_ALIGN: a restored unit or the inconsistency; SO_STOPPED: why */
	char note[160];
};

/*
 * Classify one line (without its newline): fn is called once for each
 * record on it, in order -- several when rows ran together, or a row and
 * a "^C" -- and once with SO_SKIP or SO_BLANK when nothing on it is
 * usable. Returns the number of calls.
 */
typedef void so_record_fn(void *ctx, const struct so_line *l);
size_t so_scan(const char *line, so_record_fn *fn, void *ctx);

/* The first record of a line (rates: only rate/slowest/nrates are kept). */
void so_classify(const char *line, struct so_line *out);

/*
 * Internals shared by saved_output.c and saved_command.c.
 * so_command: what a command line, script header or our own header says;
 * false when tok[] is none of them.
 */
bool so_command(char **tok, size_t n, struct so_line *o);
/* Check an align row's diff; restore a unit lost in copying. tok: the
 * four time fields as printed (pre, on, post, diff). */
int so_align_times(char *const tok[4], struct so_line *o);

#endif
