/*
 * The backup file of --preserve and --restore (its format is described in
 * preserve.h) and the moves of data between it and the device. Internal
 * to preserve.c; everything else goes through preserve.h.
 */
#ifndef FB_BACKUP_H
#define FB_BACKUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/regions.h"
#include "core/target.h"

/* FNV-1a 64: h is the running value (start with FNV64_INIT). */
#define FNV64_INIT 0xcbf29ce484222325ull
uint64_t fnv1a64(uint64_t h, const void *buf, size_t len);

#define BK_MAX_REGIONS	(1u << 20)
#define BK_TEXT		1024u		/* device path and identity fields */
#define BK_MAGIC	"FBBACKUP"
#define BK_VERSION	1
#define BK_HDR		4096u		/* header size; data is aligned to it too */
#define BK_SUM_AT	(BK_HDR - 8)	/* the checksum of header and tables */
#define BK_ENTRY	24u		/* offset, length, checksum */
#define BK_SAMPLES	8u
#define BK_SAMPLE_LEN	(64u * 1024)
#define BK_CHUNK	(1u << 20)

struct bk_entry {
	uint64_t off, len, sum;
};

struct preserve {
	char file[4096];
	char device[BK_TEXT];
	char identity[BK_TEXT];
	int fd;			/* the backup file */
	uint64_t size;		/* the device's */
	uint32_t sector;
	uint32_t nr, ns;	/* regions, then identity samples, in e[] */
	struct bk_entry *e;
	uint64_t total, data_off;
	bool keep;		/* --restore: the user's file stays */
};

/* Bytes a backup of n regions holding bytes in all takes on disk. */
uint64_t backup_file_size(size_t n, uint64_t bytes);

/*
 * Copy r[0..n) of t (opened as device) into the new file. FB_OK; FB_EDEV
 * when the device failed; FB_ESAFETY when the file could not be made
 * (the backup cannot be placed); FB_EINTR when a signal came first. On
 * failure no file is left and nothing was written to the device.
 */
int backup_create(const char *device, struct target *t, const struct region *r,
		  uint32_t n, const char *file, struct preserve **out);

/* Remove the backup of a run that wrote nothing after all, and free it. */
void backup_discard(struct preserve *p);

/* Open a backup and check its header, length and every checksum before use:
 * FB_OK, FB_EUSAGE (cannot open) or FB_ESAFETY (truncated, corrupted). */
int backup_open(const char *file, struct preserve **out);

/* Is t (opened as device) the device the backup was made of? FB_OK or FB_ESAFETY. */
int backup_match(struct preserve *p, struct target *t, const char *device);

/*
 * Write the data back and read it back to compare, with the signals of
 * eng_stop_signals() held. Removes the file on success unless p->keep;
 * FB_OK or FB_EDEV (the file kept, how to retry printed).
 */
int backup_restore(struct preserve *p, struct target *t);

void backup_free(struct preserve *p);

/* Shared by backup.c (making, restoring) and backup_open.c (checking). */
uint64_t bk_get64(const unsigned char *p);
uint64_t bk_table_len(uint32_t nr, uint32_t ns);
/* A buffer of BK_CHUNK bytes aligned for t; NULL with a message. */
void *bk_io_buffer(const struct target *t);
/* FNV-1a 64 of [off, off + len) of t; 0 or -errno (message printed). */
int bk_device_sum(struct target *t, void *buf, uint64_t off, uint64_t len, uint64_t *sum);

#endif
