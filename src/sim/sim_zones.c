/* The zones of the simulated card: see sim_zones.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_zones.h"

static uint64_t zone_end(const struct sim_zones *z, uint64_t i)
{
	uint64_t end = (i + 1) * z->zone;

	return end < z->size ? end : z->size;
}

static int sequential(const struct sim_zones *z, uint64_t i)
{
	return i >= z->conv;
}

int sim_zones_init(struct sim_zones *z, const struct sim_params *p)
{
	memset(z, 0, sizeof(*z));
	if (!p->zoned)
		return 0;
	z->zone = p->erase;
	z->size = p->size;
	z->n = (p->size + p->erase - 1) / p->erase;
	z->conv = p->conv_zones;
	z->wp = calloc(z->n, sizeof(*z->wp));
	if (!z->wp)
		return -ENOMEM;
	for (uint64_t i = 0; i < z->n; i++)
		z->wp[i] = sequential(z, i) ? zone_end(z, i) : i * z->zone;
	return 0;
}

void sim_zones_free(struct sim_zones *z)
{
	free(z->wp);
	memset(z, 0, sizeof(*z));
}

int sim_zones_write(struct sim_zones *z, uint64_t off, uint64_t len)
{
	uint64_t end = off + len;

	if (!z->zone)
		return 0;
	/* Every piece at its zone's pointer (the kernel splits a write at zone ends). */
	for (uint64_t a = off; a < end; a = zone_end(z, a / z->zone))
		if (sequential(z, a / z->zone) && z->wp[a / z->zone] != a)
			return -EIO;
	for (uint64_t a = off; a < end; a = zone_end(z, a / z->zone)) {
		uint64_t i = a / z->zone, e = zone_end(z, i);

		if (sequential(z, i))
			z->wp[i] = end < e ? end : e;
	}
	return 0;
}

void sim_zones_mask(const struct sim_zones *z, unsigned char *buf, uint64_t off, uint64_t len)
{
	uint64_t end = off + len;

	if (!z->zone)
		return;
	for (uint64_t a = off; a < end; a = zone_end(z, a / z->zone)) {
		uint64_t i = a / z->zone, e = zone_end(z, i), from = z->wp[i];

		if (!sequential(z, i))
			continue;
		if (e > end)
			e = end;
		if (from < a)
			from = a;
		if (from < e)
			memset(buf + (from - off), 0, e - from);
	}
}

int sim_zones_reset(struct sim_zones *z, uint64_t off, uint64_t len)
{
	uint64_t end = off + len;

	if (!z->zone || off % z->zone || (end % z->zone && end != z->size) || end > z->size)
		return -EINVAL;
	for (uint64_t i = off / z->zone; i * z->zone < end; i++)
		if (!sequential(z, i))
			return -EINVAL;
	for (uint64_t i = off / z->zone; i * z->zone < end; i++) {
		z->wp[i] = i * z->zone;
		z->resets++;
	}
	return 0;
}

size_t sim_zones_report(const struct sim_zones *z, uint64_t off, struct target_zone *out,
			size_t max)
{
	size_t n = 0;

	for (uint64_t i = z->zone ? off / z->zone : z->n; i < z->n && n < max; i++, n++) {
		struct target_zone *x = &out[n];

		x->start = i * z->zone;
		x->len = zone_end(z, i) - x->start;
		x->cap = x->len;
		x->type = sequential(z, i) ? ZONE_SEQ_REQUIRED : ZONE_CONVENTIONAL;
		x->wp = sequential(z, i) ? z->wp[i] : x->start;
		x->full = sequential(z, i) && z->wp[i] == zone_end(z, i);
	}
	return n;
}
