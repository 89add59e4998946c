/*
 * The facts of a block device or a regular file: see devinfo.h. Values
 * the kernel gives through an ioctl on the open descriptor come from
 * there (they are the partition's own where it has its own); the queue,
 * the identity and a card's registers from sysfs, of the whole disk.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/blkzoned.h>
#include <linux/fs.h>
#include <linux/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include "core/devinfo.h"
#include "core/devinfo_mmc.h"
#include "core/mountinfo.h"
#include "core/sysfs.h"

int devinfo_discard(const struct devinfo *d)
{
	const struct di_fact *f = devinfo_get(d, "discard");

	return f && f->known ? (int)f->num : -1;
}

/*
 * Only a size the device itself states counts: an SD card's AU from its
 * SD status, an eMMC's erase group (EXT_CSD), sim:'s stated-erase=.
 * The kernel's preferred_erase_size without an AU is its own figure from
 * the capacity (512 KiB to 4 MiB), and an SD card's erase_size is its
 * 512-byte erase granularity: neither says anything of the erase block.
 */
bool devinfo_stated_erase(const struct devinfo *d, uint64_t *bytes, const struct di_fact **from)
{
	const struct di_fact *type = devinfo_get(d, "mmc_type");
	bool mmc = type && type->known && strcmp(type->text, "MMC") == 0;
	const char *const names[] = {
		"sd_au_bytes", mmc ? "mmc_erase_size_bytes" : "", "sim_stated_erase_bytes",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct di_fact *f = devinfo_get(d, names[i]);

		if (f && f->known && f->num) {
			*bytes = f->num;
			*from = f;
			return true;
		}
	}
	return false;
}

/* ---- a number from sysfs, times a unit (KiB, sectors) ---- */

static void sys_num(struct devinfo *d, const char *dir, const char *attr, uint64_t unit,
		    const char *name, enum di_kind kind, const char *source)
{
	uint64_t v = 0;
	bool ok = dir && sysfs_attr_u64(dir, attr, &v) == 0;

	v *= unit;
	devinfo_add_num(d, name, kind, ok ? &v : NULL, source);
}

static void sys_text(struct devinfo *d, const char *dir, const char *attr, const char *name,
		     const char *source)
{
	char v[DI_TEXT_LEN];

	devinfo_add_text(d, name, dir && sysfs_attr(dir, attr, v, sizeof(v)) == 0 && v[0] ? v
			 : NULL, source);
}

/* "none [mq-deadline] kyber": the one in brackets. */
static void scheduler(struct devinfo *d, const char *queue)
{
	char v[DI_TEXT_LEN], *a, *b;

	if (!queue || sysfs_attr(queue, "scheduler", v, sizeof(v)) < 0) {
		devinfo_add_text(d, "scheduler", NULL, "sysfs queue/scheduler");
		return;
	}
	a = strchr(v, '[');
	b = a ? strchr(a, ']') : NULL;
	if (a && b) {
		*b = '\0';
		memmove(v, a + 1, (size_t)(b - a));
	}
	devinfo_add_text(d, "scheduler", v, "sysfs queue/scheduler");
}

void devinfo_queue(const char *disk, struct devinfo *d)
{
	char q[PATH_MAX + 8], zoned[64] = "";
	const char *queue = NULL;
	uint64_t max = 0, yes;
	bool zoned_known;

	if (disk && snprintf(q, sizeof(q), "%s/queue", disk) < (int)sizeof(q))
		queue = q;
	zoned_known = queue && sysfs_attr(queue, "zoned", zoned, sizeof(zoned)) == 0;
	if (queue && sysfs_attr_u64(queue, "discard_max_bytes", &max) == 0) {
		yes = max > 0;
		devinfo_add_num(d, "discard", DI_BOOL, &yes, "sysfs queue/discard_max_bytes");
	} else {
		devinfo_add_num(d, "discard", DI_BOOL, NULL, "sysfs queue/discard_max_bytes");
	}
	sys_num(d, queue, "discard_granularity", 1, "discard_granularity_bytes", DI_BYTES,
		"sysfs queue/discard_granularity");
	sys_num(d, queue, "discard_max_bytes", 1, "discard_max_bytes", DI_BYTES,
		"sysfs queue/discard_max_bytes");
	sys_num(d, queue, "rotational", 1, "rotational", DI_BOOL, "sysfs queue/rotational");
	sys_num(d, disk, "removable", 1, "removable", DI_BOOL, "sysfs removable");
	devinfo_add_text(d, "zoned", zoned_known ? zoned : NULL, "sysfs queue/zoned");
	/* A zoned device's zones are its chunks; elsewhere chunk_sectors is a RAID stripe. */
	if (zoned_known && strcmp(zoned, "none") == 0) {
		uint64_t zero = 0;

		devinfo_add_num(d, "zone_size_bytes", DI_BYTES, &zero, "sysfs queue/zoned");
	} else {
		sys_num(d, queue, "chunk_sectors", 512, "zone_size_bytes", DI_BYTES,
			"sysfs queue/chunk_sectors");
	}
	sys_num(d, queue, "nr_zones", 1, "zone_count", DI_COUNT, "sysfs queue/nr_zones");
	scheduler(d, queue);
	sys_num(d, queue, "max_sectors_kb", 1024, "max_request_bytes", DI_BYTES,
		"sysfs queue/max_sectors_kb");
	sys_text(d, queue, "write_cache", "write_cache", "sysfs queue/write_cache");
}

