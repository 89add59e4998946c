/*
 * The write regions of each test, their merging, the engine's guard
 * against writes outside them, the backup checksum, and the checks of
 * safety.c that need no root.
 */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "core/engine.h"
#include "safety/preserve.h"
#include "core/regions.h"
#include "run/run.h"
#include "safety/safety.h"
#include "modules/test.h"
#include "unit.h"

#define MiB (1024ull * 1024)

extern const struct fb_test test_open_au, test_find_fat;

static void defaults(struct fb_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->erasesize = 4 * MiB;
	o->blocksize = 16 * 1024;
	o->offset = 16 * MiB;
	fb_tests_defaults();	/* --open-au-nr 2, --fat-nr 6 */
}

/* Set a test's own whole-number option, as the command line would. */
static void setu(const char *name, unsigned v)
{
	*(unsigned *)fb_option_find(name)->var = v;
}

static void test_lists(void)
{
	struct fb_opts o;
	struct region *r;
	uint64_t end;
	size_t n;

	defaults(&o);
	CHECK(run_regions(&o, "x", UINT64_MAX, &r, &n) == FB_OK && n == 0 && !r);	/* read-only */
	fb_test_select(&o, &test_open_au);
	CHECK(run_regions(&o, "x", UINT64_MAX, &r, &n) == FB_OK && n == 2);
	CHECK(r[0].off == 16 * MiB && r[0].len == 4 * MiB);
	CHECK(r[1].off == 64 * MiB && r[1].len == 4 * MiB);	/* 12 erase blocks apart */
	free(r);
	fb_test_select(&o, &test_find_fat);	/* 0..24M swallows the first open-au block */
	CHECK(run_regions(&o, "x", UINT64_MAX, &r, &n) == FB_OK && n == 2);
	CHECK(r[0].off == 0 && r[0].len == 24 * MiB);
	CHECK(r[1].off == 64 * MiB);
	CHECK(regions_bytes(r, 2) == 28 * MiB && regions_end(r, 2) == 68 * MiB);
	free(r);
	setu("open-au-nr", 20);
	CHECK(test_open_au.regions(&o, UINT64_MAX, NULL, 0, &end) == 20);	/* counts, fills none */
	CHECK(run_regions(&o, "x", UINT64_MAX, &r, &n) == FB_OK && n == 20);
	free(r);
	o.offset_set = true;
	o.offset = 0;
	CHECK(test_find_fat.regions(&o, UINT64_MAX, r, 0, &end) == 1 && end == 24 * MiB);
}

static void test_past_end(void)
{
	struct fb_opts o;
	struct region *r, one[1];
	uint64_t end = 0;
	size_t n;

	defaults(&o);
	fb_test_select(&o, &test_open_au);
	fb_test_select(&o, &test_find_fat);
	CHECK(run_regions(&o, "x", 68 * MiB, &r, &n) == FB_OK && n == 2);
	free(r);
	CHECK(run_regions(&o, "x", 68 * MiB - 1, &r, &n) == FB_EUSAGE && n == 0 && !r);
	test_open_au.regions(&o, 0, NULL, 0, &end);
	CHECK(end == 68 * MiB);
	test_find_fat.regions(&o, 0, NULL, 0, &end);
	CHECK(end == 24 * MiB);
	/* An offset near 2^64: the end wraps, and must not look small. */
	o.offset = UINT64_MAX - MiB + 1;
	test_open_au.regions(&o, 0, NULL, 0, &end);
	CHECK(end == UINT64_MAX);
	/* 4096 erase blocks of 4096 TiB are 2^64 bytes: the length wraps to 0. */
	o.offset_set = false;
	setu("fat-nr", 4096);
	o.erasesize = 1ull << 52;
	test_find_fat.regions(&o, 0, one, 1, &end);
	CHECK(end == UINT64_MAX);
	o.tests = 0;
	fb_test_select(&o, &test_find_fat);
	CHECK(run_regions(&o, "x", 4096 * MiB, &r, &n) == FB_EUSAGE);
	/* Spacing 12 x 2^52 wraps at the 342nd erase block, which would land at 0. */
	o.offset = 0;
	setu("open-au-nr", 1024);
	test_open_au.regions(&o, 0, NULL, 0, &end);
	CHECK(end == UINT64_MAX);
	setu("open-au-nr", 1);
	test_open_au.regions(&o, 0, NULL, 0, &end);
	CHECK(end == 1ull << 52);
}

static void test_merge(void)
{
	struct region r[] = { { 30, 10 }, { 0, 10 }, { 10, 5 }, { 35, 20 }, { 100, 1 } };

	CHECK(regions_merge(r, 5) == 3);
	CHECK(r[0].off == 0 && r[0].len == 15);
	CHECK(r[1].off == 30 && r[1].len == 25);
	CHECK(r[2].off == 100 && r[2].len == 1);
}

