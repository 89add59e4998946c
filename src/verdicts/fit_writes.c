/*
 * The card's write keys (fit_card.h): write-lat and write-bw from the
 * lines of the fast linear probes, and, given a twin's lines to tell
 * which of them paid an erase, the erase time too.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "verdicts/fit_impl.h"

#define FIT_WROWS (FIT_PROBES * 8)
/* A line this many times its noise above the fit paid more than the fit knows: left out. */
#define FIT_OUT_SIGMAS 3.0
#define FIT_ROUNDS 6
/* The erase time is said when the fit knows it this well (its standard error, relative). */
#define FIT_ERASE_SURE 0.05

/* One line of a fast linear probe: its size, time per write, the time's noise (the card's
 * jitter over its writes, the rate's rounding), its weight, and the erases per write the
 * twins' same line paid (0 without twins). */
struct wline {
	double x, y, sd, w, r;
};

/* The i-th probe of the twin, linear, of nr erase blocks, where the card's is the i-th linear. */
static const struct fit_probe *twin_probe(const struct fit_input *twin, size_t nth, unsigned nr)
{
	for (size_t i = 0; twin && i < twin->nprobe; i++)
		if (!twin->probe[i].random && nth-- == 0)
			return twin->probe[i].nr == nr ? &twin->probe[i] : NULL;
	return NULL;
}

/* The relative noise of a rate printed to three digits (so_round_rate): a uniform error of
 * a unit of its third digit. */
static double rounding(double rate)
{
	return rate > 0 ? pow(10, floor(log10(rate)) - 2) / rate / sqrt(12) : 0;
}

/*
 * The erases per write line k of the twins' probes a and b paid, their m
 * writes written alike (the second twin's erases took t->erase[1] each,
 * so the difference counts them: a whole number over m); -1 where a twin
 * lacks the line, or paid more there than writes and erases (a
 * collection, a block opened mid-way whose front is copied when it fills:
 * the line is left out, its share of each unknown).
 */
static double twin_erases(const struct fit_twins *t, const struct fit_probe *a,
			  const struct fit_probe *b, size_t k, uint64_t size, double m)
{
	double ta, tb, n, other;

	if (!a || !b || k >= a->agg.n || k >= b->agg.n || a->agg.size[k] != size ||
	    b->agg.size[k] != size)
		return -1;
	ta = oa_write_ns(&a->agg, k);
	tb = oa_write_ns(&b->agg, k);
	n = round((tb - ta) / (t->erase[1] - t->erase[0]) * m) / m;
	other = ta - t->lat - (double)size * 1e9 / t->bw - n * t->erase[0];
	return n >= 0 && fabs(other) <= 3 * (rounding(a->agg.rate[k]) + rounding(t->bw)) * ta ? n : -1;
}

/*
 * The lines of the fast linear probes; with twins, each line's erases per
 * write as the twins paid them (a line they lack is left out).
 */
static size_t write_lines(const struct fit_input *in, const struct oaf_verdict *v,
			  const struct fit_twins *t, double jitter, struct wline *l)
{
	size_t n = 0, nth = 0;

	for (size_t i = 0; i < in->nprobe; i++) {
		const struct fit_probe *p = &in->probe[i], *a = NULL, *b = NULL;

		if (p->random)
			continue;
		if (t)
			a = twin_probe(t->in[0], nth, p->nr), b = twin_probe(t->in[1], nth, p->nr);
		nth++;
		if (oaf_kind_of(v, p->nr) != OAF_FAST)
			continue;
		for (size_t k = 0; k < p->agg.n && n < FIT_WROWS; k++) {
			/* (a line writes its first line's size to each erase block, in m writes) */
			double m = (double)p->nr * (double)p->agg.size[0] / (double)p->agg.size[k];
			struct wline *e = &l[n];

			e->x = (double)p->agg.size[k];
			e->y = oa_write_ns(&p->agg, k);
			e->sd = e->y * hypot(jitter / 100 / sqrt(3 * m), rounding(p->agg.rate[k]));
			e->w = 1 / (e->sd * e->sd);
			e->r = t ? twin_erases(t, a, b, k, p->agg.size[k], m) : 0;
			n += e->r >= 0;
		}
	}
	return n;
}

/*
 * Weighted least squares y = p0 + p1 x (+ p2 r, np 3), the columns scaled
 * to their largest value; the variance of each p[a] in var[a]. False when
 * the columns do not vary apart.
 */
