/*
 * Reading a find-fat table (one column of write rates per erase block,
 * from offset 0): how many erase blocks at the start stay fast at small
 * blocks -- the FAT-optimised area many SD cards keep for the file
 * system's tables? Shared by the live --find-fat run and --analyze, so
 * both print the same verdict for the same numbers.
 *
 * The rule: at the smallest block size, the first k erase blocks each
 * write at least FF_FACTOR times faster than every later one. No erase
 * block that much faster or slower than another: no such area. Or, by
 * the size of the cost: the later erase blocks each take a collection's
 * worth longer per line (FF_COPY_LINES), the first k do not. A spread
 * that does not start at the front: uncertain. Linear writes rarely
 * show the area (they are cheap everywhere), so with them "none" is
 * only "none seen".
 */
#ifndef FB_VERDICT_FINDFAT_H
#define FB_VERDICT_FINDFAT_H

#include <stdbool.h>
#include <stddef.h>

#include "verdicts/verdict_openau.h"
#include "verdicts/verdict_results.h"	/* struct ff_result */

#define FF_FACTOR 2.0
/* Or: in each of the last FF_COPY_LINES lines, every later erase block
 * takes an erase-block copy's worth longer (verdict_openau.h's OA_GC_COPY
 * of one at the first k's best rate) than the slowest of the first k. */
#define FF_COPY_LINES 3


/* cols[i]: erase block i's rates (complete: reached the smallest size). */
void ff_judge(const struct oa_run *cols, size_t ncol, bool random, struct ff_result *res);
/* "verdict: FAT-optimised area (random): the first 2 of 6 erase blocks ..." */
void ff_print(const struct ff_result *res);

#endif
