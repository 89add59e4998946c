/*
 * --advise: the file systems' options that follow from the erase block,
 * the page and the open-AU count (see advice.h). Each option comes with
 * the one line that says why; one the numbers do not support is left
 * out with the reason.
 */
#include <stdio.h>
#include <string.h>

#include "core/arith.h"
#include "core/units.h"
#include "advice/advice_fs.h"

#define FS_BLOCK 4096u

static void value(struct adv_item *it, uint64_t v, const char *unit)
{
	if (!it)
		return;
	it->has_value = true;
	it->value = v;
	it->unit = unit;
}

/* ---- ext4 ---- */

void adv_ext4(const struct adv_in *in, struct adv *a)
{
	char e[FB_FMT_LEN], p[FB_FMT_LEN], opts[96];

	(void)in;
	if (a->erase % FS_BLOCK) {
		adv_add(a, "ext4", "declined", "ext4: no stride or stripe_width: the erase block "
			"(%s) is not a whole number of 4KiB blocks", fmt_size(e, sizeof(e), a->erase));
		return;
	}
	a->ext4_stripe_width = (unsigned)(a->erase / FS_BLOCK);
	value(adv_add(a, "ext4_stripe_width", "derived", "ext4 stripe_width %u: the %s erase "
		      "block in 4KiB blocks: ext4 then allocates large files in erase-block-aligned "
		      "chunks of that size, so the card writes whole erase blocks",
		      a->ext4_stripe_width, fmt_size(e, sizeof(e), a->erase)),
	      a->ext4_stripe_width, "count");
	if (a->page && a->page % FS_BLOCK == 0 && a->erase % a->page == 0) {
		a->ext4_stride = (unsigned)(a->page / FS_BLOCK);
		value(adv_add(a, "ext4_stride", "derived", "ext4 stride %u: the %s page in 4KiB "
			      "blocks: metadata and small writes then come in whole pages",
			      a->ext4_stride, fmt_size(p, sizeof(p), a->page)), a->ext4_stride, "count");
	} else {
		adv_add(a, "ext4_stride", "declined", "ext4 stride: left out: %s", !a->page ?
			"no page size was named" : "the page is not a whole number of 4KiB blocks "
			"that divides the erase block");
	}
	if (a->ext4_stride)
		snprintf(opts, sizeof(opts), "stride=%u,stripe_width=%u", a->ext4_stride,
			 a->ext4_stripe_width);
	else
		snprintf(opts, sizeof(opts), "stripe_width=%u", a->ext4_stripe_width);
	adv_add(a, "ext4_command", "command", "ext4: mkfs.ext4 -b 4096 -E %s PARTITION", opts);
}

/* ---- f2fs ---- */

/*
 * The logs f2fs writes at once (active_logs: 2, 4 or 6), one more for its
 * checkpoint and tables, each an erase block the card must keep open.
 */
static unsigned logs_for(unsigned open)
{
	return open >= 7 ? 6 : open >= 5 ? 4 : 2;
}

static void f2fs_logs(struct adv *a)
{
	char why[320], t[FB_FMT_LEN];

	if (!a->open_aus_known) {
		adv_add(a, "f2fs_active_logs", "declined", "f2fs active_logs: not advised: the "
			"open-AU count was not measured (--find-open-au, or --survey); f2fs "
			"writes 6 logs at once by default");
		return;
	}
	a->f2fs_logs = logs_for(a->open_aus);
	/* (below the merge regime when that leaves f2fs its 2 logs and more) */
	if (a->merge_from && a->f2fs_logs + 1 >= a->merge_from && a->merge_from - 1 >= 3) {
		a->f2fs_logs = logs_for(a->merge_from - 1);
		snprintf(why, sizeof(why), "%u logs and the checkpoint and tables make %u erase "
			 "blocks written at once, below the %u from which every switch of erase "
			 "block costs %s (a merge)", a->f2fs_logs, a->f2fs_logs + 1, a->merge_from,
			 fmt_time(t, sizeof(t), a->merge_ns));
	} else if (a->open_aus >= 3)
		snprintf(why, sizeof(why), "%u logs and the checkpoint and tables make %u erase "
			 "blocks written at once, within the %u the card keeps open", a->f2fs_logs,
			 a->f2fs_logs + 1, a->open_aus);
	else
		snprintf(why, sizeof(why), "the fewest f2fs takes, and still more than the card "
			 "keeps open (%u): expect garbage collection", a->open_aus);
	/* (a merge f2fs cannot stay below: said, not hidden) */
	if (a->merge_from && a->f2fs_logs + 1 >= a->merge_from && a->merge_from - 1 < 3) {
		size_t u = strlen(why);

		snprintf(why + u, sizeof(why) - u, "; from %u erase blocks on every switch of erase "
			 "block costs %s (a merge), which even the fewest logs f2fs takes pay",
			 a->merge_from, fmt_time(t, sizeof(t), a->merge_ns));
	}
	value(adv_add(a, "f2fs_active_logs", "derived", "f2fs active_logs %u: %s", a->f2fs_logs,
		      why), a->f2fs_logs, "count");
}

