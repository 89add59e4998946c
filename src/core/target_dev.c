/*
 * Regular files and block devices: O_DIRECT I/O timed with the engine's
 * clock (CLOCK_MONOTONIC_RAW), geometry from ioctls and statx.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/blkzoned.h>
#include <linux/fs.h>
#include <linux/stat.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fullio.h"
#include "core/target.h"

/* Transfer the whole request; 0 or -errno. */
static int dev_xfer(struct target *t, void *buf, size_t len, uint64_t off, bool wr)
{
	return wr ? full_pwrite(t->fd, buf, len, off) : pread_exact(t->fd, buf, len, off);
}

static int dev_read(struct target *t, void *buf, size_t len, uint64_t off, uint64_t *ns)
{
	uint64_t t0 = clock_now_ns();
	int r = dev_xfer(t, buf, len, off, false);

	if (r == 0)
		*ns = clock_now_ns() - t0;
	return r;
}

static int dev_write(struct target *t, const void *buf, size_t len, uint64_t off, uint64_t *ns)
{
	uint64_t t0 = clock_now_ns();
	int r = dev_xfer(t, (void *)buf, len, off, true);

	if (r == 0)
		*ns = clock_now_ns() - t0;
	return r;
}

static void dev_idle(struct target *t, uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	(void)t;
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void dev_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	free(t);
}

static const struct target_ops dev_file_ops = {
	.kind = "file", .read = dev_read, .write = dev_write,
	.idle = dev_idle, .close = dev_close,
};

static const struct target_ops dev_block_ops = {
	.kind = "block device", .read = dev_read, .write = dev_write,
	.idle = dev_idle, .close = dev_close,
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
