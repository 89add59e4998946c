/*
 * --readahead: the plateau picking, the bytes per run, the option checks,
 * and agreement with the simulated card: the sweep's plateau on every
 * preset is where the model's documentation puts it (read_chunk).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/sysmacros.h>

#include "core/sysfs.h"
#include "modules/readahead.h"
#include "sim/sim_model.h"
#include "sim/sim_spec.h"
#include "verdicts/verdict_readahead.h"
#include "unit.h"

#define KiB 1024ull
#define MiB (1024ull * 1024)

static void plateau_picks(void)
{
	double flat[] = { 5, 5, 5 };
	double rising[] = { 10, 50, 90, 96, 100, 99 };
	double peak[] = { 10, 100, 80, 60 };
	double dip[] = { 97, 50, 100 };

	CHECK(ra_plateau(flat, 3, 5) == 0);
	CHECK(ra_plateau(rising, 6, 5) == 3);	/* 96 >= 95 */
	CHECK(ra_plateau(rising, 6, 3) == 4);	/* 96 < 97 */
	CHECK(ra_plateau(rising, 6, 0) == 4);	/* only the best itself */
	CHECK(ra_plateau(rising, 6, 50) == 1);
	CHECK(ra_plateau(peak, 4, 5) == 1);
	CHECK(ra_plateau(dip, 3, 5) == 0);	/* smallest within, even before a dip */
	CHECK(ra_plateau(dip, 0, 5) == 0);
	CHECK(ra_plateau(rising, 1, 5) == 0);
}

static void run_bytes(void)
{
	CHECK(ra_run_bytes(4096 * MiB, 8 * MiB, 0) == 64 * MiB);	/* capped */
	CHECK(ra_run_bytes(64 * MiB, 8 * MiB, 0) == 16 * MiB);		/* a quarter */
	CHECK(ra_run_bytes(20 * MiB, 8 * MiB, 0) == 8 * MiB);		/* at least max */
	CHECK(ra_run_bytes(100 * MiB, 1 * MiB, 0) == 25 * MiB);
	CHECK(ra_run_bytes(100 * MiB, 8 * MiB, 0) == 24 * MiB);	/* multiple of max */
	CHECK(ra_run_bytes(4 * MiB, 8 * MiB, 0) == 0);			/* does not fit */
	CHECK(ra_run_bytes(1024 * MiB, 8 * MiB, 100 * MiB) == 96 * MiB);
	CHECK(ra_run_bytes(50 * MiB, 8 * MiB, 100 * MiB) == 0);
}

static int check(uint64_t min, uint64_t max, uint64_t size, bool buffered)
{
	struct fb_opts o = { .size = size, .runs = 2 };
	char err[256];

	ra_opts = (struct ra_opts){ .min_size = min, .max_size = max, .buffered = buffered,
				    .plateau = 5 };
	return ra_check_opts(&o, err, sizeof(err));
}

static void option_checks(void)
{
	struct target t = { .sector = 4096, .path = "x" };
	struct fb_opts o = { .runs = 0 };
	char err[256] = "";

	CHECK(check(4 * KiB, 8 * MiB, 0, false) == 0);
	CHECK(check(8 * MiB, 4 * KiB, 0, false) < 0);	/* min > max */
	CHECK(check(3000, 8 * MiB, 0, false) < 0);
	CHECK(check(4 * KiB, 12 * MiB, 0, false) < 0);
	CHECK(check(4 * KiB, 8 * MiB, 4 * MiB, false) < 0);	/* size < max */
	CHECK(check(4 * KiB, 8 * MiB, 8 * MiB, false) == 0);
	CHECK(check(4 * KiB, 8 * MiB, 0, true) == 0);
	ra_opts.min_size = 2048;
	CHECK(ra_check_target(&o, &t, err, sizeof(err)) < 0);	/* below the sector */
	CHECK(strstr(err, "4096-byte sector") != NULL);
	ra_opts.min_size = 4096;
	CHECK(ra_check_target(&o, &t, err, sizeof(err)) == 0);
	t.sim = true;
	ra_opts.buffered = true;
	CHECK(ra_check_target(&o, &t, err, sizeof(err)) < 0);	/* no readahead on sim: */
}

/* A file system without a block device (tmpfs: 0:N) gets a clear error. */
static void no_disk(void)
{
	char node[64], err[512] = "";

	CHECK(sysfs_disk_node(makedev(0, 4095), node, sizeof(node), err, sizeof(err)) == -ENODEV);
	CHECK(strstr(err, "device 0:4095 is not a block device") != NULL);
}

/* Bytes/s of sequential reads of size over [0, bytes) on the model. */
static double sim_rate(const struct sim_params *p, uint64_t size, uint64_t bytes)
{
	uint64_t ns = 0;

	for (uint64_t off = 0; off < bytes; off += size)
		ns += sim_read_cost(p, off, size);
	return (double)bytes * 1e9 / (double)ns;
}

/* The model's plateau, found by the sweep's own rule, is read_chunk. */
static void sim_presets(void)
{
	static const char *const names[] = { "sd", "usb", "fat", "tlc", "ssd", "smr" };

	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		const struct sim_params *p = sim_preset(names[k]);
		double rate[RA_MAX_SIZES];
		uint64_t size[RA_MAX_SIZES];
		static struct sr_table t;
		struct vr_result v;
		size_t n = 0;

		CHECK(p != NULL);
		if (!p)
			continue;
		for (uint64_t s = 4 * KiB; s <= 8 * MiB; s *= 2, n++) {
			size[n] = s;
			rate[n] = sim_rate(p, s, 16 * MiB);
		}
		CHECK(size[ra_plateau(rate, n, 5)] == p->read_chunk);
		/* and by the live rule (one run, no noise: 1%) */
		sr_init(&t);
		t.runs = 1;
		for (size_t i = 0; i < n; i++, t.n++) {
			t.size[i] = size[i];
			t.rate[i][0] = rate[i];
		}
		vr_judge(&t, 0, &v);
		CHECK(v.judged && !v.disagree && size[v.at] == p->read_chunk);
	}
}

int main(void)
{
	plateau_picks();
	run_bytes();
	option_checks();
	no_disk();
	sim_presets();
	UNIT_DONE();
}
