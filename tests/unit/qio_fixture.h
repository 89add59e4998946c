/*
 * Places the queued I/O tests run on: an O_DIRECT file on tmpfs, one on a
 * disk file system, and (as root) a loop device on a tmpfs image that the
 * test attaches with autoclear -- the kernel detaches it when the last fd
 * closes, so it goes even when the test dies; files are unlinked as
 * soon as they are open, for the same reason. Plus the data pattern.
 */
#ifndef FB_QIO_FIXTURE_H
#define FB_QIO_FIXTURE_H

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <linux/magic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "core/qio.h"

#define FX_SIZE (8u << 20)	/* every place holds 8 MiB */

struct place {
	char name[64];
	char file[256];		/* the file (for a loop device: its image) */
	char dev[64];		/* the loop device, "" for a file */
	int fd;			/* O_RDWR | O_DIRECT */
	int hold;		/* the loop device's configuring fd, or -1 */
	uint64_t size;
	bool strict;		/* misaligned O_DIRECT requests fail (-EINVAL) */
};

/* The word at byte offset `at` of data written with seed. */
static inline uint64_t fx_word(uint64_t seed, uint64_t at)
{
	uint64_t z = seed * 0x9e3779b97f4a7c15ull + at;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void fx_fill(void *buf, uint32_t len, uint64_t off, uint64_t seed)
{
	uint64_t *w = buf;

	for (uint32_t i = 0; i < len / 8; i++)
		w[i] = fx_word(seed, off + 8ull * i);
}

static inline bool fx_same(const void *buf, uint32_t len, uint64_t off, uint64_t seed)
{
	const uint64_t *w = buf;

	for (uint32_t i = 0; i < len / 8; i++)
		if (w[i] != fx_word(seed, off + 8ull * i))
			return false;
	return true;
}

static inline void *fx_alloc(size_t len)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, len))
		return NULL;
	memset(p, 0, len);
	return p;
}

static inline bool fx_is_tmpfs(const char *dir)
{
	struct statfs s;

	return statfs(dir, &s) == 0 && s.f_type == TMPFS_MAGIC;
}

/* A directory on a disk file system for the disk-file place, or NULL. */
static inline const char *fx_disk_dir(void)
{
	const char *c[] = { getenv("TMPDIR"), "/var/tmp", "/tmp", "." };

	for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++)
		if (c[i] && access(c[i], W_OK) == 0 && !fx_is_tmpfs(c[i]))
			return c[i];
	return NULL;
}

/* A zeroed FX_SIZE file in dir; its name in p->file, its fd or -errno. */
static inline int fx_make_file(struct place *p, const char *dir)
{
	int fd;

	snprintf(p->file, sizeof p->file, "%s/fbqio.XXXXXX", dir);
	fd = mkstemp(p->file);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, FX_SIZE) < 0) {
		int e = -errno;
		close(fd);
		unlink(p->file);
		return e;
	}
	return fd;
}

/*
 * An O_DIRECT file of FX_SIZE in dir. 0, or -errno with why in skip
 * (e.g. the file system has no O_DIRECT).
 */
static inline int fx_open_file(struct place *p, const char *name, const char *dir,
			       char *skip, size_t skiplen)
{
	int fd;

	memset(p, 0, sizeof *p);
	p->hold = p->fd = -1;
	snprintf(p->name, sizeof p->name, "%s", name);
	fd = fx_make_file(p, dir);
	if (fd < 0) {
		snprintf(skip, skiplen, "%s: cannot create a file in %s: %s", name, dir, strerror(-fd));
		return fd;
	}
	close(fd);
	p->fd = open(p->file, O_RDWR | O_DIRECT);
	unlink(p->file);	/* nothing left behind, even by a crash */
	if (p->fd < 0) {
		int e = -errno;
		snprintf(skip, skiplen, "%s: O_DIRECT open in %s: %s", name, dir, strerror(errno));
		return e;
	}
	p->size = FX_SIZE;
	p->strict = !fx_is_tmpfs(dir);
	return 0;
}

/* Attach backing (fd) to a free loop device with autoclear and direct I/O. */
static inline int fx_attach(struct place *p, int backing)
{
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);

	if (ctl < 0)
		return -errno;
	for (int tries = 0; tries < 50; tries++) {
		struct loop_config cfg;
		int n = ioctl(ctl, LOOP_CTL_GET_FREE), fd;

		if (n < 0)
			break;
		snprintf(p->dev, sizeof p->dev, "/dev/loop%d", n);
		fd = open(p->dev, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;	/* another process took it: try the next */
		memset(&cfg, 0, sizeof cfg);
		cfg.fd = (uint32_t)backing;
		cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR | LO_FLAGS_DIRECT_IO;
		if (ioctl(fd, LOOP_CONFIGURE, &cfg) == 0) {
			close(ctl);
			return fd;
		}
		close(fd);	/* EBUSY: raced with another losetup; never ours */
	}
	close(ctl);
	p->dev[0] = '\0';
	return -EBUSY;
}

/* A loop device on a tmpfs image (root only). 0 or -errno with why in skip. */
static inline int fx_open_loop(struct place *p, char *skip, size_t skiplen)
{
	const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	int bfd, hold;

	memset(p, 0, sizeof *p);
	p->hold = p->fd = -1;
	snprintf(p->name, sizeof p->name, "loop device on %s", dir);
	if (geteuid() != 0) {
		snprintf(skip, skiplen, "%s: not root", p->name);
		return -EPERM;
	}
	bfd = fx_make_file(p, dir);
	if (bfd < 0) {
		snprintf(skip, skiplen, "%s: image: %s", p->name, strerror(-bfd));
		return bfd;
	}
	hold = fx_attach(p, bfd);
	close(bfd);
	unlink(p->file);	/* the loop device keeps the image alive */
	if (hold < 0) {
		snprintf(skip, skiplen, "%s: no free loop device: %s", p->name, strerror(-hold));
		return hold;
	}
	p->hold = hold;
	p->fd = open(p->dev, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (p->fd < 0) {
		int e = -errno;
		snprintf(skip, skiplen, "%s: open %s: %s", p->name, p->dev, strerror(errno));
		close(hold);
		return e;
	}
	p->size = FX_SIZE;
	p->strict = true;
	return 0;
}

/* Close the place: the file goes (already unlinked), a loop device detaches (autoclear). */
static inline void fx_close(struct place *p)
{
	if (p->fd >= 0)
		close(p->fd);
	if (p->hold >= 0)
		close(p->hold);
	p->fd = p->hold = -1;
}

/* Open another fd on the place (e.g. O_RDONLY | O_DIRECT). */
static inline int fx_reopen(const struct place *p, int flags)
{
	char path[64];

	snprintf(path, sizeof path, "/proc/self/fd/%d", p->fd);	/* the file has no name */
	return open(p->dev[0] ? p->dev : path, flags | O_CLOEXEC);
}

/* The engines this kernel lets us open, as the tests iterate them. */
static inline bool fx_engine_works(enum qio_kind k, int fd, char *why, size_t len)
{
	struct qio *q;

	if (qio_open(k, fd, 4, &q, why, len) < 0)
		return false;
	qio_close(q);
	return true;
}

#endif
