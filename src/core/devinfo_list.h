/*
 * The list of facts of core/devinfo.h, apart from the code that reads
 * them: devinfo.c (ioctls, sysfs, statx) and devinfo_mmc.c (an MMC/SD
 * card's registers) both fill one, and neither needs the other for it.
 */
#ifndef FB_DEVINFO_LIST_H
#define FB_DEVINFO_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum di_kind {
	DI_TEXT,	/* a string */
	DI_BYTES,	/* a number of bytes */
	DI_COUNT,	/* a plain number */
	DI_BOOL,	/* yes or no */
};

#define DI_TEXT_LEN 256
#define DI_MAX_FACTS 96

struct di_fact {
	char name[48];		/* "logical_sector_bytes": the unit is in the name */
	enum di_kind kind;
	bool known;
	uint64_t num;		/* DI_BYTES, DI_COUNT; DI_BOOL 0 or 1 */
	char text[DI_TEXT_LEN];	/* the value as printed: "512", "yes", "unknown" */
	const char *source;	/* "BLKSSZGET", "sysfs queue/zoned", "statx" ... */
};

struct devinfo {
	size_t n;
	struct di_fact f[DI_MAX_FACTS];
};

/* The fact of that name, or NULL when it was not looked for. */
const struct di_fact *devinfo_get(const struct devinfo *d, const char *name);

/* Add a fact: v NULL is unknown. A list that is full drops it. */
void devinfo_add_num(struct devinfo *d, const char *name, enum di_kind kind, const uint64_t *v,
		     const char *source);
void devinfo_add_text(struct devinfo *d, const char *name, const char *v, const char *source);

#endif
