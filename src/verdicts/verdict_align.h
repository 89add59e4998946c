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

#include "verdicts/verdict_results.h"	/* struct va_row, struct va_verdict, VA_PAGE_MAX */


#define VA_MAX_ROWS 128
/* Fewer rows are too short to judge. */
#define VA_MIN_ROWS 4


/* Is b of the form 3 x 2^n? */
bool va_is_3x(uint64_t b);

/* Judge rows of either family, in any order (at most VA_MAX_ROWS used). */
void va_judge(const struct va_row *rows, size_t n, struct va_verdict *v);

/* The verdict lines ("verdict: ...") as verdict records (core/out.h). */
void va_print(const struct va_verdict *v);

#endif
