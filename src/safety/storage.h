/*
 * What a path really lands on. A write reaches more than the path that
 * names it: a partition is part of a disk, a loop device writes to its
 * backing file (or device), every other loop device on that file sees the
 * change, and a symlink, a hard link or /proc/self/fd/N is the file it
 * leads to. storage_resolve() follows all of these through stat() and
 * sysfs, so that safety.c can compare what a run writes with what must
 * stay untouched, and lock what it writes. It only looks: nothing is
 * opened for writing (a loop device is opened read-only, to ask the
 * kernel which file it is on).
 */
#ifndef FB_STORAGE_H
#define FB_STORAGE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum stor_kind {
	STOR_FILE,	/* anything that is not a block device: st_dev + st_ino */
	STOR_BLOCK,	/* a block device: its device number */
	STOR_NEW,	/* a file not created yet: its directory and name */
};

/* How an item was reached from the path. */
enum stor_role {
	STOR_SELF,	/* the path itself, or its disk and that disk's partitions */
	STOR_BACKING,	/* what a loop device of the set writes to, and its disk's family */
	STOR_USER,	/* a loop device on something of the set: another way in */
};

struct stor_item {
	enum stor_kind kind;
	enum stor_role role;
	dev_t dev;		/* FILE: st_dev; NEW: the directory's st_dev */
	ino_t ino;		/* FILE: st_ino; NEW: the directory's st_ino */
	dev_t rdev;		/* BLOCK */
	/* On the chain of writes from the path down to the storage (the
	 * path, its disk, a loop device's backing file ...): these are
	 * locked, over [start, start + len) of the item (len 0: to its end). */
	bool chain;
	uint64_t start, len;
	/* BLOCK: the whole disk it belongs to, where a partition starts on
	 * it and its size in bytes; the kernel names (loop0p1, loop0). */
	dev_t disk;
	uint64_t part_start, bytes;
	char kname[NAME_MAX + 1], disk_kname[NAME_MAX + 1];
	int via;		/* the item this one was found from; -1: the path */
	char name[PATH_MAX];	/* for messages: a path, /dev/KNAME, or dir/name */
};

struct storage {
	size_t n, cap;
	struct stor_item *it;
};

/*
 * Everything path lands on (s is emptied first): a missing file as one
 * NEW item when its directory exists (none when it does not); a regular
 * file and every loop device on it; a block device, its disk, every
 * partition of that disk, a loop device's backing file or device (again
 * with its disk and partitions), and every loop device on any of them.
 * 0, or -1 when out of memory (message printed).
 */
int storage_resolve(const char *path, struct storage *s);

/* The same for the file fd is open on (name: for messages): what was opened, not a name. */
int storage_resolve_fd(int fd, const char *name, struct storage *s);

/*
 * Where a file created at path would land: path, or the target of the
 * dangling symlink(s) it is. 0, or -1 (a symlink loop).
 */
int storage_new_path(const char *path, char *buf, size_t len);

/* The storage of the file system dir lies on (none for tmpfs and the like). */
int storage_resolve_fs(const char *dir, struct storage *s);

void storage_free(struct storage *s);

/* Do a and b stand for the same storage (a new file: the same directory and name)? */
bool storage_same(const struct stor_item *a, const struct stor_item *b);

/* Index in a of the first item that b holds too (*ib: its index in b), or -1. */
int storage_overlap(const struct storage *a, const struct storage *b, size_t *ib);

/*
 * How item i came in, for messages: "" for the path itself and its own
 * disk, else e.g. " (/tmp/d.img is the backing file of /dev/loop1)" or
 * " (/dev/loop2 is another loop device on /tmp/d.img)".
 */
void storage_how(const struct storage *s, size_t i, char *buf, size_t len);

#endif
