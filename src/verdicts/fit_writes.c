/*
 * The card's write keys (fit_card.h): write-lat and write-bw from the
 * lines of the fast linear probes; given twins to tell what each line of
 * the card's probes paid beyond its writes (erases, copies), the erase
 * time and the copy rate too.
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
/* The columns of the fit: a write's latency, its bytes, its erases, the bytes it copies. */
enum { COL_LAT, COL_BYTES, COL_ERASES, COL_COPIED, NCOL };

/* One line of a probe: what it costs per write, the cost's noise (the card's jitter over
 * its writes, the rate's rounding), its weight, and per write the column's amount. */
struct wline {
	double y, sd, w, z[NCOL];
	double jit, round;	/* the two parts of sd, relative */
	double extra;		/* what the twin paid beyond the columns (a copying line's merges) */
	double twin;		/* the first twin's cost of the line */
};

/* The twin's probe of nr erase blocks where the card's is the nth of its mode (random or not). */
static const struct fit_probe *twin_probe(const struct fit_input *twin, bool random, size_t nth,
					  unsigned nr)
{
	for (size_t i = 0; twin && i < twin->nprobe; i++)
		if (twin->probe[i].random == random && nth-- == 0)
			return twin->probe[i].nr == nr ? &twin->probe[i] : NULL;
	return NULL;
}

/* The relative noise of a rate printed to three digits (so_round_rate): a uniform error of
 * a unit of its third digit. */
static double rounding(double rate)
{
	return rate > 0 ? pow(10, floor(log10(rate)) - 2) / rate / sqrt(12) : 0;
}

/* A line writes its first line's size to each erase block, in m writes: the jitter over
 * them (uniform, relative), and its rate's rounding. */
void fit_line_noise(const struct fit_probe *p, size_t k, double jitter, double *jit, double *round)
{
	double m = (double)p->nr * (double)p->agg.size[0] / (double)p->agg.size[k];

	*jit = jitter / 100 / sqrt(3 * m);
	*round = rounding(p->agg.rate[k]);
}

/*
 * Line k (m writes of size bytes) as the three twins paid it: the first
 * as the spec said, the second with its erases t->erase[1] each, the
 * third copying at t->copy[1]. The differences count the erases per write
 * (a whole number over m) and the bytes copied per write. False where a
 * twin lacks the line, or where the first paid more than its writes, its
 * erases and its copies (a merge, a random-mode write: the line is left
 * out, its share of each unknown) -- unless the line copied: its copies
 * tell the copy rate, what the twin paid beyond them (l->extra: the merges
 * of the spec's log-merge) taken as known.
 */
static bool twin_line(const struct fit_twins *t, const struct fit_probe *const *p, size_t k,
		      uint64_t size, double m, struct wline *l)
{
	double tt[3], tol = 0, other;

	for (int i = 0; i < 3; i++) {
		if (!p[i] || k >= p[i]->agg.n || p[i]->agg.size[k] != size)
			return false;
		tt[i] = oa_write_ns(&p[i]->agg, k);
		tol = fmax(tol, 3 * rounding(p[i]->agg.rate[k]) * tt[i]);
	}
	l->twin = tt[0];
	l->z[COL_ERASES] = fmax(0, round((tt[1] - tt[0]) / (t->erase[1] - t->erase[0]) * m) / m);
	/* (two lines apart by their rounding alone copied nothing) */
	l->z[COL_COPIED] = tt[2] - tt[0] <= 2 * tol ? 0 :
			   (tt[2] - tt[0]) / (1e9 / t->copy[1] - 1e9 / t->copy[0]);
	other = tt[0] - t->lat - (double)size * 1e9 / t->bw - l->z[COL_ERASES] * t->erase[0] -
		l->z[COL_COPIED] * 1e9 / t->copy[0];
	/* (the copies are told by a difference of two rounded lines: their error thrice) */
	l->extra = 0;
	if (fabs(other) <= 3 * tol)
		return true;
	/* (a line that copied, and paid a merge besides: the copies, the merge as the twin's,
	 * where the copies cost the most of the two) */
	l->extra = other;
	return l->z[COL_COPIED] > 0 && other > 0 && other < l->z[COL_COPIED] * 1e9 / t->copy[0];
}

