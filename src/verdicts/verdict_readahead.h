/*
 * Where the plateau of a readahead (or request-size) sweep starts, live
 * (--readahead) and saved (--analyze) alike, read as Wu Fengguang reads
 * his tables (seed 001): the plateau starts where the rise stops being
 * larger than the noise the runs show. A size is on the plateau when no
 * larger size reads more than the runs' spread faster than it -- judged
 * against every larger size, not only the next, so that a slow climb of
 * small steps is no plateau. The spread of two sizes is the larger range
 * (max - min) of their runs, at least VR_FLOOR_PCT: one run, or runs that
 * agree to the digit, show no noise, and the rates are printed with three
 * digits. Where the runs of a size the decision rests on (the plateau and
 * above, and the size before it) disagree by more than VR_DISAGREE_PCT,
 * no plateau is named: the verdict says the runs disagree instead of
 * picking one; elsewhere a disagreement is a note.
 */
#ifndef FB_VERDICT_READAHEAD_H
#define FB_VERDICT_READAHEAD_H

#include <stdbool.h>
#include <stddef.h>

#include "saved/saved_readahead.h"

#define VR_FLOOR_PCT 1.0
#define VR_DISAGREE_PCT 10.0

struct vr_result {
	bool judged;		/* a row with a rate to judge */
	bool disagree;		/* the runs disagree where it is decided: none named */
	size_t at;		/* the first size on the plateau */
	size_t top;		/* the size with the best mean */
	size_t below;		/* the smaller size that the rise was measured from */
	size_t over;		/* ... and the larger size it rose to (at: none) */
	double rise_pct;	/* over's mean above below's, in percent */
	double noise_pct;	/* the runs' spread it was larger than */
	double band_pct;	/* > 0: the fixed band (--plateau) that chose 'at' */
	unsigned runs;		/* runs per size */
	size_t dis[SR_MAX_ROWS];	/* sizes whose runs disagree */
	size_t ndis;
};

/*
 * Judge table t. band_pct > 0: the fixed band instead (the smallest
 * size whose best run is within band_pct percent of the best run).
 */
void vr_judge(const struct sr_table *t, double band_pct, struct vr_result *r);

/*
 * The verdict line "readahead: plateau at 4MiB: ..." (or "readahead: no
 * plateau named: ...") and notes on disagreeing runs elsewhere. what:
 * "requests" or "a readahead"; tail: appended to a named plateau ("; set
 * it with: ...", or "").
 */
void vr_print(const struct sr_table *t, const struct vr_result *r, const char *what,
	      const char *tail);

/*
 * The caveat after it when the plateau starts at the largest size: the
 * sweep may end before the plateau does ("it may lie beyond --max-size").
 * band: judged by a fixed band (--plateau), where runs that disagree
 * still name a plateau. The live run and --analyze print the same.
 */
void vr_print_edge(const struct sr_table *t, const struct vr_result *r, bool band);

/* The mean of the runs of row i (NaN: none measured), and their range. */
double vr_mean(const struct sr_table *t, size_t i);
double vr_range(const struct sr_table *t, size_t i);

#endif
