/*
 * The one rule of data safety, checked before anything is opened for
 * writing: every path a run writes -- DEVICE in a write test or
 * --restore, --out, the --preserve backup, the simulated card's image --
 * is resolved to the storage it really lands on (storage.h), and the run
 * is refused when that storage is in use (mounted, swap, held by device
 * mapper or RAID, reached by another loop device), when one path lands
 * on what another must leave alone (--out on the device's backing file,
 * the backup on the device), or when another flashbench run is writing
 * it (runlock.h). The O_EXCL open in target_dev.c is the kernel's own
 * check on top.
 */
#ifndef FB_SAFETY_H
#define FB_SAFETY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Everything a run will write or read, by the paths the user gave. */
struct run_paths {
	const char *device;	/* DEVICE ("sim:..." stands for its image=, if any) */
	bool writes;		/* a write test or --restore: DEVICE is written */
	const char *out;	/* --out, or NULL */
	const char *backup;	/* the --preserve backup to create, or NULL */
	const char *restore;	/* the --restore input, or NULL */
};

/*
 * The rule, for a whole run, before anything is created or opened for
 * writing; on success the storage DEVICE writes (and an existing --out)
 * stays locked until the process exits. Returns FB_OK; FB_EUSAGE for an
 * --out that lands on what the run measures or reads, or that is in use;
 * FB_ESAFETY for a DEVICE in use, a backup that cannot be placed, a
 * --restore input on DEVICE, or storage another run is writing. One line
 * naming what is in the way is printed.
 */
int safety_check_run(const struct run_paths *p);

/*
 * A file of results other than --out (a test's --log=PATH, which the
 * messages name), checked as --out is against DEVICE: FB_OK, or
 * FB_EUSAGE after one line saying what is in the way.
 */
int safety_check_output(const char *path, const char *device);
/*
 * May a write test write to path? Nothing it lands on -- its disk, every
 * partition of that disk, loop devices' backing files and devices below
 * it, every loop device on any of them -- may be mounted, swap, held by
 * another device, or another loop device (a partition of a disk whose
 * other partition is mounted is refused too: one wrong offset away). A
 * sim: target is checked by its image= file. FB_OK, or FB_ESAFETY after
 * printing one line naming the user.
 */
int safety_check_writable(const char *path);

/*
 * May the --preserve backup of need bytes (0: not known yet) be created
 * at backup for device? Refused (FB_ESAFETY, with a message) when the
 * file exists, when its directory is missing or not writable, when it
 * would lie on the storage of the device under test, or when its file
 * system has less than need bytes free.
 */
int safety_check_backup(const char *backup, const char *device, uint64_t need);

/*
 * A text that names the medium behind path, stable across reboots
 * where the kernel offers one: the MMC card's CID, the WWID or serial
 * number, a loop device's backing file; "file" for a regular file.
 * A partition adds its start sector. Used to match a backup to its
 * device.
 */
void safety_identity(const char *path, char *buf, size_t len);

#endif