/* ---- file systems ---- */

static const char *fs_name(const struct statfs *s)
{
	static const struct {
		unsigned long magic;
		const char *name;
	} names[] = {
		{ 0xEF53, "ext2/ext3/ext4" }, { 0x58465342, "xfs" }, { 0x9123683E, "btrfs" },
		{ 0xF2F52010, "f2fs" }, { 0x4d44, "vfat" }, { 0x2011BAB0, "exfat" },
		{ 0x5346544e, "ntfs" }, { 0x7366746e, "ntfs3" }, { 0x01021994, "tmpfs" },
		{ 0x858458f6, "ramfs" }, { 0x65735546, "fuse" }, { 0x6969, "nfs" },
		{ 0xFF534D42, "cifs" }, { 0x794c7630, "overlay" }, { 0x73717368, "squashfs" },
		{ 0x9660, "iso9660" }, { 0x15013346, "udf" }, { 0x2fc12fc1, "zfs" },
		{ 0x3153464a, "jfs" }, { 0x52654973, "reiserfs" }, { 0x24051905, "ubifs" },
		{ 0x5a3c69f0, "jffs2" }, { 0x72b6, "jffs2" }, { 0xE0F5E1E2, "erofs" },
		{ 0xCA451A4E, "bcachefs" }, { 0x4244, "hfs" }, { 0x482b, "hfsplus" },
	};
	static char hex[32];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((unsigned long)s->f_type == names[i].magic)
			return names[i].name;
	snprintf(hex, sizeof(hex), "magic 0x%lx", (unsigned long)s->f_type);
	return hex;
}

/* The type of the file system mounted from dev ("ext4", "fuse.sshfs"): the last mount wins. */
static bool mount_type(dev_t dev, char *buf, size_t len)
{
	struct mount_entry m;
	bool found = false;
	FILE *f = mountinfo_open();

	while (f && mountinfo_next(f, &m))
		if (m.dev == dev && m.fstype)
			found = snprintf(buf, len, "%s", m.fstype) < (int)len;
	if (f)
		mountinfo_close(f);
	return found;
}

/* ---- a block device ---- */

/* The geometry through the descriptor: a partition's own size and alignment. */
static void block_ioctls(int fd, struct devinfo *d)
{
	uint64_t size, v;
	int i;
	unsigned u;
	long ra;

	devinfo_add_num(d, "size_bytes", DI_BYTES, ioctl(fd, BLKGETSIZE64, &size) == 0 ? &size
			: NULL, "BLKGETSIZE64");
	v = ioctl(fd, BLKSSZGET, &i) == 0 ? (uint64_t)i : 0;
	devinfo_add_num(d, "logical_sector_bytes", DI_BYTES, v ? &v : NULL, "BLKSSZGET");
	v = ioctl(fd, BLKPBSZGET, &u) == 0 ? u : 0;
	devinfo_add_num(d, "physical_sector_bytes", DI_BYTES, v ? &v : NULL, "BLKPBSZGET");
	v = u = 0;
	devinfo_add_num(d, "min_io_bytes", DI_BYTES, ioctl(fd, BLKIOMIN, &u) == 0 ? (v = u, &v)
			: NULL, "BLKIOMIN");
	devinfo_add_num(d, "opt_io_bytes", DI_BYTES, ioctl(fd, BLKIOOPT, &u) == 0 ? (v = u, &v)
			: NULL, "BLKIOOPT");
	/* -1: the partition is misaligned for the device's physical sector. */
	if (ioctl(fd, BLKALIGNOFF, &i) == 0 && i < 0)
		devinfo_add_text(d, "alignment_offset_bytes", "misaligned", "BLKALIGNOFF");
	else
		devinfo_add_num(d, "alignment_offset_bytes", DI_BYTES,
				ioctl(fd, BLKALIGNOFF, &i) == 0 ? (v = (uint64_t)i, &v) : NULL,
				"BLKALIGNOFF");
	devinfo_add_num(d, "read_only", DI_BOOL, ioctl(fd, BLKROGET, &i) == 0 ? (v = i != 0, &v)
			: NULL, "BLKROGET");
	devinfo_add_num(d, "readahead_bytes", DI_BYTES, ioctl(fd, BLKRAGET, &ra) == 0 && ra >= 0
			? (v = (uint64_t)ra * 512, &v) : NULL, "BLKRAGET");
}

