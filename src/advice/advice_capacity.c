/*
 * A card smaller than it claims (--capacity found where its blocks stop
 * holding): the partition table for the size that is real, which is
 * what f3fix writes -- one partition from the first MiB to the real end,
 * so that no file system ever reaches the blocks that do not hold. It
 * needs no erase block: --advise with -a aligns it as well.
 */
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "advice/advice.h"

void adv_real_size(uint64_t real, uint64_t claimed, uint32_t sector, struct adv *a)
{
	char r[FB_FMT_LEN], c[FB_FMT_LEN], s[FB_FMT_LEN], z[FB_FMT_LEN];
	uint64_t usable;
	struct adv_item *it;
	bool gpt;

	memset(a, 0, sizeof(*a));
	a->sector = sector ? sector : 512;
	/* An MBR addresses 2^32 sectors; beyond that GPT, whose copy takes the last 33. */
	gpt = real / a->sector > 0xffffffffull;
	a->label = gpt ? "gpt" : "dos";
	usable = gpt && real > 33ull * a->sector ? real - 33ull * a->sector : real;
	a->start = ADV_MIN_START;
	if (usable <= a->start + a->sector) {
		adv_add(a, "real_size_partition", "none", "no partition: only %s holds, not enough "
			"for one after the first %s", fmt_size(r, sizeof(r), real),
			fmt_size(s, sizeof(s), a->start));
		return;
	}
	a->size = (usable - a->start) / a->sector * a->sector;
	it = adv_add(a, "real_size_partition", "capacity", "partition only the %s that hold, "
		     "not the %s the device reports (as f3fix does): start %s (sector %llu), size "
		     "%s (%llu sectors), to the real end, so that no file system reaches the "
		     "blocks that do not hold", fmt_size(r, sizeof(r), real),
		     fmt_size(c, sizeof(c), claimed), fmt_size(s, sizeof(s), a->start),
		     (unsigned long long)(a->start / a->sector), fmt_size(z, sizeof(z), a->size),
		     (unsigned long long)(a->size / a->sector));
	if (it) {
		it->has_value = true;
		it->value = a->size;
		it->unit = "bytes";
	}
	adv_script_line(a, "label: %s", a->label);
	adv_script_line(a, "unit: sectors");
	adv_script_line(a, "sector-size: %u", a->sector);
	adv_script_line(a, "start=%llu, size=%llu, type=%s",
			(unsigned long long)(a->start / a->sector),
			(unsigned long long)(a->size / a->sector),
			gpt ? "EBD0A0A2-B9E5-4433-87C0-68B6B72699C7" : "c");
	a->fs_from = a->nitems;
	adv_add(a, "real_size_fs", "capacity", "then a file system on it: mkfs.vfat -F 32 "
		"PARTITION (the card's own), or --advise with -a for an erase-block aligned "
		"layout of the same %s", fmt_size(r, sizeof(r), real));
}
