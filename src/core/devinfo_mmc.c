/*
 * An MMC or SD card's registers as the kernel's mmc core shows them in
 * sysfs (drivers/mmc/core/{mmc,sd}.c): the card's name, manufacturer,
 * OEM, date and serial from its CID, the erase sizes the kernel derived,
 * and for SD cards the SD status register (ssr, 512 bits as 16 words),
 * whose AU_SIZE is the card's own statement of its allocation unit.
 *
 * preferred_erase_size is the AU where the SD status gave one; for MMC
 * cards and SD cards without it the kernel takes it from the capacity
 * (512 KiB to 4 MiB), which is why the AU is preferred when there is one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/devinfo_mmc.h"
#include "core/sysfs.h"

#define SSR_WORDS 16

/* The 16 words of "ssr" (128 hex digits); false when absent or all zero (not read). */
static bool read_ssr(const char *dir, uint32_t w[SSR_WORDS])
{
	char hex[2 * 4 * SSR_WORDS + 8], word[9];
	uint32_t any = 0;

	if (sysfs_attr(dir, "ssr", hex, sizeof(hex)) < 0 || strlen(hex) != 8 * SSR_WORDS ||
	    strspn(hex, "0123456789abcdefABCDEF") != 8 * SSR_WORDS)
		return false;
	for (int i = 0; i < SSR_WORDS; i++) {
		memcpy(word, hex + 8 * i, 8);
		word[8] = '\0';
		w[i] = (uint32_t)strtoul(word, NULL, 16);
		any |= w[i];
	}
	return any != 0;
}

/* Bits hi..lo of the SD status (bit 511 is the first of word 0). */
static uint32_t ssr_bits(const uint32_t w[SSR_WORDS], unsigned hi, unsigned lo)
{
	uint32_t v = 0;

	for (unsigned b = hi + 1; b-- > lo;) {
		unsigned from_top = 511 - b;

		v = v << 1 | ((w[from_top / 32] >> (31 - from_top % 32)) & 1);
	}
	return v;
}

/* AU_SIZE (SD spec part 1, 4.10.2.4): 16 KiB doubling to 4 MiB, then 8, 12, 16, 24, 32, 64 MiB. */
static uint64_t au_bytes(uint32_t code)
{
	static const uint64_t big[] = { 8, 12, 16, 24, 32, 64 };

	if (code == 0)
		return 0;
	if (code <= 9)
		return 16384ull << (code - 1);
	return big[code - 10] << 20;
}

static void sd_status(const char *dir, struct devinfo *d)
{
	static const unsigned speed_class[] = { 0, 2, 4, 6, 10 };
	uint32_t w[SSR_WORDS];
	bool ok = read_ssr(dir, w);
	uint64_t au = ok ? au_bytes(ssr_bits(w, 431, 428)) : 0, v;
	uint32_t sc = ok ? ssr_bits(w, 447, 440) : 0;
	const char *src = "sysfs ssr (the SD status)";

	devinfo_add_num(d, "sd_au_bytes", DI_BYTES, au ? &au : NULL, src);
	v = speed_class[sc < 5 ? sc : 0];
	devinfo_add_num(d, "sd_speed_class", DI_COUNT, ok && sc < 5 ? &v : NULL, src);
	v = ok ? ssr_bits(w, 399, 396) : 0;
	devinfo_add_num(d, "sd_uhs_speed_grade", DI_COUNT, ok ? &v : NULL, src);
	v = ok ? ssr_bits(w, 391, 384) : 0;
	devinfo_add_num(d, "sd_video_speed_class", DI_COUNT, ok ? &v : NULL, src);
	v = ok ? ssr_bits(w, 339, 336) : 0;
	devinfo_add_num(d, "sd_app_perf_class", DI_COUNT, ok ? &v : NULL, src);
}

/* "0x000003" as the number it is, keeping the text. */
static void hex_fact(struct devinfo *d, const char *dir, const char *attr, const char *name,
		     const char *src)
{
	char v[DI_TEXT_LEN];

	devinfo_add_text(d, name, sysfs_attr(dir, attr, v, sizeof(v)) == 0 && v[0] ? v : NULL,
			 src);
}

