/*
 * Queued I/O engines on real files and a loop device: every engine, at
 * depths 1 and 32, writes and reads back byte-exact; completes each
 * request issued exactly once with its own tag, offset and length; and
 * reports a short transfer or an error per request with its errno.
 * Completions out of submission order are provoked on the loop device.
 * No timing is asserted.
 */
#include "qio_fixture.h"
#include "unit.h"

#define CHUNK (64u << 10)
#define NREQ (FX_SIZE / CHUNK)

static const enum qio_kind engines[] = { QIO_SYNC, QIO_AIO, QIO_URING, QIO_AUTO };

struct job {
	struct qio *q;
	unsigned depth;
	bool write;
	uint64_t seed;
	uint64_t off[NREQ];
	uint32_t len[NREQ];
	uint8_t *bufs;		/* depth slices of CHUNK */
	unsigned slice[NREQ];	/* the slice of request (tag) i */
	unsigned freel[NREQ], nfree;
	/* what came back */
	unsigned seen[NREQ], completed, wrong, reordered;
};

/* Requests: a scrambled order of the chunks, 64 KiB and 4 KiB mixed. */
static void job_init(struct job *j, bool write, uint64_t seed)
{
	for (unsigned i = 0; i < NREQ; i++) {
		j->off[i] = (uint64_t)((i * 37u) % NREQ) * CHUNK;
		j->len[i] = i % 3 ? 4096 : CHUNK;
		j->seen[i] = 0;
	}
	j->write = write;
	j->seed = seed;
	j->completed = j->wrong = j->reordered = 0;
	j->nfree = j->depth;
	for (unsigned s = 0; s < j->depth; s++)
		j->freel[s] = s;
}

/* Check one completion against the request its tag names. */
static void job_check(struct job *j, const struct qio_done *d, uint64_t *next_fifo)
{
	uint64_t t = d->tag;
	uint8_t *buf;

	if (t >= NREQ || j->seen[t]++) {
		j->wrong++;
		return;
	}
	if (t != *next_fifo)
		j->reordered++;
	(*next_fifo)++;
	buf = j->bufs + (size_t)j->slice[t] * CHUNK;
	if (d->off != j->off[t] || d->len != j->len[t] || d->write != j->write ||
	    d->res != (int32_t)j->len[t] ||
	    (!j->write && !fx_same(buf, j->len[t], j->off[t], j->seed)))
		j->wrong++;
	j->freel[j->nfree++] = j->slice[t];
	j->completed++;
}

/* Run all NREQ requests keeping the queue full. Engine failures count as wrong. */
static void job_run(struct job *j)
{
	struct qio_done d[64];
	unsigned next = 0;
	uint64_t fifo = 0;

	while (j->completed < NREQ) {
		while (next < NREQ && j->nfree) {
			unsigned s = j->freel[--j->nfree];
			uint8_t *buf = j->bufs + (size_t)s * CHUNK;

			j->slice[next] = s;
			if (j->write)
				fx_fill(buf, j->len[next], j->off[next], j->seed);
			else
				memset(buf, 0, j->len[next]);
			if (qio_submit(j->q, j->write, buf, j->len[next], j->off[next], next) < 0)
				j->wrong++;
			next++;
		}
		int got = qio_reap(j->q, 1, d, 64);
		if (got <= 0) {
			j->wrong++;
			break;
		}
		for (int i = 0; i < got; i++)
			job_check(j, &d[i], &fifo);
	}
}

/* Every written range holds the job's data, read by plain pread. */
static bool readback_ok(const struct place *p, const struct job *j)
{
	uint8_t *buf = fx_alloc(CHUNK);
	bool ok = buf != NULL;

	for (unsigned i = 0; ok && i < NREQ; i++)
		ok = pread(p->fd, buf, j->len[i], (off_t)j->off[i]) == (ssize_t)j->len[i] &&
		     fx_same(buf, j->len[i], j->off[i], j->seed);
	free(buf);
	return ok;
}

