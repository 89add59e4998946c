/*
 * The advice of advice/advice.h as data: what it rests on (struct
 * adv_in), its lines (struct adv_item) and the plan they make up (struct
 * adv), with adv_add() to append a line. Below both advice.c (the layout)
 * and advice_fs.c (the file systems), which fill one plan and do not need
 * each other for it.
 */
#ifndef FB_ADVICE_LIST_H
#define FB_ADVICE_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verdicts/facts.h"

/* The largest erase block assumed from two competing readings (their lcm). */
#define ADV_MAX_ASSUMED (64ull << 20)
/* Partitions start at or above this (room for the table and a boot loader). */
#define ADV_MIN_START (1ull << 20)
/* f2fs's segment: 512 blocks of 4KiB. */
#define ADV_F2FS_SEGMENT (2ull << 20)
/* FAT32's smallest and largest cluster counts. */
#define ADV_FAT32_MIN_CLUSTERS 65525u
#define ADV_FAT32_MAX_CLUSTERS 0x0ffffff5u

/* What the advice rests on: the verdicts' numbers, and the device. */
struct adv_in {
	bool align;			/* an align verdict was printed */
	enum va_state erase_state, page_state;
	uint64_t erase, page;		/* as the verdict named them */
	uint64_t cand[2];		/* uncertain: the readings that compete (0: none) */
	uint64_t erase_given;		/* --erasesize of the run (0: none) */
	unsigned oa_runs[2];		/* open-AU runs with their N: [random] */
	unsigned oa_fast[2], oa_slow[2];	/* their bracket (0: none) */
	bool oa_contradicts[2];
	unsigned oa_merge[2];		/* the smallest N in a merge regime (0: none) */
	double oa_merge_ns[2];		/* ...what a switch of erase block costs there */
	double oa_merge_x[2];		/* ...how much slower small writes run (0: not seen) */
	bool fat;			/* a find-fat verdict was printed */
	enum ff_state fat_state;
	unsigned fat_area;		/* FF_AREA: erase blocks */
	bool fat_random;
	uint64_t size;			/* the device: 0 when not known (--analyze) */
	uint64_t claimed;		/* what it reports, when --capacity found size
					 * smaller (0: size is what it reports) */
	uint32_t sector;		/* 0: not known (512 is assumed) */
};

#define ADV_MAX_ITEMS 24
#define ADV_MAX_SCRIPT 8
#define ADV_TEXT 512

/* One line of advice: a verdict record labelled "advice". */
struct adv_item {
	const char *name;	/* "partition_start", "ext4_stride", ... */
	const char *result;	/* how the value was come by: "named", "assumed", ... */
	bool has_value;
	uint64_t value;
	const char *unit;	/* "bytes", "count" (NULL: none) */
	char text[ADV_TEXT];
};

struct adv {
	/* the values it rests on (0: none) */
	uint64_t erase, page;
	uint32_t sector;
	unsigned open_aus;		/* linear, as assumed */
	bool open_aus_known;
	unsigned merge_from;		/* linear: the smallest N in a merge regime (0: none) */
	double merge_ns, merge_x;	/* ...a switch's cost, the small writes' slowdown */
	unsigned fat_aus;		/* the FAT-optimised area, erase blocks */
	/* the layout, bytes (size 0: to the end of a device of unknown size) */
	uint64_t start, size, fat_start, fat_len;
	const char *label;		/* "dos" or "gpt" */
	/* the file systems (0: not advised) */
	unsigned ext4_stride, ext4_stripe_width;
	unsigned f2fs_segs, f2fs_logs;
	unsigned fat_cluster, fat_reserved, fat_length;	/* bytes, sectors, sectors */
	uint64_t fat_data;		/* the data area, bytes from the partition start */
	/* the sfdisk script, line by line */
	size_t nscript;
	char script[ADV_MAX_SCRIPT][160];
	size_t nitems;
	struct adv_item item[ADV_MAX_ITEMS];
	size_t fs_from;			/* the first file-system item (0: none) */
};

/* Append a line of advice (NULL when the plan is full). */
void adv_script_line(struct adv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
struct adv_item *adv_add(struct adv *a, const char *name, const char *result, const char *fmt,
			 ...) __attribute__((format(printf, 4, 5)));

#endif
