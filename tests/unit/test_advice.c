/*
 * The advice of --advise (advice/advice.c), from verdict numbers of
 * known geometry: the layout's start and size are whole erase blocks
 * (also 3 x 2^n ones), the FAT-optimised area is left free, ext4's and
 * f2fs's numbers follow from the erase block, the page and the open-AU
 * count, the FAT data area lands on an erase-block boundary as mkfs.fat
 * computes it; uncertain verdicts are assumed (and said) or declined.
 */
#include <stdlib.h>

#include "unit.h"
#include "advice/advice.h"

#define KiB 1024ull
#define MiB (1024ull * 1024)
#define GiB (1024ull * MiB)

static struct adv a;

/* A card whose align verdict named erase and page, with open-AU bracket fast/slow. */
static struct adv_in card(uint64_t size, uint64_t erase, uint64_t page, unsigned fast,
			  unsigned slow)
{
	struct adv_in in;

	memset(&in, 0, sizeof(in));
	in.align = true;
	in.erase_state = VA_FOUND;
	in.erase = erase;
	in.page_state = page ? VA_FOUND : VA_NONE;
	in.page = page;
	if (fast || slow) {
		in.oa_runs[0] = 3;
		in.oa_fast[0] = fast;
		in.oa_slow[0] = slow;
	}
	in.size = size;
	in.sector = 512;
	return in;
}

static const struct adv_item *item(const char *name)
{
	for (size_t i = 0; i < a.nitems; i++)
		if (strcmp(a.item[i].name, name) == 0)
			return &a.item[i];
	return NULL;
}

static const char *result(const char *name)
{
	const struct adv_item *it = item(name);

	return it ? it->result : "(missing)";
}

/* Every line of advice has its why; every partition line is whole erase blocks. */
static void check_shape(uint64_t erase)
{
	for (size_t i = 0; i < a.nitems; i++)
		CHECK(a.item[i].name && a.item[i].result && strlen(a.item[i].text) > 10);
	for (size_t i = 0; i < a.nscript; i++) {
		unsigned long long s, n;
		const char *l = a.script[i];

		if (sscanf(l[0] == '#' ? l + 2 : l, "start=%llu, size=%llu", &s, &n) == 2) {
			CHECK(s * 512 % erase == 0);
			CHECK(n * 512 % erase == 0);
		}
	}
}

static void four_mib(void)
{
	struct adv_in in = card(4 * GiB, 4 * MiB, 16 * KiB, 5, 6);

	adv_plan(&in, &a);
	check_shape(4 * MiB);
	CHECK(a.erase == 4 * MiB && a.page == 16 * KiB);
	CHECK(a.start == 4 * MiB);
	CHECK(a.size == 4 * GiB - 4 * MiB);
	CHECK_STR(a.label, "dos");
	CHECK(a.nscript == 4);
	CHECK_STR(a.script[0], "label: dos");
	CHECK_STR(a.script[3], "start=8192, size=8380416, type=L");
	CHECK(a.ext4_stripe_width == 1024 && a.ext4_stride == 4);
	CHECK(a.f2fs_segs == 2);
	CHECK(a.f2fs_logs == 4);	/* 4 logs + metadata = 5 open */
	CHECK(a.fat_cluster == 16 * KiB);
	CHECK(a.fat_data % (4 * MiB) == 0);
	/* the formula mkfs.fat 4.2 gives for this partition (checked against it) */
	CHECK(a.fat_reserved == 4102 && a.fat_length == 2045);
	CHECK_STR(result("basis_erase_block"), "named");
	CHECK_STR(result("basis_open_aus"), "bracket");
	CHECK(item("basis_open_aus")->value == 5);
	CHECK_STR(result("basis_open_aus_random"), "not_measured");
	CHECK_STR(result("basis_fat_area"), "assumed_none");
	CHECK(strstr(item("ext4_command")->text, "-E stride=4,stripe_width=1024") != NULL);
	CHECK(strstr(item("f2fs_command")->text, "mkfs.f2fs -s 2 ") != NULL);
	CHECK(strstr(item("f2fs_command")->text, "active_logs=4") != NULL);
	CHECK(strstr(item("fat_command")->text, "-s 32 -R 4102 -a") != NULL);
	/* the script comes after the layout's reasons, before the file systems */
	CHECK(a.fs_from > 0 && strncmp(a.item[a.fs_from].name, "ext4", 4) == 0);
}

