/* The LFSR order visits every index exactly once; statistics helpers; the
 * guard on discards; the write totals; large buffers on huge-page bounds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/engine.h"
#include "core/opts.h"
#include "core/regions.h"
#include "core/stats.h"
#include "unit.h"

/* A discard is a write: only inside the announced regions; the totals count writes. */
static void discard_and_totals(void)
{
	struct region r = { 4 << 20, 4 << 20 };
	struct target *t;
	char err[256];
	uint64_t b0, n0, b1, n1, ns;
	void *buf;

	if (target_open("sim:size=64M", TGT_WRITE, &t, err, sizeof(err)) != 0) {
		CHECK(0);
		return;
	}
	buf = eng_buffer(t, 65536);
	CHECK(regions_arm(&r, 1) == 0);
	CHECK(eng_discard(t, 4 << 20, 4 << 20) == FB_OK);
	CHECK(eng_discard(t, 0, 4096) == FB_EDEV);
	CHECK(eng_discard(t, (8 << 20) - 4096, 8192) == FB_EDEV);
	CHECK(strstr(eng_last_error() ? eng_last_error() : "", "discard") == NULL);
	eng_write_totals(&b0, &n0);
	CHECK(eng_write(t, buf, 65536, 4 << 20, &ns) == FB_OK);
	eng_write_totals(&b1, &n1);
	CHECK(b1 - b0 == 65536 && n1 - n0 == ns && ns > 0);
	CHECK(eng_read(t, buf, 65536, 0, &ns) == FB_OK);
	eng_write_totals(&b0, &n0);
	CHECK(b0 == b1 && n0 == n1);	/* reads are not writes */
	/* a device error names the discard, its offset and length */
	CHECK(eng_discard(t, 4 << 20, 100) == FB_EDEV);
	CHECK(eng_last_error() && strstr(eng_last_error(), "discard at offset 4194304, length 100"));
	regions_disarm();
	eng_buffer_free(buf);
	target_close(t);
}

/*
 * A real target's large buffers start on a 2 MiB bound (a transparent
 * huge page: one segment per request, see eng_buffer), filled to the end;
 * small ones keep the page alignment.
 */
static void huge_buffers(void)
{
	char path[] = "/tmp/fb-engine-XXXXXX", err[256];
	int fd = mkstemp(path);
	struct target *t;
	uint64_t *big;
	void *small;

	CHECK(fd >= 0 && ftruncate(fd, 4 << 20) == 0);
	if (fd < 0 || target_open(path, 0, &t, err, sizeof(err)) != 0) {
		CHECK(0);
		return;
	}
	big = eng_buffer(t, 1 << 20);
	small = eng_buffer(t, 4096);
	CHECK(big && (uintptr_t)big % (2 << 20) == 0);
	CHECK(big && big[(1 << 17) - 1] != 0 && big[(1 << 17) - 1] != big[0]);
	CHECK(small && (uintptr_t)small % 4096 == 0);
	eng_buffer_free(big);
	eng_buffer_free(small);
	target_close(t);
	close(fd);
	unlink(path);
}

static int permutation_ok(uint64_t n)
{
	unsigned char *seen = calloc(n, 1);
	struct lfsr l;
	int ok = 1;

	lfsr_init(&l, n);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t v = lfsr_next(&l);
		if (v >= n || seen[v]++)
			ok = 0;
	}
	free(seen);
	return ok;
}

int main(void)
{
	double x[] = { 1, 2, 3, 4 }, y[] = { 3, 5, 7, 9 }, a, b;
	double odd[] = { 5, 1, 3 };

	for (unsigned w = 1; w <= 22; w++) {
		CHECK(permutation_ok(1ull << w));
		CHECK(permutation_ok((1ull << w) - 1));
		CHECK(permutation_ok((1ull << w) + 3));
	}
	CHECK(permutation_ok(1));
	CHECK(permutation_ok(3 * 256));
	CHECK(stats_linfit(x, y, 4, &a, &b) == 0 && a == 1 && b == 2);
	CHECK(stats_linfit(x, y, 1, &a, &b) < 0);
	CHECK(stats_median(odd, 3) == 3 && odd[0] == 5);
	CHECK(stats_min(odd, 3) == 1);
	CHECK(stats_mean(odd, 3) == 3);
	discard_and_totals();
	huge_buffers();
	UNIT_DONE();
}
