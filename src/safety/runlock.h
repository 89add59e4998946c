/*
 * Two flashbench runs never write the same storage at once: each run
 * takes an OFD write lock (F_OFD_SETLK) on everything it will write --
 * the device or file under test, over the byte range it occupies on its
 * whole disk, every loop device's backing file below it, the simulated
 * card's image, --out -- and holds it until it exits. The kernel drops
 * the lock with the last descriptor, so a killed run leaves none behind.
 * A run that finds a lock taken is refused (FB_ESAFETY) with the process
 * that holds it named, when /proc lets us see it.
 */
#ifndef FB_RUNLOCK_H
#define FB_RUNLOCK_H

#include <stdint.h>

#include "safety/storage.h"

/*
 * Lock every chain item of s, the storage of what label names ("/dev/sdd",
 * "--out=FILE"). FB_OK or FB_ESAFETY ("refusing to write to LABEL: ...").
 */
int runlock_storage(const struct storage *s, const char *label);

/* Lock the open file fd (name, for label) whole. FB_OK or FB_ESAFETY. */
int runlock_fd(int fd, const char *label, const char *name);

/* Drop every lock this process took (unit tests run many checks in one process). */
void runlock_release(void);

#endif
