/*
 * Steps between adjacent rows of a sweep measured in several runs
 * (--queue-depth's depths, --readahead's sizes with --runs): each pair
 * judged by stats_compare() (Welch's t-test at 95% and the spread rule,
 * core/stats.h) and emitted as one row of the test's step table, whose
 * fields are FROM, TO (uint64: a depth, a size), change_pct, p and
 * verdict, and whose text line is "8 -> 16: +41%, significant".
 */
#ifndef FB_STEPS_H
#define FB_STEPS_H

#include <stddef.h>
#include <stdint.h>

#include "core/out.h"
#include "core/stats.h"

/* The runs of one row. */
struct step_cell {
	const double *v;
	unsigned n;
};

/*
 * Judge the rows - 1 steps between cell[i] and cell[i + 1] into c[i],
 * emit each as a row of table t keyed by key[i] -> key[i + 1].
 */
void steps_emit(const struct out_table *t, const uint64_t *key, const struct step_cell *cell,
		size_t rows, struct stats_cmp *c);

/*
 * The text line of a step row (the out_table's text function): FROM and
 * TO as counts, "8 -> 16: +41%, significant", or as sizes, "64KiB ->
 * 128KiB: +20%, significant".
 */
void steps_text_count(char *line, size_t len, const union out_val *v);
void steps_text_bytes(char *line, size_t len, const union out_val *v);

#endif