/*
 * The manufacturer of a CID manufacturer ID, as Linux names it in its MMC
 * quirk tables (drivers/mmc/core/card.h, CID_MANFID_*). The IDs are
 * assigned apart for SD cards (by the SD Association) and MMC/eMMC (by
 * JEDEC), so each is looked up in its own card type; no other ID is
 * guessed at.
 */
static const char *manufacturer(const char *type, const char *manfid)
{
	static const struct { const char *type; unsigned id; const char *name; } ids[] = {
		{ "SD", 0x03, "SanDisk" },	/* CID_MANFID_SANDISK_SD */
		{ "SD", 0x9f, "Kingston" },	/* CID_MANFID_KINGSTON_SD */
		{ "MMC", 0x02, "SanDisk" },	/* CID_MANFID_SANDISK */
		{ "MMC", 0x11, "Toshiba" },	/* CID_MANFID_TOSHIBA */
		{ "MMC", 0x13, "Micron" },	/* CID_MANFID_MICRON */
		{ "MMC", 0x15, "Samsung" },	/* CID_MANFID_SAMSUNG */
		{ "MMC", 0x70, "Kingston" },	/* CID_MANFID_KINGSTON */
		{ "MMC", 0x90, "Hynix" },	/* CID_MANFID_HYNIX */
		{ "MMC", 0xfe, "Numonyx (Micron)" },	/* CID_MANFID_NUMONYX */
	};
	char *end;
	unsigned long id;

	if (!manfid || !manfid[0])
		return NULL;
	id = strtoul(manfid, &end, 16);
	if (*end)
		return NULL;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (ids[i].id == id && strcmp(ids[i].type, type) == 0)
			return ids[i].name;
	return NULL;
}

bool devinfo_mmc(const char *dir, struct devinfo *d)
{
	static const char *const ids[][3] = {
		{ "name", "mmc_name", "sysfs name (CID)" },
		{ "manfid", "mmc_manfid", "sysfs manfid (CID)" },
		{ "oemid", "mmc_oemid", "sysfs oemid (CID)" },
		{ "date", "mmc_date", "sysfs date (CID)" },
		{ "serial", "mmc_serial", "sysfs serial (CID)" },
		{ "hwrev", "mmc_hwrev", "sysfs hwrev (CID)" },
		{ "fwrev", "mmc_fwrev", "sysfs fwrev (CID)" },
	};
	const struct di_fact *f;
	char type[32];
	uint64_t v;

	if (sysfs_attr(dir, "type", type, sizeof(type)) < 0 || !type[0])
		return false;
	devinfo_add_text(d, "mmc_type", type, "sysfs type");
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		hex_fact(d, dir, ids[i][0], ids[i][1], ids[i][2]);
		if (strcmp(ids[i][0], "manfid") == 0 && (f = devinfo_get(d, "mmc_manfid")))
			devinfo_add_text(d, "mmc_manufacturer",
					 manufacturer(type, f->known ? f->text : NULL),
					 "manfid, by the IDs of Linux's MMC quirk tables "
					 "(unknown: not among them)");
	}
	devinfo_add_num(d, "mmc_preferred_erase_size_bytes", DI_BYTES,
			sysfs_attr_u64(dir, "preferred_erase_size", &v) == 0 ? &v : NULL,
			"sysfs preferred_erase_size (the SD AU, else from the capacity)");
	devinfo_add_num(d, "mmc_erase_size_bytes", DI_BYTES,
			sysfs_attr_u64(dir, "erase_size", &v) == 0 ? &v : NULL,
			"sysfs erase_size (the erase group)");
	if (strcmp(type, "SD") == 0)
		sd_status(dir, d);
	/* eMMC 5.0 and later: the device's own wear estimate. */
	if (strcmp(type, "MMC") == 0) {
		hex_fact(d, dir, "life_time", "mmc_life_time", "sysfs life_time (EXT_CSD)");
		hex_fact(d, dir, "pre_eol_info", "mmc_pre_eol_info", "sysfs pre_eol_info (EXT_CSD)");
	}
	return true;
}
