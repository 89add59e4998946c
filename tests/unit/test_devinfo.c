/*
 * The device facts: an MMC/SD card's registers and a disk's queue read
 * from sysfs trees (tests/fixtures/sysfs), the SD status decoded, the
 * stated erase size and discard; a fact that is not there is "unknown".
 */
#include <stdlib.h>
#include <unistd.h>

#include "core/devinfo.h"
#include "unit.h"

#define FIX "tests/fixtures/sysfs/"

static const char *text(const struct devinfo *d, const char *name)
{
	const struct di_fact *f = devinfo_get(d, name);

	return f ? f->text : "(not looked for)";
}

static uint64_t num(const struct devinfo *d, const char *name)
{
	const struct di_fact *f = devinfo_get(d, name);

	return f && f->known ? f->num : 0xdead;
}

static void sd_card(struct devinfo *d)
{
	const struct di_fact *from = NULL;
	uint64_t e = 0;

	d->n = 0;
	CHECK(devinfo_mmc(FIX "sd", d));
	CHECK_STR(text(d, "mmc_type"), "SD");
	CHECK_STR(text(d, "mmc_name"), "SC16G");
	CHECK_STR(text(d, "mmc_manfid"), "0x000003");
	CHECK_STR(text(d, "mmc_oemid"), "0x5344");
	CHECK_STR(text(d, "mmc_date"), "05/2019");
	CHECK_STR(text(d, "mmc_serial"), "0x1234abcd");
	CHECK(num(d, "mmc_preferred_erase_size_bytes") == 4194304);
	CHECK(num(d, "mmc_erase_size_bytes") == 512);
	CHECK(num(d, "sd_au_bytes") == 4194304);
	CHECK(num(d, "sd_speed_class") == 10);
	CHECK(num(d, "sd_uhs_speed_grade") == 1);
	CHECK(num(d, "sd_video_speed_class") == 10);
	CHECK(num(d, "sd_app_perf_class") == 1);
	/* SD cards have no EXT_CSD: not looked for, rather than unknown. */
	CHECK(devinfo_get(d, "mmc_life_time") == NULL);
	CHECK(devinfo_stated_erase(d, &e, &from) && e == 4194304);
	CHECK(from && strcmp(from->name, "sd_au_bytes") == 0);
	CHECK(devinfo_discard(d) == -1);
}

static void sdxc_card(struct devinfo *d)
{
	d->n = 0;
	CHECK(devinfo_mmc(FIX "sdxc", d));
	CHECK(num(d, "sd_au_bytes") == 24ull << 20);
	CHECK(num(d, "sd_uhs_speed_grade") == 3);
	CHECK(num(d, "sd_video_speed_class") == 30);
	CHECK(num(d, "sd_app_perf_class") == 2);
}

/* The SD status was not read: the AU is unknown, and the kernel's own figure is no statement. */
static void sd_without_status(struct devinfo *d)
{
	const struct di_fact *from = NULL;
	uint64_t e = 0;

	d->n = 0;
	CHECK(devinfo_mmc(FIX "sd-nossr", d));
	CHECK_STR(text(d, "sd_au_bytes"), "unknown");
	CHECK_STR(text(d, "sd_speed_class"), "unknown");
	CHECK(!devinfo_stated_erase(d, &e, &from));
}

static void emmc(struct devinfo *d)
{
	const struct di_fact *from = NULL;
	uint64_t e = 0;

	d->n = 0;
	CHECK(devinfo_mmc(FIX "emmc", d));
	CHECK_STR(text(d, "mmc_type"), "MMC");
	CHECK(num(d, "mmc_erase_size_bytes") == 524288);
	CHECK_STR(text(d, "mmc_life_time"), "0x01 0x02");
	CHECK_STR(text(d, "mmc_pre_eol_info"), "0x01");
	CHECK(devinfo_get(d, "sd_au_bytes") == NULL);
	/* An eMMC states its erase group (EXT_CSD), not an AU. */
	CHECK(devinfo_stated_erase(d, &e, &from) && e == 524288);
	CHECK(from && strcmp(from->name, "mmc_erase_size_bytes") == 0);
}

