/*
 * The simulated flash card's timing model. The rules are documented in
 * sim_model.h; this file only implements them. The state is kept small
 * on purpose: only the open AUs have any (a closed AU is consolidated,
 * there is nothing to remember about it), so the cost of a request is
 * O(open_au) whatever the card size, and a card needs no allocation.
 */
#include <math.h>
#include <string.h>

#include "sim/sim_model.h"

uint64_t sim_xfer_ns(uint64_t n, uint64_t bw)
{
	unsigned __int128 t;

	if (bw == 0)
		return 0;
	/* The same in 64 bits where it fits (every request up to 9 GB): a
	 * 128-bit division cost a tenth of the simulated card's CPU time. */
	if (n <= UINT64_MAX / 2 / 1000000000u)
		return (n * 1000000000u + bw / 2) / bw;
	/* 128 bits: n * 1e9 overflows 64 bits above 18 GB. */
	t = ((unsigned __int128)n * 1000000000u + bw / 2) / bw;
	return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}

/* splitmix64: small, seedable, and the same on every platform. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, 1) with 53 random bits. */
static double rng_unit(uint64_t *s)
{
	return (double)(rng_next(s) >> 11) / 9007199254740992.0;
}

void sim_card_init(struct sim_card *c, const struct sim_params *p)
{
	memset(c, 0, sizeof(*c));
	c->p = *p;
	c->rng = p->seed;
}

void sim_card_free(struct sim_card *c)
{
	/* Nothing is allocated; clear it so a stale card is obvious. */
	memset(c, 0, sizeof(*c));
}

/* Is there a multiple of unit strictly inside (a, b)? */
static bool crosses(uint64_t a, uint64_t b, uint64_t unit)
{
	uint64_t next;

	if (unit == 0 || b <= a + 1)
		return false;
	next = (a / unit + 1) * unit;
	return next < b;
}

/* A fixed draw in [-1, 1] for (seed, what, key): the noise tied to a place. */
static double place_unit(uint64_t seed, uint64_t what, uint64_t key)
{
	uint64_t s = seed ^ (what * 0xd1b54a32d192ed03ULL) ^ (key * 0x9e3779b97f4a7c15ULL);

	return 2.0 * rng_unit(&s) - 1.0;
}

/* t scaled by (1 + u * pct / 100), rounded; t itself when pct is 0. */
static uint64_t scaled(uint64_t t, double pct, double u)
{
	double v = (double)t * (1.0 + u * pct / 100.0);

	if (pct == 0)
		return t;
	return v > 0 ? (uint64_t)(v + 0.5) : 0;
}

/* The first multiple of unit strictly inside (a, b): crosses() is true. */
static uint64_t first_inside(uint64_t a, uint64_t unit)
{
	return (a / unit + 1) * unit;
}

/* One internal read of [a, b): latency, boundary costs, and their noise. */
static uint64_t piece_cost(const struct sim_params *p, uint64_t a, uint64_t b)
{
	uint64_t t = p->read_lat;

	/* (A piece in two blocks waits for the slower of them.) */
	if (p->read_var > 0 && p->erase)
		t = scaled(t, p->read_var, fmax(place_unit(p->seed, 1, a / p->erase),
						place_unit(p->seed, 1, (b - 1) / p->erase)));
	if (p->post_slow > 0 && p->page && a % p->page == 0)
		t = scaled(t, p->post_slow, 1.0);
	if (crosses(a, b, p->page))
		t += scaled(p->page_cross, p->cross_var,
			    place_unit(p->seed, 2, first_inside(a, p->page)));
	if (crosses(a, b, p->erase))
		t += scaled(p->erase_cross, p->cross_var,
			    place_unit(p->seed, 3, first_inside(a, p->erase)));
	return t;
}

uint64_t sim_read_cost(const struct sim_params *p, uint64_t off, uint64_t len)
{
	uint64_t end = off + len, t = 0, a;
	uint64_t chunk = p->read_chunk ? p->read_chunk : len;

	if (len == 0)
		return 0;
	for (a = off; a < end; a += chunk)
		t += piece_cost(p, a, end - a > chunk ? a + chunk : end);
	return t + sim_xfer_ns(len, p->read_bw);
}

