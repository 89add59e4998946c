/*
 * In-use checks before any write: a benchmark that overwrites erase
 * blocks is one typo away from wiping a mounted file system. These look
 * at what the kernel says uses a device -- mounts, swap, holders (device
 * mapper, RAID), loop devices -- and refuse with the name of the user.
 * The O_EXCL open in target_dev.c is the kernel's own check on top.
 */
#ifndef FB_SAFETY_H
#define FB_SAFETY_H

#include <stddef.h>
#include <stdint.h>

/*
 * May a write test write to path? For a block device: neither the disk
 * it belongs to nor any partition of that disk may be mounted, used as
 * swap or held by another device (a partition of a disk whose other
 * partition is mounted is refused too: one wrong offset away). For a
 * regular file: it must not be swap or the backing file of a loop
 * device. A sim: target is checked by its image= file, if any (it could
 * even name a block device). Returns FB_OK, or
 * FB_ESAFETY after printing one line naming what uses the device.
 */
int safety_check_writable(const char *path);

/*
 * May the --preserve backup of need bytes be created at backup for
 * device? Refused (FB_ESAFETY, with a message) when the file exists,
 * when it would lie on the device under test, or when its file system
 * has less than need bytes free; FB_EUSAGE when its directory is
 * missing.
 */
int safety_check_backup(const char *backup, const char *device, uint64_t need);

/*
 * A text that names the medium behind path, stable across reboots
 * where the kernel offers one: the MMC card's CID, the WWID or serial
 * number, a loop device's backing file; "file" for a regular file.
 * A partition adds its start sector. Used to match a backup to its
 * device.
 */
void safety_identity(const char *path, char *buf, size_t len);

#endif
