/*
 * Regular files and block devices: O_DIRECT I/O timed with the engine's
 * clock (CLOCK_MONOTONIC_RAW), geometry from ioctls and statx; queued
 * requests through a qio engine on the same descriptor (t->priv).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/blkzoned.h>
#include <linux/fs.h>
#include <linux/stat.h>
#include <pwd.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fullio.h"
#include "core/hot.h"
#include "core/target.h"

/*
 * The rest of a request whose first call moved n bytes of len (n < 0: it
 * failed): continued after a short transfer or EINTR, as full_pread and
 * full_pwrite do. 0 or -errno.
 */
static int dev_rest(struct target *t, void *buf, size_t len, uint64_t off, ssize_t n, bool wr)
{
	if (n < 0 && errno != EINTR)
		return -errno;
	if (n == 0 && len > 0)
		return wr ? -ENOSPC : -EIO;	/* the end of the device */
	n = n < 0 ? 0 : n;
	buf = (char *)buf + n;
	return wr ? full_pwrite(t->fd, buf, len - (size_t)n, off + (uint64_t)n)
		  : pread_exact(t->fd, buf, len - (size_t)n, off + (uint64_t)n);
}

/*
 * The timed request: one syscall between two clock reads, nothing else
 * on the way (a short transfer goes on in dev_rest, inside the timing).
 */
static int dev_read(struct target *t, void *buf, size_t len, uint64_t off, uint64_t *ns)
{
	uint64_t t0 = clock_now_ns();
	ssize_t n = pread(t->fd, buf, len, (off_t)off);
	int r = (size_t)n == len ? 0 : dev_rest(t, buf, len, off, n, false);

	if (r == 0)
		*ns = clock_now_ns() - t0;
	return r;
}

static int dev_write(struct target *t, const void *buf, size_t len, uint64_t off, uint64_t *ns)
{
	uint64_t t0 = clock_now_ns();
	ssize_t n = pwrite(t->fd, buf, len, (off_t)off);
	int r = (size_t)n == len ? 0 : dev_rest(t, (void *)buf, len, off, n, true);

	if (r == 0)
		*ns = clock_now_ns() - t0;
	return r;
}

/* A regular file: its blocks freed, reading back as zeros (the size stays). */
static int file_discard(struct target *t, uint64_t off, uint64_t len)
{
	if (fallocate(t->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len) < 0)
		return -errno;
	return 0;
}

/* A block device: the kernel passes it on as TRIM, UNMAP, ERASE or a hole (loop). */
static int block_discard(struct target *t, uint64_t off, uint64_t len)
{
	uint64_t range[2] = { off, len };

	if (ioctl(t->fd, BLKDISCARD, range) < 0)
		return -errno;
	return 0;
}

