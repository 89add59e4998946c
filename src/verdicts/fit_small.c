/*
 * The card's small writes (fit_card.h): what a write below the page pays
 * (subpage-write), and a buffer for the smallest writes (small-buffer,
 * small-merge), read off the fast linear probes once write-lat and
 * write-bw are known.
 *
 * The two show apart: a sub-page write pays the same with 1 erase block
 * as with several, a buffered one pays its merge only when the write
 * before it went to another erase block -- with 1 erase block never, in
 * a probe of N >= 2 (which writes its erase blocks in turn) on every
 * write. So the probe of 1 erase block tells the sub-page cost, and the
 * others, against it line by line, the buffer.
 */
#include <math.h>
#include <stdlib.h>

#include "core/stats.h"
#include "verdicts/fit_impl.h"

/* A cost beyond the model stands out of a line's noise (jitter averaged over its writes,
 * the rate's rounding) when it is this much of the line's cost, and at least
 * FIT_SMALL_MIN: above an erase shared by a small line's writes (5 ms over 32). */
#define FIT_SMALL_FRAC 0.05
#define FIT_SMALL_MIN 250e3

static bool stands_out(double extra, double cost)
{
	return extra > FIT_SMALL_FRAC * cost && extra > FIT_SMALL_MIN;
}

/* Does a line of size bytes write part of a page: its writes lie at multiples of the size,
 * so each starts or ends off a page boundary unless the size is a multiple of the page
 * (a 24KiB line on 16KiB pages does too). */
static bool partial(const struct fit_card *c, uint64_t size)
{
	uint64_t page = c->known[FK_PAGE] ? (uint64_t)c->v[FK_PAGE] : 0;

	return page && size % page;
}

bool fit_small_skip(const struct fit_card *c, uint64_t size)
{
	return ((c->known[FK_SUBPAGE] || c->pages_only) && partial(c, size)) ||
	       (c->known[FK_SMALL_BUFFER] && (double)size <= c->v[FK_SMALL_BUFFER]);
}

bool fit_buffered(const struct fit_card *c, uint64_t size)
{
	return c->known[FK_SMALL_BUFFER] && (double)size <= c->v[FK_SMALL_BUFFER];
}

double fit_subpage_ns(const struct fit_card *c, uint64_t size)
{
	return c->known[FK_SUBPAGE] && partial(c, size) ? c->v[FK_SUBPAGE] : 0;
}

/* What line i's writes cost beyond write-lat and their transfer, ns. */
static double beyond(const struct fit_card *c, const struct oa_run *r, size_t i)
{
	return oa_write_ns(r, i) - c->v[FK_WRITE_LAT] - (double)r->size[i] * 1e9 / c->v[FK_WRITE_BW];
}

/*
 * What the card's line k of probe p paid beyond the first twin's same
 * line, in *x: the twin has the card's history, so the erases and the
 * rest that line paid are in both, and what the card paid more is its
 * own small cost beyond the twin's. False: no twin, or not that line.
 */
static bool past_twin(const struct fit_input *in, const struct fit_twins *t,
		      const struct fit_probe *p, size_t k, double *x)
{
	size_t nth = 0;

	if (!t || !t->in[0])
		return false;
	for (const struct fit_probe *q = in->probe; q < p; q++)
		nth += q->random == p->random;
	for (size_t i = 0; i < t->in[0]->nprobe; i++) {
		const struct fit_probe *q = &t->in[0]->probe[i];

		if (q->random != p->random || nth--)
			continue;
		if (q->nr != p->nr || k >= q->agg.n || q->agg.size[k] != p->agg.size[k])
			return false;
		*x = oa_write_ns(&p->agg, k) - oa_write_ns(&q->agg, k);
		return true;
	}
	return false;
}

/* Does line k of a probe fill its erase blocks (each line writes the first line's size
 * to each, from the start of a fresh one): it pays their erases too. */
static bool fills(const struct fit_card *c, const struct oa_run *r, size_t k)
{
	uint64_t e = c->known[FK_ERASE] ? (uint64_t)c->v[FK_ERASE] : 0;

	return e && (k + 1) * r->size[0] / e > k * r->size[0] / e;
}

/*
 * subpage-write: the median of what the probe of 1 erase block's lines
 * below the page pay beyond their writes: with twins, the first twin's
 * sub-page cost and what the card paid more than it; without, their
 * cost beyond write-lat and the transfer, but for a line where its erase
 * block filled (it pays the erase too) unless every one did. That probe
 * comes first, on a fresh erase block, and no buffered write before it
 * makes its first one merge.
 */