/* /dev/NAME of a sysfs directory, by its uevent. */
static bool node_of(const char *dir, char *node, size_t len)
{
	char name[NAME_MAX + 1];

	return sysfs_uevent(dir, "DEVNAME", name, sizeof(name)) == 0 &&
	       snprintf(node, len, "/dev/%s", name) < (int)len;
}

/* The block device a file system lies on, by its st_dev: "/dev/vda1", or "none". */
static void fs_device(dev_t dev, char *buf, size_t len)
{
	char dir[PATH_MAX];

	if (sysfs_block_dir(dev, dir, sizeof(dir)) < 0 || !node_of(dir, buf, len))
		snprintf(buf, len, "none (device %u:%u has no block device)", major(dev), minor(dev));
}

static void partition_facts(const char *dir, const char *disk, struct devinfo *d)
{
	char node[PATH_MAX];

	devinfo_add_text(d, "partition_of", node_of(disk, node, sizeof(node)) ? node : NULL,
			 "sysfs (the partition's parent)");
	sys_num(d, dir, "partition", 1, "partition_number", DI_COUNT, "sysfs partition");
	sys_num(d, dir, "start", 512, "partition_start_bytes", DI_BYTES, "sysfs start");
}

static void loop_facts(const char *dir, struct devinfo *d)
{
	char loop[PATH_MAX + 8], file[DI_TEXT_LEN], where[DI_TEXT_LEN], type[64], *del;
	struct stat st;
	struct statfs sf;
	bool have;

	snprintf(loop, sizeof(loop), "%s/loop", dir);
	have = sysfs_attr(loop, "backing_file", file, sizeof(file)) == 0;
	devinfo_add_text(d, "loop_backing_file", have ? file : NULL, "sysfs loop/backing_file");
	sys_num(d, loop, "offset", 1, "loop_offset_bytes", DI_BYTES, "sysfs loop/offset");
	sys_num(d, loop, "dio", 1, "loop_direct_io", DI_BOOL, "sysfs loop/dio");
	/* What the backing file sits on, unless it was deleted since. */
	if (have && (del = strstr(file, " (deleted)")) && !del[10])
		have = false;
	if (have && stat(file, &st) == 0 && S_ISBLK(st.st_mode)) {
		have = snprintf(where, sizeof(where), "%s (a block device)", file) <
		       (int)sizeof(where);
	} else if (have && stat(file, &st) == 0) {
		size_t n;

		fs_device(st.st_dev, where, sizeof(where));
		n = strlen(where);
		if (mount_type(st.st_dev, type, sizeof(type)))
			snprintf(where + n, sizeof(where) - n, ", file system %s", type);
		else if (statfs(file, &sf) == 0)
			snprintf(where + n, sizeof(where) - n, ", file system %s", fs_name(&sf));
	} else {
		have = false;
	}
	devinfo_add_text(d, "loop_backing_device", have ? where : NULL,
			 "stat and statfs of the backing file");
}

/* Who made it and which one it is: the disk's and its device's attributes. */
static void identity(const char *disk, struct devinfo *d)
{
	char dev[PATH_MAX + 8], real[PATH_MAX], v[DI_TEXT_LEN];
	const char *transport = NULL;

	snprintf(dev, sizeof(dev), "%s/device", disk);
	/* The path of the device says how it hangs off the machine. */
	if (realpath(dev, real))
		transport = strstr(real, "/usb") ? "usb" : strstr(real, "/mmc") ? "mmc"
			  : strstr(real, "/nvme") ? "nvme" : strstr(real, "/virtio") ? "virtio"
			  : strstr(real, "/ata") ? "ata" : strstr(real, "/host") ? "scsi" : NULL;
	devinfo_add_text(d, "transport", transport, "the sysfs path of the device");
	sys_text(d, dev, "vendor", "vendor", "sysfs device/vendor");
	sys_text(d, dev, "model", "model", "sysfs device/model");
	if (sysfs_attr(disk, "serial", v, sizeof(v)) == 0 && v[0])
		devinfo_add_text(d, "serial", v, "sysfs serial");
	else
		sys_text(d, dev, "serial", "serial", "sysfs device/serial");
	if (sysfs_attr(disk, "wwid", v, sizeof(v)) == 0 && v[0])
		devinfo_add_text(d, "wwid", v, "sysfs wwid");
	else
		sys_text(d, dev, "wwid", "wwid", "sysfs device/wwid");
	if (sysfs_attr(dev, "rev", v, sizeof(v)) == 0 && v[0])
		devinfo_add_text(d, "firmware", v, "sysfs device/rev");
	else
		sys_text(d, dev, "firmware_rev", "firmware", "sysfs device/firmware_rev");
}

