/*
 * --compare: saved results of the same test side by side, the first the
 * baseline. Rows paired by their key, each judged (compare_judge.h), a
 * verdict per test, the inputs' own verdicts side by side; all of it
 * through the output layer, so --format=json and csv work as for a test.
 */
#ifndef FB_COMPARE_H
#define FB_COMPARE_H

#include <stddef.h>

#include "compare/compare_input.h"

/* The most inputs: named A to Z. */
#define CMP_MAX_INPUTS 26

/*
 * Inputs that cannot be compared -- no test in common with the baseline,
 * devices of different sizes, a test run with other block or erase
 * sizes -- are refused: FB_EUSAGE with a one-line reason in err. FB_OK
 * otherwise (tests only in some inputs are compared where they are, and
 * said so).
 */
int compare_check(const struct ci_input *in, size_t n, char *err, size_t len);
/* Every test the baseline shares with the others, through the output layer. */
void compare_emit(const struct ci_input *in, size_t n);

/* The summary verdict of a test, for the unit tests: "no_difference",
 * "different", "mixed", "cannot_tell"; text: its line. */
const char *compare_summary(const struct ci_table *a, const struct ci_table *b, char name,
			    char *text, size_t len);

#endif