static void fit_subpage(const struct fit_input *in, const struct fit_twins *t, struct fit_card *c)
{
	const struct fit_probe *one = fit_probe_of(in, 1, false);
	double x[OA_MAX_LINES], med, more, se;
	size_t n = 0;

	if (!c->known[FK_PAGE] || !one) {
		fit_lack(c, FK_SUBPAGE, "no page, or no linear probe of 1 erase block");
		return;
	}
	for (size_t i = 0; one && i < one->agg.n; i++)
		if (partial(c, one->agg.size[i]) && past_twin(in, t, one, i, &more))
			x[n++] = t->subpage + more;
	for (int pass = 0; pass < 2 && !n; pass++)
		for (size_t i = 0; i < one->agg.n; i++)
			if (partial(c, one->agg.size[i]) && (pass || !fills(c, &one->agg, i)))
				x[n++] = beyond(c, &one->agg, i);
	if (!n) {
		fit_lack(c, FK_SUBPAGE, "the survey wrote no block below the page (a --blocksize "
			 "below it shows the cost)");
		return;
	}
	med = stats_median(x, n);
	/* (what write-lat and write-bw are not sure of, a sub-page write is not either: a
	 * card of few whole-page lines tells it roughly, and a cost within 3 of that none) */
	se = hypot(c->se[FK_WRITE_LAT], c->se[FK_WRITE_BW] / c->v[FK_WRITE_BW] * c->v[FK_PAGE] / 2 *
		   1e9 / c->v[FK_WRITE_BW]);
	if (stands_out(med, c->v[FK_WRITE_LAT] + c->v[FK_PAGE] / 2 * 1e9 / c->v[FK_WRITE_BW]) &&
	    med > 3 * se) {
		fit_set(c, FK_SUBPAGE, med);
		c->se[FK_SUBPAGE] = se;
	} else
		fit_lack(c, FK_SUBPAGE, NULL);	/* (they pay nothing: none, the default) */
}

/*
 * Probe p's buffered lines: the smallest ones below the page that each pay
 * more than the same line of the probe of 1 (one), and about as much as the smallest
 * (a merge costs the same whatever a write's size: within FIT_MERGE_SAME
 * of it), in *d what they pay beyond it (at most OA_MAX_LINES). The size
 * of the largest of them; 0: none pays; UINT64_MAX: every line pays (a
 * merge regime of the log: nothing told).
 */
#define FIT_MERGE_SAME 1.25
static uint64_t buffered(const struct oa_run *p, const struct oa_run *one, double page, double *d,
			 size_t *nd, uint64_t *next)
{
	size_t k = p->n;

	*nd = 0;
	while (k > 0) {
		size_t j = 0;
		double x;

		while (j < one->n && one->size[j] != p->size[k - 1])
			j++;
		if (j == one->n)
			break;
		x = oa_write_ns(p, k - 1) - oa_write_ns(one, j);
		if (!stands_out(x, oa_write_ns(one, j)) ||
		    (*nd && (x > FIT_MERGE_SAME * d[0] || FIT_MERGE_SAME * x < d[0])))
			break;
		/* (a buffer for writes below the page: where a line of whole pages pays as much,
		 * every write does, a merge regime of the log) */
		if ((double)p->size[k - 1] >= page)
			return UINT64_MAX;
		d[(*nd)++] = x;
		k--;
	}
	*next = k ? p->size[k - 1] : 0;
	return k == p->n ? 0 : k == 0 ? UINT64_MAX : p->size[k];
}

/*
 * The merges of probe p's k buffered lines (its last), in d: with twins,
 * the first twin's merge and what the card paid more than it (where the
 * twin has each line), as buffered() had them beyond the probe of 1.
 */
static void merges(const struct fit_input *in, const struct fit_twins *t, const struct fit_probe *p,
		   size_t k, double *d)
{
	double x[OA_MAX_LINES];
	size_t n = 0;

	for (size_t i = p->agg.n - k; i < p->agg.n; i++)
		if (past_twin(in, t, p, i, &x[n]))
			x[n++] += t->merge;
	for (size_t i = 0; n == k && i < k; i++)
		d[i] = x[i];
}

/* A linear probe of 2 erase blocks or more that reached below the page (whatever the
 * family judged it: a buffer's merges may make it look slow). */
static bool small_probe(const struct fit_probe *p, const struct fit_card *c)
{
	return !p->random && p->nr >= 2 && p->agg.n >= 2 &&
	       (double)p->agg.size[p->agg.n - 1] < c->v[FK_PAGE];
}

