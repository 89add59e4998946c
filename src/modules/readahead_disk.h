/*
 * --readahead --buffered: the disk's readahead setting, its lock and its
 * value (readahead_disk.c), below the sweep (readahead.c).
 */
#ifndef FB_READAHEAD_DISK_H
#define FB_READAHEAD_DISK_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/opts.h"
#include "core/target.h"

/*
 * --buffered: hold the lock on t's disk readahead (readahead_disk.c);
 * FB_OK (also where there is none to take), or FB_ESAFETY with the
 * reason in err when another run holds it. ra_unlock() lets it go.
 */
int ra_lock(const struct target *t, char *err, size_t len);
void ra_unlock(void);

/* --buffered: the disk whose readahead is swept, and what it was. */
struct ra_disk {
	char dev[PATH_MAX];
	int fd;
	bool own_fd;			/* fd opened for it (t is a partition or a file) */
	long orig;			/* 512-byte sectors, as BLKRAGET says */
};
/* Find t's disk, remember its readahead, and prove it may be changed (the
 * way to put it back printed first); FB_OK or FB_EDEV, said. */
int ra_disk_prepare(struct ra_disk *d, const struct target *t);
/* Set it to bytes; put it back and check that it took (FB_EDEV, said, if not). */
int ra_disk_set(struct ra_disk *d, uint64_t bytes);
int ra_disk_restore(struct ra_disk *d);

#endif
