/*
 * Fault injection for the command-line tests: an LD_PRELOAD library that
 * wraps pwrite(), the call every device write goes through (regular
 * files, block devices and the simulated card's image file). Counting
 * pwrite calls from 1:
 *
 *   FB_FAIL_PWRITE_AT=N    the Nth call fails with FB_FAIL_ERRNO (default
 *                          EIO, 5) and writes nothing
 *   FB_SHORT_PWRITE=N      the Nth call writes half and returns the short
 *                          count; the next one fails with ENOSPC (a full disk)
 *   FB_SIGNAL_PWRITE_AT=N  before the Nth call and every later one, raise
 *                          signal FB_SIGNAL (default SIGINT): a Ctrl-C, or a
 *                          SIGKILL, at a known point of a test; with
 *                          FB_SIGNAL_ONCE=1 before the Nth call only (a
 *                          SIGSTOP that holds a run still until SIGCONT)
 *   FB_SIGNAL_WRITE_AT=N   the same for write(), which the --preserve backup
 *                          is written with (stdio does not come through here)
 *   FB_SIGNAL_PREAD_AT=N   the same for pread(), every device read: a Ctrl-C
 *                          at a known read of a read-only test, however fast
 *                          the device is
 *   FB_DELAY_US=N          every pread() and pwrite() takes N microseconds
 *                          longer: a slow card, so that a short test runs
 *                          long enough in wall time to show its progress line
 *   FB_SWAP_AT_OPEN=PATH   at the first open() of PATH, rename(FB_SWAP_FROM,
 *                          PATH) just before it: a symlink flipped between
 *                          the safety check (which only looks) and the open,
 *                          the race of issue 24 made deterministic
 *
 * The backup file of --preserve is written with write(), not pwrite(),
 * so the pwrite faults never hit it. Built by the Makefile as tests/faultshim.so.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static unsigned long calls, write_calls, read_calls;

static unsigned long env_num(const char *name, unsigned long dflt)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, NULL, 10) : dflt;
}

static ssize_t real_pwrite(int fd, const void *buf, size_t len, off_t off)
{
	return syscall(SYS_pwrite64, fd, buf, len, off);
}

static void maybe_delay(void)
{
	unsigned long us = env_num("FB_DELAY_US", 0);

	if (us)
		usleep((useconds_t)us);
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	unsigned long n = ++calls;
	unsigned long fail = env_num("FB_FAIL_PWRITE_AT", 0);
	unsigned long shrt = env_num("FB_SHORT_PWRITE", 0);
	unsigned long sig = env_num("FB_SIGNAL_PWRITE_AT", 0);

	if (sig && (n == sig || (n > sig && !env_num("FB_SIGNAL_ONCE", 0))))
		raise((int)env_num("FB_SIGNAL", SIGINT));
	if (n == fail) {
		errno = (int)env_num("FB_FAIL_ERRNO", EIO);
		return -1;
	}
	if (shrt && n == shrt && len >= 2) {
		/* Half, rounded down to 512 bytes so that O_DIRECT accepts it. */
		size_t half = len / 2 / 512 * 512;

		return real_pwrite(fd, buf, half ? half : len / 2, off);
	}
	if (shrt && n == shrt + 1) {
		errno = ENOSPC;
		return -1;
	}
	maybe_delay();
	return real_pwrite(fd, buf, len, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	return pwrite(fd, buf, len, off);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	unsigned long n = ++write_calls;
	unsigned long sig = env_num("FB_SIGNAL_WRITE_AT", 0);

	if (sig && (n == sig || (n > sig && !env_num("FB_SIGNAL_ONCE", 0))))
		raise((int)env_num("FB_SIGNAL", SIGINT));
	return syscall(SYS_write, fd, buf, len);
}

/* The signal before the nth call of a kind, as FB_SIGNAL_*_AT says. */
static void maybe_raise(const char *at, unsigned long n)
{
	unsigned long sig = env_num(at, 0);

	if (sig && (n == sig || (n > sig && !env_num("FB_SIGNAL_ONCE", 0))))
		raise((int)env_num("FB_SIGNAL", SIGINT));
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	maybe_raise("FB_SIGNAL_PREAD_AT", ++read_calls);
	maybe_delay();
	return syscall(SYS_pread64, fd, buf, len, off);
}

ssize_t pread64(int fd, void *buf, size_t len, off_t off)
{
	return pread(fd, buf, len, off);
}

/* The swap of FB_SWAP_AT_OPEN, once. */
static void maybe_swap(const char *path)
{
	static int done;
	const char *at = getenv("FB_SWAP_AT_OPEN"), *from = getenv("FB_SWAP_FROM");

	if (!done && at && from && path && strcmp(path, at) == 0) {
		done = 1;
		rename(from, at);
	}
}

static int open_mode(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(ap, int) : 0;
}

/* open() and open64(): the link swapped first when it is the one watched. */
static int swap_and_open(const char *path, int flags, int mode)
{
	maybe_swap(path);
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = open_mode(flags, ap);
	va_end(ap);
	return swap_and_open(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = open_mode(flags, ap);
	va_end(ap);
	return swap_and_open(path, flags, mode);
}
