/*
 * Steps in one family of align rows (the power-of-two boundaries, or the
 * 3 x 2^n ones), sorted upwards: where do the diffs rise and stay up,
 * judged against the noise the rows themselves show? Pure functions,
 * used by the align verdict (verdict_align.c) for the page and the erase
 * block.
 *
 * The noise of a family is the typical change of the diff from one row
 * to the next (a robust standard deviation from the median of those
 * changes): a few real steps among twenty rows do not move it. A rise
 * at row k is judged against it and against the spread of the rows on
 * either side (whichever is larger), so a noisy upper level is not
 * mistaken for a tight one.
 */
#ifndef FB_VERDICT_STEP_H
#define FB_VERDICT_STEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VS_MAX_ROWS 128

struct vs_fam {
	size_t n;
	uint64_t b[VS_MAX_ROWS];	/* boundaries, increasing */
	double d[VS_MAX_ROWS];		/* their diffs, ns */
	double pre[VS_MAX_ROWS], post[VS_MAX_ROWS];	/* its plain reads, ns (0: unknown) */
	bool shaky[VS_MAX_ROWS];	/* a plain read in the row was disturbed */
	double noise;			/* set by vs_noise(): what rises are judged against */
	double raw;			/* the row-to-row noise as measured (0: none) */
	double floor;			/* the least noise assumed (three printed digits) */
	double least;			/* the floor, or half the most negative diff */
};

/* Why a rise is not a clean step (VS_CLEAN: it is one). */
enum vs_flaw {
	VS_CLEAN,
	VS_NO_RISE,	/* the rows above are not clearly higher */
	VS_OVERLAP,	/* some row above lies as low as one below */
	VS_BETWEEN,	/* the row at or just below the step lies between the levels */
	VS_MISSING,	/* rows are missing just below: the step may lie there */
	VS_FEW,		/* too few rows above it to tell a step from noise */
	VS_SHAKY,	/* the plain reads at or just below the step were disturbed */
};

struct vs_step {
	size_t k;		/* the step's row: b[k] is the candidate */
	size_t lo;		/* the lower level's first row */
	double up, down;	/* medians above (from k) and below (lo .. k-1) */
	double gap;		/* lowest diff above minus highest below */
	double noise;		/* the noise it was judged against */
	enum vs_flaw flaw;
};

/* Insert a row keeping the family sorted (a boundary seen before is ignored). */
void vs_add(struct vs_fam *f, uint64_t b, double d, double pre, double post);
/*
 * How far the most negative diff lies below zero, or below the rows
 * beside it (the lower of its neighbours) when that is less, as a
 * positive number; 0 when
 * no diff is negative. Shaky rows are not counted (their reads explain
 * them). No read gets cheaper by crossing a boundary, so a negative diff
 * that sticks out below its neighbours is noise alone; a level that is
 * negative all along (reads after a boundary steadily slower) is not.
 */
double vs_negative(const struct vs_fam *f);

/*
 * Mark rows shaky whose plain reads were disturbed: pre or post off those
 * of the rows around it (within two rows either side) by more than
 * read_frac, or their ratio post / pre off theirs by more than
 * ratio_frac (and by four spreads of such deviations in the family). The
 * rows around it are the reference, not the whole table: plain reads
 * vary from block to block, and on some cards the reads after a
 * boundary are steadily slower from the page size up.
 */
void vs_disturbed(struct vs_fam *f, double read_frac, double ratio_frac);
/* Index of the first row at or above b (n when none). */
size_t vs_index(const struct vs_fam *f, uint64_t b);
/* Median / lowest / highest diff of rows [from, to). */
double vs_med(const struct vs_fam *f, size_t from, size_t to);
double vs_min(const struct vs_fam *f, size_t from, size_t to);
double vs_max(const struct vs_fam *f, size_t from, size_t to);

/*
 * Set and return f->noise (see above; never below a small floor, nor
 * below half of neg: the most negative diff of the table, as a positive
 * number, or 0).
 */
double vs_noise(struct vs_fam *f, double neg);

/*
 * Leave out rows that stick out of both neighbours by far more than the
 * noise (a spike above them, a dip below them): no boundary explains one
 * row alone. Returns how many were left out; the first max of their
 * boundaries go to out[].
 */
unsigned vs_despike(struct vs_fam *f, uint64_t *out, size_t max);

/*
 * How far chance moves the difference of the medians of rows [lo, k) and
 * [k, n): about 1.25 x their noise x sqrt(1/(k - lo) + 1/(n - k)).
 */
double vs_diff_noise(const struct vs_fam *f, size_t lo, size_t k);

/* Judge a rise at row k over the lower level from row lo; false when none. */
bool vs_test(const struct vs_fam *f, size_t lo, size_t k, size_t min_above, struct vs_step *s);

/*
 * The first rise at or above boundary from_b over the level from row
 * lo: the smallest k whose diff and the median above it lie clearly above
 * the level below. False when there is none.
 */
bool vs_first_rise(const struct vs_fam *f, size_t lo, uint64_t from_b, size_t min_above,
		   struct vs_step *s);

/*
 * The page: the smallest boundary (at most max_b) from which every diff
 * lies clearly above every diff below it; a floor must have been
 * measured. *second: a further such rise at the next row (pages read in
 * pairs), else 0.
 */
bool vs_page(const struct vs_fam *f, uint64_t max_b, size_t *page, size_t *second);

#endif