void adv_f2fs(const struct adv_in *in, struct adv *a)
{
	char e[FB_FMT_LEN], s[FB_FMT_LEN];
	uint64_t sect = a->erase / gcd_u64(a->erase, ADV_F2FS_SEGMENT) * ADV_F2FS_SEGMENT;
	uint64_t big = a->erase > ADV_F2FS_SEGMENT ? a->erase : ADV_F2FS_SEGMENT;

	(void)in;
	if (sect / big > 4) {
		adv_add(a, "f2fs_segs_per_sec", "declined", "f2fs segments per section: not "
			"advised: the %s erase block and f2fs's 2MiB segments meet only every %s",
			fmt_size(e, sizeof(e), a->erase), fmt_size(s, sizeof(s), sect));
	} else {
		a->f2fs_segs = (unsigned)(sect / ADV_F2FS_SEGMENT);
		value(adv_add(a, "f2fs_segs_per_sec", "derived", "f2fs segments per section %u: "
			      "a section of %s %s, so that f2fs cleans whole erase blocks", a->f2fs_segs,
			      fmt_size(s, sizeof(s), sect), sect == a->erase ? "is one erase block" :
			      a->erase < ADV_F2FS_SEGMENT ? "holds whole erase blocks" :
			      "is the first size that is whole erase blocks and whole segments"),
		      a->f2fs_segs, "count");
	}
	f2fs_logs(a);
	if (a->f2fs_segs && a->f2fs_logs)
		adv_add(a, "f2fs_command", "command", "f2fs: mkfs.f2fs -s %u PARTITION; mount -o "
			"active_logs=%u", a->f2fs_segs, a->f2fs_logs);
	else if (a->f2fs_segs)
		adv_add(a, "f2fs_command", "command", "f2fs: mkfs.f2fs -s %u PARTITION", a->f2fs_segs);
}

/* ---- FAT ---- */

uint32_t adv_fat32_length(uint64_t sectors, uint32_t reserved, uint32_t spc, uint32_t sector,
			  uint64_t *clusters)
{
	/* mkfs.fat (dosfstools 4.x) without alignment (-a), 2 FATs of 4 bytes per cluster. */
	uint64_t data = sectors > reserved ? sectors - reserved : 0;
	uint64_t cl = (data * sector + 2 * 8) / ((uint64_t)spc * sector + 2 * 4);

	*clusters = cl;
	return (uint32_t)(((cl + 2) * 4 + sector - 1) / sector);
}

/* The cluster: the page (or 32KiB), a power of two from 4KiB to 32KiB. */
static unsigned fat_cluster(const struct adv *a, const char **how)
{
	unsigned c = 4096;

	*how = a->page ? "the page" : "assumed (no page named): a multiple of every page from "
		"4KiB to 32KiB";
	if (!a->page)
		return 32768;
	while (c < a->page && c < 32768)
		c *= 2;
	if (a->page > 32768)
		*how = "the most FAT32 tools take without complaint; the page is larger";
	return c;
}

/* The fewest reserved sectors from 32 that put the data area on an erase-block boundary. */
static bool fat_reserved(struct adv *a, uint64_t sectors, uint32_t spc)
{
	uint64_t es = a->erase / a->sector, cl;

	for (uint64_t r = 32; r <= 65535 && r < 32 + es; r++) {
		uint32_t len = adv_fat32_length(sectors, (uint32_t)r, spc, a->sector, &cl);

		if ((r + 2ull * len) % es == 0) {
			a->fat_reserved = (unsigned)r;
			a->fat_length = len;
			a->fat_data = (r + 2ull * len) * a->sector;
			return true;
		}
	}
	return false;
}

void adv_fat(const struct adv_in *in, struct adv *a)
{
	char c[FB_FMT_LEN], d[FB_FMT_LEN];
	const char *how;
	unsigned cluster = fat_cluster(a, &how);
	uint64_t sectors = a->size / a->sector, cl = 0;

	(void)in;
	/* FAT32 needs 65525 clusters: smaller ones on a small partition. */
	while (a->size && cluster > a->sector &&
	       (adv_fat32_length(sectors, 32, cluster / a->sector, a->sector, &cl),
		cl < ADV_FAT32_MIN_CLUSTERS)) {
		cluster /= 2;
		how = "the largest that gives FAT32 its 65525 clusters here";
	}
	if (a->size && (cl < ADV_FAT32_MIN_CLUSTERS || cl > ADV_FAT32_MAX_CLUSTERS)) {
		adv_add(a, "fat", "declined", "FAT: no FAT32 options: the partition is too %s "
			"for FAT32's cluster counts", cl < ADV_FAT32_MIN_CLUSTERS ? "small" : "large");
		return;
	}
	a->fat_cluster = cluster;
	value(adv_add(a, "fat_cluster", "derived", "FAT cluster %s: %s, so that no cluster "
		      "write is shorter than a page", fmt_size(c, sizeof(c), cluster), how),
	      cluster, "bytes");
	if (!a->size) {
		adv_add(a, "fat_data_area", "declined", "FAT data area: not computed: it needs the "
			"partition's size (a live run)");
		return;
	}
	if (!fat_reserved(a, sectors, cluster / a->sector)) {
		adv_add(a, "fat_data_area", "declined", "FAT data area: no reserved-sector count "
			"up to 65535 puts it on an erase-block boundary");
		return;
	}
	value(adv_add(a, "fat_data_area", "aligned", "FAT data area at %s into the partition: "
		      "%u reserved sectors and 2 FATs of %u sectors end on an erase-block boundary, "
		      "so that every cluster lies inside one erase block", fmt_size(d, sizeof(d),
		      a->fat_data), a->fat_reserved, a->fat_length), a->fat_data, "bytes");
	adv_add(a, "fat_command", "command", "FAT: mkfs.vfat -F 32 -S %u -s %u -R %u -a PARTITION "
		"(-a: mkfs.vfat aligns nothing itself, so the FAT size is as computed)", a->sector,
		cluster / a->sector, a->fat_reserved);
}
