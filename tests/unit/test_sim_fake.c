/*
 * The simulated card's fake and zoned cards: a full cache that folds
 * (cache-flush), a card that keeps fewer bytes than it claims (wrap), one
 * that loses writes (drop-from), and host-managed zones (zoned=1).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/engine.h"
#include "core/opts.h"
#include "core/regions.h"
#include "core/target.h"
#include "sim/sim_model.h"
#include "sim/sim_spec.h"
#include "sim/sim_zones.h"
#include "unit.h"

#define M (1024ull * 1024)

static char err[256];

static struct target *open_card(const char *spec, int flags)
{
	struct target *t = NULL;

	if (target_sim_open(spec, flags, &t, err, sizeof(err)) != 0)
		printf("cannot open sim:%s: %s\n", spec, err);
	return t;
}

/* cache-flush: a full cache folds cache-flush bytes at copy-bw, then takes the write. */
static void cache_fold(void)
{
	struct sim_params p = *sim_preset("smr");
	struct sim_card c;
	uint64_t t, fast;

	p.cache = 8 * M;
	p.cache_flush = 4 * M;
	sim_card_init(&c, &p);
	fast = sim_write(&c, 0, M);
	CHECK(fast == p.write_lat + sim_xfer_ns(M, p.cache_bw));
	for (int i = 1; i < 8; i++)
		CHECK(sim_write(&c, (uint64_t)i * M, M) == fast);
	CHECK(c.cache_used == 8 * M && c.n.folds == 0);
	/* the ninth does not fit: 4 MiB folded first */
	t = sim_write(&c, 8 * M, M);
	CHECK(t == fast + sim_xfer_ns(4 * M, p.copy_bw));
	CHECK(c.n.folds == 1 && c.n.folded == 4 * M && c.cache_used == 5 * M);
	/* then three more fit, and the fourth folds again */
	for (int i = 9; i < 12; i++)
		CHECK(sim_write(&c, (uint64_t)i * M, M) == fast);
	CHECK(sim_write(&c, 12 * M, M) > fast && c.n.folds == 2);
	/* a request larger than the whole cache goes to the bands, folding nothing */
	CHECK(sim_write(&c, 32 * M, 16 * M) > 0 && c.n.folds == 2);
	sim_card_free(&c);
	/* without cache-flush a full cache stays full: no fold, writes go to the AUs */
	p.cache_flush = 0;
	sim_card_init(&c, &p);
	for (int i = 0; i < 9; i++)
		sim_write(&c, (uint64_t)i * M, M);
	CHECK(c.n.folds == 0 && c.cache_used == 8 * M && c.n.cached == 8 * M);
	sim_card_free(&c);
}

static void image_spec(char *spec, size_t len, const char *keys, char *path)
{
	int fd = mkstemp(path);

	close(fd);
	unlink(path);
	snprintf(spec, len, "%s,image=%s", keys, path);
}

/* wrap=SIZE: what is written at o lands on o % SIZE. */
static void wrap(void)
{
	char path[] = "/tmp/test_sim_fake_XXXXXX", spec[256];
	static unsigned char a[M], b[M];
	struct target *t;
	struct stat st;
	uint64_t ns;

	image_spec(spec, sizeof(spec), "size=64M,erase=1M,wrap=16M", path);
	t = open_card(spec, TGT_WRITE);
	CHECK(t && t->size == 64 * M && !t->data_discarded);
	if (!t)
		return;
	memset(a, 1, M);
	CHECK(target_write(t, a, M, 0, &ns) == 0);
	memset(a, 2, M);
	CHECK(target_write(t, a, M, 16 * M, &ns) == 0);
	CHECK(target_read(t, b, M, 0, &ns) == 0 && b[0] == 2 && b[M - 1] == 2);
	CHECK(target_read(t, b, M, 32 * M, &ns) == 0 && b[0] == 2);
	/* a request across the real end comes in two pieces */
	memset(a, 3, M);
	CHECK(target_write(t, a, M, 16 * M - 512 * 1024, &ns) == 0);
	CHECK(target_read(t, b, M, 0, &ns) == 0 && b[0] == 3 && b[512 * 1024 - 1] == 3 &&
	      b[512 * 1024] == 2);
	CHECK(stat(path, &st) == 0 && (uint64_t)st.st_size == 16 * M);
	t->ops->close(t);
	unlink(path);
}

/* drop-from=OFFSET: writes from there on are acknowledged and lost. */
static void drop(void)
{
	char path[] = "/tmp/test_sim_fake_XXXXXX", spec[256];
	static unsigned char a[M], b[M];
	struct target *t;
	uint64_t ns;

	image_spec(spec, sizeof(spec), "size=64M,erase=1M,drop-from=32M", path);
	t = open_card(spec, TGT_WRITE);
	if (!t)
		return;
	memset(a, 7, M);
	CHECK(target_write(t, a, M, 32 * M - 512 * 1024, &ns) == 0 && ns > 0);
	CHECK(target_write(t, a, M, 40 * M, &ns) == 0 && ns > 0);
	CHECK(target_read(t, b, M, 32 * M - 512 * 1024, &ns) == 0);
	CHECK(b[0] == 7 && b[512 * 1024 - 1] == 7 && b[512 * 1024] == 0 && b[M - 1] == 0);
	CHECK(target_read(t, b, M, 40 * M, &ns) == 0 && b[0] == 0 && b[M - 1] == 0);
	t->ops->close(t);
	unlink(path);
	/* without an image the card keeps no data */
	t = open_card("size=64M,erase=1M", 0);
	CHECK(t && t->data_discarded);
	if (t)
		t->ops->close(t);
}

