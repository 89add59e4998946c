/*
 * How close the card's twin came (the simulated card of its fitted spec,
 * running the survey's tests again: modules/survey_twin.c), row by row
 * and verdict by verdict:
 *
 *   twin: -a 37 of 37 rows within the card's noise; erase block and page
 *   as the card; open AUs linear 6/7 and random 2/3 as the card; FAT
 *   area as the card; N=1 rows within 1.2%
 *
 * Where the twin misses, it names the part of the model that could not
 * reproduce the card (a finding about the card, not a failure). Pure.
 */
#ifndef FB_FIT_TWIN_H
#define FB_FIT_TWIN_H

#include <stdbool.h>

#include "verdicts/facts.h"
#include "verdicts/fit_input.h"

/* A row is within the card's noise when it differs by at most this many times
 * the table's row-to-row noise, or this fraction of its value (a card without noise). */
#define TWIN_NOISES 3.0
#define TWIN_FRACTION 0.05
/* ...and its plain reads within this fraction of the card's. */
#define TWIN_PLAIN 0.1

/* What the twin's survey measured and concluded. */
struct twin_result {
	struct vf_facts facts;
	struct fit_input in;
};

struct twin_judgement {
	unsigned align_rows, align_close;	/* -a rows in both; within the card's noise */
	bool erase_same, page_same;
	bool lin_same, rnd_same, fat_same;
	double n1_worst;			/* the N=1 linear rows' largest difference, % (-1: none) */
	double read_worst;			/* the read sweep's, % (-1: none) */
	bool same;				/* every verdict as the card's */
};

void twin_judge(const struct fit_input *card, const struct vf_facts *cf,
		const struct twin_result *twin, struct twin_judgement *j);
/* "twin: ..." (a verdict record named twin: same or differs) from a judgement. */
void twin_print(const struct twin_judgement *j, const struct vf_facts *cf,
		const struct twin_result *twin);

#endif
