/* Whole-buffer I/O: short transfers are continued, EINTR retried. */
#ifndef FB_FULLIO_H
#define FB_FULLIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Read up to len bytes at off: the bytes read (fewer only at the end of
 * the file), or -errno. */
ssize_t full_pread(int fd, void *buf, size_t len, uint64_t off);
/* Read exactly len bytes at off: 0, or -errno (-EIO at the end of the file). */
int pread_exact(int fd, void *buf, size_t len, uint64_t off);
/* Write all len bytes at off: 0, or -errno (-ENOSPC when nothing more fits). */
int full_pwrite(int fd, const void *buf, size_t len, uint64_t off);
/* The same at the file position. */
int full_write(int fd, const void *buf, size_t len);

#endif