static void block_facts(const struct target *t, struct devinfo *d)
{
	char dir[PATH_MAX], disk[PATH_MAX], num[32], card[PATH_MAX + 8];
	bool sys = sysfs_block_dir(t->rdev, dir, sizeof(dir)) == 0;
	unsigned short rot;
	struct di_fact *f;

	snprintf(num, sizeof(num), "%u:%u", major(t->rdev), minor(t->rdev));
	devinfo_add_text(d, "kernel_name", sys ? strrchr(dir, '/') + 1 : NULL, "sysfs");
	devinfo_add_text(d, "device_number", num, "stat");
	if (sys)
		sysfs_disk_dir(dir, disk, sizeof(disk));
	if (sys && strcmp(dir, disk) != 0)
		partition_facts(dir, disk, d);
	/* A partition of a loop device sits on the loop's backing file. */
	if (sys && sysfs_has(disk, "loop"))
		loop_facts(disk, d);
	block_ioctls(t->fd, d);
	devinfo_queue(sys ? disk : NULL, d);
	/* BLKROTATIONAL where sysfs does not say it (it is the same flag). */
	if ((f = (struct di_fact *)devinfo_get(d, "rotational")) && !f->known &&
	    ioctl(t->fd, BLKROTATIONAL, &rot) == 0) {
		f->known = true;
		f->num = rot != 0;
		f->source = "BLKROTATIONAL";
		snprintf(f->text, sizeof(f->text), "%s", rot ? "yes" : "no");
	}
	if (!sys)
		return;
	identity(disk, d);
	snprintf(card, sizeof(card), "%s/device", disk);
	devinfo_mmc(card, d);
}

/* ---- a regular file ---- */

/* statx's direct-I/O alignment: unknown where the kernel (before 6.1) has none. */
static void dio_align(int fd, struct devinfo *d)
{
	uint64_t off = 0, mem = 0;
	bool known = false;
#ifdef STATX_DIOALIGN
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN)) {
		known = true;
		off = stx.stx_dio_offset_align;
		mem = stx.stx_dio_mem_align;
	}
#endif
	devinfo_add_num(d, "dio_offset_align_bytes", DI_BYTES, known ? &off : NULL,
			"statx STATX_DIOALIGN (0: no direct I/O)");
	devinfo_add_num(d, "dio_mem_align_bytes", DI_BYTES, known ? &mem : NULL,
			"statx STATX_DIOALIGN (0: no direct I/O)");
}

static void file_facts(const struct target *t, struct devinfo *d)
{
	char where[DI_TEXT_LEN], type[64];
	struct stat st;
	struct statfs sf;
	uint64_t v;
	int fl = fcntl(t->fd, F_GETFL);
	bool have = fstat(t->fd, &st) == 0;

	devinfo_add_num(d, "size_bytes", DI_BYTES, have ? (v = (uint64_t)st.st_size, &v) : NULL,
			"fstat");
	devinfo_add_num(d, "allocated_bytes", DI_BYTES, have ? (v = (uint64_t)st.st_blocks * 512,
			&v) : NULL, "fstat st_blocks");
	if (have && mount_type(st.st_dev, type, sizeof(type)))
		devinfo_add_text(d, "fs_type", type, "/proc/self/mountinfo");
	if (fstatfs(t->fd, &sf) == 0) {
		if (!devinfo_get(d, "fs_type"))
			devinfo_add_text(d, "fs_type", fs_name(&sf), "fstatfs f_type");
		v = (uint64_t)sf.f_bsize;
		devinfo_add_num(d, "fs_block_bytes", DI_BYTES, &v, "fstatfs f_bsize");
	} else {
		if (!devinfo_get(d, "fs_type"))
			devinfo_add_text(d, "fs_type", NULL, "fstatfs f_type");
		devinfo_add_num(d, "fs_block_bytes", DI_BYTES, NULL, "fstatfs f_bsize");
	}
	if (have)
		fs_device(st.st_dev, where, sizeof(where));
	devinfo_add_text(d, "fs_device", have ? where : NULL, "fstat st_dev and sysfs");
	dio_align(t->fd, d);
	devinfo_add_num(d, "direct_io", DI_BOOL, fl >= 0 ? (v = (fl & O_DIRECT) != 0, &v) : NULL,
			"opened with O_DIRECT (fcntl F_GETFL)");
}

void devinfo_read(const struct target *t, struct devinfo *d)
{
	d->n = 0;
	if (t->sim || t->fd < 0)
		return;
	if (t->blockdev)
		block_facts(t, d);
	else
		file_facts(t, d);
}
