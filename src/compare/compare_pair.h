/*
 * --compare inside the verdicts layer: the rows of two inputs' tables
 * paired by key and judged, shared by compare.c (the summary) and
 * compare_out.c (the records).
 */
#ifndef FB_COMPARE_PAIR_H
#define FB_COMPARE_PAIR_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/compare_input.h"
#include "compare/compare_judge.h"

struct cp_pair {
	const struct ci_row *a, *b;	/* NULL: the row is only in the other */
	double order;
	struct cj_row j;		/* both rows there: the judgement */
};

/* The pairs in key order (text keys: the baseline's order); *out to free(). */
size_t cp_pairs(const struct ci_table *a, const struct ci_table *b, struct cp_pair **out);
/* The summary verdict of n pairs (see compare_summary); text: an input is
 * text, which keeps one value a row for a kind with text_median. */
const char *compare_summary_pairs(const struct ci_kind *k, const struct cp_pair *p, size_t n,
				  char name, bool text, char *out, size_t len);

#endif
