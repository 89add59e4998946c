/*
 * Steps in one family of align rows: see verdict_step.h.
 *
 * Why these rules (from published tables of real cards and from emulated
 * cards behind real block devices, not from the simulator):
 * - Crossing an erase block costs anything from a few percent of a read
 *   to many reads, so no rule may look at the size of a diff against the
 *   read time; only against the noise.
 * - Plain reads vary 10-20% from row to row, and reads after a boundary
 *   can be steadily slower than the ones before it: the diff is what is
 *   judged, never pre or post against each other.
 * - A level's rows scatter more the higher the level (a per-boundary
 *   cost that varies), so a rise is judged against the spread of both
 *   its sides as well as the table's row-to-row noise.
 * - Single rows spike or dip; no boundary explains one row alone.
 */
#include <math.h>
#include <string.h>

#include "core/stats.h"
#include "verdicts/verdict_step.h"

/* A rise must be this many noise units high... */
#define VS_RISE 4.0
/* ...and the lowest row above it this many above the highest below, or
 * this many when both levels have VS_MANY rows or more (that every one of
 * them lies above every one of the other is then no chance arrangement). */
#define VS_GAP 2.0
#define VS_GAP_MANY 1.0
#define VS_MANY 4
/* A row this many local noise units above (below) both neighbours is a spike (dip). */
#define VS_SPIKE 6.0
/* ...and by this part of the difference between the neighbours. */
#define VS_SPIKE_JUMP 0.5
/* The step's row must lie in the upper part of the rise, the row below in the lower. */
#define VS_STEP_ROW 0.65
#define VS_BELOW_ROW 0.35
/* ...and each this many spreads of the other level away from it. */
#define VS_APART 3.0
/* A plain read is disturbed this many spreads of such deviations off the rows around it. */
#define VS_OFF_SPREADS 4.0
/* The noise is at least this fraction of the largest diff (a table printed
 * to three digits has no less), and at least a nanosecond. */
#define VS_NOISE_FLOOR 0.002
#define VS_NOISE_MIN 1.0
/* 1.4826 x the median absolute deviation estimates a standard deviation. */
#define VS_MAD_SD 1.4826

void vs_add(struct vs_fam *f, uint64_t b, double d, double pre, double post)
{
	size_t i = f->n;

	if (f->n >= VS_MAX_ROWS)
		return;
	while (i > 0 && f->b[i - 1] > b)
		i--;
	if (i > 0 && f->b[i - 1] == b)
		return;
	memmove(f->b + i + 1, f->b + i, (f->n - i) * sizeof(f->b[0]));
	memmove(f->d + i + 1, f->d + i, (f->n - i) * sizeof(f->d[0]));
	memmove(f->shaky + i + 1, f->shaky + i, (f->n - i) * sizeof(f->shaky[0]));
	memmove(f->pre + i + 1, f->pre + i, (f->n - i) * sizeof(f->pre[0]));
	memmove(f->post + i + 1, f->post + i, (f->n - i) * sizeof(f->post[0]));
	f->b[i] = b;
	f->d[i] = d;
	f->shaky[i] = false;
	f->pre[i] = pre;
	f->post[i] = post;
	f->n++;
}

size_t vs_index(const struct vs_fam *f, uint64_t b)
{
	size_t i = 0;

	while (i < f->n && f->b[i] < b)
		i++;
	return i;
}

double vs_med(const struct vs_fam *f, size_t from, size_t to)
{
	return to > from ? stats_median(f->d + from, to - from) : 0;
}

double vs_min(const struct vs_fam *f, size_t from, size_t to)
{
	return to > from ? stats_min(f->d + from, to - from) : 0;
}

double vs_max(const struct vs_fam *f, size_t from, size_t to)
{
	double m = to > from ? f->d[from] : 0;

	for (size_t i = from + 1; i < to; i++)
		if (f->d[i] > m)
			m = f->d[i];
	return m;
}

