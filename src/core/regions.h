/*
 * The regions a write test overwrites. Each write test's descriptor
 * lists them (modules/test.h); run/run.c collects them before the first write
 * so that it can announce them, check them against the device, back them
 * up (--preserve) and arm the engine's guard here, which refuses any
 * write outside them: a bug in a module then fails loudly instead of
 * destroying data nobody handed over.
 */
#ifndef FB_REGIONS_H
#define FB_REGIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct region {
	uint64_t off, len;
};

/* Sort and merge n regions in place; returns the new count. */
size_t regions_merge(struct region *r, size_t n);
/* Total bytes and the first byte past the last region (r merged). */
uint64_t regions_bytes(const struct region *r, size_t n);
uint64_t regions_end(const struct region *r, size_t n);

/*
 * The engine's guard. regions_arm copies the announced regions (merged);
 * from then on regions_allowed() is true only for a write that lies
 * wholly inside one of them. main.c arms it before every run, with no
 * regions for read-only tests. Unarmed (unit tests that drive a module
 * directly) every write is allowed. Returns -1 when out of memory.
 */
int regions_arm(const struct region *r, size_t n);
void regions_disarm(void);
bool regions_allowed(uint64_t off, uint64_t len);

#endif