/* Seeded jitter, outliers and stalls; a no-op unless enabled. */
static uint64_t jitter(struct sim_card *c, uint64_t t)
{
	double f = 1.0;

	if (c->p.jitter > 0)
		f += (2.0 * rng_unit(&c->rng) - 1.0) * c->p.jitter / 100.0;
	if (c->p.outliers > 0 && rng_unit(&c->rng) < c->p.outliers)
		f *= SIM_OUTLIER_FACTOR;
	if (c->p.stalls > 0 && c->stall_left == 0 && rng_unit(&c->rng) < c->p.stalls)
		c->stall_left = SIM_STALL_LEN;
	if (c->stall_left > 0) {
		c->stall_left--;
		t += c->p.stall_ns;
	}
	if (f == 1.0)
		return t;
	return (uint64_t)((double)t * f + 0.5);
}

static uint64_t read_once(struct sim_card *c, uint64_t off, uint64_t len)
{
	c->n.reads++;
	c->n.bytes_read += len;
	return jitter(c, sim_read_cost(&c->p, off, len) + c->p.cmd_ns);
}

uint64_t sim_read(struct sim_card *c, uint64_t off, uint64_t len)
{
	uint64_t t = read_once(c, off, len);

	c->now_ns += t;
	return t;
}

/* Length of AU number au (the last one may be short). */
static uint64_t au_len(const struct sim_card *c, uint64_t au)
{
	uint64_t start = au * c->p.erase;

	if (c->p.size - start < c->p.erase)
		return c->p.size - start;
	return c->p.erase;
}

/* Writing whole pages: what a write costs outside linear mode. */
static uint64_t page_cost(const struct sim_card *c, uint64_t o, uint64_t len)
{
	uint64_t pages = (o + len - 1) / c->p.page - o / c->p.page + 1;

	return sim_xfer_ns(pages * c->p.page, c->p.write_bw);
}

/*
 * Close open slot i: copy what the new block lacks, erase the old one.
 * The slot is refilled from the last one, so slot order is arbitrary.
 */
static uint64_t au_close(struct sim_card *c, unsigned i)
{
	struct sim_au *s = &c->open[i];
	uint64_t len = au_len(c, s->au), copy;

	copy = s->random ? len : (s->written < len ? len - s->written : 0);
	c->n.erases++;
	if (copy > 0) {
		c->n.gcs++;
		c->n.bytes_copied += copy;
	}
	if (s->random)
		c->nrandom--;
	c->open[i] = c->open[--c->nopen];
	return sim_xfer_ns(copy, c->p.copy_bw) + c->p.erase_ns;
}

static int au_find(const struct sim_card *c, uint64_t au)
{
	for (unsigned i = 0; i < c->nopen; i++)
		if (c->open[i].au == au)
			return (int)i;
	return -1;
}

/* Open au with its write pointer at o, evicting the LRU AU if needed. */
static int au_open(struct sim_card *c, uint64_t au, uint64_t o, uint64_t *t)
{
	struct sim_au *s;

	if (c->nopen >= c->p.open_au) {
		unsigned lru = 0;

		for (unsigned i = 1; i < c->nopen; i++)
			if (c->open[i].stamp < c->open[lru].stamp)
				lru = i;
		*t += au_close(c, lru);
	}
	s = &c->open[c->nopen];
	memset(s, 0, sizeof(*s));
	s->au = au;
	s->wp = o;
	return (int)c->nopen++;
}

/*
 * random_evict: the AU in random mode written least recently is merged
 * (the whole AU copied, an erase) and stays open, in order and full;
 * slot i takes its place in random mode. The merge's cost.
 */
static uint64_t evict_random(struct sim_card *c, int i)
{
	struct sim_au *v = NULL;
	uint64_t len;

	for (unsigned k = 0; k < c->nopen; k++)
		if (c->open[k].random && (int)k != i && (!v || c->open[k].stamp < v->stamp))
			v = &c->open[k];
	if (!v)
		return 0;
	len = au_len(c, v->au);
	c->n.erases++;
	c->n.gcs++;
	c->n.bytes_copied += len;
	v->random = false;
	v->wp = v->written = len;
	c->open[i].random = true;
	return sim_xfer_ns(len, c->p.copy_bw) + c->p.erase_ns;
}

