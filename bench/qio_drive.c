/*
 * Random reads through the queued I/O API, for bench/qio.sh: keeps depth
 * requests of bs bytes outstanding on an O_DIRECT file or block device
 * for a number of seconds, doing per request what a test would (check
 * the result, keep the latency). Prints one line:
 *   iops=N lat_min_ns=N lat_med_ns=N cpu_ns=N engine=DESCRIPTION
 * (cpu_ns: user + system CPU time of the process per request, kernel
 * worker threads of io_uring included)
 *   qio_drive ENGINE DEPTH SECONDSs|COUNT DEVICE [BS]   (e.g. "2s" or "100000")
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/qio.h"

#define MAX_LAT (1u << 24)	/* latencies kept: 16 M requests */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t cpu_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* The k-th smallest of a[0..n-1] (reorders a): quickselect, linear time,
 * so that the per-request cost the bench measures has no n log n in it. */
static uint32_t kth(uint32_t *a, uint64_t n, uint64_t k)
{
	int64_t l = 0, m = (int64_t)n - 1, kk = (int64_t)k;

	while (l < m) {	/* Wirth's selection */
		uint32_t x = a[kk], t;
		int64_t i = l, j = m;

		do {
			while (a[i] < x)
				i++;
			while (x < a[j])
				j--;
			if (i <= j) {
				t = a[i], a[i] = a[j], a[j] = t;
				i++, j--;
			}
		} while (i <= j);
		if (j < kk)
			l = i;
		if (kk < i)
			m = j;
	}
	return a[kk];
}

static uint64_t size_of(int fd)
{
	struct stat st;
	uint64_t n = 0;

	if (fstat(fd, &st) < 0)
		return 0;
	if (S_ISBLK(st.st_mode))
		return ioctl(fd, BLKGETSIZE64, &n) < 0 ? 0 : n;
	return (uint64_t)st.st_size;
}

int main(int argc, char **argv)
{
	enum qio_kind kind;
	unsigned depth = argc > 2 ? (unsigned)atoi(argv[2]) : 0;
	bool timed = argc > 3 && strchr(argv[3], 's');
	double limit = argc > 3 ? atof(argv[3]) : 0;
	size_t bs = argc > 5 ? (size_t)atol(argv[5]) : 4096;
	uint64_t seed = 0x2545f4914f6cdd1dull, blocks, n = 0, end;
	struct qio_done d[256];
	struct qio *q;
	uint32_t *lat;
	uint8_t *buf;
	char err[256];
	int fd;

	if (argc < 5 || qio_kind_parse(argv[1], &kind) < 0 || depth < 1 || depth > 256 || limit <= 0) {
		fprintf(stderr, "usage: qio_drive sync|aio|uring|auto DEPTH(1-256) SECONDSs|COUNT DEVICE [BS]\n");
		return 2;
	}
	fd = open(argv[4], O_RDONLY | O_DIRECT);
	blocks = fd < 0 ? 0 : size_of(fd) / bs;
	lat = malloc(MAX_LAT * sizeof *lat);
	if (fd < 0 || !blocks || !lat || posix_memalign((void **)&buf, 4096, depth * bs)) {
		fprintf(stderr, "qio_drive: %s: %s\n", argv[4], fd < 0 ? strerror(errno) : "no room");
		return 1;
	}
	memset(buf, 0, depth * bs);
	if (qio_open(kind, fd, depth, &q, err, sizeof err) < 0) {
		fprintf(stderr, "qio_drive: %s\n", err);
		return 1;
	}
	struct iovec iov = { buf, depth * bs };
	qio_register_buffers(q, &iov, 1);
	uint64_t c0 = cpu_ns(), t0 = now_ns();
	end = timed ? t0 + (uint64_t)(limit * 1e9) : UINT64_MAX;
	for (unsigned i = 0; i < depth; i++)
		qio_submit(q, false, buf + i * bs, bs, rnd(&seed) % blocks * bs, i);
	for (uint64_t t = t0; timed ? t < end : n < (uint64_t)limit;) {
		int got = qio_reap(q, 1, d, depth);

		if (got < 0) {
			fprintf(stderr, "qio_drive: reap: %s\n", strerror(-got));
			return 1;
		}
		for (int i = 0; i < got; i++) {
			if (d[i].res != (int32_t)bs) {
				fprintf(stderr, "qio_drive: read at offset %llu, length %u: %s\n",
					(unsigned long long)d[i].off, d[i].len,
					d[i].res < 0 ? strerror(-d[i].res) : "short transfer");
				return 1;
			}
			if (n < MAX_LAT)
				lat[n] = (uint32_t)(d[i].ns > UINT32_MAX ? UINT32_MAX : d[i].ns);
			n++;
			qio_submit(q, false, buf + d[i].tag * bs, bs, rnd(&seed) % blocks * bs, d[i].tag);
		}
		if ((n & 1023) < (uint64_t)got)
			t = now_ns();	/* the deadline, checked every ~1024 requests */
	}
	uint64_t t1 = now_ns(), c1 = cpu_ns();
	uint64_t kept = n < MAX_LAT ? n : MAX_LAT;
	uint32_t med = kept ? kth(lat, kept, kept / 2) : 0;
	uint32_t min = kept ? kth(lat, kept / 2 + 1, 0) : 0;	/* below the median now */
	printf("iops=%.0f lat_min_ns=%u lat_med_ns=%u cpu_ns=%.0f engine=%s\n", n / ((t1 - t0) / 1e9),
	       min, med, (double)(c1 - c0) / (double)n, qio_describe(q));
	qio_close(q);
	free(buf);
	free(lat);
	close(fd);
	return 0;
}
