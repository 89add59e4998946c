/*
 * Formatting of sizes, rates and times, compatible with the original
 * flashbench's output (three significant digits, binary sizes, decimal
 * rates) but without its quirks: a value that rounds up to 1000 moves to
 * the next unit instead of printing "1e+03", and negative times keep
 * their unit.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/units.h"

/*
 * Print v (>= 0) scaled down by 'step' until it is below 'step' and
 * shows in at most three digits, then append the unit.
 */
static char *fmt_scaled(char *buf, size_t len, const char *sign, double v,
			double step, const char *const *units, int nunits,
			const char *tail)
{
	int i = 0;

	while (i < nunits - 1) {
		char tmp[FB_FMT_LEN];
		double shown;

		snprintf(tmp, sizeof(tmp), "%.3g", v);
		shown = strtod(tmp, NULL);
		/* Move up when the value, or its rounding, needs four digits. */
		if (v < step && shown < 1000)
			break;
		v /= step;
		i++;
	}
	/* Past the largest unit: whole numbers, never "2.78e+05s". */
	snprintf(buf, len, v >= 1000 ? "%s%.0f%s%s" : "%s%.3g%s%s", sign, v, units[i], tail);
	return buf;
}

char *fmt_times(char *buf, size_t len, double x, int digits)
{
	if (x >= 1e15 || x != x)
		snprintf(buf, len, "many times");	/* (nothing to divide by) */
	else if (x >= pow(10, digits))
		snprintf(buf, len, "%.0fx", x);
	else
		snprintf(buf, len, "%.*gx", digits, x);
	return buf;
}

char *fmt_size_exact(char *buf, size_t len, uint64_t bytes, const char *b)
{
	static const char *const u[] = { "KiB", "MiB", "GiB", "TiB" };
	int i = -1;

	while (i < 3 && bytes && bytes % 1024 == 0) {
		bytes /= 1024;
		i++;
	}
	snprintf(buf, len, "%llu%s", (unsigned long long)bytes, i < 0 ? b : u[i]);
	return buf;
}

char *fmt_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };

	return fmt_scaled(buf, len, "", (double)bytes, 1024.0, u, 7, "");
}

char *fmt_rate(char *buf, size_t len, double bps)
{
	static const char *const u[] = { "B", "K", "M", "G", "T" };

	if (!(bps >= 0) || isinf(bps))
		bps = 0;
	return fmt_scaled(buf, len, "", bps, 1000.0, u, 5, "/s");
}

char *fmt_time(char *buf, size_t len, double ns)
{
	static const char *const u[] = { "ns", "µs", "ms", "s" };
	const char *sign = "";

	if (ns < 0) {
		sign = "-";
		ns = -ns;
	}
	return fmt_scaled(buf, len, sign, ns, 1000.0, u, 4, "");
}
