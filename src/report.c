/* The text lines of the modules not yet turned into records: see report.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>

#include <string.h>

#include "core/out.h"
#include "report.h"
#include "units.h"

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

static void align_text(char *line, size_t len, const union out_val *v)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN], d[FB_FMT_LEN];

	snprintf(line, len, "align %llu\tpre %s\ton %s\tpost %s\tdiff %s", (unsigned long long)v[0].u,
		 fmt_time(a, sizeof(a), v[1].d), fmt_time(b, sizeof(b), v[2].d),
		 fmt_time(c, sizeof(c), v[3].d), fmt_time(d, sizeof(d), v[4].d));
}

static const struct out_field align_fields[] = {
	{ "boundary_bytes", OT_BYTES }, { "pre_ns", OT_NS }, { "on_ns", OT_NS },
	{ "post_ns", OT_NS }, { "diff_ns", OT_NS },
};

static const struct out_table align_table = { "align", align_fields, 5, align_text, NULL };

void report_align(uint64_t boundary, double pre, double on, double post, double diff)
{
	out_row(&align_table, (union out_val[]){ { .u = boundary }, { .d = pre }, { .d = on },
						 { .d = post }, { .d = diff } });
}

void report_line(const char *fmt, ...)
{
	char line[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	out_note("%s", line);
}