/*
 * A random probe's line that copied where the twin's cost is not the
 * card's: its copies are the twin's random-slot rule's, not the card's
 * (fakecard logstick: its random probes merge at 5 ms a write where a twin
 * with too few random slots collects at 45 ms, copy-bw 6x high). Its
 * cost tells nothing of the copy rate.
 */
#define FIT_RANDOM_LIKE 1.5
static bool unlike(const struct wline *l)
{
	return l->z[COL_COPIED] > 0 &&
	       (l->twin > FIT_RANDOM_LIKE * l->y || l->y > FIT_RANDOM_LIKE * l->twin);
}

/*
 * A line (of either order) where the twin copied nothing and the card
 * paid far more: the card collected where the twin did not (fakecard's
 * 6 MiB card: the first line of its smallest slow probe collects, the
 * twin's opens its erase blocks without; taken as the line's one erase,
 * it made erase-time 1.32s and left no copy for copy-bw). Its cost tells
 * neither its erases nor its copies.
 */
static bool collected_alone(const struct wline *l)
{
	return l->z[COL_COPIED] <= 0 && l->y > FIT_RANDOM_LIKE * l->twin;
}

/*
 * Each line's noise: its jitter, and its rate's rounding, which lines of
 * one size printing the same rate share (the same error, not g of them:
 * the g lines tell as much of it as one, each its variance g times).
 */
static void shared_rounding(struct wline *l, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double g = 0;

		for (size_t j = 0; j < n; j++)
			g += l[j].z[COL_BYTES] == l[i].z[COL_BYTES] && l[j].y == l[i].y;
		l[i].sd = l[i].y * hypot(l[i].jit, l[i].round * sqrt(g));
		l[i].w = 1 / (l[i].sd * l[i].sd);
	}
}

/*
 * The lines of the linear probes: without twins, those the family found
 * fast (no merge, no collection: they pay only latency and bytes); with
 * twins, every line of the linear and the random probes whose cost they
 * account for (a random-mode write that pays more is left out).
 */
static size_t write_lines(const struct fit_input *in, const struct oaf_verdict *v,
			  const struct fit_twins *t, const struct fit_card *c, double jitter,
			  struct wline *l)
{
	size_t n = 0, nth[2] = { 0, 0 };

	for (size_t i = 0; i < in->nprobe; i++) {
		const struct fit_probe *p = &in->probe[i], *tp[3] = { NULL, NULL, NULL };

		if (p->random && !t)
			continue;
		for (int a = 0; t && a < 3; a++)
			tp[a] = twin_probe(t->in[a], p->random, nth[p->random], p->nr);
		nth[p->random]++;
		if (!t && oaf_kind_of(v, p->nr) != OAF_FAST)
			continue;
		for (size_t k = 0; k < p->agg.n && n < FIT_WROWS; k++) {
			/* (a line writes its first line's size to each erase block, in m writes) */
			double m = (double)p->nr * (double)p->agg.size[0] / (double)p->agg.size[k];
			struct wline *e = &l[n];

			/* (a sub-page write, a buffered one: costs of their own, fit_small.c) */
			if (fit_small_skip(c, p->agg.size[k]))
				continue;
			memset(e, 0, sizeof(*e));
			e->z[COL_LAT] = 1;
			e->z[COL_BYTES] = (double)p->agg.size[k];
			e->y = oa_write_ns(&p->agg, k);
			fit_line_noise(p, k, jitter, &e->jit, &e->round);
			if (!t || (twin_line(t, tp, k, p->agg.size[k], m, e) &&
				   !(p->random && unlike(e)) && !collected_alone(e)))
				n++;
		}
	}
	shared_rounding(l, n);
	return n;
}

