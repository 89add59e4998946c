/* The output layer: see report.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>

#include <string.h>

#include "engine.h"
#include "report.h"
#include "units.h"

static FILE *out;
static const char *out_name;
static int out_err;	/* the first errno of a failed write, 0 while all is well */

static FILE *report_file(void)
{
	return out ? out : stdout;
}

int report_open(const char *path)
{
	out_err = 0;
	if (!path)
		return 0;
	out_name = path;
	out = fopen(path, "w");
	return out ? 0 : -errno;
}

int report_fileno(void)
{
	return fileno(report_file());
}

/*
 * After each line: a result that cannot be written (a full disk, a
 * closed pipe) stops the test at its next request, with the real error,
 * said once -- a write test must not go on writing the device for
 * results nobody will see.
 */
static void flushed(FILE *f)
{
	int e;

	errno = 0;
	e = fflush(f) == 0 && !ferror(f) ? 0 : errno ? errno : EIO;
	if (!e || out_err)
		return;
	out_err = e;
	fb_out_failed = e;
	if (out)
		fprintf(stderr, "flashbench: --out=%s: cannot write the results: %s; "
			"stopping the test\n", out_name, strerror(e));
	else
		fprintf(stderr, "flashbench: standard output: cannot write the results: %s; "
			"stopping the test\n", strerror(e));
}

int report_check_out(const char *out, const char *const *paths, size_t n, char *err, size_t errlen)
{
	struct stat so, sp;

	if (!out || stat(out, &so) < 0)
		return 0;	/* a new file hurts nothing */
	if (S_ISBLK(so.st_mode)) {
		snprintf(err, errlen, "--out=%s: is a block device; results go to a file", out);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!paths[i] || stat(paths[i], &sp) < 0 || !S_ISREG(so.st_mode))
			continue;
		if (sp.st_dev == so.st_dev && sp.st_ino == so.st_ino) {
			snprintf(err, errlen, "--out=%s: is %s itself; results go to another file",
				 out, paths[i]);
			return -1;
		}
	}
	return 0;
}

int report_close(void)
{
	flushed(report_file());
	if (out && fclose(out) != 0 && !out_err) {
		out_err = errno;
		fprintf(stderr, "flashbench: --out=%s: cannot write the results: %s\n", out_name,
			strerror(errno));
	}
	out = NULL;
	return -out_err;
}

void report_align(uint64_t boundary, double pre, double on, double post, double diff)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN], d[FB_FMT_LEN];

	fprintf(report_file(), "align %llu\tpre %s\ton %s\tpost %s\tdiff %s\n",
		(unsigned long long)boundary, fmt_time(a, sizeof(a), pre),
		fmt_time(b, sizeof(b), on), fmt_time(c, sizeof(c), post),
		fmt_time(d, sizeof(d), diff));
	flushed(report_file());
}

void report_rates(uint64_t size, const double *rates, size_t n)
{
	char s[FB_FMT_LEN], r[FB_FMT_LEN];
	FILE *f = report_file();

	fprintf(f, "%s", fmt_size(s, sizeof(s), size));
	for (size_t i = 0; i < n; i++)
		fprintf(f, "\t%s", fmt_rate(r, sizeof(r), rates[i]));
	fputc('\n', f);
	flushed(f);
}

void report_line(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(report_file(), fmt, ap);
	va_end(ap);
	fputc('\n', report_file());
	flushed(report_file());
}
