/*
 * The floor flashbench's engine is measured against: nothing but pread (or
 * pwrite) and two clock reads per request, on an O_DIRECT descriptor.
 *   bareloop read|write DEV BS N rand|STRIDE -> iops= lat_min_ns= lat_med_ns=
 * (rand: random offsets; STRIDE: request i at i x STRIDE bytes, wrapping)
 *   bareloop clock N                        -> cost_ns= step_ns= res_ns=
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One clock read's cost, the smallest step two reads show, the resolution. */
static int clock_mode(long n)
{
	uint64_t t0 = now(), prev = t0, step = UINT64_MAX, t;
	struct timespec res;

	for (long i = 0; i < n; i++) {
		t = now();
		if (t > prev && t - prev < step)
			step = t - prev;
		prev = t;
	}
	clock_getres(CLOCK_MONOTONIC_RAW, &res);
	printf("cost_ns=%.1f step_ns=%llu res_ns=%ld\n", (double)(prev - t0) / (double)n,
	       (unsigned long long)step, res.tv_nsec);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "clock"))
		return clock_mode(atol(argv[2]));
	if (argc != 6)
		return fprintf(stderr, "usage: bareloop read|write DEV BS N rand|STRIDE | clock N\n"), 2;
	int wr = !strcmp(argv[1], "write"), rnd = !strcmp(argv[5], "rand");
	uint64_t stride = rnd ? 0 : (uint64_t)atoll(argv[5]);
	int fd = open(argv[2], (wr ? O_WRONLY : O_RDONLY) | O_DIRECT);
	size_t bs = (size_t)atol(argv[3]);
	long n = atol(argv[4]);
	uint64_t *lat = calloc((size_t)n, sizeof(*lat)), x = 0x9e3779b97f4a7c15ull, t0, t1, start;
	off_t size = fd < 0 ? 0 : lseek(fd, 0, SEEK_END), blocks = size / (off_t)bs;
	void *buf;

	if (fd < 0 || blocks < 1 || (!rnd && stride < bs) || !lat || posix_memalign(&buf, 4096, bs))
		return perror(argv[2]), 1;
	memset(buf, 0x5a, bs);
	start = now();
	for (long i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		off_t off = rnd ? (off_t)(x % (uint64_t)blocks) * (off_t)bs
				: (off_t)((uint64_t)i * stride % (uint64_t)(size - (off_t)bs + 1));

		t0 = now();
		if ((wr ? pwrite(fd, buf, bs, off) : pread(fd, buf, bs, off)) != (ssize_t)bs)
			return perror("bareloop: I/O"), 1;
		t1 = now();
		lat[i] = t1 - t0;
	}
	t1 = now();
	qsort(lat, (size_t)n, sizeof(*lat), cmp);
	printf("iops=%.0f lat_min_ns=%llu lat_med_ns=%llu\n", (double)n * 1e9 / (double)(t1 - start),
	       (unsigned long long)lat[0], (unsigned long long)lat[n / 2]);
	return 0;
}