/* A write before the write pointer of an open, linear-mode slot. */
static uint64_t write_backward(struct sim_card *c, int *i, uint64_t o, uint64_t len)
{
	unsigned limit = c->p.open_au_random;
	struct sim_au *s = &c->open[*i];
	uint64_t au = s->au, t;

	if (limit > c->p.open_au)
		limit = c->p.open_au;
	if (c->nrandom < limit) {
		s->random = true;
		c->nrandom++;
		return page_cost(c, o, len);
	}
	if (c->p.random_evict && limit > 0)
		return evict_random(c, *i) + page_cost(c, o, len);
	/* Too many AUs out of order: garbage-collect this one, restart it. */
	t = au_close(c, (unsigned)*i);
	*i = au_open(c, au, o, &t);
	s = &c->open[*i];
	s->wp = o + len;
	s->written = len;
	s->stamp = ++c->tick;
	return t + sim_xfer_ns(len, c->p.write_bw);
}

/* Write [o, o + len) inside AU au (o relative to the AU start). */
static uint64_t write_piece(struct sim_card *c, uint64_t au, uint64_t o, uint64_t len)
{
	uint64_t t = 0;
	struct sim_au *s;
	int i;

	if (au < c->p.fat_aus)
		return page_cost(c, o, len);
	i = au_find(c, au);
	if (i < 0)
		i = au_open(c, au, o, &t);
	s = &c->open[i];
	s->stamp = ++c->tick;
	if (s->random) {
		if (o + len > s->wp)
			s->wp = o + len;
		return t + page_cost(c, o, len);
	}
	if (o < s->wp)
		return t + write_backward(c, &i, o, len);
	s->wp = o + len;
	s->written += len;
	t += sim_xfer_ns(len, c->p.write_bw);
	if (s->wp >= au_len(c, au))
		t += au_close(c, (unsigned)i);
	return t;
}

/* A write starting in AU au: is au among the log_aus written last? If not,
 * it takes the least recent one's place and the write pays a merge. */
static uint64_t log_touch(struct sim_card *c, uint64_t au)
{
	unsigned lim = c->p.log_aus < SIM_MAX_OPEN_AU ? c->p.log_aus : SIM_MAX_OPEN_AU, v = 0;

	if (lim == 0 || c->p.log_merge == 0 || au < c->p.fat_aus)
		return 0;
	for (unsigned i = 0; i < c->nlog; i++)
		if (c->log_au[i] == au) {
			c->log_stamp[i] = ++c->tick;
			return 0;
		}
	if (c->nlog < lim) {
		c->log_au[c->nlog] = au;
		c->log_stamp[c->nlog++] = ++c->tick;
		return 0;
	}
	for (unsigned i = 1; i < c->nlog; i++)
		if (c->log_stamp[i] < c->log_stamp[v])
			v = i;
	c->log_au[v] = au;
	c->log_stamp[v] = ++c->tick;
	c->n.merges++;
	return c->p.log_merge;
}

/* A write to the small-write buffer: no AU opened, no GC; a merge when it
 * goes to another AU than the buffered write before it. */
static uint64_t small_write(struct sim_card *c, uint64_t off, uint64_t len)
{
	uint64_t au = off / c->p.erase + 1, t = sim_xfer_ns(len, c->p.write_bw);

	if (c->small_au && c->small_au != au)
		t += c->p.small_merge;
	c->small_au = au;
	return t;
}

/* The extra costs of the request itself: its command, a partial page. */
static uint64_t request_extra(const struct sim_card *c, uint64_t off, uint64_t len)
{
	uint64_t t = c->p.cmd_ns;

	if (c->p.subpage_ns && c->p.page && (off % c->p.page || (off + len) % c->p.page))
		t += c->p.subpage_ns;
	return t;
}

/* Rule 1a: make room for len bytes in the full cache; the time it takes. */
static uint64_t cache_fold(struct sim_card *c, uint64_t len)
{
	uint64_t lack = len - (c->p.cache - c->cache_used);
	uint64_t fold = c->p.cache_flush > lack ? c->p.cache_flush : lack;

	if (fold > c->cache_used)
		fold = c->cache_used;
	c->cache_used -= fold;
	c->n.folds++;
	c->n.folded += fold;
	return sim_xfer_ns(fold, c->p.copy_bw);
}

