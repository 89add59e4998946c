/*
 * The open-AU answer of a family of runs on one card: a shell loop's
 * --open-au runs, the probes of --find-open-au, several runs in one
 * paste. Each run is judged by what one write costs at the smallest block
 * size all of them reached (the common size), beyond moving its bytes at
 * the card's own write rate (the best rate of the family):
 *
 *   - garbage collection: of the order of copying an erase block at that
 *     rate (at least OA_GC_COPY of the copy estimate);
 *   - fast: no more than OAF_JUMP times the cheapest run's cost (a
 *     command's overhead, partial pages: what every run pays);
 *   - a merge regime: a second, intermediate cost below the collections
 *     of runs with more erase blocks (the card writes a few erase blocks
 *     at full speed and merges its log for more, up to its open-AU limit);
 *     in random order only one far below them (at most a ninth): nearer,
 *     some of the writes collect (erase blocks left without a random-write
 *     slot), which is slow;
 *   - an intermediate cost with no collection above it: a cheap collection
 *     (the card copies inside faster than it writes) when the same cost
 *     holds up to twice the N where it starts, else it cannot tell.
 *
 * The cutoff lies where the cost jumps to the collection. The erase size
 * is the largest the runs were given, twice that when a run's lines
 * alternate fast and slow (oa_alternates: the size given is half the
 * card's). Used by --analyze and --find-open-au, so the search and the
 * paste of it say the same.
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

enum oaf_kind { OAF_FAST, OAF_MERGE, OAF_ELEVATED, OAF_CHEAP_GC, OAF_PART_GC, OAF_GC };

struct oa_family {
	bool random;			/* the runs wrote in random order (set by the caller) */
	size_t n;
	unsigned nr[OAF_MAX];
	struct oa_run run[OAF_MAX];
};

struct oaf_verdict {
	size_t n;			/* distinct N judged, in increasing order */
	unsigned nr[OAF_MAX];
	double cost[OAF_MAX];		/* ns per write at the common size (an N's cheapest run) */
	double extra[OAF_MAX];		/* ...beyond its transfer */
	double extra2[OAF_MAX];		/* ...and at twice the common size (-1: none) */
	enum oaf_kind kind[OAF_MAX];
	uint64_t common;		/* the common block size (0: no run to judge) */
	uint64_t erase;			/* the erase size copied */
	uint64_t given_lo, given_hi;	/* the smallest and largest erase size the runs were given */
	uint64_t given;			/* the erase size an alternating run was given (0: none) */
	double rate, copy_ns;		/* the card's write rate, the copy estimate */
	double floor;			/* the cheapest N's cost beyond transfer (at least its noise) */
	unsigned fast, slow;		/* largest fast N below the cutoff, smallest slow N */
	unsigned inconclusive;		/* smallest N that cannot be told (0: none) */
	unsigned merge_from;		/* smallest N in a merge regime (0: none) */
	unsigned cheap_top;		/* cheap collection: the largest N showing it */
	double merge_ns, gc_ns, inc_ns;	/* what a write costs there (and where it cannot tell) */
	bool contradicts;		/* a fast N above a slow one */
	bool random;			/* as the family's */
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
 * each cost clearly more than the base run (one erase block) at the same
 * size: its regime is plain, what it is the family tells (a merge is not
 * stopped as a collection: the stop names neither).
 */
#define OAF_STOP_LINES 3
bool oaf_stop_probe(const struct oa_run *base, const struct oa_run *r);
/* "the runs were given two erase sizes, 4MiB (linear) and 8MiB (random)" */
void oaf_note_modes(const struct oa_family *lin, const struct oa_family *rnd);

#endif
