/*
 * What the kernel knows about a device, as a list of facts: each with a
 * name that carries its unit, a value as the kernel gives it (or
 * "unknown", never a guess) and where it came from (an ioctl, a sysfs
 * attribute, statx, statfs). Block devices: the geometry and the queue,
 * discard, zones, identity, a partition's disk or a loop device's
 * backing file, and an MMC/SD card's registers (devinfo_mmc.c). Regular
 * files: the file system and the direct-I/O alignment. --info prints
 * them; the align verdict compares its erase block with the one the
 * device states; other tests ask whether it discards.
 */
#ifndef FB_DEVINFO_H
#define FB_DEVINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/target.h"

enum di_kind {
	DI_TEXT,	/* a string */
	DI_BYTES,	/* a number of bytes */
	DI_COUNT,	/* a plain number */
	DI_BOOL,	/* yes or no */
};

#define DI_TEXT_LEN 256
#define DI_MAX_FACTS 96

struct di_fact {
	char name[48];		/* "logical_sector_bytes": the unit is in the name */
	enum di_kind kind;
	bool known;
	uint64_t num;		/* DI_BYTES, DI_COUNT; DI_BOOL 0 or 1 */
	char text[DI_TEXT_LEN];	/* the value as printed: "512", "yes", "unknown" */
	const char *source;	/* "BLKSSZGET", "sysfs queue/zoned", "statx" ... */
};

struct devinfo {
	size_t n;
	struct di_fact f[DI_MAX_FACTS];
};

/* The facts of the file or block device t (not the simulated card: d is left empty). */
void devinfo_read(const struct target *t, struct devinfo *d);

/*
 * The registers of the MMC/SD card whose sysfs directory is dir (a disk's
 * "device"), when it is one (it has a "type"): false when not.
 */
bool devinfo_mmc(const char *dir, struct devinfo *d);

/* The queue of a disk from its sysfs directory: discard, zones, scheduler ... */
void devinfo_queue(const char *disk, struct devinfo *d);

/* The fact of that name, or NULL when it was not looked for. */
const struct di_fact *devinfo_get(const struct devinfo *d, const char *name);

/* Does the device take discards (TRIM)? 1 yes, 0 no, -1 unknown. */
int devinfo_discard(const struct devinfo *d);

/*
 * The erase block size the device itself states, and which fact says it
 * (an SD card's allocation unit, an MMC card's preferred erase size):
 * false when it states none.
 */
bool devinfo_stated_erase(const struct devinfo *d, uint64_t *bytes, const struct di_fact **from);

/* Add a fact: v NULL is unknown. A list that is full drops it. */
void devinfo_add_num(struct devinfo *d, const char *name, enum di_kind kind, const uint64_t *v,
		     const char *source);
void devinfo_add_text(struct devinfo *d, const char *name, const char *v, const char *source);

#endif
