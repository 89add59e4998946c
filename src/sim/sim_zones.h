/*
 * The zones of a zoned simulated card (zoned=1): a host-managed device
 * like an SMR disk, whose every erase block (band) is a zone. The first
 * conv_zones are conventional and take writes anywhere; every other zone
 * takes a write only at its write pointer, which the write moves on. A
 * reset moves the pointer back to the zone's start; what lies at or past
 * the pointer reads as zeros. The card starts with every sequential zone
 * full, as a disk that was used: a test must reset a zone before writing
 * it. The rules touch no time: the model (sim_model.h) prices the writes.
 */
#ifndef FB_SIM_ZONES_H
#define FB_SIM_ZONES_H

#include <stddef.h>
#include <stdint.h>

#include "core/target.h"
#include "sim/sim_model.h"

struct sim_zones {
	uint64_t zone;		/* bytes per zone; 0: the card is not zoned */
	uint64_t n;		/* zones (the last may be short) */
	uint64_t size;		/* the card */
	unsigned conv;		/* the first conv zones are conventional */
	uint64_t *wp;		/* per zone: its write pointer (a card offset) */
	uint64_t resets;	/* zones reset */
};

/* Zones for the card p describes (nothing when it is not zoned): 0 or -ENOMEM. */
int sim_zones_init(struct sim_zones *z, const struct sim_params *p);
void sim_zones_free(struct sim_zones *z);
/* May [off, off + len) be written? 0 (the write pointers move) or -EIO, and nothing moves. */
int sim_zones_write(struct sim_zones *z, uint64_t off, uint64_t len);
/* Zero what buf (the bytes read at off) holds at or past a write pointer. */
void sim_zones_mask(const struct sim_zones *z, unsigned char *buf, uint64_t off, uint64_t len);
/* Reset the zones of [off, off + len): whole sequential zones only; 0 or -EINVAL. */
int sim_zones_reset(struct sim_zones *z, uint64_t off, uint64_t len);
/* The zones from the one holding off on, at most max; their number. */
size_t sim_zones_report(const struct sim_zones *z, uint64_t off, struct target_zone *out,
			size_t max);

#endif