static void dev_idle(struct target *t, uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	(void)t;
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int dev_qopen(struct target *t, enum qio_kind kind, unsigned depth, void *buf, size_t len,
		     char *err, size_t errlen)
{
	struct iovec iov = { buf, len };
	struct qio *q;
	int r;

	qio_close(t->priv);
	t->priv = NULL;
	r = qio_open(kind, t->fd, depth, &q, err, errlen);
	if (r < 0)
		return r;
	/* Refused registration only costs speed; qio_describe() says why. */
	if (buf && len)
		qio_register_buffers(q, &iov, 1);
	qio_watch_stop(q, &fb_stop);
	t->priv = q;
	return 0;
}

static int dev_qsubmit(struct target *t, bool write, void *buf, size_t len, uint64_t off,
		       uint64_t tag)
{
	return qio_submit(t->priv, write, buf, len, off, tag);
}

static int dev_qreap(struct target *t, unsigned min, struct qio_done *done, unsigned max)
{
	return qio_reap(t->priv, min, done, max);
}

static void dev_qclose(struct target *t)
{
	qio_close(t->priv);
	t->priv = NULL;
}

static const char *dev_qdescribe(struct target *t)
{
	return t->priv ? qio_describe(t->priv) : "no queue";
}

static uint64_t dev_now(struct target *t)
{
	(void)t;
	return clock_now_ns();
}

static void dev_close(struct target *t)
{
	qio_close(t->priv);
	if (t->fd >= 0)
		close(t->fd);
	free(t);
}

static const struct target_ops dev_file_ops = {
	.kind = "file", .read = dev_read, .write = dev_write,
	.discard = file_discard, .discard_how = "FALLOC_FL_PUNCH_HOLE",
	.idle = dev_idle, .close = dev_close,
	.qopen = dev_qopen, .qsubmit = dev_qsubmit, .qreap = dev_qreap,
	.qclose = dev_qclose, .qdescribe = dev_qdescribe, .now = dev_now,
};

static const struct target_ops dev_block_ops = {
	.kind = "block device", .read = dev_read, .write = dev_write,
	.discard = block_discard, .discard_how = "BLKDISCARD",
	.idle = dev_idle, .close = dev_close,
	.qopen = dev_qopen, .qsubmit = dev_qsubmit, .qreap = dev_qreap,
	.qclose = dev_qclose, .qdescribe = dev_qdescribe, .now = dev_now,
};

/* A zoned device's zone size in bytes; 0: not zoned (or a kernel without zones). */
static uint64_t zone_size(int fd)
{
	__u32 sectors = 0;

	if (ioctl(fd, BLKGETZONESZ, &sectors) < 0)
		return 0;
	return (uint64_t)sectors * 512;
}

/* Direct-I/O alignment of a regular file: statx where the kernel has it. */
static void file_alignment(struct target *t)
{
	t->sector = 512;
	t->mem_align = 512;
#ifdef STATX_DIOALIGN
	struct statx stx;

	if (statx(t->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align) {
		t->sector = stx.stx_dio_offset_align;
		t->mem_align = stx.stx_dio_mem_align ? stx.stx_dio_mem_align : 512;
	}
#endif
}

static int block_geometry(struct target *t, char *err, size_t errlen)
{
	uint64_t size;
	int ssz;

	if (ioctl(t->fd, BLKGETSIZE64, &size) < 0 || ioctl(t->fd, BLKSSZGET, &ssz) < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: cannot read the device geometry: %s", t->path, strerror(e));
		return -e;
	}
	t->size = size;
	t->sector = (uint32_t)ssz;
	t->mem_align = (uint32_t)ssz;
	t->zone_size = zone_size(t->fd);
	return 0;
}

static int open_direct(const char *path, int oflags, bool *direct)
{
	int fd = open(path, oflags | O_DIRECT | O_CLOEXEC);

	*direct = true;
	if (fd < 0 && errno == EINVAL) {
		/* tmpfs and some FUSE file systems refuse O_DIRECT. */
		fd = open(path, oflags | O_CLOEXEC);
		*direct = false;
	}
	return fd;
}

static void user_name(uid_t uid, char *buf, size_t len)
{
	const struct passwd *pw = getpwuid(uid);

	if (pw)
		snprintf(buf, len, "%s", pw->pw_name);
	else
		snprintf(buf, len, "%u", (unsigned)uid);
}

static void group_name(gid_t gid, char *buf, size_t len)
{
	const struct group *gr = getgrgid(gid);

	if (gr)
		snprintf(buf, len, "%s", gr->gr_name);
	else
		snprintf(buf, len, "%u", (unsigned)gid);
}

/*
 * A block device this user may not open: the way forward, after the
 * error (issue 22: "Permission denied" alone left a new user stuck). The
 * access the run needs, the node's mode and owners, and the three ways
 * to get it: root, a grant on the node, or the node's group (usually
 * "disk") where that group has the access.
 */
static void access_hint(const char *path, const struct stat *st, bool write, char *err,
			size_t errlen)
{
	mode_t need = write ? 060 : 040;
	char grp[64], me[64], own[64];
	size_t at = strlen(err);

	/* getpwuid() and getgrgid() answer in static storage: each copied at once. */
	user_name(geteuid(), me, sizeof(me));
	user_name(st->st_uid, own, sizeof(own));
	group_name(st->st_gid, grp, sizeof(grp));
	at += (size_t)snprintf(err + at, at < errlen ? errlen - at : 0,
			       ": this run needs %s access to the node (mode %04o, owner %s, "
			       "group %s): run it as root (sudo), grant it (sudo setfacl -m u:%s:%s %s)",
			       write ? "read and write" : "read", (unsigned)(st->st_mode & 07777),
			       own, grp, me, write ? "rw" : "r", path);
	if (at >= errlen)
		return;
	if ((st->st_mode & need) == need && st->st_gid != 0)
		snprintf(err + at, errlen - at, ", or join its group (sudo usermod -aG %s %s, "
			 "then log in again)", grp, me);
	else
		snprintf(err + at, errlen - at, ", or join a group that has it (usually 'disk')");
}

int target_dev_open(const char *path, int flags, struct target **out, char *err, size_t errlen)
{
	struct target *t;
	struct stat st;
	int oflags = ((flags & TGT_WRITE) ? O_RDWR : O_RDONLY) | ((flags & TGT_SYNC) ? O_DSYNC : 0);
	bool direct;
	int r;

	if (stat(path, &st) < 0) {
		r = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file or block device", path);
		return -ENODEV;
	}
	if (S_ISBLK(st.st_mode) && (flags & TGT_EXCL))
		oflags |= O_EXCL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	snprintf(t->path, sizeof(t->path), "%s", path);
	t->fd = open_direct(path, oflags, &direct);
	if (t->fd < 0) {
		r = -errno;
		snprintf(err, errlen, "%s: %s%s", path, strerror(-r),
			 r == -EBUSY ? " (mounted or held by another user)" : "");
		if ((r == -EACCES || r == -EPERM) && S_ISBLK(st.st_mode))
			access_hint(path, &st, flags & TGT_WRITE, err, errlen);
		free(t);
		return r;
	}
	if (!direct)
		fprintf(stderr, "flashbench: warning: %s does not support O_DIRECT; times include the page cache\n", path);
	t->writable = flags & TGT_WRITE;
	if (S_ISBLK(st.st_mode)) {
		t->ops = &dev_block_ops;
		t->blockdev = true;
		t->rdev = st.st_rdev;
		r = block_geometry(t, err, errlen);
		if (r < 0) {
			dev_close(t);
			return r;
		}
	} else {
		t->ops = &dev_file_ops;
		t->size = (uint64_t)st.st_size;
		t->st_dev = st.st_dev;
		t->st_ino = st.st_ino;
		file_alignment(t);
	}
	*out = t;
	return 0;
}
