/* One writer per storage: see runlock.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/opts.h"
#include "safety/runlock.h"

#define RL_MAX 64

/* The descriptors that hold the locks: open until exit. */
static int held[RL_MAX];
static unsigned nheld;

/* The command line of pid, its arguments joined by spaces. */
static void cmdline(pid_t pid, char *buf, size_t len)
{
	char path[64];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	buf[0] = '\0';
	if (!(f = fopen(path, "r")))
		return;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (size_t i = 0; n && i < n - 1; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
}

/* Does one of /proc/PID/fdinfo/N show an OFD lock on "maj:min:ino"? */
static bool holds_lock(const char *pid, const char *key)
{
	char dir[300], path[600], l[256];
	struct dirent *e;
	bool found = false;
	DIR *d;
	FILE *f;

	snprintf(dir, sizeof(dir), "/proc/%s/fdinfo", pid);
	if (!(d = opendir(dir)))
		return false;
	while (!found && (e = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_name[0] == '.' || !(f = fopen(path, "r")))
			continue;
		while (!found && fgets(l, sizeof(l), f))
			found = strncmp(l, "lock:", 5) == 0 && strstr(l, "OFDLCK") && strstr(l, key);
		fclose(f);
	}
	closedir(d);
	return found;
}

/* The process holding an OFD lock on the file fd is open on; 0 when unseen. */
static pid_t lock_holder(int fd)
{
	char key[64];
	struct dirent *e;
	struct stat st;
	pid_t pid = 0;
	DIR *d;

	if (fstat(fd, &st) < 0 || !(d = opendir("/proc")))
		return 0;
	/* As /proc/locks writes it: "fe:00:10953136". */
	snprintf(key, sizeof(key), " %02x:%02x:%lu ", major(st.st_dev), minor(st.st_dev),
		 (unsigned long)st.st_ino);
	while (!pid && (e = readdir(d)))
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9' && atoi(e->d_name) != getpid() &&
		    holds_lock(e->d_name, key))
			pid = atoi(e->d_name);
	closedir(d);
	return pid;
}

static int refuse(int fd, const char *path, const char *what)
{
	char cmd[200];
	pid_t pid = lock_holder(fd);

	cmdline(pid, cmd, sizeof(cmd));
	if (pid)
		fprintf(stderr, "flashbench: refusing to write to %s: %s is being written by "
			"another run (pid %d: %s)\n", path, what, (int)pid, cmd[0] ? cmd : "?");
	else
		fprintf(stderr, "flashbench: refusing to write to %s: %s is being written by "
			"another run (it holds its lock)\n", path, what);
	return FB_ESAFETY;
}

/* Lock [start, start + len) of fd; the descriptor is kept on success. */
static int lock_range(int fd, bool wr, uint64_t start, uint64_t len, const char *path,
		      const char *what)
{
	struct flock l = { .l_type = wr ? F_WRLCK : F_RDLCK, .l_whence = SEEK_SET,
			   .l_start = (off_t)start, .l_len = (off_t)len };

	if (nheld == RL_MAX || fcntl(fd, F_OFD_SETLK, &l) < 0) {
		int r = errno == EAGAIN || errno == EACCES ? refuse(fd, path, what) : FB_OK;

		/* No lock support (some FUSE file systems): O_EXCL and the checks remain. */
		close(fd);
		return r;
	}
	held[nheld++] = fd;
	return FB_OK;
}

int runlock_fd(int fd, const char *label, const char *name)
{
	int dup = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	int wr = (fcntl(fd, F_GETFL) & O_ACCMODE) != O_RDONLY;

	return dup < 0 ? FB_OK : lock_range(dup, wr, 0, 0, label, name);
}

/* Open what item x is locked through: the file, or its whole disk's node. */
static int lock_node(const struct stor_item *x, bool *wr)
{
	char node[NAME_MAX + 8];
	const char *p = x->name;
	struct stat st;
	int fd;

	if (x->kind == STOR_BLOCK) {
		snprintf(node, sizeof(node), "/dev/%s", x->disk_kname);
		if (stat(node, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != x->disk)
			return -1;	/* no node of that name: O_EXCL still guards it */
		p = node;
	} else if (stat(p, &st) < 0 || !S_ISREG(st.st_mode) || st.st_dev != x->dev ||
		   st.st_ino != x->ino) {
		return -1;	/* only regular files are locked */
	}
	/* A write lock needs a descriptor open for writing; nothing is written. */
	*wr = true;
	fd = open(p, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 && (errno == EROFS || errno == EACCES || errno == EPERM)) {
		*wr = false;	/* read-only: nobody writes it; a read lock still meets a writer's */
		fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	}
	/* What was opened, not what the name led to a moment before: locks are the inode's. */
	if (fd >= 0 && (fstat(fd, &st) < 0 ||
			(x->kind == STOR_BLOCK ? st.st_rdev != x->disk :
			 st.st_dev != x->dev || st.st_ino != x->ino))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

int runlock_storage(const struct storage *s, const char *path)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct stor_item *x = &s->it[i];
		uint64_t start = x->start, len = x->len;
		bool wr;
		int fd, r;

		if (!x->chain || (fd = lock_node(x, &wr)) < 0)
			continue;
		if (x->kind == STOR_BLOCK) {
			/* On the whole disk: a partition is its range of it. */
			if (!len && x->part_start)
				len = x->bytes > start ? x->bytes - start : 0;
			start += x->part_start;
		}
		if ((r = lock_range(fd, wr, start, len, path, x->name)) != FB_OK)
			return r;
	}
	return FB_OK;
}

void runlock_release(void)
{
	while (nheld)
		close(held[--nheld]);
}
