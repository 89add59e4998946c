/* Stamped blocks: see stamp.h. */
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/arith.h"
#include "modules/stamp.h"

#define MAGIC 0x6b6c626873616c66ull	/* "flashblk" */

struct header {
	uint64_t magic, off, run, sum;
};

uint64_t stamp_run_id(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_sec << 32) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 48);
}

/* A 64-bit hash, eight bytes a step (a block is hashed at every write). */
static uint64_t hash(uint64_t h, const unsigned char *p, size_t len)
{
	uint64_t w;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	for (; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	return h ^ (h >> 33);
}

/* Over the header without its sum, then the contents after it. */
static uint64_t block_sum(const struct header *h, const unsigned char *buf, size_t len)
{
	uint64_t s = hash(0x6a09e667f3bcc909ull, (const unsigned char *)h,
			  offsetof(struct header, sum));

	return hash(s, buf + STAMP_LEN, len - STAMP_LEN);
}

void stamp_put(void *buf, size_t len, uint64_t off, uint64_t run)
{
	struct header h = { MAGIC, off, run, 0 };

	h.sum = block_sum(&h, buf, len);
	memcpy(buf, &h, sizeof(h));
}

void stamp_tally_init(struct stamp_tally *s, uint64_t run)
{
	memset(s, 0, sizeof(*s));
	s->run = run;
	s->first_bad = s->first_lost = UINT64_MAX;
}

static enum stamp_class classify(struct stamp_tally *s, const void *buf, size_t len,
				 uint64_t off)
{
	struct header h;
	uint64_t d, g;

	memcpy(&h, buf, sizeof(h));
	if (h.magic != MAGIC || h.run != s->run)
		return ST_DROPPED;
	if (block_sum(&h, buf, len) != h.sum)
		return ST_CORRUPT;
	if (h.off == off)
		return ST_GOOD;
	d = h.off > off ? h.off - off : off - h.off;
	/*
	 * A wrap-around of W puts blocks multiples of W away: the period is
	 * the greatest common divisor of the distances, as long as it stays
	 * a plausible size; a distance that would take it below that is a
	 * write misplaced by other means.
	 */
	g = gcd_u64(s->period ? s->period : d, d);
	if (g < STAMP_MIN_WRAP)
		return ST_MISPLACED;
	s->period = g;
	return ST_WRAPPED;
}

enum stamp_class stamp_check(struct stamp_tally *s, const void *buf, size_t len, uint64_t off)
{
	enum stamp_class c = len < STAMP_LEN ? ST_CORRUPT : classify(s, buf, len, off);

	s->blocks++;
	s->n[c]++;
	if (c == ST_GOOD)
		return c;
	s->bad++;
	if (off < s->first_bad)
		s->first_bad = off;
	if (c != ST_WRAPPED && off < s->first_lost)
		s->first_lost = off;
	return c;
}

uint64_t stamp_usable_end(const struct stamp_tally *s, uint64_t start, uint64_t end)
{
	uint64_t u = end;

	if (s->n[ST_WRAPPED] && s->period && start + s->period < u)
		u = start + s->period;
	return s->first_lost < u ? s->first_lost : u;
}

const char *stamp_class_name(enum stamp_class c)
{
	static const char *const names[] = { "good", "wrapped", "misplaced", "dropped", "corrupt" };

	return names[c];
}