/* A robust standard deviation of v[0..n) around its median (0 for n < 3). */
static double spread(const double *v, size_t n)
{
	double dev[VS_MAX_ROWS], m;

	if (n < 3)
		return 0;
	m = stats_median(v, n);
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(v[i] - m);
	return VS_MAD_SD * stats_median(dev, n);
}

static double floor_of(const struct vs_fam *f)
{
	double big = 0;

	for (size_t i = 0; i < f->n; i++)
		if (fabs(f->d[i]) > big)
			big = fabs(f->d[i]);
	return fmax(VS_NOISE_FLOOR * big, VS_NOISE_MIN);
}

double vs_noise(struct vs_fam *f, double neg)
{
	double step[VS_MAX_ROWS], s = 0;

	for (size_t i = 0; i + 1 < f->n; i++)
		step[i] = fabs(f->d[i + 1] - f->d[i]);
	if (f->n >= 3)
		s = VS_MAD_SD * stats_median(step, f->n - 1) / sqrt(2.0);
	/* No read gets cheaper by crossing a boundary: a negative diff is noise
	 * alone, and the lowest of twenty noisy rows lies about two deviations down. */
	f->raw = fmax(s, neg / 2);
	f->floor = floor_of(f);
	f->least = fmax(neg / 2, f->floor);
	f->noise = fmax(f->raw, f->floor);
	return f->noise;
}

/*
 * The noise around row i: the family's, or how much the rows on either
 * side of it differ from their own next neighbours (so that a row next
 * to a real step is judged against the flat rows around it).
 */
static double local_noise(const struct vs_fam *f, size_t i)
{
	double r = f->noise;

	if (i >= 2)
		r = fmax(r, fabs(f->d[i - 1] - f->d[i - 2]));
	if (i + 2 < f->n)
		r = fmax(r, fabs(f->d[i + 1] - f->d[i + 2]));
	return r;
}

static void drop(struct vs_fam *f, size_t k)
{
	memmove(f->b + k, f->b + k + 1, (f->n - k - 1) * sizeof(f->b[0]));
	memmove(f->d + k, f->d + k + 1, (f->n - k - 1) * sizeof(f->d[0]));
	memmove(f->shaky + k, f->shaky + k + 1, (f->n - k - 1) * sizeof(f->shaky[0]));
	memmove(f->pre + k, f->pre + k + 1, (f->n - k - 1) * sizeof(f->pre[0]));
	memmove(f->post + k, f->post + k + 1, (f->n - k - 1) * sizeof(f->post[0]));
	f->n--;
}

unsigned vs_despike(struct vs_fam *f, uint64_t *out, size_t max)
{
	unsigned dropped = 0;

	/* The first and last rows have one neighbour: they stay (see VS_FEW). */
	for (size_t k = 1; k + 1 < f->n; k++) {
		double hi = fmax(f->d[k - 1], f->d[k + 1]), lo = fmin(f->d[k - 1], f->d[k + 1]);
		/* (Next to a step, a row a little beyond the level it joins is no spike.) */
		double t = fmax(VS_SPIKE * local_noise(f, k), VS_SPIKE_JUMP * (hi - lo));

		if (f->d[k] - hi > t || lo - f->d[k] > t) {
			if (dropped < max)
				out[dropped] = f->b[k];
			drop(f, k);
			dropped++;
			k--;
		}
	}
	return dropped;
}

double vs_negative(const struct vs_fam *f)
{
	double worst = 0;

	for (size_t i = 0; i < f->n && f->n >= 2; i++) {
		double ref;

		if (f->d[i] >= 0 || f->shaky[i])
			continue;
		if (i == 0 || i + 1 == f->n)
			ref = f->d[i == 0 ? 1 : i - 1];
		else
			ref = fmin(f->d[i - 1], f->d[i + 1]);
		/* Below zero by at most what it lies below its level. */
		worst = fmax(worst, fmin(-f->d[i], ref - f->d[i]));
	}
	return worst;
}