/*
 * Weighted least squares y = sum of p[a] z[a] over the columns used[],
 * each column scaled to its largest value; the variance of each p[a] in
 * var[a]. False when the columns do not vary apart.
 */
static bool wls(const struct wline *l, size_t n, const bool *used, double *p, double *var)
{
	double m[NCOL][NCOL + 1] = { { 0 } }, inv[NCOL][NCOL] = { { 0 } }, col[NCOL] = { 0 };
	double diag[NCOL];
	int ix[NCOL], np = 0;

	for (int a = 0; a < NCOL; a++)
		if (used[a])
			ix[np++] = a;
	for (size_t i = 0; i < n; i++)
		for (int a = 0; a < np; a++)
			if (l[i].w > 0)
				col[a] = fmax(col[a], l[i].z[ix[a]]);
	for (int a = 0; a < np; a++)
		if (col[a] <= 0)
			return false;
	for (size_t i = 0; i < n; i++)
		for (int a = 0; a < np; a++) {
			for (int b = 0; b < np; b++)
				m[a][b] += l[i].w * l[i].z[ix[a]] / col[a] * l[i].z[ix[b]] / col[b];
			m[a][np] += l[i].w * l[i].z[ix[a]] / col[a] * l[i].y;
		}
	/* Gauss-Jordan on [m | y], the inverse alongside (for the variances); a
	 * pivot lost against its column's own sum is a column the others make */
	for (int a = 0; a < np; a++)
		inv[a][a] = 1, diag[a] = m[a][a];
	for (int a = 0; a < np; a++) {
		double d = m[a][a];

		if (!(fabs(d) > 1e-9 * diag[a]))
			return false;
		for (int b = 0; b <= np; b++)
			m[a][b] /= d;
		for (int b = 0; b < np; b++)
			inv[a][b] /= d;
		for (int r = 0; r < np; r++) {
			double f = m[r][a];

			if (r == a)
				continue;
			for (int b = 0; b <= np; b++)
				m[r][b] -= f * m[a][b];
			for (int b = 0; b < np; b++)
				inv[r][b] -= f * inv[a][b];
		}
	}
	memset(p, 0, NCOL * sizeof(*p));
	memset(var, 0, NCOL * sizeof(*var));
	for (int a = 0; a < np; a++) {
		p[ix[a]] = m[a][np] / col[a];
		var[ix[a]] = inv[a][a] / (col[a] * col[a]);
	}
	return true;
}

/*
 * The fit, again without the lines far above it (a cost it does not know:
 * left out), until none is; the last fit that could be taken (leaving
 * out the only lines of a column can leave nothing to fit it by).
 */
static bool robust(struct wline *l, size_t n, const bool *used, double *p, double *var)
{
	double q[NCOL], qvar[NCOL];
	bool ok = false, again = true;

	for (int round = 0; round < FIT_ROUNDS && again; round++) {
		if (!wls(l, n, used, q, qvar))
			break;
		ok = true;
		memcpy(p, q, sizeof(q));
		memcpy(var, qvar, sizeof(qvar));
		again = false;
		for (size_t i = 0; i < n; i++) {
			double fit = 0;

			for (int a = 0; a < NCOL; a++)
				fit += p[a] * l[i].z[a];
			/* (a line whose merges are the twin's, far below: they were not the card's) */
			if (l[i].w > 0 && (l[i].y - fit > FIT_OUT_SIGMAS * l[i].sd ||
					   (l[i].extra > 0 && fit - l[i].y > FIT_OUT_SIGMAS * l[i].sd)))
				l[i].w = 0, again = true;
		}
	}
	return ok;
}

/* The fit's keys, each with its standard error: write-lat, write-bw, and (its column
 * used) erase-time when known within FIT_ERASE_SURE. */
