/*
 * Reading an align table the way an expert would: where do the diffs
 * rise above the floor (the page), and from which boundary up do they
 * rise again and stay up (the erase block)? Judged against the noise the
 * table itself shows. Pure functions over (boundary, diff) rows, shared
 * by the live -a run and by --analyze, so both print the same verdict
 * for the same numbers.
 */
#ifndef FB_VERDICT_ALIGN_H
#define FB_VERDICT_ALIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


/* Page steps are looked for at or below this boundary, erase steps above. */
#define VA_PAGE_MAX (64 * 1024)
#define VA_MAX_ROWS 128
/* Fewer rows are too short to judge. */
#define VA_MIN_ROWS 4
/* Rows left out that the verdict names. */
#define VA_LEFT_SHOWN 4

struct va_row {
	uint64_t b;		/* boundary, bytes: 2^n or 3 x 2^n */
	double diff;		/* ns */
	double pre, post;	/* ns, the plain reads before and after (0: unknown) */
};

enum va_state { VA_NONE, VA_UNCERTAIN, VA_FOUND };

struct va_verdict {
	enum va_state erase_state, page_state;
	uint64_t erase, page;
	bool erase_3x;		/* the erase block is 3 x 2^n bytes */
	bool no_pattern;	/* neither an erase nor a page step */
	uint64_t cand[2];	/* uncertain: the sizes that compete (0: none) */
	double plain;		/* the median plain read (pre and post), ns */
	double noise;		/* the power-of-two rows' row-to-row noise, ns */
	char erase_why[640];	/* the evidence, or the reason for doubt */
	char page_why[200];
	unsigned outliers;	/* rows left out: a read or the diff in them was far off */
	uint64_t left[VA_LEFT_SHOWN];	/* the first of them (boundaries) */
};

/* Is b of the form 3 x 2^n? */
bool va_is_3x(uint64_t b);

/* Judge rows of either family, in any order (at most VA_MAX_ROWS used). */
void va_judge(const struct va_row *rows, size_t n, struct va_verdict *v);

/* The verdict lines ("verdict: ...") as verdict records (core/out.h). */
void va_print(const struct va_verdict *v);

#endif