static bool wls(const struct wline *l, size_t n, int np, double *p, double *var)
{
	double m[3][4] = { { 0 } }, inv[3][3] = { { 0 } }, col[3] = { 1, 0, 0 };

	for (size_t i = 0; i < n; i++)
		col[1] = fmax(col[1], l[i].x), col[2] = fmax(col[2], l[i].r);
	for (int a = 0; a < np; a++)
		if (col[a] <= 0)
			return false;
	for (size_t i = 0; i < n; i++) {
		double z[3] = { 1, l[i].x / col[1], l[i].r / col[2] };

		for (int a = 0; a < np; a++) {
			for (int b = 0; b < np; b++)
				m[a][b] += l[i].w * z[a] * z[b];
			m[a][3] += l[i].w * z[a] * l[i].y;
		}
	}
	/* Gauss-Jordan on [m | y], the inverse alongside (for the variance) */
	for (int a = 0; a < np; a++)
		inv[a][a] = 1;
	for (int a = 0; a < np; a++) {
		double d = m[a][a];

		if (!(fabs(d) > 1e-12 * fabs(m[0][0])))
			return false;
		for (int b = 0; b < 4; b++)
			m[a][b] /= d;
		for (int b = 0; b < np; b++)
			inv[a][b] /= d;
		for (int r = 0; r < np; r++) {
			double f = m[r][a];

			if (r == a)
				continue;
			for (int b = 0; b < 4; b++)
				m[r][b] -= f * m[a][b];
			for (int b = 0; b < np; b++)
				inv[r][b] -= f * inv[a][b];
		}
	}
	for (int a = 0; a < np; a++)
		p[a] = m[a][3] / col[a];
	for (int a = 0; a < np; a++)
		var[a] = inv[a][a] / (col[a] * col[a]);
	return true;
}

/* The fit, again without the lines far above it (a cost it does not know: left out). */
static bool robust(struct wline *l, size_t n, int np, double *p, double *var)
{
	bool ok = false, again = true;

	for (int round = 0; round < FIT_ROUNDS && again; round++) {
		if (!(ok = wls(l, n, np, p, var)))
			break;
		again = false;
		for (size_t i = 0; i < n; i++) {
			double fit = p[0] + p[1] * l[i].x + (np > 2 ? p[2] * l[i].r : 0);

			if (l[i].w > 0 && l[i].y - fit > FIT_OUT_SIGMAS * l[i].sd)
				l[i].w = 0, again = true;
		}
	}
	return ok;
}

/* The fit's write-lat and write-bw (erase-time with np 3), each with its standard error. */
static void store(struct fit_card *c, const double *p, const double *var, int np)
{
	double lat = p[0] > 0 ? p[0] : 0, bw = 1e9 / p[1];

	fit_set(c, FK_WRITE_BW, bw);
	c->se[FK_WRITE_BW] = sqrt(var[1]) / p[1] * bw;
	fit_set(c, FK_WRITE_LAT, lat);
	c->se[FK_WRITE_LAT] = sqrt(var[0]);
	if (np > 2 && p[2] > 0 && sqrt(var[2]) < FIT_ERASE_SURE * p[2]) {
		fit_set(c, FK_ERASE_TIME, p[2]);
		c->se[FK_ERASE_TIME] = sqrt(var[2]);
	}
}

/*
 * write-lat and write-bw: a write of s bytes costs write-lat + s / write-bw,
 * in every linear probe the family found fast (no merge, no collection).
 * Each line is weighted by its noise: the card's jitter averaged over the
 * line's writes, so the many small writes of a small line tell the latency
 * and a line of one write hardly counts. A line where an erase block filled
 * pays its erase on top (a few ms over its writes: as if slower): the lines
 * far above the fit are left out and the fit taken again. Which lines paid
 * an erase only the search's history tells (fit_card_erases: a twin's).
 */
void fit_writes(const struct fit_input *in, const struct oaf_verdict *v, struct fit_card *c)
{
	struct wline *l = calloc(FIT_WROWS, sizeof(*l));
	size_t n = l ? write_lines(in, v, NULL, c->known[FK_JITTER] ? c->v[FK_JITTER] : 0, l) : 0;
	double p[3], var[3];

	fit_lack(c, FK_ERASE_TIME, "no twin told which probe lines paid an erase");
	if (robust(l, n, 2, p, var) && p[1] > 0) {
		store(c, p, var, 2);
	} else {
		fit_lack(c, FK_WRITE_LAT, "no fast linear probe");
		fit_lack(c, FK_WRITE_BW, "no fast linear probe");
	}
	free(l);
}

/* Did a line the fit keeps pay an erase? */
static bool any_erase(const struct wline *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (l[i].r > 0 && l[i].w > 0)
			return true;
	return false;
}

/*
 * With the twins' lines: the card's line costs write-lat + s / write-bw
 * plus erase-time for each erase the twins' same line paid per write
 * (the lines where they paid more are left out). A line with an erase no
 * longer bends the fit, and the erase time is said when the fit knows it
 * within FIT_ERASE_SURE. No line with an erase: the plain fit of the
 * lines the twins paid nothing more in.
 */
bool fit_card_erases(const struct fit_input *card, const struct vf_facts *f,
		     const struct fit_twins *t, struct fit_card *c)
{
	struct oaf_verdict *v = calloc(1, sizeof(*v));
	struct wline *l = calloc(FIT_WROWS, sizeof(*l));
	double p[3], var[3];
	size_t n = 0;
	int np = 3;
	bool ok = false;

	if (v && l && t->bw > 0 && t->erase[1] != t->erase[0]) {
		fit_judge_linear(card, v);
		n = write_lines(card, v, t, c->known[FK_JITTER] ? c->v[FK_JITTER] : 0, l);
		np = any_erase(l, n) ? 3 : 2;
		ok = robust(l, n, np, p, var) && p[1] > 0 && (np < 3 || p[2] >= 0);
	}
	if (ok) {
		store(c, p, var, np);
		fit_copy(card, f, c);
	}
	free(v);
	free(l);
	return ok;
}
