/*
 * Values in saved output: times, sizes and rates as this tool and the
 * original flashbench print them, and the check of an align row against
 * itself (see saved_output.h).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "saved/saved_values.h"
#include "core/units.h"

struct unit {
	const char *name;
	double mult;
	/* Other readings it may have, when copying lost a unit or a µ: a
	 * bit per entry of mults[] (ns, µs, ms, s); 0 for a plain unit. */
	unsigned alts;
};

/* A number that starts like one (strtod alone would take "inf" or "0x10"). */
static int number(const char *s, double *v, const char **rest)
{
	char *end;

	if (!(isdigit((unsigned char)s[0]) || ((s[0] == '-' || s[0] == '+' || s[0] == '.') &&
					       (isdigit((unsigned char)s[1]) || s[1] == '.'))))
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return -1;
	*v = strtod(s, &end);
	if (end == s || !isfinite(*v))
		return -1;
	*rest = end;
	return 0;
}

static const struct unit *find_unit(const char *s, const struct unit *u, size_t nu, double *v)
{
	const char *rest;

	if (number(s, v, &rest) < 0)
		return NULL;
	for (size_t i = 0; i < nu; i++)
		if (strcmp(rest, u[i].name) == 0)
			return &u[i];
	return NULL;
}

static int with_unit(const char *s, const struct unit *u, size_t nu, double *out)
{
	double v;
	const struct unit *f = find_unit(s, u, nu, &v);

	if (!f)
		return -1;
	*out = v * f->mult;
	return 0;
}

#define ALL_UNITS 0xf
#define S_OR_US 0xa

/*
 * The original printed negative times without a unit ("-412331") or cut
 * off ("-49389n"), and 999.5µs as "1e+03µ": all nanoseconds or truncated
 * units. "Âµ" is a µ that went through Latin-1 once, "\xb5" one that is
 * still Latin-1, "?" and U+FFFD one that did not survive a conversion,
 * "&micro;" one from an HTML archive. An "s" may be a µs that lost its µ
 * (the one non-ASCII letter), and a bare number may have lost its unit:
 * read as shown, they are checked against the rest of their row.
 */
static const struct unit time_units[] = {
	{ "", 1, ALL_UNITS }, { "ns", 1, 0 }, { "n", 1, 0 },
	{ "µs", 1e3, 0 }, { "µ", 1e3, 0 }, { "μs", 1e3, 0 }, { "μ", 1e3, 0 },
	{ "us", 1e3, 0 }, { "u", 1e3, 0 }, { "Âµs", 1e3, 0 }, { "Âµ", 1e3, 0 },
	{ "\xb5s", 1e3, 0 }, { "&micro;s", 1e3, 0 }, { "&#181;s", 1e3, 0 },
	{ "?s", 1e3, 0 }, { "\xef\xbf\xbds", 1e3, 0 },
	{ "ms", 1e6, 0 }, { "m", 1e6, 0 }, { "s", 1e9, S_OR_US },
};
#define N_TIME_UNITS (sizeof(time_units) / sizeof(time_units[0]))

int so_parse_time(const char *s, double *ns)
{
	return with_unit(s, time_units, N_TIME_UNITS, ns);
}

int so_parse_size(const char *s, uint64_t *bytes)
{
	static const struct unit u[] = {
		{ "", 1, 0 }, { "B", 1, 0 }, { "KiB", 1024.0, 0 }, { "MiB", 1048576.0, 0 },
		{ "GiB", 1073741824.0, 0 }, { "TiB", 1099511627776.0, 0 },
	};
	double v;

	if (with_unit(s, u, sizeof(u) / sizeof(u[0]), &v) < 0 || v < 1 || v > 1e18)
		return -1;
	/* Three significant digits: 1.5GiB is exact, "3.33MiB" is not a size we print. */
	*bytes = (uint64_t)llround(v);
	return 0;
}

int so_parse_rate(const char *s, double *bps)
{
	static const struct unit u[] = {
		{ "B/s", 1, 0 }, { "/s", 1, 0 }, { "K/s", 1e3, 0 }, { "M/s", 1e6, 0 },
		{ "G/s", 1e9, 0 }, { "T/s", 1e12, 0 },
	};

	if (with_unit(s, u, sizeof(u) / sizeof(u[0]), bps) < 0 || *bps < 0)
		return -1;
	return 0;
}

double so_rel_step(const char *s)
{
	const char *p = s + (*s == '+' || *s == '-'), *dot = NULL, *q;
	char *end;
	double v = strtod(s, &end);
	long exp = 0;

	if (end == s || v == 0 || !isfinite(v))
		return 0;
	for (q = p; q < end && (isdigit((unsigned char)*q) || (*q == '.' && !dot)); q++)
		if (*q == '.')
			dot = q;
	if (q < end && (*q == 'e' || *q == 'E'))
		exp = strtol(q + 1, NULL, 10);
	return pow(10, (double)exp - (dot ? (double)(q - dot - 1) : 0)) / fabs(v);
}

