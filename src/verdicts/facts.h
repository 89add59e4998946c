/*
 * The verdicts of this run, as they were printed: the last align
 * verdict, every open-AU run and probe that named its N (one bracket per
 * mode, each N with its best result, as --find-open-au and --analyze
 * count them), and the last find-fat verdict. The print functions record
 * them (va_print, oa_result_print, ff_print), which a live run and
 * --analyze of its saved output both go through: whatever reads the
 * facts next -- --find-open-au and --survey the erase size, --advise
 * all of them -- gets the same numbers either way.
 */
#ifndef FB_FACTS_H
#define FB_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verdicts/verdict_results.h"

struct vf_facts {
	bool align;			/* an align verdict was printed */
	struct va_verdict va;		/* the last one */
	unsigned oa_runs[2];		/* open-AU runs with their N: [random] */
	struct oa_bracket oa[2];	/* ...as a bracket */
	unsigned oa_merge[2];		/* ...the smallest N in a merge regime (0: none) */
	double oa_merge_ns[2];		/* ...what a switch of erase block costs there */
	double oa_merge_x[2];		/* ...how much slower small writes run (0: not seen) */
	bool fat;			/* a find-fat verdict was printed */
	struct ff_result ff;		/* the last one */
	uint64_t capacity_real;		/* --capacity: the bytes that hold, when fewer
					 * than the device reports (0: none found) */
};

/* Forget everything (a new run, a new --analyze). */
void vf_reset(void);
const struct vf_facts *vf_get(void);
/* The last align verdict printed (NULL: none). */
const struct va_verdict *vf_align_verdict(void);

/* What the print functions record. */
void vf_align(const struct va_verdict *v);
void vf_open_au(unsigned nr, bool random, enum oa_class c);
void vf_fat(const struct ff_result *r);
void vf_capacity(uint64_t real);
/* A family's verdict replaces the bracket of its mode (verdict_oafamily.h). */
void vf_open_au_set(bool random, const unsigned *nr, const enum oa_class *c, size_t n);
/* A family's merge regime: from N on, each switch of erase block costs ns,
 * small writes run x times slower (from 0: none). */
void vf_open_au_merge(bool random, unsigned from, double ns, double x);

#endif