/* zoned=1: zones full at first, written at their write pointer only, after a reset. */
static void zones(void)
{
	char path[] = "/tmp/test_sim_fake_XXXXXX", spec[256];
	static unsigned char a[2 * M], b[2 * M];
	struct target_zone z[8];
	struct target *t;
	size_t n = 0;
	uint64_t ns;

	image_spec(spec, sizeof(spec), "size=10M,erase=4M,zoned=1,conv-zones=1", path);
	memset(a, 9, sizeof(a));
	t = open_card(spec, TGT_WRITE);
	CHECK(t && t->zone_size == 4 * M && t->ops->report_zones && t->ops->reset_zones);
	if (!t)
		return;
	CHECK(t->ops->report_zones(t, 0, z, 8, &n) == 0 && n == 3);
	CHECK(z[0].type == ZONE_CONVENTIONAL && !z[0].full && z[0].len == 4 * M);
	CHECK(z[1].type == ZONE_SEQ_REQUIRED && z[1].full && z[1].wp == 8 * M);
	CHECK(z[2].start == 8 * M && z[2].len == 2 * M && z[2].cap == 2 * M && z[2].full);
	CHECK(t->ops->report_zones(t, 9 * M, z, 8, &n) == 0 && n == 1 && z[0].start == 8 * M);
	memset(a, 9, M);
	/* conventional: anywhere; a full zone: nowhere */
	CHECK(target_write(t, a, M, 2 * M, &ns) == 0);
	CHECK(target_write(t, a, M, 4 * M, &ns) == -EIO);
	/* resets: whole sequential zones only */
	CHECK(t->ops->reset_zones(t, 0, 4 * M) == -EINVAL);
	CHECK(t->ops->reset_zones(t, 4 * M, 2 * M) == -EINVAL);
	CHECK(t->ops->reset_zones(t, 4 * M, 6 * M) == 0);
	CHECK(t->ops->report_zones(t, 4 * M, z, 8, &n) == 0 && n == 2 && z[0].wp == 4 * M &&
	      !z[0].full);
	/* at the write pointer only, which moves; across a zone end into the next one's */
	CHECK(target_write(t, a, M, 5 * M, &ns) == -EIO);
	CHECK(target_write(t, a, M, 4 * M, &ns) == 0);
	CHECK(target_write(t, a, M, 4 * M, &ns) == -EIO);
	CHECK(target_write(t, a, 2 * M, 5 * M, &ns) == 0);
	CHECK(target_write(t, a, 2 * M, 7 * M, &ns) == 0);
	CHECK(t->ops->report_zones(t, 0, z, 8, &n) == 0 && z[1].full && z[2].wp == 9 * M);
	/* past the write pointer reads zeros */
	CHECK(target_read(t, b, 2 * M, 8 * M, &ns) == 0 && b[0] == 9 && b[M - 1] == 9 &&
	      b[M] == 0 && b[2 * M - 1] == 0);
	/* through the engine: the guard refuses a reset outside the announced regions */
	{
		struct region rg = { 4 * M, 4 * M };
		struct target_zone zz[4];
		size_t nz = 0;

		CHECK(regions_arm(&rg, 1) == 0);
		CHECK(eng_reset_zones(t, 8 * M, 2 * M) == FB_EDEV);
		CHECK(t->ops->report_zones(t, 8 * M, zz, 4, &nz) == 0 && nz == 1 && zz[0].wp == 9 * M);
		CHECK(eng_reset_zones(t, 4 * M, 4 * M) == FB_OK);
		CHECK(eng_report_zones(t, 4 * M, zz, 4, &nz) == FB_OK && nz == 2 && zz[0].wp == 4 * M);
		regions_disarm();
	}
	t->ops->close(t);
	unlink(path);
	/* a card without zones has no zone operations */
	t = open_card("sd", 0);
	CHECK(t && t->zone_size == 0 && !t->ops->report_zones && !t->ops->reset_zones);
	if (t)
		t->ops->close(t);
}

static void spec_errors(void)
{
	static struct sim_spec s;
	static const struct {
		const char *spec, *msg;
	} bad[] = {
		{ "wrap=1000", "sim: wrap (1000) is not a multiple of 512" },
		{ "drop-from=8G", "sim: drop-from (8GiB) lies beyond the end of the card (4GiB)" },
		{ "conv-zones=2", "sim: conv-zones (2) needs zoned=1" },
		{ "size=8M,erase=4M,zoned=1,conv-zones=3", "sim: conv-zones (3) exceeds the card's 2 zones" },
		{ "zoned=2", "sim: bad value for zoned: '2'" },
	};
	char a[1024], b[1024];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(sim_spec_parse(bad[i].spec, &s, err, sizeof(err)) < 0);
		CHECK_STR(err, bad[i].msg);
	}
	CHECK(sim_spec_parse("smr,wrap=2G,drop-from=1G,zoned=1,conv-zones=4,cache-flush=256M", &s,
			     err, sizeof(err)) == 0);
	CHECK(s.p.wrap == 2048 * M && s.p.drop_from == 1024 * M && s.p.zoned == 1 &&
	      s.p.conv_zones == 4 && s.p.cache_flush == 256 * M);
	/* and they print back */
	sim_params_format(&s.p, a, sizeof(a));
	CHECK(strstr(a, "wrap=2GiB,drop-from=1GiB,zoned=1,conv-zones=4") != NULL);
	CHECK(strstr(a, "cache-flush=256MiB") != NULL);
	CHECK(sim_spec_parse(a, &s, err, sizeof(err)) == 0);
	CHECK_STR(sim_params_format(&s.p, b, sizeof(b)), a);
}

int main(void)
{
	cache_fold();
	wrap();
	drop();
	zones();
	spec_errors();
	UNIT_DONE();
}