static void round_trip(const struct place *p, enum qio_kind k, unsigned depth, uint64_t seed)
{
	static struct job j;
	char err[256];
	int ret;

	j.depth = depth;
	j.bufs = fx_alloc((size_t)depth * CHUNK);
	ret = qio_open(k, p->fd, depth, &j.q, err, sizeof err);
	CHECK(ret == 0 && j.bufs);
	if (ret < 0 || !j.bufs) {
		printf("FAIL %s, %s engine, depth %u: %s\n", p->name, qio_kind_name(k), depth, err);
		free(j.bufs);
		return;
	}
	struct iovec iov = { j.bufs, (size_t)depth * CHUNK };
	qio_register_buffers(j.q, &iov, 1);	/* may be refused: works either way */

	job_init(&j, true, seed);
	job_run(&j);
	CHECK(j.completed == NREQ && j.wrong == 0);
	CHECK(readback_ok(p, &j));
	job_init(&j, false, seed);
	job_run(&j);
	CHECK(j.completed == NREQ && j.wrong == 0);
	CHECK(qio_outstanding(j.q) == 0);
	if (qio_kind(j.q) == QIO_SYNC)
		CHECK(j.reordered == 0);	/* one at a time, in order */
	if (j.wrong)
		printf("FAIL %s, %s: depth %u: %u wrong completions\n", p->name,
		       qio_describe(j.q), depth, j.wrong);
	qio_close(j.q);
	free(j.bufs);
}

/* Reap everything outstanding into d (at most max); the number. */
static int reap_all(struct qio *q, struct qio_done *d, int max)
{
	int n = 0;

	while (qio_outstanding(q) && n < max) {
		int got = qio_reap(q, 1, d + n, (unsigned)(max - n));
		if (got <= 0)
			break;
		n += got;
	}
	return n;
}

static const struct qio_done *by_tag(const struct qio_done *d, int n, uint64_t tag)
{
	for (int i = 0; i < n; i++)
		if (d[i].tag == tag)
			return &d[i];
	return NULL;
}

/* The result of request tag among n completions, or INT32_MIN if absent or doubled. */
static int32_t res_of(const struct qio_done *d, int n, uint64_t tag)
{
	const struct qio_done *x = by_tag(d, n, tag);
	int count = 0;

	for (int i = 0; i < n; i++)
		count += d[i].tag == tag;
	return x && count == 1 ? x->res : INT32_MIN;
}

/*
 * A write through a read-only fd fails with EBADF between two good reads;
 * reads across and past the end are short; a misaligned O_DIRECT read
 * fails with EINVAL; a write past a device's end fails with ENOSPC.
 */
static void errors(const struct place *p, enum qio_kind k)
{
	uint8_t *buf = fx_alloc(4 * 8192);
	int ro = fx_reopen(p, O_RDONLY | O_DIRECT);
	struct qio_done d[8];
	struct qio *q;
	char err[256];
	int n;

	CHECK(buf && ro >= 0);
	if (!buf || ro < 0 || qio_open(k, ro, 8, &q, err, sizeof err) < 0) {
		CHECK(!"open an engine on a read-only fd");
		free(buf);
		if (ro >= 0)
			close(ro);
		return;
	}
	CHECK(qio_submit(q, false, buf, 4096, 0, 10) == 0);
	CHECK(qio_submit(q, true, buf + 8192, 4096, 4096, 11) == 0);
	CHECK(qio_submit(q, false, buf + 16384, 4096, 8192, 12) == 0);
	CHECK(qio_submit(q, false, buf + 24576, 8192, p->size - 4096, 13) == 0);
	CHECK(qio_submit(q, false, buf, 4096, p->size, 14) == 0);
	n = reap_all(q, d, 8);
	CHECK(n == 5);
	CHECK(res_of(d, n, 10) == 4096);
	CHECK(res_of(d, n, 11) == -EBADF);
	CHECK(res_of(d, n, 12) == 4096);
	CHECK(res_of(d, n, 13) == 4096);	/* short: 4 KiB of 8 */
	CHECK(res_of(d, n, 14) == 0);		/* at the end */
	const struct qio_done *e = by_tag(d, n, 11);
	CHECK(e && e->off == 4096 && e->len == 4096 && e->write);
	e = by_tag(d, n, 13);
	CHECK(e && e->off == p->size - 4096 && e->len == 8192 && !e->write);
	if (p->strict) {
		CHECK(qio_submit(q, false, buf, 4096, 1, 15) == 0);
		CHECK(qio_submit(q, false, buf + 1, 4096, 0, 16) == 0);
		n = reap_all(q, d, 8);
		CHECK(n == 2 && res_of(d, n, 15) == -EINVAL && res_of(d, n, 16) == -EINVAL);
	}
	qio_close(q);
	close(ro);
	if (p->dev[0] && qio_open(k, p->fd, 2, &q, err, sizeof err) == 0) {
		CHECK(qio_submit(q, true, buf, 4096, p->size, 17) == 0);
		n = reap_all(q, d, 8);
		CHECK(n == 1 && res_of(d, n, 17) == -ENOSPC);
		qio_close(q);
	}
	free(buf);
}