static void store(struct fit_card *c, const double *p, const double *var, const bool *used)
{
	double bw = 1e9 / p[COL_BYTES];

	fit_set(c, FK_WRITE_BW, bw);
	c->se[FK_WRITE_BW] = sqrt(var[COL_BYTES]) / p[COL_BYTES] * bw;
	fit_set(c, FK_WRITE_LAT, p[COL_LAT] > 0 ? p[COL_LAT] : 0);
	c->se[FK_WRITE_LAT] = sqrt(var[COL_LAT]);
	if (used[COL_ERASES] && p[COL_ERASES] > 0 &&
	    sqrt(var[COL_ERASES]) < FIT_ERASE_SURE * p[COL_ERASES]) {
		fit_set(c, FK_ERASE_TIME, p[COL_ERASES]);
		c->se[FK_ERASE_TIME] = sqrt(var[COL_ERASES]);
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
 * an erase only the search's history tells (fit_card_twins: the twins').
 */
void fit_writes(const struct fit_input *in, const struct oaf_verdict *v, struct fit_card *c)
{
	struct wline *l = calloc(FIT_WROWS, sizeof(*l));
	size_t n = l ? write_lines(in, v, NULL, c, c->known[FK_JITTER] ? c->v[FK_JITTER] : 0, l) : 0;
	double p[NCOL], var[NCOL];
	bool used[NCOL] = { true, true, false, false };

	fit_lack(c, FK_ERASE_TIME, "no twin told which probe lines paid an erase");
	if (robust(l, n, used, p, var) && p[COL_BYTES] > 0) {
		store(c, p, var, used);
	} else {
		fit_lack(c, FK_WRITE_LAT, "no fast linear probe");
		fit_lack(c, FK_WRITE_BW, "no fast linear probe");
	}
	free(l);
}

/* Did a line the fit keeps pay the column's cost? */
static bool pays(const struct wline *l, size_t n, int col)
{
	for (size_t i = 0; i < n; i++)
		if (l[i].z[col] > 0 && l[i].w > 0)
			return true;
	return false;
}

/*
 * The time per byte copied that most of the copies (by bytes) paid: the
 * weighted median of the lines' own, what is left of each line's cost
 * over its copies.
 */
static double typical_copy(const struct wline *l, size_t k)
{
	double total = 0, best = 0;

	for (size_t i = 0; i < k; i++)
		total += l[i].z[COL_COPIED];
	for (size_t i = 0; i < k; i++) {
		double r = l[i].y / l[i].z[COL_COPIED], below = 0;

		for (size_t j = 0; j < k; j++)
			below += l[j].y / l[j].z[COL_COPIED] <= r ? l[j].z[COL_COPIED] : 0;
		if (below >= total / 2 && (best <= 0 || r < best))
			best = r;
	}
	return best;
}

/*
 * The lines that copied (first k of l) whose copies cost what most of
 * the copies did, within FIT_COPY_APART of it, kept in front; the
 * number kept (all, where the others copied more than FIT_COPY_FEW).
 * A line whose twin copied a few KiB per write where the card paid
 * nothing of the kind (fakecard's small-buffer card at -b 4K: the twin
 * closed an erase block at the end of a fast probe's 16KiB line, the card
 * did not) has a history the card's was not: among lines that each tell
 * the rate to the microsecond, its few µs would set a copy rate 30 times
 * the card's, and the collections the rest.
 */
#define FIT_COPY_APART 4.0
/* ...and only where those lines copied at most this share of the bytes: the
 * exceptions, not another half of the card's history. */
#define FIT_COPY_FEW 0.1
static bool apart(const struct wline *e, double typ)
{
	double r = e->y / e->z[COL_COPIED];

	return r < typ / FIT_COPY_APART || r > typ * FIT_COPY_APART;
}

static size_t consistent_copies(struct wline *l, size_t k)
{
	double typ = typical_copy(l, k), all = 0, out = 0;
	size_t m = 0;

	if (!(typ > 0))
		return k;
	for (size_t i = 0; i < k; i++) {
		all += l[i].z[COL_COPIED];
		out += apart(&l[i], typ) ? l[i].z[COL_COPIED] : 0;
	}
	if (out > FIT_COPY_FEW * all)
		return k;
	for (size_t i = 0; i < k; i++) {
		if (!apart(&l[i], typ)) {
			struct wline e = l[i];

			l[i] = l[m];
			l[m++] = e;
		}
	}
	return m;
}

/*
 * The copy rate from the lines that copied, the rest of their cost as the
 * first stage fitted it (p): a collecting line's costs move together (its
 * erases, its copies, a constant), so its latency and erases are not asked
 * of it. The lines that copied are moved to the front of l.
 */
static bool fit_copies(struct wline *l, size_t n, const double *p, double *q, double *var)
{
	bool used[NCOL] = { false, false, false, true };
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		struct wline e = l[i];

		if (e.z[COL_COPIED] <= 0)
			continue;
		for (int a = 0; a < COL_COPIED; a++)
			e.y -= p[a] * e.z[a];
		e.y -= e.extra;
		l[i] = l[k];
		l[k++] = e;
	}
	k = consistent_copies(l, k);
	/* (the lines that paid no merge; only where none did, those whose merges are the twin's) */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < k; i++)
			l[i].w = pass || l[i].extra <= 0 ? 1 / (l[i].sd * l[i].sd) : 0;
		if (robust(l, k, used, q, var))
			return q[COL_COPIED] > 0;
	}
	return false;
}

