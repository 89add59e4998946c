/*
 * The files a run writes its results and messages to -- --out, a test's
 * --log, standard output and standard error when the shell sent them to
 * a file -- taken as what they are, not by their names: an existing one
 * is opened at once (O_NONBLOCK, so that a FIFO nobody reads is an error
 * and not a wait; nothing truncated) and its descriptor resolved; a new
 * one stands for the place its name would create it (dangling symlinks
 * followed). Nothing is created or emptied before output_commit(), which
 * the run calls once every check of every test has passed: a run refused
 * on the way (exit 2 or 3) leaves every file as it was. Internal to the
 * safety layer; safety.h is its interface.
 */
#ifndef FB_OUTPUTS_H
#define FB_OUTPUTS_H

#include <limits.h>
#include <stdbool.h>

#include "safety/storage.h"

struct output {
	char label[PATH_MAX + 16];	/* "--out=X", "--log=X", "standard output" */
	const char *path;		/* as given; NULL for a standard stream */
	int fd;				/* open on it; -1: a new file, or nothing to check */
	bool regular;			/* a regular file: emptied at commit, locked */
	char at[PATH_MAX];		/* a new file: where it will be created */
	struct storage st;		/* what it lands on (none: a pipe, a terminal) */
};

/*
 * --out or --log (opt) naming path: opened when it exists, else checked
 * for where it would be created. FB_OK, or FB_EUSAGE after one line (a
 * directory, a block device, a FIFO nobody reads, a new file in /dev, a
 * directory it cannot be created in).
 */
int output_open(struct output *o, const char *opt, const char *path);

/* Standard output or error (fd 1 or 2) as label; checked only when it is a file or device. */
int output_std(struct output *o, int fd, const char *label);

/*
 * Every check passed: the file emptied (an existing regular one) or
 * created (exclusively, where it was checked, and locked). Returns a
 * descriptor the caller now owns, or -1 after one line (FB_ESAFETY in
 * *st then: it appeared or changed since the check).
 */
int output_commit(struct output *o, int *st);

/* Close what output_open() opened (not what output_commit() handed over). */
void output_free(struct output *o);

#endif
