/* --info: the device's facts, for the other tests too. */
#ifndef FB_INFO_H
#define FB_INFO_H

#include <stdbool.h>
#include <stdint.h>

#include "core/devinfo.h"
#include "core/target.h"

/* The facts of t: devinfo_read(), or the simulated card's parameters. */
void info_collect(const struct target *t, struct devinfo *d);

/*
 * The erase block size t states (an SD card's AU, an MMC card's
 * preferred erase size, the simulated card's own) and the fact that
 * says it (copied into *from): false when it states none.
 */
bool info_stated_erase(const struct target *t, uint64_t *bytes, struct di_fact *from);

#endif
