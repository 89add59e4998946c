/* Reading sysfs: see sysfs.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/sysfs.h"

int sysfs_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int sysfs_attr(const char *dir, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX + 64];
	size_t n;

	if (snprintf(path, sizeof(path), "%s/%s", dir, attr) >= (int)sizeof(path) ||
	    sysfs_read_line(path, buf, len) < 0)
		return -1;
	/* SCSI pads vendor and model with blanks. */
	for (n = strlen(buf); n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t'); n--)
		buf[n - 1] = '\0';
	return 0;
}

int sysfs_attr_u64(const char *dir, const char *attr, uint64_t *v)
{
	char buf[64], *end;
	unsigned long long x;

	if (sysfs_attr(dir, attr, buf, sizeof(buf)) < 0 || buf[0] < '0' || buf[0] > '9')
		return -1;
	errno = 0;
	x = strtoull(buf, &end, 0);
	if (errno || end == buf || *end)
		return -1;
	*v = x;
	return 0;
}

bool sysfs_has(const char *dir, const char *name)
{
	char path[PATH_MAX + 64];

	return snprintf(path, sizeof(path), "%s/%s", dir, name) < (int)sizeof(path) &&
	       access(path, F_OK) == 0;
}

int sysfs_block_dir(dev_t dev, char *dir, size_t len)
{
	char link[64], real[PATH_MAX];

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(link, real) || strlen(real) >= len)
		return -1;
	strcpy(dir, real);
	return 0;
}

int sysfs_dir_dev(const char *dir, dev_t *dev)
{
	char buf[32];
	unsigned ma, mi;

	if (sysfs_attr(dir, "dev", buf, sizeof(buf)) < 0 || sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return -1;
	*dev = makedev(ma, mi);
	return 0;
}

int sysfs_uevent(const char *dir, const char *key, char *val, size_t len)
{
	char path[PATH_MAX + 16], line[512];
	size_t klen = strlen(key);
	int r = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "%s/uevent", dir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) == 0 && line[klen] == '=') {
			size_t n = strcspn(line + klen + 1, "\n");

			r = n < len ? 0 : -ENAMETOOLONG;
			if (r == 0) {
				memcpy(val, line + klen + 1, n);
				val[n] = '\0';
			}
			break;
		}
	}
	fclose(f);
	return r;
}

void sysfs_disk_dir(const char *dir, char *disk, size_t len)
{
	char *slash;

	snprintf(disk, len, "%s", dir);
	if (sysfs_has(dir, "partition") && (slash = strrchr(disk, '/')) && slash != disk)
		*slash = '\0';
}

int sysfs_disk_node(dev_t dev, char *node, size_t len, char *err, size_t errlen)
{
	char real[PATH_MAX], disk[PATH_MAX], name[256];
	struct stat st;
	int r;

	if (sysfs_block_dir(dev, real, sizeof(real)) < 0) {
		snprintf(err, errlen, "device %u:%u is not a block device (no /sys/dev/block/%u:%u): "
			 "tmpfs, overlay, btrfs and network file systems have none whose readahead "
			 "could be set", major(dev), minor(dev), major(dev), minor(dev));
		return -ENODEV;
	}
	sysfs_disk_dir(real, disk, sizeof(disk));
	r = sysfs_uevent(disk, "DEVNAME", name, sizeof(name));
	if (r < 0) {
		snprintf(err, errlen, "%s/uevent: no DEVNAME: %s", disk, strerror(-r));
		return r;
	}
	snprintf(node, len, "/dev/%s", name);
	if (stat(node, &st) < 0 || !S_ISBLK(st.st_mode)) {
		snprintf(err, errlen, "%s (device of %s) is not a block device node", node, disk);
		return -ENODEV;
	}
	return 0;
}
