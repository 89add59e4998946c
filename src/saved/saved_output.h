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

#include <stddef.h>

#include "saved/saved_line.h"
#include "saved/saved_values.h"

/*
 * Classify one line (without its newline): fn is called once for each
 * record on it, in order -- several when rows ran together, or a row and
 * a "^C" -- and once with SO_SKIP or SO_BLANK when nothing on it is
 * usable. Returns the number of calls.
 */
size_t so_scan(const char *line, so_record_fn *fn, void *ctx);

/* The first record of a line (rates: only rate/slowest/nrates are kept). */
void so_classify(const char *line, struct so_line *out);

#endif
