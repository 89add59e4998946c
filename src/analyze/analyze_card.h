/*
 * --analyze of a saved survey: the card as a sim: spec again
 * (verdicts/fit_card.h), fitted from the survey's lines as it read them
 * -- the align rows, the read sweep, the probes of both searches and
 * find-fat's table -- and the verdicts --analyze printed from them.
 */
#ifndef FB_ANALYZE_CARD_H
#define FB_ANALYZE_CARD_H

#include <stdbool.h>

#include "verdicts/fit_input.h"

struct ac_state {
	struct fit_input in;
	bool survey;		/* a survey's random search was seen */
	bool random, fat;	/* the probe lines are random ones; find-fat's table */
	unsigned nr;		/* the probe's N */
	uint64_t probe_bs;	/* the searches' block size, as their header says (0: not said) */
	uint64_t align_min;	/* the smallest boundary of -a's power-of-two rows (0: none) */
};

void ac_reset(struct ac_state *s);
/* One line of the saved output (text, or what --analyze made of its JSON). */
void ac_line(struct ac_state *s, const char *line);
/* After the verdicts: "card: sim:..." when the input was a survey. */
void ac_end(const struct ac_state *s);

#endif
