/*
 * The inputs of --compare: a saved result (text as printed, or the CSV or
 * JSON of --format) read into its tables of rows, each row a key and the
 * values of its runs, plus what the input says about itself (command,
 * device, parameters) and its verdict lines. Text goes through the saved-
 * output reader of --analyze (saved_output.h); CSV is read here; a JSON
 * document is turned into the CSV lines it stands for (compare_json.c), so
 * one reader serves both.
 */
#ifndef FB_COMPARE_INPUT_H
#define FB_COMPARE_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>


#include "compare/compare_table.h"

/* Read path ("-": standard input). FB_OK, or FB_EUSAGE with a one-line
 * message in err. Runs one after another in it are more runs of its rows. */
int ci_read(const char *path, struct ci_input *in, char *err, size_t len);
/*
 * The same, each run in it (after its command line, table header or
 * "# flashbench" line) an input of its own, up to max: a mail with two
 * tables, a shell loop's output. *n: how many.
 */
int ci_read_runs(const char *path, struct ci_input *in, size_t max, size_t *n, char *err,
		 size_t len);

#endif