/*
 * small-buffer, small-merge from the linear probes of 2 erase blocks or
 * more that reached below the page: the largest line that pays over the
 * probe of 1 in every such probe (one whose erase blocks a probe before
 * left half written pays in larger lines too), and the median of what the
 * lines up to it pay. A probe whose every line pays (a merge regime of the
 * log, a collection) tells nothing.
 */
static void fit_buffer(const struct fit_input *in, const struct fit_twins *t, struct fit_card *c)
{
	const struct fit_probe *one = c->known[FK_PAGE] ? fit_probe_of(in, 1, false) : NULL;
	double d[FIT_PROBES * OA_MAX_LINES];
	uint64_t size = UINT64_MAX, next = 0;
	size_t nd = 0, k;
	bool any = false, reached = false;

	for (size_t i = 0; one && i < in->nprobe; i++) {
		const struct fit_probe *p = &in->probe[i];
		uint64_t s;

		if (!small_probe(p, c))
			continue;
		reached = true;
		s = buffered(&p->agg, &one->agg, c->v[FK_PAGE], d + nd, &k, &next);
		if (s == UINT64_MAX)
			continue;
		any = true;
		size = s < size ? s : size;
	}
	/* (the merges of the lines up to the size every probe paid at) */
	for (size_t i = 0; any && size && i < in->nprobe; i++) {
		const struct fit_probe *p = &in->probe[i];
		uint64_t s;

		if (!small_probe(p, c) || (s = buffered(&p->agg, &one->agg, c->v[FK_PAGE], d + nd, &k, &next)) == UINT64_MAX)
			continue;
		while (k && p->agg.size[p->agg.n - k] > size)
			k--;
		merges(in, t, p, k, d + nd);
		nd += k;
		next = p->agg.size[p->agg.n - k - 1];
	}
	fit_lack(c, FK_SMALL_MERGE, NULL);
	/* (where no line of the probe of 1 is below the page either, subpage-write's note
	 * says so for both) */
	if (!any && reached)
		/* (a merge regime of the log, or collections: every line pays, a buffer
		 * cannot show) */
		fit_lack(c, FK_SMALL_BUFFER, "the probes of 2 erase blocks or more paid alike on "
			 "every line, whole pages too (a merge of the card's log): a buffer could "
			 "not show (with small-merge)");
	else if (!any && one && (double)one->agg.size[one->agg.n - 1] < c->v[FK_PAGE])
		fit_lack(c, FK_SMALL_BUFFER, "no linear probe of 2 erase blocks or more reached "
			 "below the page (with small-merge)");
	else if (!any)
		fit_lack(c, FK_SMALL_BUFFER, NULL);
	else if (!size || !nd)
		fit_lack(c, FK_SMALL_BUFFER, NULL);	/* (no small line pays: none, the default) */
	else {
		fit_set(c, FK_SMALL_BUFFER, (double)size);
		c->buffer_next = (double)next;
		fit_set(c, FK_SMALL_MERGE, stats_median(d, nd));
	}
}

void fit_small(const struct fit_input *in, const struct fit_twins *t, struct fit_card *c)
{
	if (!c->known[FK_WRITE_LAT] || !c->known[FK_WRITE_BW] || c->v[FK_WRITE_BW] <= 0) {
		fit_lack(c, FK_SUBPAGE, "no write rate");
		fit_lack(c, FK_SMALL_BUFFER, "no write rate (with small-merge)");
		fit_lack(c, FK_SMALL_MERGE, NULL);
		return;
	}
	fit_subpage(in, t, c);
	fit_buffer(in, t, c);
}

/*
 * The small writes' keys, and the writes' keys without the lines they
 * tell of. A sub-page cost bends a fit over every line (c's, as
 * fit_writes() left it), so the writes' keys are taken from the lines of
 * whole pages (c's stand only where those tell none), and the small
 * lines read against them; a small key found, the family is judged again
 * without the lines it tells of, and the writes fitted again on the rest.
 */
void fit_small_first(const struct fit_input *in, struct oaf_verdict *v, struct fit_card *c)
{
	struct fit_card *w = malloc(sizeof(*w));

	if (w) {
		*w = *c;
		w->pages_only = true;
		fit_writes(in, v, w);
		w->pages_only = false;
		if (w->known[FK_WRITE_LAT] && w->known[FK_WRITE_BW])
			*c = *w;
		free(w);
	}
	fit_small(in, NULL, c);
	if (!c->known[FK_SUBPAGE] && !c->known[FK_SMALL_BUFFER])
		return;
	fit_judge_linear(in, c, v);
	fit_writes(in, v, c);
	fit_small(in, NULL, c);
}
