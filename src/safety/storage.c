/* What a path really lands on: see storage.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/sysfs.h"
#include "core/mountinfo.h"
#include "safety/storage.h"

/* A loop device as sysfs shows it, read once per resolve. */
struct loop_dev {
	dev_t rdev;
	char kname[NAME_MAX + 1];
	char backing[PATH_MAX];
	struct stat st;		/* of the backing file or device */
	bool has_backing;
	uint64_t offset;	/* where the loop device starts in it */
};

struct loops {
	size_t n;
	struct loop_dev *d;
};

/* A number from a sysfs file under dir; 0 when there is none. */
static uint64_t read_u64(const char *dir, const char *file)
{
	uint64_t v;

	return sysfs_attr_u64(dir, file, &v) == 0 ? v : 0;
}

bool storage_same(const struct stor_item *a, const struct stor_item *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == STOR_BLOCK)
		return a->rdev == b->rdev;
	if (a->dev != b->dev || a->ino != b->ino)
		return false;
	return a->kind == STOR_FILE || strcmp(strrchr(a->name, '/'), strrchr(b->name, '/')) == 0;
}

static int find(const struct storage *s, const struct stor_item *x)
{
	for (size_t i = 0; i < s->n; i++)
		if (storage_same(&s->it[i], x))
			return (int)i;
	return -1;
}

/* Add x unless s has it: its index, or -1 when out of memory. */
static int add(struct storage *s, const struct stor_item *x)
{
	int i = find(s, x);

	if (i >= 0)
		return i;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		struct stor_item *it = realloc(s->it, cap * sizeof(*it));

		if (!it) {
			fprintf(stderr, "flashbench: out of memory\n");
			return -1;
		}
		s->it = it;
		s->cap = cap;
	}
	s->it[s->n] = *x;
	return (int)s->n++;
}

void storage_free(struct storage *s)
{
	free(s->it);
	s->it = NULL;
	s->n = s->cap = 0;
}

