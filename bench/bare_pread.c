/*
 * The bare loop bench/qio.sh compares against: random O_DIRECT preads of
 * bs bytes, timed each, and nothing else. Same output as qio_drive.
 *   bare_pread SECONDSs|COUNT DEVICE|FILE [BS]   (e.g. "2s" or "100000")
 */
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

static unsigned long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static unsigned long long cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

int main(int argc, char **argv)
{
	unsigned long long size = 0, seed = 0x2545f4914f6cdd1dull, n = 0, min = ~0ull, t0, t, end, c0;
	unsigned long long count = argc > 1 && !strchr(argv[1], 's') ? strtoull(argv[1], NULL, 10) : 0;
	size_t bs = argc > 3 ? (size_t)atol(argv[3]) : 4096;
	int fd = argc > 2 ? open(argv[2], O_RDONLY | O_DIRECT) : -1;
	struct stat st;
	void *buf;

	if (fd >= 0 && fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || ioctl(fd, BLKGETSIZE64, &size) < 0))
		size = (unsigned long long)st.st_size;
	if (fd < 0 || size < bs || posix_memalign(&buf, 4096, bs))
		return fprintf(stderr, "usage: bare_pread SECONDSs|COUNT DEVICE|FILE [BS]\n"), 1;
	c0 = cpu();
	t0 = t = now();
	for (end = t0 + (unsigned long long)(atof(argv[1]) * 1e9); count ? n < count : t < end; n++) {
		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		unsigned long long s = now();
		if (pread(fd, buf, bs, (off_t)(seed % (size / bs) * bs)) != (ssize_t)bs)
			return perror("bare_pread"), 1;
		t = now();
		min = t - s < min ? t - s : min;
	}
	printf("iops=%.0f lat_min_ns=%llu lat_med_ns=0 cpu_ns=%.0f engine=bare pread loop\n",
	       n / ((t - t0) / 1e9), min, (double)(cpu() - c0) / n);
	return 0;
}
