/*
 * --readahead --buffered: the disk's readahead setting -- its lock, and
 * reading, changing and putting it back (BLKRAGET, BLKRASET).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "core/sysfs.h"
#include "modules/readahead_disk.h"

/*
 * The readahead is the disk's, not this run's: two --buffered runs at
 * once each saved what the other had set, and one put the other's
 * temporary value back. So the run holds an OFD write lock (as write
 * tests do on what they write, safety/runlock.c) until the value is
 * back, on the setting itself -- the disk's queue/read_ahead_kb in sysfs,
 * which no write test locks and runs on two partitions share -- and a
 * run that finds it taken is refused. No lock where sysfs has none.
 */
static int ra_lock_fd = -1;

int ra_lock(const struct target *t, char *err, size_t len)
{
	struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char node[PATH_MAX], path[PATH_MAX + 64], e[PATH_MAX + 256];

	if (ra_lock_fd >= 0 || sysfs_disk_node(t->blockdev ? t->rdev : t->st_dev, node,
						sizeof(node), e, sizeof(e)) < 0)
		return FB_OK;
	snprintf(path, sizeof(path), "/sys/block/%s/queue/read_ahead_kb", node + 5);
	ra_lock_fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (ra_lock_fd < 0 || fcntl(ra_lock_fd, F_OFD_SETLK, &l) == 0)
		return FB_OK;
	if (errno != EAGAIN && errno != EACCES)
		return FB_OK;
	close(ra_lock_fd);
	ra_lock_fd = -1;
	snprintf(err, len, "--buffered: refusing to change the readahead of %s: another run is "
		 "changing it (it holds %s)", node, path);
	return FB_ESAFETY;
}

/* The setting is back: let the next run have it. */
void ra_unlock(void)
{
	if (ra_lock_fd >= 0)
		close(ra_lock_fd);
	ra_lock_fd = -1;
}

/* Message for a refused readahead change or device open. */
static void ra_perm_error(const char *what, const char *dev, int e)
{
	if ((e == EACCES || e == EPERM) && geteuid() != 0)
		fprintf(stderr, "flashbench: --buffered: %s %s needs root (CAP_SYS_ADMIN): %s\n",
			what, dev, strerror(e));
	else
		fprintf(stderr, "flashbench: --buffered: %s %s: %s\n", what, dev, strerror(e));
}

/* Find the disk, remember its readahead, and prove we may change it. */
int ra_disk_prepare(struct ra_disk *s, const struct target *t)
{
	char err[PATH_MAX + 256];

	s->fd = t->fd;
	snprintf(s->dev, sizeof(s->dev), "%s", t->path);
	if (!t->blockdev) {
		if (sysfs_disk_node(t->st_dev, s->dev, sizeof(s->dev), err, sizeof(err)) < 0) {
			fprintf(stderr, "flashbench: --buffered: cannot find the disk holding %s: %s\n",
				t->path, err);
			return FB_EDEV;
		}
		s->fd = open(s->dev, O_RDONLY | O_CLOEXEC);
		if (s->fd < 0) {
			ra_perm_error("opening", s->dev, errno);
			return FB_EDEV;
		}
		s->own_fd = true;
	}
	if (ioctl(s->fd, BLKRAGET, &s->orig) < 0) {
		ra_perm_error("reading the readahead of", s->dev, errno);
		return FB_EDEV;
	}
	/* Setting the value it already has changes nothing, but fails early
	 * without CAP_SYS_ADMIN: before the first read, not after. */
	if (ioctl(s->fd, BLKRASET, (unsigned long)s->orig) < 0) {
		ra_perm_error("changing the readahead of", s->dev, errno);
		return FB_EDEV;
	}
	/* Every way out puts it back, but SIGKILL or a power cut cannot: say how, first. */
	fprintf(stderr, "flashbench: --buffered: the readahead of %s is %ld sectors; should this "
		"run be killed, put it back with: blockdev --setra %ld %s\n", s->dev, s->orig,
		s->orig, s->dev);
	return FB_OK;
}

/* Put the readahead back and check that it took; FB_EDEV if it did not. */
int ra_disk_restore(struct ra_disk *s)
{
	long now = -1;

	if (ioctl(s->fd, BLKRASET, (unsigned long)s->orig) < 0 ||
	    ioctl(s->fd, BLKRAGET, &now) < 0 || now != s->orig) {
		fprintf(stderr, "flashbench: could not restore the readahead of %s to %ld sectors "
			"(now %ld): %s; run: blockdev --setra %ld %s\n", s->dev, s->orig, now,
			strerror(errno), s->orig, s->dev);
		return FB_EDEV;
	}
	return FB_OK;
}

int ra_disk_set(struct ra_disk *s, uint64_t bytes)
{
	if (ioctl(s->fd, BLKRASET, (unsigned long)(bytes / 512)) < 0) {
		fprintf(stderr, "flashbench: --buffered: setting the readahead of %s to %llu: %s\n",
			s->dev, (unsigned long long)bytes, strerror(errno));
		return FB_EDEV;
	}
	return FB_OK;
}