/* A block device item: kernel names, disk, start and size from sysfs. */
static void block_item(struct stor_item *x, dev_t rdev, const char *name)
{
	char dir[PATH_MAX], node[NAME_MAX + 8];
	struct stat st;
	char *slash;

	memset(x, 0, sizeof(*x));
	x->kind = STOR_BLOCK;
	x->rdev = x->disk = rdev;
	snprintf(x->name, sizeof(x->name), "%s", name);
	if (sysfs_block_dir(rdev, dir, sizeof(dir)) < 0)
		return;
	slash = strrchr(dir, '/');
	snprintf(x->kname, sizeof(x->kname), "%s", slash + 1);
	snprintf(x->disk_kname, sizeof(x->disk_kname), "%s", slash + 1);
	x->bytes = read_u64(dir, "size") * 512;
	if (sysfs_has(dir, "partition")) {
		x->part_start = read_u64(dir, "start") * 512;
		*slash = '\0';
		snprintf(x->disk_kname, sizeof(x->disk_kname), "%s", strrchr(dir, '/') + 1);
		sysfs_dir_dev(dir, &x->disk);
	}
	/* Name it by its node when the caller gave none. */
	snprintf(node, sizeof(node), "/dev/%s", x->kname);
	if (!name[0] && stat(node, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == rdev)
		snprintf(x->name, sizeof(x->name), "%s", node);
	else if (!name[0])
		snprintf(x->name, sizeof(x->name), "block device %u:%u", major(rdev), minor(rdev));
}

/* The item of what st describes, named name. */
static void stat_item(const struct stat *st, const char *name, struct stor_item *x)
{
	memset(x, 0, sizeof(*x));
	if (S_ISBLK(st->st_mode)) {
		block_item(x, st->st_rdev, name);
		return;
	}
	x->kind = STOR_FILE;
	x->dev = st->st_dev;
	x->ino = st->st_ino;
	snprintf(x->name, sizeof(x->name), "%s", name);
}

int storage_new_path(const char *path, char *buf, size_t len)
{
	char cur[PATH_MAX], link[PATH_MAX], next[2 * PATH_MAX];
	struct stat st;
	int hops = 0;

	snprintf(cur, sizeof(cur), "%s", path);
	/* As the kernel would on O_CREAT: a dangling symlink is followed to its target. */
	while (lstat(cur, &st) == 0 && S_ISLNK(st.st_mode)) {
		const char *slash = strrchr(cur, '/');
		ssize_t n = readlink(cur, link, sizeof(link) - 1);

		if (n < 0 || ++hops > 40)
			return -1;
		link[n] = '\0';
		if (link[0] == '/' || !slash)
			snprintf(next, sizeof(next), "%s", link);
		else
			snprintf(next, sizeof(next), "%.*s/%s", (int)(slash - cur), cur, link);
		if (snprintf(cur, sizeof(cur), "%s", next) >= (int)sizeof(cur))
			return -1;
	}
	snprintf(buf, len, "%s", cur);
	return 0;
}

/* The item for path as it is now (missing: NEW when its directory exists). */
static int path_item(const char *path, struct stor_item *x)
{
	char dir[PATH_MAX], at[PATH_MAX];
	const char *slash;
	struct stat st;

	memset(x, 0, sizeof(*x));
	if (stat(path, &st) == 0) {
		stat_item(&st, path, x);
		return 0;
	}
	/* A new file lands where a dangling symlink leads, not beside it. */
	if (errno != ENOENT || storage_new_path(path, at, sizeof(at)) < 0)
		return -1;
	slash = strrchr(at, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == at ? 1 : (int)(slash - at), at);
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return -1;
	x->kind = STOR_NEW;
	x->dev = st.st_dev;
	x->ino = st.st_ino;
	/* "dir/name", so that same() compares the names after the last slash. */
	return snprintf(x->name, sizeof(x->name), "%s%s", slash ? "" : "./", at) <
	       (int)sizeof(x->name) ? 0 : -1;
}

/*
 * What loop device ld reads and writes, by device and inode as the kernel
 * holds it (LOOP_GET_STATUS64), never by the name sysfs shows: that name
 * may be unlinked ("(deleted)") while a hard link remains, or name another
 * file by now. The name, when it still leads there, is only for messages.
 */
static void loop_backing(struct loop_dev *ld)
{
	struct loop_info64 info;
	char node[NAME_MAX + 8];
	struct stat st;
	int fd;

	/* (Zeroed: valgrind does not know what this ioctl fills in.) */
	memset(&info, 0, sizeof(info));
	snprintf(node, sizeof(node), "/dev/%s", ld->kname);
	fd = stat(node, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == ld->rdev ?
	     open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
	if (fd >= 0 && ioctl(fd, LOOP_GET_STATUS64, &info) == 0) {
		memset(&ld->st, 0, sizeof(ld->st));
		ld->st.st_dev = (dev_t)info.lo_device;
		ld->st.st_ino = (ino_t)info.lo_inode;
		ld->st.st_rdev = (dev_t)info.lo_rdevice;
		ld->st.st_mode = info.lo_rdevice ? S_IFBLK : S_IFREG;
		ld->offset = info.lo_offset;
		ld->has_backing = true;
	} else {
		/* No node to ask (no udev): the name is all there is. */
		ld->has_backing = stat(ld->backing, &ld->st) == 0;
	}
	if (fd >= 0)
		close(fd);
}

/* Every loop device with its backing file or device. */
static int loops_read(struct loops *l)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	char dir[PATH_MAX], path[PATH_MAX + 32];

	l->n = 0;
	l->d = NULL;
	while (d && (e = readdir(d))) {
		struct loop_dev *ld, *grown;
		size_t n;

		if (strncmp(e->d_name, "loop", 4) != 0)
			continue;
		if (!(grown = realloc(l->d, (l->n + 1) * sizeof(*l->d)))) {
			closedir(d);
			fprintf(stderr, "flashbench: out of memory\n");
			return -1;
		}
		l->d = grown;
		ld = &l->d[l->n];
		memset(ld, 0, sizeof(*ld));
		snprintf(ld->kname, sizeof(ld->kname), "%s", e->d_name);
		snprintf(dir, sizeof(dir), "/sys/block/%s", e->d_name);
		if (sysfs_dir_dev(dir, &ld->rdev) < 0)
			continue;
		snprintf(path, sizeof(path), "%s/loop/backing_file", dir);
		if (sysfs_read_line(path, ld->backing, sizeof(ld->backing)) == 0) {
			n = strlen(ld->backing);
			if (n > 10 && strcmp(ld->backing + n - 10, " (deleted)") == 0)
				ld->backing[n - 10] = '\0';
			snprintf(path, sizeof(path), "%s/loop", dir);
			ld->offset = read_u64(path, "offset");
			loop_backing(ld);
		}
		l->n++;
	}
	if (d)
		closedir(d);
	return 0;
}

static const struct loop_dev *loop_of(const struct loops *l, dev_t rdev)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->d[i].rdev == rdev)
			return &l->d[i];
	return NULL;
}

