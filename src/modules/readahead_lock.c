/*
 * --readahead --buffered: the lock on the disk's readahead setting.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "core/sysfs.h"
#include "modules/readahead.h"

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
