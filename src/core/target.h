/*
 * The one target interface. Every device the tool measures -- a regular
 * file, a block device, the simulated card -- is opened here and reached
 * through a table of operations. A timed operation returns 0 and stores
 * the time it took in *ns, or returns a negative errno; never both.
 *
 * Queued requests (several outstanding, completing in any order) are a
 * second pair of operations on the records of core/qio.h: files and
 * block devices run them through a qio engine (io_uring, Linux AIO or
 * pread/pwrite), the simulated card serves them on its virtual clock over
 * its channels. Each completion carries the request's own latency from
 * submission to completion; now() is the clock those are measured on.
 */
#ifndef FB_TARGET_H
#define FB_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/qio.h"

/* Flags for target_open(). */
#define TGT_WRITE 0x1	/* open read-write (write tests only) */
#define TGT_EXCL  0x2	/* block devices: O_EXCL, refused by the kernel when held */
#define TGT_SYNC  0x4	/* O_DSYNC: a write returns once its data is on stable storage */

/* Zones of a zoned block device (<linux/blkzoned.h>; the simulated card's zoned=). */
enum zone_type {
	ZONE_CONVENTIONAL = 1,	/* written anywhere */
	ZONE_SEQ_REQUIRED = 2,	/* host-managed: only at the write pointer */
	ZONE_SEQ_PREFERRED = 3,	/* host-aware: anywhere, best at the write pointer */
};

struct target_zone {
	uint64_t start, len;	/* bytes */
	uint64_t cap;		/* bytes from start that can be written (<= len) */
	uint64_t wp;		/* the write pointer: the next byte a write must go to */
	enum zone_type type;
	bool full;		/* no more writes until a reset */
};

struct target;

struct target_ops {
	const char *kind;	/* "file", "block device", "simulated card" */
	/* Read or write len bytes at off. Short transfers are continued;
	 * the time is the whole request's. 0 or -errno. */
	int (*read)(struct target *t, void *buf, size_t len, uint64_t off, uint64_t *ns);
	int (*write)(struct target *t, const void *buf, size_t len, uint64_t off, uint64_t *ns);
	/*
	 * Discard len bytes at off (--precondition=discard): the device may
	 * forget what was there and start those blocks afresh. 0 or -errno;
	 * NULL when the kind cannot. how names the means ("BLKDISCARD").
	 */
	int (*discard)(struct target *t, uint64_t off, uint64_t len);
	const char *discard_how;
	/* Let ns of idle time pass (background work, cache recovery). May be NULL. */
	void (*idle)(struct target *t, uint64_t ns);
	/* Zoned targets (zone_size > 0): the zones from the one holding off on,
	 * at most max of them into z, their number in *n; 0 or -errno. */
	int (*report_zones)(struct target *t, uint64_t off, struct target_zone *z, size_t max,
			    size_t *n);
	/* Reset the write pointers of the zones in [off, off + len) (whole zones); 0 or -errno. */
	int (*reset_zones)(struct target *t, uint64_t off, uint64_t len);
	/* Print counters (bytes read/written, garbage collections) for -v. May be NULL. */
	void (*stats)(struct target *t, FILE *f);
	void (*close)(struct target *t);
	/* The descriptor the data is written through, for the safety check of
	 * what was opened (-1: none, or not yet). NULL: t->fd. */
	int (*data_fd)(struct target *t);
	/*
	 * Queued requests. qopen makes room for depth outstanding ones with
	 * engine kind (the simulated card takes any kind and serves them
	 * itself) and registers [buf, buf + len), the memory requests will
	 * use, where that cuts the cost per request: 0 or -errno with a
	 * one-line reason in err. qsubmit and qreap work as qio_submit() and
	 * qio_reap(); qclose waits for what is in flight and drops the queue;
	 * qdescribe names the engine and why it was chosen (for -v).
	 */
	int (*qopen)(struct target *t, enum qio_kind kind, unsigned depth, void *buf, size_t len,
		     char *err, size_t errlen);
	int (*qsubmit)(struct target *t, bool write, void *buf, size_t len, uint64_t off,
		       uint64_t tag);
	int (*qreap)(struct target *t, unsigned min, struct qio_done *done, unsigned max);
	void (*qclose)(struct target *t);
	const char *(*qdescribe)(struct target *t);
	/* The clock of the queued latencies, in ns: CLOCK_MONOTONIC_RAW, or virtual. */
	uint64_t (*now)(struct target *t);
};

/*
 * The fields every request reads (ops, fd, priv) come first, on one cache
 * line; the 4 KiB path, read only for messages, comes last.
 */
struct target {
	const struct target_ops *ops;
	int fd;			/* -1 for the simulated card */
	/* Set by the engine around its timed reads, whose data nobody looks
	 * at: the simulated card then makes no pattern (target_sim.c). */
	bool data_unseen;
	void *priv;		/* per-kind state */
	uint64_t size;		/* bytes */
	uint32_t sector;	/* logical sector: offsets and lengths are multiples */
	uint32_t mem_align;	/* buffer address alignment for direct I/O */
	bool blockdev;
	bool sim;
	bool writable;
	/* Writes are not kept (the simulated card without an image): the
	 * engine's buffers need no data, and are never touched. */
	bool data_discarded;
	uint64_t zone_size;	/* zoned: bytes per zone (the last may be smaller); 0: not zoned */
	dev_t rdev;		/* block devices: the device number */
	dev_t st_dev;		/* regular files: the file system's device */
	ino_t st_ino;
	char path[4096];
};

/*
 * Open path ("sim:..." for the simulated card). On failure returns a
 * negative errno for an unreachable device or -EINVAL for a bad sim spec,
 * with a one-line message (no program name, no newline) in err.
 */
int target_open(const char *path, int flags, struct target **out, char *err, size_t errlen);
void target_close(struct target *t);
/* The descriptor t's data goes through (see target_ops.data_fd). */
int target_data_fd(struct target *t);

static inline int target_read(struct target *t, void *buf, size_t len, uint64_t off, uint64_t *ns)
{
	return t->ops->read(t, buf, len, off, ns);
}

static inline int target_write(struct target *t, const void *buf, size_t len, uint64_t off, uint64_t *ns)
{
	return t->ops->write(t, buf, len, off, ns);
}

/* Files and block devices (target_dev.c). */
int target_dev_open(const char *path, int flags, struct target **out, char *err, size_t errlen);
/* The simulated card (target_sim.c); spec is the text after "sim:". */
int target_sim_open(const char *spec, int flags, struct target **out, char *err, size_t errlen);

#endif
