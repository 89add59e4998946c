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

/* The --log files a run may have (one per test that has one). */
#define RUN_LOGS 4

/* Everything a run will write or read, by the paths the user gave. */
struct run_paths {
	const char *device;	/* DEVICE ("sim:..." stands for its image=, if any) */
	bool writes;		/* a write test or --restore: DEVICE is written */
	const char *out;	/* --out, or NULL */
	const char *logs[RUN_LOGS];	/* the tests' own results files (--log), NULL after the last */
	const char *backup;	/* the --preserve backup to create, or NULL */
	const char *restore;	/* the --restore input, or NULL */
};

/*
 * First of all, before a message is printed: standard error, when the
 * shell sent it to a file or device, must not be a block device nor land
 * on anything the run names (DEVICE, --out, --log, --backup, --restore).
 * Refused: FB_EUSAGE, the message (and every later one) sent to standard
 * output when that is a terminal or a pipe, else nowhere.
 */
int safety_check_stderr(const struct run_paths *p);

/*
 * Before anything, in every mode: a standard error on a block device
 * (2>/dev/sdd) gets not one byte, not even a usage error; it is moved
 * as above, and safety_check_stderr() refuses the run.
 */
void safety_guard_stderr(void);

/*
 * The rule, for a whole run, by the names given, before anything is
 * opened for writing, created or emptied: DEVICE (when written) not in
 * use; the backup placeable; the --restore input not on DEVICE; --out
 * (or standard output, when it gets the results) and every --log each a
 * file of its own, apart from DEVICE, the backup, the --restore input and
 * one another, not in use, and locked when they exist (an existing one
 * is opened, not emptied: safety_commit_output() does that). Returns
 * FB_OK; FB_EUSAGE for an output that is in the way; FB_ESAFETY for a
 * DEVICE in use, a backup that cannot be placed, a --restore input on
 * DEVICE, or storage another run is writing. One line is printed.
 */
int safety_check_run(const struct run_paths *p);

/*
 * After DEVICE was opened (fd: the descriptor its data is written
 * through; -1: none yet), before any I/O: is it what safety_check_run()
 * checked? A path swapped in between (a symlink flipped) is refused
 * (FB_ESAFETY); when the run writes, it is checked again as opened (the
 * check's lock is on that very inode, then).
 */
int safety_check_opened(const struct run_paths *p, int fd);

/*
 * Every check of the run passed: the --out or --log file path (as given
 * to safety_check_run) emptied or created now, exclusively where it was
 * checked, and locked; *fd its descriptor, the caller's. FB_OK, or the
 * exit status after one line.
 */
int safety_commit_output(const char *path, int *fd);

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
