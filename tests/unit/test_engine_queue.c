/*
 * Queued requests through the engine and the target interface: on a
 * file with every engine and on the simulated card, every request comes
 * back exactly once, writes read back byte-exact, the write guard refuses
 * a request outside the regions before it is queued, and a request that
 * fails (a sim fail point) stops with FB_EDEV and its offset in the
 * error, and a reap after a stop signal does not wait (fb_stop).
 */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/engine.h"
#include "core/hot.h"
#include "core/opts.h"
#include "core/regions.h"
#include "core/target.h"
#include "unit.h"

#define BS 4096u
#define NBLK 64u
#define DEPTH 8u

/* Block i of pass `pass`: its own bytes, so a misplaced write shows. */
static void fill(unsigned char *b, unsigned i, unsigned pass)
{
	for (unsigned k = 0; k < BS; k++)
		b[k] = (unsigned char)(i * 31 + k * 7 + pass * 101);
}

/* NBLK requests kept DEPTH deep; returns how many came back, each once and right. */
static unsigned queue_pass(struct target *t, unsigned char *buf, bool write, unsigned pass,
			   unsigned *bad)
{
	struct qio_done d[DEPTH];
	unsigned next = 0, back = 0, out = 0, got, slot_free[DEPTH], nfree = DEPTH;
	unsigned char seen[NBLK] = { 0 };

	for (unsigned s = 0; s < DEPTH; s++)
		slot_free[s] = s;
	while (back < NBLK) {
		while (next < NBLK && out < DEPTH) {
			unsigned s = slot_free[--nfree];

			if (write)
				fill(buf + s * BS, next, pass);
			*bad += eng_queue_submit(t, write, buf + s * BS, BS, (uint64_t)next * BS,
						 (uint64_t)s << 16 | next) != FB_OK;
			next++, out++;
		}
		if (eng_queue_reap(t, 1, d, DEPTH, &got) != FB_OK || got == 0)
			break;
		for (unsigned i = 0; i < got; i++) {
			unsigned s = (unsigned)(d[i].tag >> 16), blk = d[i].tag & 0xffff;
			unsigned char want[BS];

			*bad += blk >= NBLK || seen[blk]++ || d[i].off != (uint64_t)blk * BS;
			*bad += d[i].res != (int32_t)BS || d[i].write != write;
			fill(want, blk, pass);
			if (!write && blk < NBLK)
				*bad += memcmp(buf + s * BS, want, BS) != 0;
			slot_free[nfree++] = s;
		}
		back += got;
		out -= got;
	}
	return back;
}

/*
 * A stop signal (fb_stop) that came before the reap: a device's queue
 * returns at once, the caller told to look at fb_stop (FB_OK, nothing
 * got), instead of a wait the signal can no longer cut short; cleared,
 * the request is reaped.
 */
static void stopped(struct target *t, unsigned char *buf)
{
	struct qio_done d[1];
	unsigned got = 9;

	CHECK(eng_queue_submit(t, false, buf, BS, 0, 4) == FB_OK);
	fb_stop = SIGINT;
	CHECK(eng_queue_reap(t, 1, d, 1, &got) == FB_OK && got == 0);
	fb_stop = 0;
	CHECK(eng_queue_reap(t, 1, d, 1, &got) == FB_OK && got == 1 && d[0].tag == 4);
}

static void on_target(const char *path, enum qio_kind kind)
{
	struct target *t;
	char err[512];
	unsigned char *buf;
	unsigned bad = 0;
	uint64_t t0;

	CHECK(target_open(path, TGT_WRITE, &t, err, sizeof(err)) == 0);
	if (!t) {
		printf("FAIL: %s: %s\n", path, err);
		return;
	}
	buf = eng_buffer(t, DEPTH * BS);
	CHECK(eng_queue_open(t, kind, DEPTH, buf, DEPTH * BS) == FB_OK);
	printf("%s, %s: %s\n", path, qio_kind_name(kind), t->ops->qdescribe(t));
	t0 = t->ops->now(t);
	CHECK(queue_pass(t, buf, true, 1, &bad) == NBLK);
	CHECK(queue_pass(t, buf, false, 1, &bad) == NBLK);
	CHECK(bad == 0);
	CHECK(t->ops->now(t) > t0);
	if (kind != QIO_SYNC && strncmp(path, "sim:", 4) != 0)
		stopped(t, buf);	/* the sim's queue runs on its clock: no wait */
	/* the guard: a write outside the regions is refused before it is queued */
	struct region r = { 0, NBLK / 2 * BS };

	CHECK(regions_arm(&r, 1) == 0);
	CHECK(eng_queue_submit(t, true, buf, BS, NBLK / 2 * BS, 0) == FB_EDEV);
	CHECK(eng_queue_submit(t, true, buf, BS, 0, 0) == FB_OK);
	regions_disarm();
	eng_queue_close(t);
	eng_buffer_free(buf);
	target_close(t);
}

static void failed_request(void)
{
	struct target *t;
	struct qio_done d[4];
	char err[256];
	unsigned got;
	void *buf;

	CHECK(target_open("sim:fail-read-at=8K", 0, &t, err, sizeof(err)) == 0);
	buf = eng_buffer(t, 2 * BS);
	CHECK(eng_queue_open(t, QIO_AUTO, 4, buf, 2 * BS) == FB_OK);
	CHECK(eng_queue_submit(t, false, buf, BS, 0, 1) == FB_OK);
	CHECK(eng_queue_submit(t, false, (char *)buf + BS, BS, 8192, 2) == FB_OK);
	/* the failure completes first, and stops */
	CHECK(eng_queue_reap(t, 2, d, 4, &got) == FB_EDEV && got == 2);
	CHECK(eng_last_error() && strstr(eng_last_error(), "read at offset 8192, length 4096: "
					 "Input/output error"));
	/* a read-only target refuses a queued write */
	CHECK(eng_queue_submit(t, true, buf, BS, 0, 3) == FB_OK);
	CHECK(eng_queue_reap(t, 1, d, 4, &got) == FB_EDEV && d[0].res == -EBADF);
	eng_queue_close(t);
	eng_buffer_free(buf);
	target_close(t);
}

int main(void)
{
	static const enum qio_kind kinds[] = { QIO_SYNC, QIO_AIO, QIO_URING, QIO_AUTO };
	char file[] = "/var/tmp/fbqueue.XXXXXX", img[64], sim[128];
	int fd = mkstemp(file);

	CHECK(fd >= 0 && ftruncate(fd, NBLK * BS) == 0);
	close(fd);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		on_target(file, kinds[k]);
	unlink(file);
	/* the simulated card with an image: the data lands there */
	snprintf(img, sizeof(img), "/tmp/fbqueue-sim.%d", (int)getpid());
	snprintf(sim, sizeof(sim), "sim:size=8M,erase=1M,channels=4,jitter=20,image=%s", img);
	on_target(sim, QIO_URING);
	unlink(img);
	failed_request();
	UNIT_DONE();
}
