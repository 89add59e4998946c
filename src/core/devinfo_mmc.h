/* An MMC/SD card's registers as facts (core/devinfo.h's list). */
#ifndef FB_DEVINFO_MMC_H
#define FB_DEVINFO_MMC_H

#include <stdbool.h>

#include "core/devinfo_list.h"

/*
 * The registers of the MMC/SD card whose sysfs directory is dir (a disk's
 * "device"), when it is one (it has a "type"): false when not.
 */
bool devinfo_mmc(const char *dir, struct devinfo *d);

#endif