/*
 * The first stage: the lines that copied nothing tell write-lat, write-bw
 * and (where a line paid one) the erase time. An erase costs no less than
 * nothing: where the lines cannot tell it from the latency (an erase in
 * the smallest line alone, its share a fraction of the latency) and the
 * fit takes it below zero, the bound holds (the fit again without it),
 * rather than the latency bending the other way by as much.
 */
static bool first_stage(struct wline *l, size_t n, bool *used, double *p, double *var)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n; i++)
			l[i].w = l[i].z[COL_COPIED] > 0 ? 0 : 1 / (l[i].sd * l[i].sd);
		if (pass == 0)
			used[COL_ERASES] = pays(l, n, COL_ERASES);
		if (!robust(l, n, used, p, var) || !(p[COL_BYTES] > 0))
			return false;
		if (!used[COL_ERASES] || p[COL_ERASES] >= 0)
			break;
		used[COL_ERASES] = false;
	}
	return true;
}

/*
 * With the twins' lines: each line of the card's linear probes costs
 * write-lat + s / write-bw per write, plus erase-time for each erase and
 * 1 / copy-bw for each byte copied that the twins' same line paid per
 * write (the lines where they paid more are left out). The lines that
 * copied nothing tell the first three (a line with an erase no longer
 * bends the fit); then the copies of every collecting line tell the copy
 * rate, not the smallest slow probe's alone.
 */
bool fit_card_twins(const struct fit_input *card, const struct vf_facts *f,
		     const struct fit_twins *t, struct fit_card *c)
{
	struct oaf_verdict *v = calloc(1, sizeof(*v));
	struct wline *l = calloc(FIT_WROWS, sizeof(*l));
	double p[NCOL], var[NCOL], q[NCOL], qvar[NCOL];
	bool used[NCOL] = { true, true, false, false }, ok = false;
	size_t n = 0;

	if (v && l && t->bw > 0 && t->erase[1] != t->erase[0] && t->copy[1] != t->copy[0]) {
		fit_judge_linear(card, c, v);
		n = write_lines(card, v, t, c, c->known[FK_JITTER] ? c->v[FK_JITTER] : 0, l);
		ok = first_stage(l, n, used, p, var);
	}
	if (ok) {
		store(c, p, var, used);
		/* (what the small lines pay beyond their writes, on the writes' keys as now) */
		fit_small(card, t, c);
		if (fit_copies(l, n, p, q, qvar)) {
			fit_set(c, FK_COPY_BW, 1e9 / q[COL_COPIED]);
			c->se[FK_COPY_BW] = sqrt(qvar[COL_COPIED]) / q[COL_COPIED] * c->v[FK_COPY_BW];
		} else {
			fit_copy(card, f, c);
		}
	}
	free(v);
	free(l);
	return ok;
}
