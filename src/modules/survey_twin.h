/*
 * The fidelity check of the card's fit: the survey's tests run again on
 * the simulated card its spec describes (the twin, on the virtual clock),
 * and how close the twin came, row by row and verdict by verdict:
 *
 *   twin: -a 37 of 37 rows within the card's noise; open AUs linear 6/7
 *   and random 2/3 as the card; FAT area as the card; N=1 rows within 1.2%
 *
 * Where the twin misses, it names the part of the model that could not
 * reproduce the card (a finding about the card, not a failure).
 */
#ifndef FB_SURVEY_TWIN_H
#define FB_SURVEY_TWIN_H

#include <stdbool.h>

#include "core/opts.h"
#include "verdicts/fit_card.h"
#include "verdicts/fit_twin.h"

/*
 * Run the survey's tests with the card's options o on sim:spec, in a
 * child process whose output goes nowhere (the card's own run, its
 * output, its facts and its write guard stay as they are). page: the
 * page the card's read sweep used. 0, or -1 with a message on stderr.
 */
int twin_survey(const struct fb_opts *o, const char *spec, uint64_t page, struct twin_result *r);

/*
 * The fit refined on its twin: the survey's search visits erase blocks
 * in an order whose history (slots still held by the probes before, the
 * FAT area among them) no formula follows, so the twin runs the same
 * search and the keys move by what it missed: open-au, open-au-random
 * and fat-aus by the difference of the brackets and the FAT area,
 * write-lat by that of a small write of one erase block, copy-bw by the
 * ratio of the collections' costs. At most TWIN_ROUNDS runs; the spec
 * whose twin missed the fewest verdicts is kept, of those the one whose
 * rows (find-fat's table, the open-AU probes' lines) lie closest to the
 * card's, and its run in *last (0, or -1 when no twin ran).
 */
#define TWIN_ROUNDS 6
int twin_refine(const struct fb_opts *o, uint64_t page, const struct fit_input *card,
		const struct vf_facts *cf, struct fit_card *c, struct twin_result *last);

#endif
