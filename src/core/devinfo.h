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

#include "core/devinfo_list.h"
#include "core/devinfo_mmc.h"
#include "core/target.h"

/* The facts of the file or block device t (not the simulated card: d is left empty). */
void devinfo_read(const struct target *t, struct devinfo *d);

/* The queue of a disk from its sysfs directory: discard, zones, scheduler ... */
void devinfo_queue(const char *disk, struct devinfo *d);

/* Does the device take discards (TRIM)? 1 yes, 0 no, -1 unknown. */
int devinfo_discard(const struct devinfo *d);

/*
 * The erase block size the device itself states, and which fact says it
 * (an SD card's allocation unit, an MMC card's preferred erase size):
 * false when it states none.
 */
bool devinfo_stated_erase(const struct devinfo *d, uint64_t *bytes, const struct di_fact **from);

#endif
