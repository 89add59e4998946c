/*
 * The input of --analyze and --compare: a file, a FIFO or standard input
 * (a saved run or a paste), read line by line in bounded memory whatever
 * it holds. A line longer than SO_MAX_LINE is cut (and reported cut, so
 * it is skipped); reading stops on input that is plainly not saved
 * output -- AI_MAX_RUN bytes without a line end (/dev/zero), or
 * AI_MAX_NUL_LINES lines with NUL bytes.
 */
#ifndef FB_SAVED_INPUT_H
#define FB_SAVED_INPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "saved/saved_output.h"

#define AI_MAX_RUN (16ull << 20)
#define AI_MAX_NUL_LINES 100

/*
 * A saved --format=json document is read as the lines it stands for: a
 * source, set by the mode (analyze/analyze_json.c: the text lines, through
 * every test's tables; compare/compare_json.c: the CSV lines), fills buf
 * with the next line; 1, 0 at the end, -1 with stop set on a document it
 * cannot read. Both walk the document with saved/saved_json.h.
 */
struct ai_json;
struct ai_json_source {
	struct ai_json *(*open)(FILE *f);
	int (*next)(struct ai_json *j, char *buf, size_t len, char *stop, size_t stoplen);
	void (*close)(struct ai_json *j);
};

struct ai_input {
	FILE *f;
	struct ai_json *json;		/* a JSON document, read through the source */
	const struct ai_json_source *src;
	const char *path;
	char buf[SO_MAX_LINE + 1];	/* the current line, NUL-terminated */
	unsigned long long line;	/* its number, from 1 */
	bool cut;			/* longer than SO_MAX_LINE */
	bool nul;			/* holds a NUL byte */
	bool unterminated;		/* the last line read had no line end */
	unsigned documents;		/* JSON: the documents after the first */
	unsigned long long nul_lines;
	char stop[160];			/* why reading stopped early ("": it did not) */
	int interrupted;		/* the signal that stopped the reading (0: none) */
	int err;			/* errno of a read error (0: none) */
};

/*
 * Open path ("-": standard input). Refuses a directory and a block device
 * (not saved output). FB_OK, or FB_EUSAGE with a one-line message (no
 * "flashbench: " prefix) in err.
 */
int ai_open(struct ai_input **in, const char *path, char *err, size_t len);
/* Read a JSON document (the first byte is '{') through src from now on. */
void ai_json(struct ai_input *in, const struct ai_json_source *src);
/* The next line: 1, 0 at the end, -1 when reading stopped (stop, err or
 * interrupted set: a signal the mode catches, eng_signals, stops it). */
int ai_next(struct ai_input *in);
void ai_close(struct ai_input *in);

#endif
