/*
 * The card's open-au-random (fit_card.h): from the random probes held
 * against their linear peers, each judged by what its lines cost beyond
 * the peer's, out of the lines' noise.
 */
#include <math.h>
#include <stddef.h>

#include "verdicts/fit_impl.h"

/*
 * The linear probe a random probe of nr erase blocks is held against:
 * nr's own, else the smallest larger one the linear family found fast
 * (a merge regime's cost is then in both), else the largest smaller one.
 */
static const struct fit_probe *linear_peer(const struct fit_input *in, const struct oaf_verdict *v,
					   unsigned nr)
{
	const struct fit_probe *up = NULL, *down = NULL, *p;

	for (size_t i = 0; i < in->nprobe; i++) {
		p = &in->probe[i];
		if (p->random || p->agg.n < 2)
			continue;
		if (p->nr == nr)
			return p;
		if (p->nr > nr && oaf_kind_of(v, p->nr) == OAF_FAST && (!up || p->nr < up->nr))
			up = p;
		if (p->nr < nr && (!down || p->nr > down->nr))
			down = p;
	}
	return up ? up : down;
}

/*
 * What a random-mode erase block pays per write of s bytes beyond a
 * linear write of them: it writes whole pages (sim_model.h), the pages
 * the chunks of an erase block touch on average (a chunk of 3 x 2^n bytes
 * crosses page boundaries).
 */
static double page_pad(double erase, double page, double s, double bw)
{
	uint64_t p = (uint64_t)page, len = (uint64_t)s, n = 0, pages = 0;

	if (!p || !len || bw <= 0)
		return 0;
	for (uint64_t o = 0; o + len <= (uint64_t)erase; o += len, n++)
		pages += (o + len - 1) / p - o / p + 1;
	return n ? fmax(0, (double)pages / (double)n * page - s) * 1e9 / bw : 0;
}

/*
 * Does the random probe write as its linear peer (its erase blocks all
 * in random-write slots)? Its first two lines (one and two writes per
 * erase block) write forward; the third turns an erase block with a
 * slot to random mode on its first backward write (and may pay for
 * slots the probes before still held: their erase blocks are copied
 * whole as they give them back). From the fourth line on an erase block
 * with a slot pays only its pages (page_pad), one without collects on
 * about half its backward writes, a copy of most of an erase block each.
 * What a line costs over its peer, in all (a write's excess times the
 * line's writes), is measured in copies at the write rate, scaled as if
 * each erase block were written whole (a line writes an eighth of each,
 * FAU_FRACTION in modules/findopenau.c): an erase block without a slot
 * collects 4 times or more in the fourth line (32 so scaled), the one
 * merge a slot the probe before still held costs (fakecard sd4m's N = 3
 * after 4; logstick's merges of its log, 4 ms a write, differing by 1.7%
 * between the orders) is one copy (8). Collecting above FIT_RANDOM_COPY,
 * a whole copy in the line; as linear below FIT_RANDOM_NONE, half of one;
 * each line's excess beyond its noise (line_noise). With no fourth line
 * the third is read as before: FIT_RANDOM_COPIES copies a line per erase
 * block collect.
 * 1: as linear, 0: collects, -1: nothing to tell (no peer, too few lines).
 */
#define FIT_RANDOM_COPY 8.0
#define FIT_RANDOM_NONE 4.0
#define FIT_RANDOM_COPIES 2.0
/* A difference of two lines within this many times its noise is none. */
#define FIT_RANDOM_SIGMAS 3.0

/*
 * The noise of a probe's line i, per write (ns): the card's jitter over
 * the line's writes, and its rate printed to three digits. Two lines
 * of a card with dear writes differ by that much on their own (where
 * every write pays a 4 ms merge of the card's log, about 8 us a write at
 * 16 KiB: a tenth of a copy so scaled), and it is no cost of the order.
 */
