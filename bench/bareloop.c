/*
 * The floor flashbench's engine is measured against: nothing but pread (or
 * pwrite) and two clock reads per request, on an O_DIRECT descriptor.
 *   bareloop read|write DEV BS N rand|STRIDE|lfsr:STRIDE -> iops= lat_min_ns= lat_med_ns=
 * (rand: random offsets; STRIDE: request i at i x STRIDE bytes, wrapping;
 * lfsr:STRIDE: the N positions p x STRIDE in the order flashbench -s
 * visits them, its maximal-length LFSR over 0..N-1: on a loop device over
 * tmpfs that order alone costs about 10% of latency against STRIDE)
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

/* Galois taps of maximal-length LFSRs by width, as flashbench's engine has them. */
static const uint64_t taps[] = {
	[2] = 0x3, [3] = 0x6, [4] = 0xc, [5] = 0x14, [6] = 0x30, [7] = 0x60,
	[8] = 0xb8, [9] = 0x110, [10] = 0x240, [11] = 0x500, [12] = 0x829,
	[13] = 0x100d, [14] = 0x2015, [15] = 0x6000, [16] = 0xd008,
	[17] = 0x12000, [18] = 0x20400, [19] = 0x40023, [20] = 0x90000,
	[21] = 0x140000, [22] = 0x300000, [23] = 0x420000, [24] = 0xe10000,
	[25] = 0x1200000, [26] = 0x2000023, [27] = 0x4000013, [28] = 0x9000000,
	[29] = 0x14000000, [30] = 0x20000029, [31] = 0x48000000, [32] = 0x80200003,
};

/* The next of 0..n-1 in LFSR order (state starts at 1). */
static uint64_t lfsr_next(uint64_t *state, uint64_t tap, uint64_t n)
{
	uint64_t v;

	do {
		v = *state;
		*state = (*state & 1) ? (*state >> 1) ^ tap : *state >> 1;
	} while (v - 1 >= n);
	return v - 1;
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
		return fprintf(stderr, "usage: bareloop read|write DEV BS N rand|STRIDE|lfsr:STRIDE | clock N\n"), 2;
	int wr = !strcmp(argv[1], "write"), rnd = !strcmp(argv[5], "rand");
	int lf = !strncmp(argv[5], "lfsr:", 5);
	uint64_t stride = rnd ? 0 : (uint64_t)atoll(argv[5] + (lf ? 5 : 0)), state = 1, tap;
	unsigned w = 2;
	int fd = open(argv[2], (wr ? O_WRONLY : O_RDONLY) | O_DIRECT);
	size_t bs = (size_t)atol(argv[3]);
	long n = atol(argv[4]);
	uint64_t *lat = calloc((size_t)n, sizeof(*lat)), x = 0x9e3779b97f4a7c15ull, t0, t1, start;
	off_t size = fd < 0 ? 0 : lseek(fd, 0, SEEK_END), blocks = size / (off_t)bs;
	void *buf;

	if (fd < 0 || blocks < 1 || (!rnd && stride < bs) || !lat || posix_memalign(&buf, 4096, bs))
		return perror(argv[2]), 1;
	memset(buf, 0x5a, bs);
	while (w < 32 && (1ull << w) - 1 < (uint64_t)n)
		w++;
	tap = taps[w];
	if (lf && (uint64_t)(n - 1) * stride + bs > (uint64_t)size)
		return fprintf(stderr, "bareloop: %ld positions of %llu bytes pass the end\n", n,
			       (unsigned long long)stride), 1;
	start = now();
	for (long i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		off_t off = rnd ? (off_t)(x % (uint64_t)blocks) * (off_t)bs
			  : lf	? (off_t)(lfsr_next(&state, tap, (uint64_t)n) * stride)
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