static const char *implausible(double v, double max)
{
	return !isfinite(v) ? "not a finite number" : v < 0 ? "negative"
	       : v > max ? (max == SO_MAX_RATE ? "above 1 TB/s" : "above 1e10 a second") : NULL;
}

const char *so_implausible_rate(double bps)
{
	return implausible(bps, SO_MAX_RATE);
}

const char *so_implausible_iops(double iops)
{
	return implausible(iops, SO_MAX_IOPS);
}

const char *so_implausible_time(double ns)
{
	return !isfinite(ns) ? "not a finite number" : fabs(ns) > SO_MAX_TIME
	       ? "beyond 1e15 ns, 11 days" : NULL;
}

double so_round_time(double ns)
{
	char buf[FB_FMT_LEN];
	double v;

	return so_parse_time(fmt_time(buf, sizeof(buf), ns), &v) == 0 ? v : ns;
}

double so_round_rate(double bps)
{
	char buf[FB_FMT_LEN];
	double v;

	return so_parse_rate(fmt_rate(buf, sizeof(buf), bps), &v) == 0 ? v : bps;
}

/*
 * diff = on - (pre + post) / 2, each printed with three significant
 * digits: each is off by at most half a unit of its third digit, 0.5%.
 */
static bool agrees(const double t[4])
{
	double want = t[1] - (t[0] + t[2]) / 2;
	double tol = 0.0051 * (fabs(t[1]) + fabs(t[0]) / 2 + fabs(t[2]) / 2 + fabs(t[3])) + 1;

	return fabs(want - t[3]) <= tol;
}

static const char *const field[4] = { "pre", "on", "post", "diff" };
static const double mults[4] = { 1, 1e3, 1e6, 1e9 };

/*
 * Readings of the fields with alternatives that agree; found: the last
 * of them. Only called when the row as printed disagrees.
 */
static int readings(const double num[4], const struct unit *const u[4], double found[4])
{
	int count = 0;

	for (int c = 0; c < 256; c++) {
		double t[4];
		bool valid = true;

		for (int f = 0; f < 4; f++) {
			int k = (c >> (2 * f)) & 3;

			valid = valid && (u[f]->alts ? (u[f]->alts >> k) & 1 : k == 0);
			t[f] = num[f] * (u[f]->alts ? mults[k] : u[f]->mult);
		}
		if (valid && agrees(t)) {
			count++;
			memcpy(found, t, sizeof(t));
		}
	}
	return count;
}

/*
 * diff = on - (pre + post) / 2 holds at any scale, so a row whose every
 * µ was lost agrees read in seconds too. A plain read of a second or
 * more is no flashbench read: when the row agrees with its "s" read as
 * µs, that is what it was.
 */
static bool lost_mu(const double num[4], const struct unit *const u[4], double t[4])
{
	bool any = false;

	for (int f = 0; f < 4; f++) {
		bool s = u[f]->alts == S_OR_US;

		t[f] = num[f] * (s ? 1e3 : u[f]->mult);
		any = any || (s && (f == 0 || f == 2));
	}
	return any && agrees(t);
}

static void describe_restored(char *const tok[4], const double as_read[4], const double t[4],
			      struct so_line *o)
{
	size_t len = 0;

	o->note[0] = '\0';
	for (int f = 0; f < 4; f++) {
		char b[FB_FMT_LEN];

		if (t[f] == as_read[f])
			continue;
		len += (size_t)snprintf(o->note + len, sizeof(o->note) - len, "%s%s %s read as %s",
					len ? ", " : "", field[f], tok[f],
					fmt_time(b, sizeof(b), t[f]));
		if (len >= sizeof(o->note))
			break;
	}
}

int so_align_times(char *const tok[4], struct so_line *o)
{
	const struct unit *u[4];
	double num[4], as_read[4], t[4];
	char b[FB_FMT_LEN];
	int n;

	for (int f = 0; f < 4; f++) {
		if (!(u[f] = find_unit(tok[f], time_units, N_TIME_UNITS, &num[f])))
			return -1;
		as_read[f] = num[f] * u[f]->mult;
	}
	memcpy(t, as_read, sizeof(t));
	o->check = SO_AGREES;
	if (lost_mu(num, u, t)) {
		o->check = SO_RESTORED;
		describe_restored(tok, as_read, t, o);
	} else if (agrees(as_read)) {
		memcpy(t, as_read, sizeof(t));
	} else if ((n = readings(num, u, t)) == 1) {
		o->check = SO_RESTORED;
		describe_restored(tok, as_read, t, o);
	} else {
		o->check = SO_INCONSISTENT;
		memcpy(t, as_read, sizeof(t));
		snprintf(o->note, sizeof(o->note), "diff %s disagrees with on - (pre + post) / 2 = %s%s",
			 tok[3], fmt_time(b, sizeof(b), as_read[1] - (as_read[0] + as_read[2]) / 2),
			 n > 1 ? " (its units can be read in several ways)" : "");
	}
	o->pre = t[0];
	o->on = t[1];
	o->post = t[2];
	o->diff = t[3];
	return 0;
}
