/*
 * The open-AU answer of a family of runs on one card: a shell loop's
 * --open-au runs, the probes of --find-open-au, several runs in one
 * paste. Each N is judged by its level (oa_level: what a write costs
 * beyond its transfer at the card's own write rate, the best rate of the
 * family, at every block size), against copying an erase block at that
 * rate, by the one rule of verdict_openau.h:
 *
 *   - garbage collection (slow): at least OA_GC_COPY of the copy;
 *   - fast: at most OA_FAR_BELOW of it; a merge regime when it costs
 *     OAF_JUMP times the cheapest N's and no N above it is plainly fast
 *     (the card writes a few erase blocks at full speed and merges its
 *     log for more, up to its open-AU limit);
 *   - in between: inconclusive, with the numbers.
 *
 * The cutoff is the garbage-collection cutoff. The erase size is the
 * largest the runs were given, twice that when a run's lines alternate
 * fast and slow (oa_alternates: the size given is half the card's). Used
 * by --analyze and --find-open-au, so the search and the paste of it say
 * the same.
 */
#ifndef FB_VERDICT_OAFAMILY_H
#define FB_VERDICT_OAFAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verdicts/verdict_openau.h"

#define OAF_MAX 64
/* A cost this many times the cheapest run's is another regime. */
#define OAF_JUMP 3.0

/* (ELEVATED: between a merge and a collection, inconclusive) */
enum oaf_kind { OAF_FAST, OAF_MERGE, OAF_ELEVATED, OAF_GC };

struct oa_family {
	bool random;			/* the runs wrote in random order (set by the caller) */
	size_t n;
	unsigned nr[OAF_MAX];
	struct oa_run run[OAF_MAX];
};

struct oaf_verdict {
	size_t n;			/* distinct N judged, in increasing order */
	unsigned nr[OAF_MAX];
	double cost[OAF_MAX];		/* the level: ns a write beyond its transfer (an N's cheapest run) */
	size_t idx[OAF_MAX];		/* ...that run */
	size_t tail[OAF_MAX];		/* ...its cheap smallest lines (a small-write buffer) */
	bool paid[OAF_MAX];		/* ...its level paid per write (oa_level) */
	double tail_ns[OAF_MAX];	/* ...what a write costs there */
	enum oaf_kind kind[OAF_MAX];
	uint64_t erase;			/* the erase size copied */
	uint64_t given_lo, given_hi;	/* the smallest and largest erase size the runs were given */
	uint64_t given;			/* the erase size an alternating run was given (0: none) */
	double rate, copy_ns;		/* the card's write rate, the copy estimate */
	double floor;			/* the cheapest N's level (at least OAF_FLOOR_NS) */
	double base;			/* ...what every N pays, not counted (0: the cheapest collects) */
	unsigned fast, slow;		/* largest fast N below the cutoff, smallest slow N */
	unsigned inconclusive;		/* smallest N that cannot be told (0: none) */
	unsigned merge_from;		/* smallest N in a merge regime (0: none) */
	uint64_t merge_at;		/* the size the merge's slowdown is seen at (0: none) */
	double merge_x;			/* ...how much slower a write is there than with the fewest */
	double merge_ns, inc_ns;	/* what a write costs there (and where it cannot tell) */
	bool contradicts;		/* a fast N above a slow one */
	unsigned own_from;		/* smallest N whose own run collects, the family not (0: none) */
	unsigned twice;			/* an N with one run slow alone and a cheaper one (0: none) */
	bool random;			/* as the family's */
	uint64_t page;			/* the fewest N's writes below it cost more (a partial
					 * page's read-modify-write): left out of every level (0: none) */
	double page_ns;			/* ...how much more */
};

void oaf_init(struct oa_family *f);
/* Add a run with nr erase blocks (nr 0, unknown: ignored; a full family: ignored). */
void oaf_add(struct oa_family *f, unsigned nr, const struct oa_run *r);
void oaf_judge(const struct oa_family *f, struct oaf_verdict *v);
/* The class of nr in the verdict: fast (also a merge), slow, else inconclusive. */
enum oa_class oaf_class(const struct oaf_verdict *v, unsigned nr);
enum oaf_kind oaf_kind_of(const struct oaf_verdict *v, unsigned nr);
/* Is nr's cost less than twice the threshold of its kind (worth probing again)? */
bool oaf_marginal(const struct oaf_verdict *v, unsigned nr);
/* "verdict: open AUs (linear): 16 fast, 20 slow; ..." and its notes. */
void oaf_print(const struct oaf_verdict *v, bool random);
/*
 * A probe of --find-open-au may stop once its last OAF_STOP_LINES lines
 * each cost a collection's worth (OA_GC_COPY of a copy at the base's
 * rate) more than the base run (one erase block) at the same size: a
 * merge is never stopped, its cost is measured at every size.
 */
#define OAF_STOP_LINES 3
bool oaf_stop_probe(const struct oa_run *base, const struct oa_run *r);
/* "the runs were given two erase sizes, 4MiB (linear) and 8MiB (random)" */
void oaf_note_modes(const struct oa_family *lin, const struct oa_family *rnd);

#endif