static void test_guard(void)
{
	struct region r[] = { { 64 * MiB, MiB }, { 16 * MiB, MiB } };
	char err[256];
	struct target *t;
	uint64_t ns;
	void *buf;

	CHECK(regions_allowed(0, 1));	/* unarmed: unit tests drive modules directly */
	CHECK(regions_arm(r, 2) == 0);
	CHECK(regions_allowed(16 * MiB, MiB));
	CHECK(regions_allowed(64 * MiB + 4096, 4096));
	CHECK(!regions_allowed(16 * MiB - 512, 1024));	/* straddles the start */
	CHECK(!regions_allowed(17 * MiB - 512, 1024));	/* straddles the end */
	CHECK(!regions_allowed(32 * MiB, 512));
	CHECK(!regions_allowed(UINT64_MAX - 10, 100));	/* wraps */
	CHECK(target_open("sim:size=128M", TGT_WRITE, &t, err, sizeof(err)) == 0);
	buf = eng_buffer(t, 65536);
	CHECK(eng_write(t, buf, 65536, 16 * MiB, &ns) == FB_OK);
	CHECK(eng_write(t, buf, 65536, 32 * MiB, &ns) == FB_EDEV);
	CHECK(regions_arm(NULL, 0) == 0);	/* a read-only run: no write at all */
	CHECK(eng_write(t, buf, 65536, 16 * MiB, &ns) == FB_EDEV);
	regions_disarm();
	CHECK(eng_write(t, buf, 65536, 32 * MiB, &ns) == FB_OK);
	eng_buffer_free(buf);
	target_close(t);
}

static void test_names(void)
{
	char buf[256], *p;

	/* FNV-1a 64 test vectors. */
	CHECK(fnv1a64(FNV64_INIT, "", 0) == 0xcbf29ce484222325ull);
	CHECK(fnv1a64(FNV64_INIT, "a", 1) == 0xaf63dc4c8601ec8cull);
	CHECK(fnv1a64(FNV64_INIT, "foobar", 6) == 0x85944171f73967e8ull);
	preserve_default_name("/dev/sdd", buf, sizeof(buf));
	CHECK(strncmp(buf, "flashbench-sdd-", 15) == 0 && strlen(buf) == 15 + 15 + 7);
	CHECK(strcmp(buf + strlen(buf) - 7, ".backup") == 0);
	preserve_default_name("sim:size=1M,image=/a/b", buf, sizeof(buf));
	p = buf + 11;
	CHECK(strncmp(p, "sim_size_1M_image__a_b-", 23) == 0);
	safety_identity("sim:", buf, sizeof(buf));
	CHECK_STR(buf, "simulated card");
	safety_identity("tests/unit/unit.h", buf, sizeof(buf));
	CHECK_STR(buf, "file");
}

/* The block device node whose number is dev, or NULL (overlay, tmpfs). */
static const char *node_of(dev_t dev, char *buf, size_t len)
{
	struct dirent *e;
	struct stat st;
	DIR *d = opendir("/dev");

	while (d && (e = readdir(d))) {
		snprintf(buf, len, "/dev/%s", e->d_name);
		if (stat(buf, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == dev) {
			closedir(d);
			return buf;
		}
	}
	if (d)
		closedir(d);
	return NULL;
}

static void test_backup_place(void)
{
	char node[300];
	struct stat st;

	CHECK(safety_check_writable("sim:") == FB_OK);
	CHECK(safety_check_writable("tests/unit/unit.h") == FB_OK);
	CHECK(safety_check_backup("tests/unit/x.backup", "tests/unit/unit.h", 4096) == FB_OK);
	CHECK(safety_check_backup("tests/unit/x.backup", "tests/unit/unit.h", UINT64_MAX / 2) == FB_ESAFETY);
	CHECK(safety_check_backup("tests/unit/unit.h", "sim:", 1) == FB_ESAFETY);	/* exists */
	/* A backup that cannot be placed is a refusal, whatever the reason. */
	CHECK(safety_check_backup("tests/no/such/x", "sim:", 1) == FB_ESAFETY);
	/* Only looks: the device holding this directory is never opened. */
	if (stat("tests/unit", &st) == 0 && node_of(st.st_dev, node, sizeof(node)))
		CHECK(safety_check_backup("tests/unit/x.backup", node, 1) == FB_ESAFETY);
}

int main(void)
{
	test_lists();
	test_merge();
	test_past_end();
	test_guard();
	test_names();
	test_backup_place();
	UNIT_DONE();
}
