/*
 * The parts of the card's fit (fit_card.h) shared by its files: setting a
 * key or saying why it is left out, the linear family judged again, and
 * the keys fitted apart (the writes in fit_writes.c, the collection's
 * copy rate, which follows from them).
 */
#ifndef FB_FIT_IMPL_H
#define FB_FIT_IMPL_H

#include "verdicts/facts.h"
#include "verdicts/fit_card.h"
#include "verdicts/fit_input.h"
#include "verdicts/verdict_oafamily.h"

void fit_set(struct fit_card *c, enum fit_key k, double v);
void fit_lack(struct fit_card *c, enum fit_key k, const char *why);
/* The linear family, judged again as --find-open-au judged it. */
void fit_judge_linear(const struct fit_input *in, struct oaf_verdict *v);
/* write-lat and write-bw from the fast linear probes (erase-time left out). */
void fit_writes(const struct fit_input *in, const struct oaf_verdict *v, struct fit_card *c);
/* open-au-random from the random probes against their linear peers (fit_random.c). */
void fit_random(const struct fit_input *in, const struct vf_facts *f, const struct oaf_verdict *v,
		struct fit_card *c);
/* copy-bw from the smallest slow linear probe, given the writes' keys. */
void fit_copy(const struct fit_input *in, const struct vf_facts *f, struct fit_card *c);

#endif
