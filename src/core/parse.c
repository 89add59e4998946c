/*
 * Parsing of command-line values. Everything is checked: no atoi, no
 * silent truncation, no wrap-around (the original parsed sizes with atoi
 * and overflowed above 2 GiB).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/parse.h"

struct suffix {
	const char *name;
	int shift;
};

static const struct suffix suffixes[] = {
	{ "", 0 }, { "B", 0 },
	{ "k", 10 }, { "K", 10 }, { "KB", 10 }, { "KiB", 10 }, { "kiB", 10 },
	{ "m", 20 }, { "M", 20 }, { "MB", 20 }, { "MiB", 20 },
	{ "g", 30 }, { "G", 30 }, { "GB", 30 }, { "GiB", 30 },
	{ "t", 40 }, { "T", 40 }, { "TB", 40 }, { "TiB", 40 },
};

static int suffix_shift(const char *s)
{
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (strcmp(s, suffixes[i].name) == 0)
			return suffixes[i].shift;
	return -1;
}

/* Integer part, hex or decimal, with overflow check. */
static int parse_integer(const char *s, char **end, uint64_t *out)
{
	unsigned long long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, end, 0);
	if (errno == ERANGE)
		return -1;
	/* strtoull with base 0 reads "010" as octal; sizes are decimal. */
	if (s[0] == '0' && s[1] != 'x' && s[1] != 'X' && isdigit((unsigned char)s[1])) {
		errno = 0;
		v = strtoull(s, end, 10);
		if (errno == ERANGE)
			return -1;
	}
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	char *end;
	uint64_t whole;
	int shift;

	if (!s || parse_integer(s, &end, &whole) < 0)
		return -1;
	if (*end == '.' && !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))) {
		/* A fraction: only meaningful with a suffix, result must be whole. */
		char *fend = end + 1 + strspn(end + 1, "0123456789");
		double frac = strtod(end, NULL);	/* digits only: no "1.5e3K" */
		long double v;

		shift = suffix_shift(fend);
		if (shift <= 0 || fend == end + 1)
			return -1;
		v = ((long double)whole + frac) * (long double)(1ULL << shift);
		if (v >= 18446744073709551616.0L || v != floorl(v))
			return -1;
		*out = (uint64_t)v;
		return 0;
	}
	shift = suffix_shift(end);
	if (shift < 0)
		return -1;
	if (shift && whole > (UINT64_MAX >> shift))
		return -1;
	*out = whole << shift;
	return 0;
}

int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE || *end != '\0' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE || *end != '\0' || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

int parse_duration(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; double scale; } units[] = {
		{ "", 1e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 },
		{ "ns", 1 }, { "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 },
	};
	char *end;
	double v;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE || !isfinite(v) || v < 0)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit) == 0) {
			double r = v * units[i].scale;

			if (r >= 1.8e19)
				return -1;
			*ns = (uint64_t)r;
			return 0;
		}
	}
	return -1;
}

int parse_rate(const char *s, uint64_t *bps)
{
	static const char mult[] = "KMGT";
	char num[64];
	size_t n = s ? strlen(s) : 0;
	double v, scale = 1;
	const char *m;

	if (n < 3 || strcmp(s + n - 2, "/s") != 0)
		return parse_size(s, bps);
	if (n - 2 >= sizeof(num))
		return -1;
	memcpy(num, s, n - 2);
	num[n - 2] = '\0';
	n -= 2;
	/* (a rate below 1K/s prints as "47B/s": fmt_rate's output reads back) */
	if (n > 1 && num[n - 1] == 'B')
		num[--n] = '\0';
	m = strchr(mult, toupper((unsigned char)num[n - 1]));
	if (m) {
		for (const char *q = mult; q <= m; q++)
			scale *= 1000;
		num[n - 1] = '\0';
	}
	if (!isdigit((unsigned char)num[0]) || parse_double(num, &v) < 0)
		return -1;
	v *= scale;
	if (v < 0 || v >= 1.8e19)
		return -1;
	*bps = (uint64_t)(v + 0.5);
	return 0;
}
