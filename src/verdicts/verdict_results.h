/*
 * What the align, open-AU and find-fat verdicts conclude, as data: the
 * types that the verdicts fill (verdict_align.c, verdict_openau.c,
 * verdict_findfat.c) and the facts of a run keep (facts.h), and the
 * open-AU bracket's bookkeeping (verdict_results.c). Apart from both, so
 * that the verdicts record into the facts without the facts needing the
 * verdicts' code: no circle between the units (tests/cli/layers.sh).
 */
#ifndef FB_VERDICT_RESULTS_H
#define FB_VERDICT_RESULTS_H

#include <stdbool.h>
#include <stdint.h>

/* ---- align (verdict_align.h) */

/* Page steps are looked for at or below this boundary, erase steps above. */
#define VA_PAGE_MAX (64 * 1024)
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

/* ---- open AUs (verdict_openau.h) */

enum oa_class { OA_INCONCLUSIVE, OA_FAST, OA_SLOW };

/*
 * The search result, and what --analyze concludes from several runs. An N
 * measured more than once counts as its best result: a slow episode of
 * the card (or the host) looks like garbage collection for a while, but
 * nothing makes a card that collects garbage at N look fast.
 */
#define OA_BRACKET_N 4096	/* N from 1 to this (--open-au-nr's limit) are remembered */

struct oa_bracket {
	unsigned fast;		/* largest N found fast (0: none) */
	unsigned slow;		/* smallest N found slow (0: none) */
	unsigned inconclusive;	/* smallest inconclusive N above fast (0: none) */
	bool contradicts;	/* a fast N above a slow one */
	unsigned char best[OA_BRACKET_N + 1];	/* per N: 0 unseen, else 1 + enum oa_class */
};

void oa_bracket_init(struct oa_bracket *b);
void oa_bracket_add(struct oa_bracket *b, unsigned nr, enum oa_class c);

/* ---- find-fat (verdict_findfat.h) */

enum ff_state { FF_CANNOT, FF_NONE, FF_AREA, FF_UNCERTAIN };

struct ff_result {
	enum ff_state state;
	unsigned area;		/* FF_AREA: erase blocks at the start that stay fast */
	bool random;		/* written with --random */
	char why[400];
};

#endif
