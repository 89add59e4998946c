/*
 * The request path of the targets (issue 16): the hot fields of struct
 * target on the first cache line; a file's short read continued inside
 * the request, its end of file an error; the simulated card's timed reads
 * (eng_read) make no pattern, its other reads (target_read, the backup's)
 * still do; the engine's buffers untouched where the card keeps no data;
 * the card's transfer time in 64 bits where it fits, the same as in 128.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/engine.h"
#include "core/opts.h"
#include "core/target.h"
#include "sim/sim_model.h"
#include "unit.h"

static void hot_fields(void)
{
	CHECK(offsetof(struct target, ops) < 64);
	CHECK(offsetof(struct target, fd) < 64);
	CHECK(offsetof(struct target, priv) < 64);
	CHECK(offsetof(struct target, data_unseen) < 64);
}

/* A file of 8 KiB; a read, then the file cut under the open target. */
static void file_reads(void)
{
	char path[] = "/tmp/fb-unit-path.XXXXXX", err[256];
	unsigned char data[8192], *buf;
	struct target *t;
	uint64_t ns = 7;
	int fd = mkstemp(path);

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 7 + 1);
	CHECK(fd >= 0 && write(fd, data, sizeof(data)) == (ssize_t)sizeof(data));
	CHECK(target_open(path, 0, &t, err, sizeof(err)) == 0);
	buf = eng_buffer(t, 8192);
	CHECK(buf != NULL);
	CHECK(target_read(t, buf, 8192, 0, &ns) == 0 && memcmp(buf, data, 8192) == 0);
	CHECK(eng_read(t, buf, 4096, 4096, &ns) == FB_OK && memcmp(buf, data + 4096, 4096) == 0);
	/* 6 KiB left: the read of 8 KiB gets 6 and then the end: no number. */
	CHECK(ftruncate(fd, 6144) == 0);
	ns = 7;
	CHECK(target_read(t, buf, 8192, 0, &ns) == -EIO && ns == 7);
	CHECK(target_read(t, buf, 4096, 8192, &ns) == -EIO && ns == 7);
	CHECK(memcmp(buf, data, 6144) == 0);
	eng_buffer_free(buf);
	target_close(t);
	close(fd);
	unlink(path);
}

static void sim_reads(void)
{
	unsigned char *a = malloc(4096), *b = malloc(4096);
	struct target *t;
	char err[256];
	uint64_t ns;

	CHECK(target_open("sim:", 0, &t, err, sizeof(err)) == 0);
	CHECK(t->data_discarded);
	memset(a, 0xaa, 4096);
	memset(b, 0xaa, 4096);
	CHECK(target_read(t, a, 4096, 8192, &ns) == 0);
	CHECK(memcmp(a, b, 4096) != 0);		/* the pattern */
	CHECK(eng_read(t, b, 4096, 8192, &ns) == FB_OK && ns > 0);
	CHECK(b[0] == 0xaa && b[4095] == 0xaa);	/* timed: no pattern made */
	CHECK(!t->data_unseen);			/* and the flag down again */
	CHECK(target_read(t, b, 4096, 8192, &ns) == 0 && memcmp(a, b, 4096) == 0);
	target_close(t);
	/* A card with an image keeps data: buffers are filled. */
	CHECK(target_open("sim:image=/tmp/fb-unit-no-such-image", TGT_WRITE, &t, err, sizeof(err)) == 0);
	CHECK(!t->data_discarded);
	target_close(t);
	free(a);
	free(b);
}

static uint64_t xfer128(uint64_t n, uint64_t bw)
{
	unsigned __int128 t = ((unsigned __int128)n * 1000000000u + bw / 2) / bw;

	return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}

static void sim_xfer(void)
{
	const uint64_t edge = UINT64_MAX / 2 / 1000000000u;
	const uint64_t ns[] = { 0, 1, 511, 4096, 1ull << 30, edge - 1, edge, edge + 1, 1ull << 40, UINT64_MAX };
	const uint64_t bws[] = { 1, 3, 10000000, 22000000, 1ull << 40, UINT64_MAX };
	int same = 1;

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		for (size_t j = 0; j < sizeof(bws) / sizeof(bws[0]); j++)
			same &= sim_xfer_ns(ns[i], bws[j]) == xfer128(ns[i], bws[j]);
	CHECK(same);
	CHECK(sim_xfer_ns(4096, 0) == 0);
}

int main(void)
{
	sim_xfer();
	hot_fields();
	file_reads();
	sim_reads();
	UNIT_DONE();
}
