/*
 * Preserve mode: the data a write test will overwrite is copied into a
 * backup file first, and written back (and read back to verify) when
 * the test ends -- normally, by a signal or by an error. When the
 * process dies outright, `flashbench --restore=FILE DEVICE` does the
 * same from the file.
 *
 * The backup file: a 4096-byte header (magic, version, device size,
 * sector size, the device's identity text and path, counts, a checksum
 * of header and tables), a table of the regions (offset, length,
 * checksum of the data), a table of identity samples (checksums of a
 * few ranges outside the regions, which the test never writes), then
 * the regions' data, starting at a multiple of 4096. Numbers are
 * little-endian; the checksum is FNV-1a 64.
 */
#ifndef FB_PRESERVE_H
#define FB_PRESERVE_H

#include <stddef.h>
#include <stdint.h>

#include "core/opts.h"
#include "core/regions.h"
#include "core/target.h"
#include "safety/backup.h"	/* fnv1a64(), struct preserve */

struct preserve;

/*
 * Before the first write of a run, given the n merged regions the
 * selected tests overwrite (checked against the device's end): check
 * that the backup can be placed, announce the regions on stderr, arm the
 * engine's guard and, with --preserve, make the backup (*p set; NULL
 * otherwise). Read-only runs (n 0) only arm the guard with no regions.
 * Returns FB_OK or the exit status.
 */
int preserve_begin(const struct fb_opts *o, struct target *t, const struct region *r, size_t n,
		   struct preserve **p);

/*
 * After the tests returned status r: with a backup, write it back with
 * signals blocked, read back and compare, remove the backup when all is
 * well ("restored N bytes, verified"). Returns r, or FB_EDEV when the
 * restore failed (the backup is then kept, and how to retry is printed).
 */
int preserve_end(struct preserve *p, struct target *t, int r);

/* Before the first write: remove the backup, write nothing back (p may be NULL). */
void preserve_discard(struct preserve *p);

/* --restore=FILE DEVICE: the safety rule, validate, match to the device,
 * restore, verify. The messages name DEVICE, the device written. */
int preserve_restore_file(const char *file, const char *device);

/* The default backup name: flashbench-DEVICE-YYYYmmdd-HHMMSS.backup. */
void preserve_default_name(const char *device, char *buf, size_t len);

#endif
