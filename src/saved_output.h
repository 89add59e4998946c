/*
 * Reading saved output: of this tool, and of the original flashbench as
 * people pasted it into mails and bug reports (tabs turned into spaces,
 * several runs in one file after their "$ ./flashbench ..." lines, "^C",
 * the original's "1e+03µ" and negative diffs printed without a unit).
 * Lines are classified one at a time; nothing is guessed.
 */
#ifndef FB_SAVED_OUTPUT_H
#define FB_SAVED_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
	SO_BLANK,	/* empty line: ignored */
	SO_COMMAND,	/* a command line or header that starts a run */
	SO_INTERRUPT,	/* "^C", "interrupted by signal", "stopped: ..." */
	SO_ALIGN,	/* align B pre T on T post T diff T */
	SO_RATE,	/* SIZE RATE [slowest RATE]: open-au or a find-open-au probe */
};

struct so_line {
	enum so_kind kind;
	/* SO_ALIGN */
	uint64_t boundary;
	double pre, on, post, diff;
	/* SO_RATE */
	uint64_t size;
	double rate, slowest;	/* slowest: 0 when the line has none */
	/* SO_COMMAND: what the command line or header says (0/false: not said) */
	bool is_align, is_open_au, random, linear;
	unsigned nr;		/* --open-au-nr=N, AU=N */
	uint64_t erase;		/* --erasesize=N */
};

/* Classify one line (without its newline). */
void so_classify(const char *line, struct so_line *out);

#endif