/* The value of row i: its pre, post, or post / pre (0: unknown). */
static double plain(const struct vs_fam *f, size_t i, int what)
{
	if (what == 0)
		return f->pre[i];
	if (what == 1)
		return f->post[i];
	return f->pre[i] > 0 && f->post[i] > 0 ? f->post[i] / f->pre[i] : 0;
}

/* The median of that value over the rows within two of row i (not i itself); 0 if none. */
static double around(const struct vs_fam *f, size_t i, int what)
{
	double w[4];
	size_t n = 0;

	for (size_t j = i >= 2 ? i - 2 : 0; j <= i + 2 && j < f->n; j++)
		if (j != i && plain(f, j, what) > 0)
			w[n++] = plain(f, j, what);
	return n ? stats_median(w, n) : 0;
}

/* Mark rows whose value deviates from that around them (relatively) by more than frac. */
static void mark_off(struct vs_fam *f, int what, double frac)
{
	double dev[VS_MAX_ROWS], rel[VS_MAX_ROWS], sd;
	size_t m = 0;

	for (size_t i = 0; i < f->n; i++) {
		double ref = around(f, i, what), v = plain(f, i, what);

		rel[i] = ref > 0 && v > 0 ? fabs(v / ref - 1) : 0;
		if (ref > 0 && v > 0)
			dev[m++] = rel[i];
	}
	if (m < 3)
		return;
	sd = VS_MAD_SD * stats_median(dev, m);
	for (size_t i = 0; i < f->n; i++)
		if (rel[i] > fmax(frac, VS_OFF_SPREADS * sd))
			f->shaky[i] = true;
}

void vs_disturbed(struct vs_fam *f, double read_frac, double ratio_frac)
{
	mark_off(f, 0, read_frac);
	mark_off(f, 1, read_frac);
	mark_off(f, 2, ratio_frac);
}

/*
 * The noise a rise from rows [lo, k) to [k, n) is judged against: the
 * spread of the two levels (their root mean square: a tight floor under
 * a scattered upper level is still a clear step). With few rows on a
 * side their spread says little: then the table's row-to-row noise, if
 * larger. Never below f->least.
 */
static double step_noise(const struct vs_fam *f, size_t lo, size_t k)
{
	double a = spread(f->d + lo, k - lo), b = spread(f->d + k, f->n - k);
	double rms = sqrt((a * a + b * b) / 2);

	if (k - lo >= VS_MANY && f->n - k >= VS_MANY)
		return fmax(rms, f->least);
	return fmax(f->noise, rms);
}

double vs_diff_noise(const struct vs_fam *f, size_t lo, size_t k)
{
	if (k <= lo || k >= f->n)
		return INFINITY;
	return 1.25 * step_noise(f, lo, k) * sqrt(1.0 / (double)(k - lo) + 1.0 / (double)(f->n - k));
}

/*
 * The lowest diff from row k up, but one dip two rows or more above the
 * step is forgiven among four rows or more: a noise dip above the true
 * step (the rows just above it must be clear, they place it).
 */
static double lowest_above(const struct vs_fam *f, size_t k)
{
	double lo1 = INFINITY, lo2 = INFINITY;

	if (f->n - k < 4)
		return vs_min(f, k, f->n);
	for (size_t i = k + 2; i < f->n; i++) {
		if (f->d[i] < lo1)
			lo2 = lo1, lo1 = f->d[i];
		else if (f->d[i] < lo2)
			lo2 = f->d[i];
	}
	return fmin(fmin(f->d[k], f->d[k + 1]), lo2);
}

/*
 * The rows that place the step, each clearly on its side in units of the
 * other side's scatter: the row below must lie VS_APART spreads under
 * the upper level, the step's row as many over the lower one (a dip of
 * the step's row in a scattered upper level looks like the level below).
 */
static bool apart(const struct vs_fam *f, size_t lo, size_t k, const struct vs_step *s)
{
	double a = f->n - k >= 3 ? spread(f->d + k, f->n - k) : f->noise;
	double b = k - lo >= 3 ? spread(f->d + lo, k - lo) : f->noise;

	return s->up - f->d[k - 1] >= VS_APART * fmax(a, f->least) &&
	       f->d[k] - s->down >= VS_APART * fmax(b, f->least);
}

