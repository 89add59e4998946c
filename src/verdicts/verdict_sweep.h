/*
 * A sweep of write rates read whole -- a live --open-au or --find-fat
 * run, or one found in saved output: is there enough of it to judge?
 * A run of fewer lines than the garbage-collection signature needs can
 * never be found slow, so calling it fast would say nothing: such a run,
 * a one-line paste or one cut off after two lines, is too short.
 */
#ifndef FB_VERDICT_SWEEP_H
#define FB_VERDICT_SWEEP_H

#include <stdbool.h>

#include "verdicts/verdict_openau.h"

/* The signature shows from the second line on, OA_GC_LINES in a row. */
#define VS_MIN_LINES (OA_GC_LINES + 1)

/* True, with the reason in res (inconclusive), when r is too short. */
bool vs_too_short(const struct oa_run *r, struct oa_result *res);

/* One --open-au run: too short, or as verdict_openau classifies it. */
void vs_open_au(const struct oa_run *r, struct oa_result *res);

#endif
