/*
 * Reading what the kernel says about block devices in sysfs: the first
 * line of an attribute, a number, a uevent key, the directory of a
 * device number, the disk a partition belongs to and its node in /dev.
 * Nothing here writes. The safety checks, --readahead --buffered and
 * --info all read sysfs through these.
 */
#ifndef FB_SYSFS_H
#define FB_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The first line of the file at path, without its newline: 0, or -1 (none, unreadable). */
int sysfs_read_line(const char *path, char *buf, size_t len);

/* The first line of dir/attr, trailing blanks cut: 0, or -1 when there is none. */
int sysfs_attr(const char *dir, const char *attr, char *buf, size_t len);

/* A decimal (or 0x hex) number in dir/attr: 0, or -1 when absent or not a number. */
int sysfs_attr_u64(const char *dir, const char *attr, uint64_t *v);

/* Does dir/name exist? */
bool sysfs_has(const char *dir, const char *name);

/* The real sysfs directory of block device dev (/sys/devices/...): 0, or -1 when unknown. */
int sysfs_block_dir(dev_t dev, char *dir, size_t len);

/* The device number in dir/dev ("8:0"): 0, or -1. */
int sysfs_dir_dev(const char *dir, dev_t *dev);

/* The value of KEY in dir/uevent ("DEVNAME"): 0, or -errno. */
int sysfs_uevent(const char *dir, const char *key, char *val, size_t len);

/*
 * The directory of the whole disk a block device's directory belongs to:
 * the parent of a partition, else dir itself (copied into disk).
 */
void sysfs_disk_dir(const char *dir, char *disk, size_t len);

/*
 * The device node (/dev/NAME) of the whole disk holding block device dev
 * (a partition leads to its disk, which owns the readahead and the
 * queue). 0, or -errno with a one-line message in err.
 */
int sysfs_disk_node(dev_t dev, char *node, size_t len, char *err, size_t errlen);

#endif