bool vs_test(const struct vs_fam *f, size_t lo, size_t k, size_t min_above, struct vs_step *s)
{
	double h;

	memset(s, 0, sizeof(*s));
	s->k = k;
	s->lo = lo;
	s->flaw = VS_NO_RISE;
	if (k <= lo || k >= f->n)
		return false;
	s->up = vs_med(f, k, f->n);
	s->down = vs_med(f, lo, k);
	s->gap = lowest_above(f, k) - vs_max(f, lo, k);
	s->noise = step_noise(f, lo, k);
	h = s->up - s->down;
	/* A rise: high enough, with its row in the upper half and the one below in the lower. */
	if (h < VS_RISE * s->noise || f->d[k] - s->down < 0.5 * h || f->d[k - 1] - s->down > 0.5 * h)
		return false;
	if (f->n - k < min_above)
		s->flaw = VS_FEW;
	else if (f->b[k] != 2 * f->b[k - 1])
		s->flaw = VS_MISSING;
	else if (f->shaky[k] || f->shaky[k - 1])
		s->flaw = VS_SHAKY;
	else if (f->d[k] - s->down < VS_STEP_ROW * h || f->d[k - 1] - s->down > VS_BELOW_ROW * h ||
		 !apart(f, lo, k, s))
		s->flaw = VS_BETWEEN;
	else if (s->gap < (k - lo >= VS_MANY && f->n - k >= VS_MANY ? VS_GAP_MANY : VS_GAP) * s->noise)
		s->flaw = VS_OVERLAP;
	else
		s->flaw = VS_CLEAN;
	return true;
}

bool vs_first_rise(const struct vs_fam *f, size_t lo, uint64_t from_b, size_t min_above,
		   struct vs_step *s)
{
	size_t k = vs_index(f, from_b);

	for (k = k > lo + 1 ? k : lo + 1; k < f->n; k++)
		if (vs_test(f, lo, k, min_above, s))
			return true;
	return false;
}

/*
 * The noise around a page rise at row k: the spread of the floor below it
 * and of the few rows just above it (the level the page starts), not the
 * whole family's row-to-row noise (on a 3 x 2^n card the power-of-two
 * rows above E/3 alternate between partly raised levels).
 */
static double page_noise(const struct vs_fam *f, size_t k)
{
	size_t top = k + 4 < f->n ? k + 4 : f->n;
	double a = k >= 3 ? spread(f->d, k) : k == 2 ? 0.74 * fabs(f->d[1] - f->d[0]) : f->noise;
	double b = top - k >= 3 ? spread(f->d + k, top - k) : f->noise;

	return fmax(f->least, sqrt((a * a + b * b) / 2));
}

/* Does every diff from row k up lie clearly above every diff below it? */
static bool page_rise(const struct vs_fam *f, size_t k)
{
	double noise = page_noise(f, k), low = vs_min(f, k, f->n), floor = vs_max(f, 0, k);

	/* (A floor is a floor: every row above it at least twice as high.) */
	return low - floor >= VS_GAP * noise && f->d[k] - vs_med(f, 0, k) >= VS_RISE * noise &&
	       low >= 2 * floor;
}

bool vs_page(const struct vs_fam *f, uint64_t max_b, size_t *page, size_t *second)
{
	*second = 0;
	for (size_t k = 1; k < f->n && f->b[k] <= max_b; k++) {
		if (!page_rise(f, k))
			continue;
		/* A row missing or disturbed at the rise: the page may lie elsewhere. */
		if (f->b[k] != 2 * f->b[k - 1] || f->shaky[k] || f->shaky[k - 1])
			return false;
		*page = k;
		if (k + 1 < f->n && f->b[k + 1] <= max_b && page_rise(f, k + 1))
			*second = k + 1;
		return true;
	}
	return false;
}
