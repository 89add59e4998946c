/* In-use checks before any write: see safety.h. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "opts.h"
#include "safety.h"
#include "sim_spec.h"
#include "units.h"

/* The disk a block device belongs to and every partition of it. */
#define DEVSET_MAX 512
struct devset {
	size_t n;
	struct {
		dev_t dev;
		char name[NAME_MAX + 1];	/* kernel name: sdd, loop0p1 */
	} d[DEVSET_MAX];
};

/* Read the first line of a small sysfs file, without the newline. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
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

/* dir/name into buf; -1 when it does not fit (then buf is not used). */
static int join(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static void devset_add(struct devset *s, dev_t dev, const char *name)
{
	if (s->n >= DEVSET_MAX)
		return;
	s->d[s->n].dev = dev;
	snprintf(s->d[s->n].name, sizeof(s->d[s->n].name), "%s", name);
	s->n++;
}

/* Index of dev in s, or -1. */
static int devset_find(const struct devset *s, dev_t dev)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->d[i].dev == dev)
			return (int)i;
	return -1;
}

/* Add the device whose sysfs directory is dir (its "dev" file says MAJ:MIN). */
static void devset_add_dir(struct devset *s, const char *dir)
{
	char path[PATH_MAX + 8], buf[32];
	unsigned ma, mi;
	const char *name = strrchr(dir, '/');

	if (join(path, sizeof(path), dir, "dev") == 0 && read_line(path, buf, sizeof(buf)) == 0 && sscanf(buf, "%u:%u", &ma, &mi) == 2)
		devset_add(s, makedev(ma, mi), name ? name + 1 : dir);
}

static bool is_partition_dir(const char *dir)
{
	char path[PATH_MAX + 16];

	return join(path, sizeof(path), dir, "partition") == 0 && access(path, F_OK) == 0;
}

/* The sysfs directory of the whole disk that rdev is or belongs to. */
static int whole_disk_dir(dev_t rdev, char *whole)
{
	char link[64];

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	if (!realpath(link, whole))
		return -1;
	if (is_partition_dir(whole))
		*strrchr(whole, '/') = '\0';
	return 0;
}

/* rdev's disk and all its partitions; just rdev when sysfs does not know it. */
static void devset_of(dev_t rdev, const char *path, struct devset *s)
{
	char whole[PATH_MAX], sub[PATH_MAX + NAME_MAX + 2];
	struct dirent *e;
	DIR *d;

	s->n = 0;
	if (whole_disk_dir(rdev, whole) < 0 || !(d = opendir(whole))) {
		const char *base = strrchr(path, '/');
		devset_add(s, rdev, base ? base + 1 : path);
		return;
	}
	devset_add_dir(s, whole);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (join(sub, sizeof(sub), whole, e->d_name) == 0 && is_partition_dir(sub))
			devset_add_dir(s, sub);
	}
	closedir(d);
	if (devset_find(s, rdev) < 0)
		devset_add(s, rdev, path);
}

/* Undo the octal escapes (\040 for a space) of /proc/self/mountinfo and /proc/swaps. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* Is the block device that source names (a /dev path) in s? Index or -1. */
static int source_in(const struct devset *s, const char *source)
{
	struct stat st;

	if (strncmp(source, "/dev/", 5) != 0 || stat(source, &st) < 0 || !S_ISBLK(st.st_mode))
		return -1;
	return devset_find(s, st.st_rdev);
}

/*
 * One line of mountinfo: "36 35 98:0 /root /mnt opts [optional...] - fstype source opts".
 * Returns the index in s of the device it mounts, or -1; sets *mp, *fstype.
 */
static int mount_line(const struct devset *s, char *line, char **mp, char **fstype)
{
	char *tok[64], *save = NULL, *p;
	unsigned ma, mi, n = 0, dash = 0;
	int i;

	for (p = strtok_r(line, " \n", &save); p && n < 64; p = strtok_r(NULL, " \n", &save)) {
		if (!dash && n > 5 && strcmp(p, "-") == 0)
			dash = n;
		tok[n++] = p;
	}
	if (n < 5 || !dash || dash + 2 >= n || sscanf(tok[2], "%u:%u", &ma, &mi) != 2)
		return -1;
	unescape(tok[4]);
	unescape(tok[dash + 2]);
	*mp = tok[4];
	*fstype = tok[dash + 1];
	i = devset_find(s, makedev(ma, mi));
	/* btrfs and others report an anonymous device number: match the source too. */
	return i >= 0 ? i : source_in(s, tok[dash + 2]);
}