/*
 * A 1 MiB read, then a misaligned one that the kernel fails at once: the
 * second completes first. Tried a few times (scheduling decides); the
 * engine must report both right every time.
 */
static void out_of_order(const struct place *p, enum qio_kind k)
{
	uint8_t *buf = fx_alloc(1u << 20);
	unsigned reordered = 0, right = 0, tries = 20;
	struct qio_done d[4];
	struct qio *q;
	char err[256];

	if (!buf || qio_open(k, p->fd, 4, &q, err, sizeof err) < 0) {
		CHECK(!"open for the out-of-order test");
		free(buf);
		return;
	}
	for (unsigned t = 0; t < tries; t++) {
		qio_submit(q, false, buf, 1u << 20, 0, 1);
		qio_submit(q, false, buf, 4096, 1, 2);
		int n = reap_all(q, d, 4);
		right += n == 2 && res_of(d, n, 1) == 1 << 20 && res_of(d, n, 2) == -EINVAL;
		reordered += n == 2 && d[0].tag == 2;
	}
	CHECK(right == tries);
	if (k == QIO_SYNC)
		CHECK(reordered == 0);
	else
		CHECK(reordered > 0);
	qio_close(q);
	free(buf);
}

static void on_place(const struct place *p, uint64_t *seed)
{
	char why[256];

	for (unsigned e = 0; e < sizeof engines / sizeof engines[0]; e++) {
		enum qio_kind k = engines[e];

		if (!fx_engine_works(k, p->fd, why, sizeof why)) {
			printf("SKIP %s: %s engine: %s\n", p->name, qio_kind_name(k), why);
			continue;
		}
		round_trip(p, k, 1, ++*seed);
		round_trip(p, k, 32, ++*seed);
		errors(p, k);
		if (p->dev[0])
			out_of_order(p, k);
	}
}

int main(void)
{
	const char *disk = fx_disk_dir();
	uint64_t seed = (uint64_t)getpid() << 16;
	struct place p;
	char skip[512];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (fx_open_file(&p, "tmpfs file", "/dev/shm", skip, sizeof skip) == 0) {
		on_place(&p, &seed);
		fx_close(&p);
	} else {
		printf("SKIP %s\n", skip);
	}
	if (!disk)
		printf("SKIP disk file: no writable directory off tmpfs\n");
	else if (fx_open_file(&p, "disk file", disk, skip, sizeof skip) == 0) {
		on_place(&p, &seed);
		fx_close(&p);
	} else {
		printf("SKIP %s\n", skip);
	}
	if (fx_open_loop(&p, skip, sizeof skip) == 0) {
		on_place(&p, &seed);
		fx_close(&p);
	} else {
		printf("SKIP %s\n", skip);
	}
	UNIT_DONE();
}
