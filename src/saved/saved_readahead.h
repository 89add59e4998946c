/*
 * Saved readahead and request-size sweeps, read back: a table of read
 * rates by size, one or more runs per size, as three kinds of source
 * print it --
 *
 *   flashbench's own --readahead text (JSON comes through analyze_json.c
 *   as these same lines; the header may then be missing):
 *         size   1st MB/s   2nd MB/s   1st %CPU   2nd %CPU
 *   ==>  4MiB        269        264        3.1        3.0
 *   its CSV (--format=csv): "# table: readahead", the column line
 *   "size_bytes,plateau,rate_bps_1,...,cpu_pct_1,...", rows in bytes/s;
 *   and the tables people mail (seed 001, a kernel thread):
 *           rasize  1st run         2nd run
 *   ==>       4M    269 MB/s        264 MB/s
 *
 * A size column with k/M/G suffixes (binary, as readahead is set) or our
 * KiB/MiB, each run's rate in MB/s (decimal), and an existing "==>" kept
 * as the author's reading of where the plateau starts. A row is read
 * whole or not at all; values without a unit ("269 264 3.1 3.0", our
 * own rows) are a readahead row only inside a readahead table (after its
 * header, command line or description line), which the caller knows.
 *
 * struct sr_table is the table once read, in base units: what the
 * plateau rule (verdict_readahead.h) and any other reader judges.
 */
#ifndef FB_SAVED_READAHEAD_H
#define FB_SAVED_READAHEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "saved/saved_line.h"

#define SR_MAX_ROWS 64
#define SR_MAX_RUNS 16

struct sr_table {
	size_t n;			/* rows, in the order read (sizes ascending) */
	unsigned runs;			/* rate columns: runs per size */
	uint64_t size[SR_MAX_ROWS];	/* bytes: request or readahead size */
	double rate[SR_MAX_ROWS][SR_MAX_RUNS];	/* bytes/s; NaN: not measured ("-") */
	int marked;			/* the row the author (or our run) marked "==>"; -1 none */
	unsigned long long line[SR_MAX_ROWS];	/* input line of each row (0: live) */
};

void sr_init(struct sr_table *t);
/*
 * A rate as the text table prints it (MB/s, three digits or more): what
 * the live verdict and the CSV reader judge, so that a run and every
 * saved form of it give the same verdict, word for word.
 */
double sr_printed(double bps);
/*
 * Add the SO_RA_ROW record l, read on input line 'line'. -1 (nothing
 * added) when the table is full, the size does not grow, or the row has
 * another number of runs than the rows before it.
 */
int sr_add(struct sr_table *t, const struct so_line *l, unsigned long long line);

/*
 * For saved_output.c. tok[0..n-1]: the words of a line (its "==>" taken
 * off: mark says it was there). True, with o filled in, for a readahead
 * header (SO_RA_HEADER, o->runs) or row (SO_RA_ROW: o->size, o->rates
 * in bytes/s into the room rates[] has for n values, o->nrates, o->mark,
 * o->bare when the values carry no unit).
 */
bool so_readahead(char **tok, size_t n, bool mark, double *rates, struct so_line *o);
/* A CSV line of our readahead table (its column line, or a row: bare). */
bool so_readahead_csv(const char *s, double *rates, size_t room, struct so_line *o);
/* "readahead: ..." lines of our own (a leading "#" of CSV taken off):
 * the description line starts a table (SO_COMMAND, is_readahead), the
 * others (verdict, notes, steps) are SO_OURS. */
bool so_readahead_ours(char **tok, size_t n, struct so_line *o);

#endif
