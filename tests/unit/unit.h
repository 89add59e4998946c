/*
 * A tiny unit-test harness: each tests/unit/NAME.c is one program whose
 * CHECK()s print "ok"/"FAIL" lines; the runner counts them.
 */
#ifndef FB_UNIT_H
#define FB_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_failed, unit_passed;

#define CHECK(cond) do { \
	if (cond) { unit_passed++; } \
	else { unit_failed++; printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

#define CHECK_STR(got, want) do { \
	const char *g_ = (got), *w_ = (want); \
	if (strcmp(g_, w_) == 0) { unit_passed++; } \
	else { unit_failed++; printf("FAIL %s:%d: got '%s', want '%s'\n", __FILE__, __LINE__, g_, w_); } \
} while (0)

/* Print the tally in the form the runner reads, exit non-zero on failure. */
#define UNIT_DONE() do { \
	printf("unit: %d passed, %d failed\n", unit_passed, unit_failed); \
	return unit_failed ? 1 : 0; \
} while (0)

#endif
