/*
 * /proc/self/mountinfo, one mount at a time, and the octal escapes
 * (\040 for a space) it shares with /proc/swaps.
 */
#ifndef FB_MOUNTINFO_H
#define FB_MOUNTINFO_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

struct mount_entry {
	dev_t dev;		/* st_dev of the files in it */
	const char *mp;		/* mount point */
	const char *fstype;
	const char *source;	/* "/dev/sdd1", "tmpfs", ... */
};

/* NULL (errno set) when it cannot be read. */
FILE *mountinfo_open(void);
/* The next mount, its strings valid until the next call; false at the end. */
bool mountinfo_next(FILE *f, struct mount_entry *m);
void mountinfo_close(FILE *f);

/* Undo the octal escapes in place. */
void unescape_octal(char *s);

#endif
