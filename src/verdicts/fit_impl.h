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
/* The linear family, judged again as --find-open-au judged it, without the smallest lines
 * fit_small_skip() tells of c (NULL: every line). */
void fit_judge_linear(const struct fit_input *in, const struct fit_card *c, struct oaf_verdict *v);
/* write-lat and write-bw from the fast linear probes' lines (erase-time left out), but
 * those fit_small_skip() tells of c as it is. */
void fit_writes(const struct fit_input *in, const struct oaf_verdict *v, struct fit_card *c);
/* The small writes' keys, and (one of them found) the family judged again and the writes'
 * keys fitted again without the lines they tell of; v and c as fit_writes() left them. */
void fit_small_first(const struct fit_input *in, struct oaf_verdict *v, struct fit_card *c);
/* subpage-write, small-buffer and small-merge, given the writes' keys (fit_small.c); with
 * twins (t not NULL), the first one's lines tell what else the small lines paid. */
void fit_small(const struct fit_input *in, const struct fit_twins *t, struct fit_card *c);
/* A line of size bytes pays a sub-page write or a buffer's merges as c has them: it tells
 * the other write keys nothing (false for every line where c has neither). */
bool fit_small_skip(const struct fit_card *c, uint64_t size);
/* Its writes go to the buffer; what each pays for writing part of a page (0: nothing). */
bool fit_buffered(const struct fit_card *c, uint64_t size);
double fit_subpage_ns(const struct fit_card *c, uint64_t size);
/* The first complete probe of nr erase blocks in that order (NULL: none). */
const struct fit_probe *fit_probe_of(const struct fit_input *in, unsigned nr, bool random);
/* open-au-random from the random probes against their linear peers (fit_random.c). */
void fit_random(const struct fit_input *in, const struct vf_facts *f, const struct oaf_verdict *v,
		struct fit_card *c);
/* The relative noise of line k of probe p, per write: the card's jitter (percent) over the
 * line's writes, and its rate printed to three digits (fit_writes.c). */
void fit_line_noise(const struct fit_probe *p, size_t k, double jitter, double *jit, double *round);
/* copy-bw from the smallest slow linear probe, given the writes' keys. */
void fit_copy(const struct fit_input *in, const struct vf_facts *f, struct fit_card *c);

#endif