static int check_mounts(const struct devset *s, const char *path)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL, *mp, *fstype;
	size_t cap = 0;
	int i, r = FB_OK;

	if (!f) {
		fprintf(stderr, "flashbench: refusing to write to %s: cannot read "
			"/proc/self/mountinfo to see whether it is mounted: %s\n", path, strerror(errno));
		return FB_ESAFETY;
	}
	while (r == FB_OK && getline(&line, &cap, f) > 0) {
		if ((i = mount_line(s, line, &mp, &fstype)) >= 0) {
			fprintf(stderr, "flashbench: refusing to write to %s: /dev/%s is mounted on %s (%s)\n",
				path, s->d[i].name, mp, fstype);
			r = FB_ESAFETY;
		}
	}
	free(line);
	fclose(f);
	return r;
}

/* /proc/swaps: swap partitions of s, or the regular file st itself. */
static int check_swaps(const struct devset *s, const struct stat *file, const char *path)
{
	FILE *f = fopen("/proc/swaps", "r");
	char *line = NULL, *save;
	size_t cap = 0;
	int r = FB_OK;

	if (!f)
		return FB_OK;	/* no swap support: nothing can be swap */
	while (r == FB_OK && getline(&line, &cap, f) > 0) {
		char *name = strtok_r(line, " \t\n", &save);
		struct stat st;

		if (!name || name[0] != '/')
			continue;	/* the header line */
		unescape(name);
		if (stat(name, &st) < 0)
			continue;
		if ((s && S_ISBLK(st.st_mode) && devset_find(s, st.st_rdev) >= 0) ||
		    (file && S_ISREG(st.st_mode) && st.st_dev == file->st_dev && st.st_ino == file->st_ino)) {
			fprintf(stderr, "flashbench: refusing to write to %s: %s is in use as swap\n",
				path, name);
			r = FB_ESAFETY;
		}
	}
	free(line);
	fclose(f);
	return r;
}

/* /sys/dev/block/M:m/holders: device mapper, MD RAID, bcache on top of it. */
static int check_holders(const struct devset *s, const char *path)
{
	char dir[96];
	struct dirent *e;
	DIR *d;

	for (size_t i = 0; i < s->n; i++) {
		snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u/holders",
			 major(s->d[i].dev), minor(s->d[i].dev));
		if (!(d = opendir(dir)))
			continue;
		while ((e = readdir(d)) && e->d_name[0] == '.')
			;
		if (e) {
			fprintf(stderr, "flashbench: refusing to write to %s: /dev/%s is held by %s "
				"(device mapper, RAID or similar)\n", path, s->d[i].name, e->d_name);
			closedir(d);
			return FB_ESAFETY;
		}
		closedir(d);
	}
	return FB_OK;
}

/* A loop device's backing file, without the " (deleted)" mark. */
static int loop_backing(const char *loop, char *buf, size_t len)
{
	char path[PATH_MAX];
	size_t n;

	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", loop);
	if (read_line(path, buf, len) < 0)
		return -1;
	n = strlen(buf);
	if (n > 10 && strcmp(buf + n - 10, " (deleted)") == 0)
		buf[n - 10] = '\0';
	return 0;
}

/*
 * Is the regular file (or, for a block device, any device of s) the
 * backing of a loop device? Loop does not claim its backing device, so
 * neither O_EXCL nor holders/ show it: a file system mounted through the
 * loop device would be written under its feet.
 */
static int check_loop_backing(const struct stat *file, const struct devset *s, const char *path)
{
	char back[PATH_MAX];
	struct dirent *e;
	struct stat st;
	DIR *d = opendir("/sys/block");
	int r = FB_OK;

	if (!d)
		return FB_OK;
	while (r == FB_OK && (e = readdir(d))) {
		if (strncmp(e->d_name, "loop", 4) != 0 || loop_backing(e->d_name, back, sizeof(back)) < 0 ||
		    stat(back, &st) < 0)
			continue;
		if (file && S_ISREG(st.st_mode) && st.st_dev == file->st_dev && st.st_ino == file->st_ino)
			r = FB_ESAFETY;
		else if (s && S_ISBLK(st.st_mode) && devset_find(s, st.st_rdev) >= 0)
			r = FB_ESAFETY;
		if (r != FB_OK)
			fprintf(stderr, "flashbench: refusing to write to %s: %s is the backing %s "
				"of /dev/%s\n", path, back, file ? "file" : "device", e->d_name);
	}
	closedir(d);
	return r;
}

/* A simulated card writes only to its image= file, if it has one. */
static int check_sim_image(const char *path)
{
	char image[PATH_MAX];

	return sim_device_image(path, image, sizeof(image)) ? safety_check_writable(image) : FB_OK;
}

