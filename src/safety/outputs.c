/* The files results go to, checked as what they are: see outputs.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/opts.h"
#include "safety/outputs.h"
#include "safety/runlock.h"

/* The directory a file at path would be created in. */
static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else
		snprintf(dir, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
}

/*
 * A new file in /dev (not /dev/shm): a device name mistyped, or a device
 * that went away (a partition node removed with its loop device). Created,
 * it would sit in RAM and be taken for the device by the next run. at is
 * where the file would land, a dangling symlink's target included.
 */
static bool in_dev(const char *at)
{
	char dir[PATH_MAX], real[PATH_MAX];

	dir_of(at, dir, sizeof(dir));
	if (!realpath(dir, real))
		return false;
	return (strcmp(real, "/dev") == 0 || strncmp(real, "/dev/", 5) == 0) &&
	       strcmp(real, "/dev/shm") != 0 && strncmp(real, "/dev/shm/", 9) != 0;
}

/* A file not there yet: where it would be created, and whether it may be. */
static int open_new(struct output *o)
{
	char dir[PATH_MAX];

	if (storage_new_path(o->path, o->at, sizeof(o->at)) < 0) {
		fprintf(stderr, "flashbench: %s: %s\n", o->label, strerror(ELOOP));
		return FB_EUSAGE;
	}
	if (in_dev(o->at)) {
		fprintf(stderr, "flashbench: %s: no such device, and results are not written as a "
			"new file in /dev (a mistyped or vanished device?)\n", o->label);
		return FB_EUSAGE;
	}
	dir_of(o->at, dir, sizeof(dir));
	if (access(dir, W_OK | X_OK) < 0) {
		fprintf(stderr, "flashbench: %s: cannot be created in %s: %s\n", o->label, dir,
			strerror(errno));
		return FB_EUSAGE;
	}
	o->regular = true;
	return storage_resolve(o->path, &o->st) < 0 ? FB_EDEV : FB_OK;
}

/* What the descriptor is open on: a file of results, or what is refused. */
static int check_kind(struct output *o, const struct stat *st)
{
	const char *why = S_ISBLK(st->st_mode) ? "is a block device; results go to a file" :
			  S_ISDIR(st->st_mode) ? "is a directory" : NULL;

	if (why) {
		fprintf(stderr, "flashbench: %s: %s\n", o->label, why);
		return FB_EUSAGE;
	}
	o->regular = S_ISREG(st->st_mode);
	return storage_resolve_fd(o->fd, o->path ? o->path : o->label, &o->st) < 0 ? FB_EDEV : FB_OK;
}

int output_open(struct output *o, const char *opt, const char *path)
{
	struct stat st;
	int e;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->path = path;
	snprintf(o->label, sizeof(o->label), "%s=%s", opt, path);
	if (stat(path, &st) < 0 && errno == ENOENT)
		return open_new(o);
	/* Not truncated yet; O_NONBLOCK: a FIFO without a reader fails (ENXIO) instead of waiting. */
	o->fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (o->fd < 0) {
		e = errno;
		if (e == EISDIR)
			fprintf(stderr, "flashbench: %s: is a directory\n", o->label);
		else if (e == ENXIO)
			fprintf(stderr, "flashbench: %s: a FIFO that no process reads; results go to "
				"a file (or a FIFO being read)\n", o->label);
		else
			fprintf(stderr, "flashbench: %s: cannot open: %s\n", o->label, strerror(e));
		return FB_EUSAGE;
	}
	if (fstat(o->fd, &st) < 0 || fcntl(o->fd, F_SETFL, fcntl(o->fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		fprintf(stderr, "flashbench: %s: %s\n", o->label, strerror(errno));
		return FB_EUSAGE;
	}
	return check_kind(o, &st);
}

int output_std(struct output *o, int fd, const char *label)
{
	struct stat st;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	snprintf(o->label, sizeof(o->label), "%s", label);
	if (fstat(fd, &st) < 0 || (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)))
		return FB_OK;	/* a terminal, a pipe: nothing it could overwrite */
	if ((o->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0)
		return FB_OK;
	/* (Said nothing yet: standard error may be what is refused.) */
	o->regular = S_ISREG(st.st_mode);
	return storage_resolve_fd(o->fd, label, &o->st) < 0 ? FB_EDEV : FB_OK;
}

int output_commit(struct output *o, int *st)
{
	int fd;

	*st = FB_OK;
	if (o->fd >= 0) {
		/* As fopen(path, "w") would have, but only now. */
		if (o->regular && ftruncate(o->fd, 0) < 0) {
			fprintf(stderr, "flashbench: %s: cannot empty it: %s\n", o->label,
				strerror(errno));
			*st = FB_EUSAGE;
			return -1;
		}
		fd = o->fd;
		o->fd = -1;
		return fd;
	}
	/* Exclusively, where it was checked: never through a symlink made since. */
	fd = open(o->at, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0) {
		*st = errno == EEXIST ? FB_ESAFETY : FB_EUSAGE;
		fprintf(stderr, "flashbench: %s: %s\n", o->label, errno == EEXIST ?
			"appeared since it was checked (another run?); refusing it" : strerror(errno));
		return -1;
	}
	if ((*st = runlock_fd(fd, o->label, o->at)) != FB_OK) {
		close(fd);
		return -1;
	}
	return fd;
}

void output_free(struct output *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	storage_free(&o->st);
}
