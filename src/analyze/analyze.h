/*
 * --analyze: verdicts for saved output of this tool or of the original
 * flashbench, line by line, the same lines a live run prints.
 */
#ifndef FB_ANALYZE_H
#define FB_ANALYZE_H

#include "saved/saved_input.h"

/* Every run in the input: its verdicts through the output layer. The exit status. */
int analyze_input(struct ai_input *in);
/* The same for a file ("-": standard input), text only (the unit tests). */
int analyze_file(const char *path);

#endif