static void queues(struct devinfo *d)
{
	d->n = 0;
	devinfo_queue(FIX "zoned", d);
	CHECK_STR(text(d, "zoned"), "host-managed");
	CHECK(num(d, "zone_size_bytes") == 256ull << 20);
	CHECK(num(d, "zone_count") == 55880);
	CHECK(devinfo_discard(d) == 0);
	CHECK_STR(text(d, "discard"), "no");
	CHECK_STR(text(d, "scheduler"), "mq-deadline");
	CHECK_STR(text(d, "rotational"), "yes");
	CHECK(num(d, "max_request_bytes") == 1280 * 1024);
	d->n = 0;
	devinfo_queue(FIX "striped", d);
	/* chunk_sectors is a stripe here: no zones. */
	CHECK(num(d, "zone_size_bytes") == 0);
	CHECK(devinfo_discard(d) == 1);
	CHECK(num(d, "discard_granularity_bytes") == 524288);
	CHECK(num(d, "discard_max_bytes") == 2147450880);
	CHECK_STR(text(d, "removable"), "yes");
	CHECK_STR(text(d, "scheduler"), "none");
	CHECK_STR(text(d, "write_cache"), "write through");
	/* Nothing there at all: every fact is listed, and unknown. */
	d->n = 0;
	devinfo_queue(FIX "no-such-disk", d);
	CHECK(d->n >= 10);
	for (size_t i = 0; i < d->n; i++)
		CHECK(!d->f[i].known && strcmp(d->f[i].text, "unknown") == 0);
	CHECK(devinfo_discard(d) == -1);
	CHECK(!devinfo_mmc(FIX "zoned", d));	/* no "type": not a card */
}

/* A full list drops what does not fit, and stays usable. */
static void full(struct devinfo *d)
{
	uint64_t v = 1;

	d->n = 0;
	for (int i = 0; i < DI_MAX_FACTS + 5; i++)
		devinfo_add_num(d, "x_bytes", DI_BYTES, &v, "test");
	CHECK(d->n == DI_MAX_FACTS);
	devinfo_add_text(d, "long", "a string longer than the fact's buffer would be cut, not overflow",
			 "test");
	CHECK(d->n == DI_MAX_FACTS);
}

/* A card of this type and manfid in a sysfs tree of its own: its manufacturer. */
static const char *maker(struct devinfo *d, const char *type, const char *manfid)
{
	char dir[] = "/tmp/fb-devinfo-XXXXXX", path[64];
	FILE *f;

	d->n = 0;
	if (!mkdtemp(dir))
		return "(no temporary directory)";
	snprintf(path, sizeof(path), "%s/type", dir);
	if ((f = fopen(path, "w"))) {
		fprintf(f, "%s\n", type);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/manfid", dir);
	if (manfid && (f = fopen(path, "w"))) {
		fprintf(f, "%s\n", manfid);
		fclose(f);
	}
	CHECK(devinfo_mmc(dir, d));
	unlink(path);
	snprintf(path, sizeof(path), "%s/type", dir);
	unlink(path);
	rmdir(dir);
	return text(d, "mmc_manufacturer");
}

/* The CID manufacturer ID named where Linux's MMC quirk tables name it (issue 22). */
static void manufacturers(struct devinfo *d)
{
	d->n = 0;
	CHECK(devinfo_mmc(FIX "sd", d));
	CHECK_STR(text(d, "mmc_manufacturer"), "SanDisk");	/* 0x000003 */
	d->n = 0;
	CHECK(devinfo_mmc(FIX "emmc", d));
	CHECK_STR(text(d, "mmc_manufacturer"), "unknown");	/* 0x000045: not in the tables */
	d->n = 0;
	CHECK(devinfo_mmc(FIX "sd-nossr", d));
	CHECK_STR(text(d, "mmc_manufacturer"), "unknown");	/* 0x000000 */
	CHECK_STR(maker(d, "MMC", "0x000015"), "Samsung");
	CHECK_STR(maker(d, "MMC", "0x000090"), "Hynix");
	CHECK_STR(maker(d, "MMC", "0x0000fe"), "Numonyx (Micron)");
	CHECK_STR(maker(d, "SD", "0x00009f"), "Kingston");
	/* the ID spaces of SD and MMC are apart: 0x15 of an SD card is not Samsung's */
	CHECK_STR(maker(d, "SD", "0x000015"), "unknown");
	CHECK_STR(maker(d, "MMC", "0x000003"), "unknown");
	CHECK_STR(maker(d, "SD", "0x00zz"), "unknown");
	CHECK_STR(maker(d, "SD", NULL), "unknown");	/* no manfid at all */
}

int main(void)
{
	struct devinfo *d = calloc(1, sizeof(*d));

	sd_card(d);
	sdxc_card(d);
	sd_without_status(d);
	emmc(d);
	manufacturers(d);
	queues(d);
	full(d);
	free(d);
	UNIT_DONE();
}