/* Does loop device ld read and write x? */
static bool loop_on(const struct loop_dev *ld, const struct stor_item *x)
{
	if (!ld->has_backing)
		return false;
	if (x->kind == STOR_BLOCK)
		return S_ISBLK(ld->st.st_mode) && ld->st.st_rdev == x->rdev;
	return x->kind == STOR_FILE && !S_ISBLK(ld->st.st_mode) &&
	       ld->st.st_dev == x->dev && ld->st.st_ino == x->ino;
}

/* The disk of block item i and every partition of it, with i's role. */
static int add_family(struct storage *s, size_t i)
{
	struct stor_item x, it = s->it[i];
	char dir[PATH_MAX], sub[PATH_MAX + NAME_MAX + 2];
	struct dirent *e;
	dev_t rdev;
	DIR *d;

	if (it.kind != STOR_BLOCK || !it.disk_kname[0])
		return 0;
	snprintf(dir, sizeof(dir), "/sys/block/%s", it.disk_kname);
	if (!(d = opendir(dir)))
		return 0;
	block_item(&x, it.disk, "");
	x.role = it.role;
	x.via = (int)i;
	if (add(s, &x) < 0) {
		closedir(d);
		return -1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' ||
		    snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name) >= (int)sizeof(sub) ||
		    !sysfs_has(sub, "partition") || sysfs_dir_dev(sub, &rdev) < 0)
			continue;
		block_item(&x, rdev, "");
		x.role = it.role;
		x.via = (int)i;
		if (add(s, &x) < 0) {
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	return 0;
}

/*
 * The backing of the loop disk under block item i, as a BACKING item
 * found from i. It joins the chain when i is on it: the range written
 * there is i's range moved by the partition start and the loop offset.
 * Returns -1 when out of memory, else 0 with *next the index of an item
 * that has just joined the chain (-1: none did).
 */
static int add_backing(struct storage *s, const struct loops *l, size_t i, int *next)
{
	struct stor_item x, it = s->it[i];
	const struct loop_dev *ld = it.kind == STOR_BLOCK ? loop_of(l, it.disk) : NULL;
	int j;

	*next = -1;
	if (!ld || !ld->has_backing)
		return 0;
	stat_item(&ld->st, ld->backing, &x);
	x.role = STOR_BACKING;
	x.via = (int)i;
	if ((j = add(s, &x)) < 0)
		return -1;
	if (it.chain && !s->it[j].chain) {
		uint64_t len = it.len ? it.len : it.bytes > it.start ? it.bytes - it.start : 0;

		s->it[j].chain = true;
		s->it[j].start = ld->offset + it.part_start + it.start;
		s->it[j].len = len;
		*next = j;
	}
	return 0;
}

/* Every loop device on item i that s does not hold yet, as a USER. */
static int add_users(struct storage *s, const struct loops *l, size_t i)
{
	struct stor_item x;

	for (size_t k = 0; k < l->n; k++) {
		if (!loop_on(&l->d[k], &s->it[i]))
			continue;
		block_item(&x, l->d[k].rdev, "");
		x.role = STOR_USER;
		x.via = (int)i;
		if (find(s, &x) < 0 && add(s, &x) < 0)
			return -1;
	}
	return 0;
}