int safety_check_writable(const char *path)
{
	static struct devset s;	/* large: not on the stack */
	struct stat st;
	int r;

	if (strncmp(path, "sim:", 4) == 0)
		return check_sim_image(path);
	if (stat(path, &st) < 0)
		return FB_OK;	/* the open that follows names a missing path */
	if (S_ISREG(st.st_mode)) {
		r = check_swaps(NULL, &st, path);
		return r != FB_OK ? r : check_loop_backing(&st, NULL, path);
	}
	if (!S_ISBLK(st.st_mode))
		return FB_OK;
	devset_of(st.st_rdev, path, &s);
	if ((r = check_mounts(&s, path)) != FB_OK || (r = check_swaps(&s, NULL, path)) != FB_OK ||
	    (r = check_loop_backing(NULL, &s, path)) != FB_OK)
		return r;
	return check_holders(&s, path);
}

/* The directory a file would be created in. */
static void dir_of(const char *file, char *dir, size_t len)
{
	const char *slash = strrchr(file, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == file)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - file), file);
}

static int check_backup_space(const char *backup, const char *dir, uint64_t need)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN];
	struct statvfs vfs;
	uint64_t avail;

	if (statvfs(dir, &vfs) < 0)
		return FB_OK;	/* cannot tell: the writes will say so */
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (avail >= need)
		return FB_OK;
	fprintf(stderr, "flashbench: --backup: not enough free space for %s: it needs %s, "
		"%s has %s free\n", backup, fmt_size(a, sizeof(a), need), dir,
		fmt_size(b, sizeof(b), avail));
	return FB_ESAFETY;
}

int safety_check_backup(const char *backup, const char *device, uint64_t need)
{
	static struct devset s;
	char dir[PATH_MAX];
	struct stat st, dst;

	if (lstat(backup, &st) == 0) {
		fprintf(stderr, "flashbench: --backup: '%s' already exists; "
			"refusing to overwrite it\n", backup);
		return FB_ESAFETY;
	}
	dir_of(backup, dir, sizeof(dir));
	if (stat(dir, &dst) < 0 || !S_ISDIR(dst.st_mode)) {
		fprintf(stderr, "flashbench: --backup: no directory '%s' for '%s'\n", dir, backup);
		return FB_EUSAGE;
	}
	if (strncmp(device, "sim:", 4) != 0 && stat(device, &st) == 0 && S_ISBLK(st.st_mode)) {
		devset_of(st.st_rdev, device, &s);
		if (devset_find(&s, dst.st_dev) >= 0) {
			fprintf(stderr, "flashbench: --backup: '%s' would lie on %s, the device "
				"under test\n", backup, device);
			return FB_ESAFETY;
		}
	}
	return check_backup_space(backup, dir, need);
}

/* The first of the identity files of a disk that the kernel offers. */
static int disk_identity(const char *whole, char *buf, size_t len)
{
	static const char *const files[][2] = {
		{ "device/cid", "mmc cid" }, { "wwid", "wwid" }, { "device/wwid", "wwid" },
		{ "device/serial", "serial" }, { "serial", "serial" },
	};
	char path[PATH_MAX + 32], v[512];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (join(path, sizeof(path), whole, files[i][0]) == 0 && read_line(path, v, sizeof(v)) == 0 && v[0]) {
			snprintf(buf, len, "%s %s", files[i][1], v);
			return 0;
		}
	}
	if (loop_backing(strrchr(whole, '/') + 1, v, sizeof(v)) == 0) {
		snprintf(buf, len, "loop backing file %s", v);
		return 0;
	}
	snprintf(buf, len, "block device");
	return 0;
}

void safety_identity(const char *path, char *buf, size_t len)
{
	char whole[PATH_MAX], self[PATH_MAX], link[64], start[32];
	struct stat st;
	size_t n;

	snprintf(buf, len, "%s", strncmp(path, "sim:", 4) == 0 ? "simulated card" : "");
	if (buf[0] || stat(path, &st) < 0)
		return;
	if (!S_ISBLK(st.st_mode)) {
		snprintf(buf, len, "file");
		return;
	}
	if (whole_disk_dir(st.st_rdev, whole) < 0) {
		snprintf(buf, len, "block device");
		return;
	}
	disk_identity(whole, buf, len);
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	n = strlen(buf);
	if (realpath(link, self) && is_partition_dir(self)) {
		if (join(whole, sizeof(whole), self, "start") == 0 && read_line(whole, start, sizeof(start)) == 0 && n < len)
			snprintf(buf + n, len - n, ", partition at sector %s", start);
	}
}