/* 3 x 2^n erase blocks: starts, sizes and sections in whole erase blocks. */
static void three(void)
{
	static const struct { uint64_t erase, start; unsigned segs, stripe; } want[] = {
		{ 3 * MiB, 3 * MiB, 3, 768 },
		{ 6 * MiB, 6 * MiB, 3, 1536 },
		{ 3 * MiB / 2, 3 * MiB / 2, 3, 384 },
		{ 12 * MiB, 12 * MiB, 6, 3072 },
		{ 768 * KiB, 3 * MiB / 2, 3, 192 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct adv_in in = card(6 * GiB, want[i].erase, 16 * KiB, 4, 5);

		adv_plan(&in, &a);
		check_shape(want[i].erase);
		CHECK(a.start == want[i].start);
		CHECK(a.size % want[i].erase == 0 && a.start + a.size <= 6 * GiB);
		CHECK(6 * GiB - a.start - a.size < want[i].erase);
		CHECK(a.f2fs_segs == want[i].segs);
		CHECK(a.ext4_stripe_width == want[i].stripe);
		CHECK(a.fat_data % want[i].erase == 0 && a.fat_data > 0);
		CHECK(strstr(item("partition_start")->text, "3 x 2^n") != NULL);
	}
}

/* The FAT-optimised area is left to FAT: the partition starts after it. */
static void fat_area(void)
{
	struct adv_in in = card(2 * GiB, 4 * MiB, 8 * KiB, 3, 4);

	in.fat = true;
	in.fat_state = FF_AREA;
	in.fat_area = 2;
	in.fat_random = true;
	adv_plan(&in, &a);
	check_shape(4 * MiB);
	CHECK(a.fat_aus == 2);
	CHECK(a.start == 8 * MiB);
	CHECK(a.fat_start == 4 * MiB && a.fat_len == 4 * MiB);
	CHECK_STR(a.script[3], "# start=8192, size=8192, type=c");
	CHECK_STR(a.script[4], "start=16384, size=4177920, type=L");
	CHECK(a.fat_cluster == 8 * KiB);
	CHECK(a.f2fs_logs == 2);	/* 3 open: 2 logs + metadata */
	CHECK(strstr(item("partition_start")->text, "FAT-optimised area") != NULL);
	/* one fast erase block: it holds the table already, nothing to leave */
	in.fat_area = 1;
	adv_plan(&in, &a);
	CHECK(a.start == 4 * MiB && a.fat_len == 0 && a.nscript == 4);
	/* uncertain or too short: none assumed, and said */
	in.fat_state = FF_UNCERTAIN;
	adv_plan(&in, &a);
	CHECK(a.start == 4 * MiB && a.fat_aus == 0);
	CHECK_STR(result("basis_fat_area"), "assumed_none");
	in.fat_state = FF_NONE;
	in.fat_random = false;
	adv_plan(&in, &a);
	CHECK(strstr(item("basis_fat_area")->text, "rarely") != NULL);
}

static void uncertain(void)
{
	struct adv_in in = card(4 * GiB, 0, 0, 0, 0);
	uint64_t e;
	char why[320];

	in.erase_state = VA_UNCERTAIN;
	in.cand[0] = 4 * MiB;
	in.cand[1] = 8 * MiB;
	adv_plan(&in, &a);
	CHECK(a.erase == 8 * MiB && a.start == 8 * MiB);
	CHECK_STR(result("basis_erase_block"), "assumed");
	CHECK(strstr(item("basis_erase_block")->text, "multiple of both") != NULL);
	/* no page: stride left out, the FAT cluster assumed */
	CHECK(a.ext4_stride == 0 && a.ext4_stripe_width == 2048);
	CHECK_STR(result("ext4_stride"), "declined");
	CHECK(a.fat_cluster == 32 * KiB);
	CHECK(strstr(item("fat_cluster")->text, "assumed") != NULL);
	/* 3 MiB or 4 MiB: 12 MiB is aligned to both */
	in.cand[0] = 3 * MiB;
	in.cand[1] = 4 * MiB;
	CHECK_STR(adv_erase(&in, &e, why, sizeof(why)), "assumed");
	CHECK(e == 12 * MiB);
	/* 2 MiB or 32 GiB: nothing sensible to assume: declined */
	in.cand[0] = 2 * MiB;
	in.cand[1] = 32 * GiB;
	adv_plan(&in, &a);
	CHECK(a.erase == 0 && a.nscript == 0 && a.ext4_stripe_width == 0);
	CHECK_STR(result("basis_erase_block"), "none");
	CHECK(item("partition_start") == NULL);
	/* no align verdict at all */
	in.align = false;
	adv_plan(&in, &a);
	CHECK(a.erase == 0 && strstr(item("basis_erase_block")->text, "no align verdict") != NULL);
	/* --erasesize given: taken, and a different verdict is said */
	in = card(4 * GiB, 8 * MiB, 16 * KiB, 0, 0);
	in.erase_given = 4 * MiB;
	adv_plan(&in, &a);
	CHECK(a.erase == 4 * MiB);
	CHECK_STR(result("basis_erase_block"), "given");
	CHECK(strstr(item("basis_erase_block")->text, "named 8MiB") != NULL);
}

static void open_aus(void)
{
	static const struct { unsigned fast, slow, logs; } want[] = {
		{ 1, 2, 2 }, { 2, 3, 2 }, { 3, 4, 2 }, { 4, 5, 2 }, { 5, 6, 4 }, { 6, 7, 4 },
		{ 7, 8, 6 }, { 16, 17, 6 }, { 12, 0, 6 }, { 0, 1, 2 },
	};
	struct adv_in in;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		in = card(4 * GiB, 4 * MiB, 16 * KiB, want[i].fast, want[i].slow);
		adv_plan(&in, &a);
		CHECK(a.f2fs_logs == want[i].logs);
		CHECK(a.open_aus == want[i].fast);
	}
	CHECK_STR(result("basis_open_aus"), "none");
	in = card(4 * GiB, 4 * MiB, 16 * KiB, 12, 0);
	adv_plan(&in, &a);
	CHECK_STR(result("basis_open_aus"), "at_least");
	/* runs that disagree: below the smallest slow one */
	in = card(4 * GiB, 4 * MiB, 16 * KiB, 9, 6);
	in.oa_contradicts[0] = true;
	adv_plan(&in, &a);
	CHECK(a.open_aus == 5 && a.f2fs_logs == 4);
	CHECK_STR(result("basis_open_aus"), "assumed");
	/* not measured: declined, and no active_logs in the command */
	in = card(4 * GiB, 4 * MiB, 16 * KiB, 0, 0);
	adv_plan(&in, &a);
	CHECK(a.f2fs_logs == 0);
	CHECK_STR(result("f2fs_active_logs"), "declined");
	CHECK(strstr(item("f2fs_command")->text, "active_logs") == NULL);
}