static uint64_t write_once(struct sim_card *c, uint64_t off, uint64_t len)
{
	uint64_t t = c->p.write_lat + request_extra(c, off, len), end = off + len;

	c->n.writes++;
	c->n.bytes_written += len;
	if (len == 0)
		return jitter(c, t);
	if (c->p.cache_flush > 0 && len <= c->p.cache && len > c->p.cache - c->cache_used)
		t += cache_fold(c, len);
	if (c->p.cache > 0 && len <= c->p.cache - c->cache_used) {
		c->cache_used += len;
		c->n.cached += len;
		return jitter(c, t + sim_xfer_ns(len, c->p.cache_bw));
	}
	if (len <= c->p.small_buffer)
		return jitter(c, t + small_write(c, off, len));
	t += log_touch(c, off / c->p.erase);
	while (off < end) {
		uint64_t au = off / c->p.erase, o = off - au * c->p.erase;
		uint64_t n = au_len(c, au) - o;

		if (n > end - off)
			n = end - off;
		t += write_piece(c, au, o, n);
		off += n;
	}
	return jitter(c, t);
}

uint64_t sim_write(struct sim_card *c, uint64_t off, uint64_t len)
{
	uint64_t t = write_once(c, off, len);

	c->now_ns += t;
	return t;
}

static unsigned lanes(const struct sim_card *c)
{
	unsigned nl = c->p.channels;

	return nl < 1 ? 1 : nl > SIM_MAX_CHANNELS ? SIM_MAX_CHANNELS : nl;
}

uint64_t sim_queue_start(struct sim_card *c, uint64_t off, uint64_t len, bool write, uint64_t *cost)
{
	uint64_t t = write ? write_once(c, off, len) : read_once(c, off, len), start;
	unsigned best = 0, nl = lanes(c);

	for (unsigned j = 1; j < nl; j++)
		if (c->lane_free[j] < c->lane_free[best])
			best = j;
	start = c->lane_free[best] > c->now_ns ? c->lane_free[best] : c->now_ns;
	c->lane_free[best] = start + t;
	if (cost)
		*cost = t;
	return start + t;
}

void sim_queue_wait(struct sim_card *c, uint64_t t)
{
	if (t > c->now_ns)
		c->now_ns = t;
}

uint64_t sim_batch(struct sim_card *c, struct sim_req *r, size_t n)
{
	uint64_t t0 = c->now_ns, end = t0;

	for (size_t k = 0; k < n; k++) {
		uint64_t done = sim_queue_start(c, r[k].off, r[k].len, r[k].write, &r[k].ns);

		if (done > end)
			end = done;
	}
	sim_queue_wait(c, end);
	return end - t0;
}

void sim_discard(struct sim_card *c, uint64_t off, uint64_t len)
{
	uint64_t end = off + len;

	c->n.discarded += len;
	for (unsigned i = 0; i < c->nopen;) {
		uint64_t a = c->open[i].au * c->p.erase;

		if (a >= off && a + au_len(c, c->open[i].au) <= end) {
			if (c->open[i].random)
				c->nrandom--;
			c->open[i] = c->open[--c->nopen];	/* nothing to copy: forgotten */
		} else {
			i++;
		}
	}
}

void sim_idle(struct sim_card *c, uint64_t ns)
{
	unsigned __int128 freed;

	c->now_ns += ns;
	freed = (unsigned __int128)ns * c->p.cache_recover / 1000000000u;
	if (freed >= c->cache_used)
		c->cache_used = 0;
	else
		c->cache_used -= (uint64_t)freed;
}

bool sim_fails(const struct sim_card *c, uint64_t off, uint64_t len, bool write)
{
	unsigned want = write ? SIM_FAIL_WRITE : SIM_FAIL_READ;

	for (unsigned i = 0; i < c->p.nfail; i++) {
		const struct sim_fail *f = &c->p.fail[i];

		if ((f->mode & want) && f->off >= off && f->off - off < len)
			return true;
	}
	return false;
}
