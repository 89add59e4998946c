/*
 * --analyze of readahead sweeps (saved_readahead.h): a table collected
 * row by row, then judged by the live rule (verdict_readahead.h) and set
 * beside the "==>" its author (or the run that printed it) put there.
 */
#ifndef FB_ANALYZE_READAHEAD_H
#define FB_ANALYZE_READAHEAD_H

#include <stdbool.h>

#include "saved/saved_readahead.h"

struct an_ra {
	struct sr_table t;
	unsigned header_runs;		/* what the header said (0: no header) */
	unsigned long long first_line;	/* of the header or the first row */
	unsigned left_out;		/* rows that did not fit the table */
};

void anr_start(struct an_ra *r, unsigned header_runs, unsigned long long line);
/*
 * Row l of input line 'line': 0 added, 1 it starts a new table (its size
 * does not grow), -1 left out (another number of runs than the header).
 */
int anr_row(struct an_ra *r, const struct so_line *l, unsigned long long line);
/* The run note, the verdict and the mark. readahead: the sizes are a
 * readahead window (else request sizes). */
void anr_finish(const struct an_ra *r, unsigned run, bool readahead);

#endif
