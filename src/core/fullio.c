/* Whole-buffer I/O: see fullio.h. */
#include <errno.h>
#include <unistd.h>

#include "core/fullio.h"

ssize_t full_pread(int fd, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

int pread_exact(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = full_pread(fd, buf, len, off);

	if (n < 0)
		return (int)n;
	return (size_t)n < len ? -EIO : 0;
}

/* One loop for both writes: off < 0 writes at the file position. */
static int write_all(int fd, const void *buf, size_t len, int64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = off < 0 ? write(fd, (const char *)buf + done, len - done)
				    : pwrite(fd, (const char *)buf + done, len - done,
					     (off_t)((uint64_t)off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENOSPC;
		done += (size_t)n;
	}
	return 0;
}

int full_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	return write_all(fd, buf, len, (int64_t)off);
}

int full_write(int fd, const void *buf, size_t len)
{
	return write_all(fd, buf, len, -1);
}
