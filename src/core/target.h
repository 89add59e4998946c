/*
 * The one target interface. Every device the tool measures -- a regular
 * file, a block device, the simulated card -- is opened here and reached
 * through a table of operations. A timed operation returns 0 and stores
 * the time it took in *ns, or returns a negative errno; never both.
 */
#ifndef FB_TARGET_H
#define FB_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

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
};

struct target {
	const struct target_ops *ops;
	char path[4096];
	int fd;			/* -1 for the simulated card */
	uint64_t size;		/* bytes */
	uint32_t sector;	/* logical sector: offsets and lengths are multiples */
	uint32_t mem_align;	/* buffer address alignment for direct I/O */
	bool blockdev;
	bool sim;
	bool writable;
	bool no_data;		/* reads do not return what was written (sim: without image=) */
	uint64_t zone_size;	/* zoned: bytes per zone (the last may be smaller); 0: not zoned */
	dev_t rdev;		/* block devices: the device number */
	dev_t st_dev;		/* regular files: the file system's device */
	ino_t st_ino;
	void *priv;		/* per-kind state */
};

/*
 * Open path ("sim:..." for the simulated card). On failure returns a
 * negative errno for an unreachable device or -EINVAL for a bad sim spec,
 * with a one-line message (no program name, no newline) in err.
 */
int target_open(const char *path, int flags, struct target **out, char *err, size_t errlen);
void target_close(struct target *t);

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