static void devices(void)
{
	struct adv_in in = card(0, 4 * MiB, 16 * KiB, 5, 6);

	/* --analyze: the size is not known: no size=, no FAT data area */
	in.sector = 0;
	adv_plan(&in, &a);
	CHECK(a.size == 0 && a.start == 4 * MiB);
	CHECK_STR(a.script[a.nscript - 1], "start=8192, type=L");
	CHECK_STR(result("partition_size"), "rest");
	CHECK_STR(result("fat_data_area"), "declined");
	CHECK_STR(result("sector"), "assumed");
	/* past 2 TiB: GPT, whose last 33 sectors stay free */
	in = card(3000 * GiB, 4 * MiB, 16 * KiB, 5, 6);
	adv_plan(&in, &a);
	CHECK_STR(a.label, "gpt");
	CHECK(a.start + a.size <= 3000 * GiB - 33 * 512);
	CHECK(a.size % (4 * MiB) == 0);
	/* too small for one erase block after the start */
	in = card(6 * MiB, 4 * MiB, 16 * KiB, 5, 6);
	adv_plan(&in, &a);
	CHECK(a.nscript == 0);
	CHECK_STR(result("partition_size"), "none");
	/* 64 MiB: clusters shrink until FAT32 has its 65525, or FAT32 is declined */
	in = card(64 * MiB, 4 * MiB, 16 * KiB, 5, 6);
	adv_plan(&in, &a);
	CHECK(a.fat_cluster == 0);
	CHECK_STR(result("fat"), "declined");
	in = card(1 * GiB, 4 * MiB, 16 * KiB, 5, 6);
	adv_plan(&in, &a);
	CHECK(a.fat_cluster == 8 * KiB);
	/* 4096-byte sectors */
	in = card(4 * GiB, 4 * MiB, 16 * KiB, 5, 6);
	in.sector = 4096;
	adv_plan(&in, &a);
	CHECK_STR(a.script[2], "sector-size: 4096");
	CHECK_STR(a.script[3], "start=1024, size=1047552, type=L");
	CHECK(a.fat_data % (4 * MiB) == 0);
	/* an erase block that is no whole number of sectors: no layout */
	in = card(4 * GiB, 4 * MiB + 512, 0, 0, 0);
	in.sector = 4096;
	adv_plan(&in, &a);
	CHECK(a.nscript == 0 && a.erase == 0);
}

/* The FAT length as mkfs.fat -a gives it (dosfstools 4.2, measured). */
static void fat_length(void)
{
	uint64_t cl;

	CHECK(adv_fat32_length(8380416, 32, 32, 512, &cl) == 2046);
	CHECK(adv_fat32_length(8380416, 2080, 32, 512, &cl) == 2045);
	CHECK(adv_fat32_length(8380416, 8000, 32, 512, &cl) == 2044);
	CHECK(cl > 0);
}

/* The facts as the print functions left them, into the advice's numbers. */
static void from_facts(void)
{
	struct vf_facts f;
	struct adv_in in;

	memset(&f, 0, sizeof(f));
	f.align = true;
	f.va.erase_state = VA_FOUND;
	f.va.erase = 6 * MiB;
	f.va.page_state = VA_FOUND;
	f.va.page = 16 * KiB;
	f.oa_runs[1] = 2;
	oa_bracket_add(&f.oa[1], 2, OA_FAST);
	oa_bracket_add(&f.oa[1], 3, OA_SLOW);
	f.fat = true;
	f.ff.state = FF_AREA;
	f.ff.area = 2;
	adv_from_facts(&f, 6 * GiB, 512, &in);
	CHECK(in.erase == 6 * MiB && in.page == 16 * KiB);
	CHECK(in.oa_runs[0] == 0 && in.oa_runs[1] == 2);
	CHECK(in.oa_fast[1] == 2 && in.oa_slow[1] == 3);
	CHECK(in.fat_area == 2 && in.size == 6 * GiB);
}

int main(void)
{
	four_mib();
	three();
	fat_area();
	uncertain();
	open_aus();
	devices();
	fat_length();
	from_facts();
	UNIT_DONE();
}