/* From item 0 on: the chain first, then every disk, partition and loop device. */
static int expand(struct storage *s)
{
	struct loops l;
	int r = 0, j = 0;

	if (loops_read(&l) < 0)
		return -1;
	/* Down the chain: each item joins it once, so a cycle ends too. */
	s->it[0].chain = true;
	for (size_t i = 0; r == 0 && j >= 0; i = (size_t)j)
		r = add_backing(s, &l, i, &j);
	for (size_t i = 0; r == 0 && i < s->n; i++) {
		if (add_family(s, i) < 0 || add_users(s, &l, i) < 0)
			r = -1;
		else if (s->it[i].role != STOR_USER)
			r = add_backing(s, &l, i, &j);
	}
	free(l.d);
	return r;
}

int storage_resolve_fd(int fd, const char *name, struct storage *s)
{
	struct stor_item x;
	struct stat st;

	s->n = 0;
	if (fstat(fd, &st) < 0)
		return 0;
	stat_item(&st, name, &x);
	x.role = STOR_SELF;
	x.via = -1;
	if (add(s, &x) < 0)
		return -1;
	return expand(s);
}

int storage_resolve(const char *path, struct storage *s)
{
	struct stor_item x;

	s->n = 0;
	if (path_item(path, &x) < 0)
		return 0;
	x.role = STOR_SELF;
	x.via = -1;
	if (add(s, &x) < 0)
		return -1;
	return x.kind == STOR_NEW ? 0 : expand(s);
}

/* The block device a file system's st_dev stands for: itself, or (btrfs,
 * whose st_dev is anonymous) the source of its mount. */
static int fs_device(dev_t dev, dev_t *rdev)
{
	char dir[PATH_MAX];
	struct mount_entry m;
	struct stat st;
	int found = -1;
	FILE *f;

	if (sysfs_block_dir(dev, dir, sizeof(dir)) == 0) {
		*rdev = dev;
		return 0;
	}
	if (!(f = mountinfo_open()))
		return -1;
	while (found < 0 && mountinfo_next(f, &m))
		if (m.dev == dev && strncmp(m.source, "/dev/", 5) == 0 &&
		    stat(m.source, &st) == 0 && S_ISBLK(st.st_mode)) {
			*rdev = st.st_rdev;
			found = 0;
		}
	mountinfo_close(f);
	return found;
}

int storage_resolve_fs(const char *dir, struct storage *s)
{
	struct stor_item x;
	struct stat st;
	dev_t rdev;

	s->n = 0;
	if (stat(dir, &st) < 0 || fs_device(st.st_dev, &rdev) < 0)
		return 0;
	block_item(&x, rdev, "");
	x.role = STOR_SELF;
	x.via = -1;
	if (add(s, &x) < 0)
		return -1;
	return expand(s);
}

int storage_overlap(const struct storage *a, const struct storage *b, size_t *ib)
{
	int j;

	for (size_t i = 0; i < a->n; i++)
		if ((j = find(b, &a->it[i])) >= 0) {
			*ib = (size_t)j;
			return (int)i;
		}
	return -1;
}

/* The item a disk's partitions were found from: the loop device itself. */
static size_t family_root(const struct storage *s, size_t i)
{
	while (s->it[i].via >= 0 && s->it[i].kind == STOR_BLOCK &&
	       s->it[s->it[i].via].kind == STOR_BLOCK &&
	       s->it[s->it[i].via].disk == s->it[i].disk && s->it[i].role == s->it[s->it[i].via].role)
		i = (size_t)s->it[i].via;
	return i;
}

void storage_how(const struct storage *s, size_t i, char *buf, size_t len)
{
	size_t r = family_root(s, i);
	const struct stor_item *x = &s->it[r];
	const char *on = x->via >= 0 ? s->it[x->via].name : "";

	buf[0] = '\0';
	if (x->role == STOR_BACKING)
		snprintf(buf, len, " (%s is the backing %s of %s)", x->name,
			 x->kind == STOR_BLOCK ? "device" : "file", on);
	else if (x->role == STOR_USER)
		snprintf(buf, len, " (%s is a loop device on %s)", x->name, on);
}