static double line_noise(const struct fit_probe *p, size_t i, double jitter)
{
	double jit, round;

	fit_line_noise(p, i, jitter, &jit, &round);
	return oa_write_ns(&p->agg, i) * hypot(jit, round);
}
static int random_as_linear(const struct fit_input *in, const struct oaf_verdict *v,
			    const struct fit_card *c, const struct fit_probe *p)
{
	const struct fit_probe *lin = linear_peer(in, v, p->nr);
	double page = c->known[FK_PAGE] ? c->v[FK_PAGE] : 0, copy, e = c->v[FK_ERASE], worst = 0;
	double j = c->known[FK_JITTER] ? c->v[FK_JITTER] : 0;
	int seen = 0;

	if (!lin || !c->known[FK_ERASE] || !c->known[FK_WRITE_BW])
		return -1;
	copy = e * 1e9 / c->v[FK_WRITE_BW];
	/* (buffered writes collect in no order: their lines tell no slot; a sub-page write
	 * costs its peer as much, but a small line's error, times its many writes, looks
	 * like a copy: the lines of whole pages first) */
	for (int pass = 0; pass < 2 && !seen; pass++)
		for (size_t i = p->agg.n > 3 ? 3 : 2; i < p->agg.n; i++)
			for (size_t k = 0; k < lin->agg.n; k++) {
				double s = (double)p->agg.size[i], x;

				if (lin->agg.size[k] != p->agg.size[i] ||
				    (pass ? fit_buffered : fit_small_skip)(c, p->agg.size[i]))
					continue;
				x = oa_write_ns(&p->agg, i) - oa_write_ns(&lin->agg, k);
				if (i == 2 && (s < page || x * e / s > FIT_RANDOM_COPIES * copy))
					return s < page ? -1 : 0;
				x -= page_pad(e, page, s, c->v[FK_WRITE_BW]);
				/* (what stands out of the two lines' noise) */
				x = x > 0 ? fmax(0, x - FIT_RANDOM_SIGMAS *
							    hypot(line_noise(p, i, j), line_noise(lin, k, j)))
					  : x;
				worst = fmax(worst, x * e / s * p->nr / copy);
				seen = 1;
			}
	if (!seen)
		return -1;
	return worst > FIT_RANDOM_COPY ? 0 : worst < FIT_RANDOM_NONE ? 1 : -1;
}

/*
 * open-au-random from the random probes themselves, not the random
 * family's bracket: the family judges each N against the fewest N's cost,
 * so a card with no random-write slot (every N collecting alike) gets the
 * linear bracket back. The count is the largest N written as linear, with
 * every N probed below it as linear and N + 1 probed and collecting.
 */
void fit_random(const struct fit_input *in, const struct vf_facts *f, const struct oaf_verdict *v,
		struct fit_card *c)
{
	const struct oa_bracket *lin = &f->oa[0];
	unsigned fast = 0, slow = 0;
	unsigned top = lin->slow == lin->fast + 1 || (!lin->slow && c->atleast[FK_OPEN_AU])
		       ? lin->fast : 0;
	bool mixed = false, any = false;

	for (size_t i = 0; i < in->nprobe; i++) {
		const struct fit_probe *p = &in->probe[i];
		int r;

		/* (above the linear count, linear writes collect too: nothing to tell) */
		any |= p->random;
		if (!p->random || p->nr > top || (r = random_as_linear(in, v, c, p)) < 0)
			continue;
		if (r && p->nr > fast)
			fast = p->nr;
		if (!r && (!slow || p->nr < slow))
			slow = p->nr;
	}
	mixed = slow && fast > slow;
	/* (the probes' erase blocks in the FAT area take random writes without a slot; the
	 * random search writes the first N erase blocks, no cap) */
	if (slow && slow == fast + 1 && !mixed)
		fit_set(c, FK_OPEN_AU_RANDOM, fast - fit_in_fat(in, c, fast));
	else if (!slow && top && fast == top && c->known[FK_OPEN_AU]) {
		/* (every open erase block takes random writes: the count is open-au's) */
		fit_set(c, FK_OPEN_AU_RANDOM, c->v[FK_OPEN_AU]);
		c->atleast[FK_OPEN_AU_RANDOM] = c->atleast[FK_OPEN_AU];
	}
	else if (!any)
		fit_lack(c, FK_OPEN_AU_RANDOM, "no random probe (the random search did not run)");
	else
		fit_lack(c, FK_OPEN_AU_RANDOM, mixed ? "a random probe collected below one that did not"
		     : "no random probe of N written as linear next to one of N + 1 collecting");
}

