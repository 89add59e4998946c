/* Saved readahead sweeps read back: see saved_readahead.h. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "saved/saved_readahead.h"
#include "saved/saved_values.h"

void sr_init(struct sr_table *t)
{
	memset(t, 0, sizeof(*t));
	t->marked = -1;
}

int sr_add(struct sr_table *t, const struct so_line *l, unsigned long long line)
{
	size_t i = t->n;

	if (i >= SR_MAX_ROWS || l->nrates == 0 || l->nrates > SR_MAX_RUNS ||
	    (i && (l->size <= t->size[i - 1] || l->nrates != t->runs)))
		return -1;
	t->runs = (unsigned)l->nrates;
	t->size[i] = l->size;
	for (size_t j = 0; j < l->nrates; j++)
		t->rate[i][j] = l->rates[j];
	t->line[i] = line;
	if (l->mark && t->marked < 0)
		t->marked = (int)i;
	t->n++;
	return 0;
}

double sr_printed(double bps)
{
	double m = bps / 1e6;

	if (!isfinite(m))
		return bps;
	return 1e6 * (m >= 100 ? round(m) : m >= 10 ? round(m * 10) / 10 : round(m * 100) / 100);
}

/* A whole number followed by exactly the rest s names ("4" + "k"). */
static bool number_then(const char *t, uint64_t *v, const char **rest)
{
	char *end;

	if (!isdigit((unsigned char)t[0]))
		return false;
	*v = strtoull(t, &end, 10);
	*rest = end;
	return *v > 0 && *v < (1ull << 40);
}

/*
 * A readahead size: "4k", "1024k", "2M" as people write them (binary:
 * readahead is set in pages and sectors), our "128KiB", "512B". A number
 * alone is not a size.
 */
static bool ra_size(const char *t, uint64_t *out)
{
	static const struct { const char *u; uint64_t m; } units[] = {
		{ "B", 1 }, { "k", 1024 }, { "K", 1024 }, { "kB", 1024 }, { "KB", 1024 },
		{ "KiB", 1024 }, { "m", 1 << 20 }, { "M", 1 << 20 }, { "MB", 1 << 20 },
		{ "MiB", 1 << 20 }, { "G", 1 << 30 }, { "GB", 1 << 30 }, { "GiB", 1 << 30 },
	};
	const char *rest;
	uint64_t v;

	if (!number_then(t, &v, &rest))
		return false;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(rest, units[i].u) == 0) {
			*out = v * units[i].m;
			return true;
		}
	return false;
}

/* A rate unit of a mailed table: "MB/s" (decimal, as dd prints it). */
static double rate_unit(const char *u)
{
	static const struct { const char *u; double m; } units[] = {
		{ "kB/s", 1e3 }, { "KB/s", 1e3 }, { "MB/s", 1e6 }, { "GB/s", 1e9 },
		{ "KiB/s", 1024.0 }, { "MiB/s", 1048576.0 }, { "GiB/s", 1073741824.0 },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(u, units[i].u) == 0)
			return units[i].m;
	return 0;
}

/* A plain decimal number, all of t ("269", "24.0", "3.1"). */
static bool plain(const char *t, double *v)
{
	char *end;

	if (!isdigit((unsigned char)t[0]))
		return false;
	*v = strtod(t, &end);
	return *end == '\0' && isfinite(*v);
}

/* "123 MB/s" or "123MB/s" at tok[*i]: the rate in bytes/s. */
static bool with_unit(char **tok, size_t n, size_t *i, double *bps)
{
	char *end;
	double v, m;

	if (!isdigit((unsigned char)tok[*i][0]))
		return false;
	v = strtod(tok[*i], &end);
	if (!isfinite(v))
		return false;
	if (*end == '\0' && *i + 1 < n && (m = rate_unit(tok[*i + 1])) > 0) {
		*bps = v * m;
		*i += 2;
		return true;
	}
	if (*end != '\0' && (m = rate_unit(end)) > 0) {
		*bps = v * m;
		*i += 1;
		return true;
	}
	return false;
}

/* Our row's values: N rates in MB/s then N %CPU, "-" when not measured. */
static bool bare_values(char **tok, size_t n, double *rates, struct so_line *o)
{
	size_t k = n - 1;
	double v;

	if (k == 0 || k % 2)
		return false;
	for (size_t j = 1; j < n; j++)
		if (strcmp(tok[j], "-") != 0 && !plain(tok[j], &v))
			return false;
	for (size_t j = 0; j < k / 2; j++) {
		rates[j] = plain(tok[1 + j], &v) ? v * 1e6 : NAN;
		o->step = fmax(o->step, so_rel_step(tok[1 + j]));
	}
	o->nrates = k / 2;
	o->bare = true;
	return true;
}

static bool ordinal(const char *t)
{
	size_t d = strspn(t, "0123456789");

	return d > 0 && (strcmp(t + d, "st") == 0 || strcmp(t + d, "nd") == 0 ||
			 strcmp(t + d, "rd") == 0 || strcmp(t + d, "th") == 0);
}

/* "size 1st MB/s 2nd MB/s 1st %CPU 2nd %CPU", "rasize 1st run 2nd run", "rasize 1st 2nd". */
static bool header(char **tok, size_t n, struct so_line *o)
{
	unsigned runs = 0;

	if (n < 2 || (strcmp(tok[0], "size") != 0 && strcmp(tok[0], "rasize") != 0))
		return false;
	for (size_t i = 1; i < n; i++) {
		if (ordinal(tok[i])) {
			runs += !(i + 1 < n && strcmp(tok[i + 1], "%CPU") == 0);
			continue;
		}
		if (strcmp(tok[i], "MB/s") != 0 && strcmp(tok[i], "%CPU") != 0 &&
		    strcmp(tok[i], "run") != 0 && strcmp(tok[i], "(MB/s)") != 0)
			return false;
	}
	if (runs == 0)
		return false;
	o->kind = SO_RA_HEADER;
	o->runs = runs;
	o->is_readahead = true;
	return true;
}

static bool row(char **tok, size_t n, bool mark, double *rates, struct so_line *o)
{
	size_t i = 1, k = 0;

	if (!ra_size(tok[0], &o->size))
		return false;
	o->kind = SO_RA_ROW;
	o->mark = mark;
	o->is_readahead = true;
	o->rates = rates;
	if (n > 1 && bare_values(tok, n, rates, o))
		return o->nrates <= SR_MAX_RUNS;
	while (i < n && k < SR_MAX_RUNS) {
		const char *t = tok[i];

		if (!with_unit(tok, n, &i, &rates[k]))
			break;
		o->step = fmax(o->step, so_rel_step(t));
		k++;
	}
	o->nrates = k;
	o->rate = k ? rates[0] : 0;
	return k > 0 && i == n;
}

bool so_readahead(char **tok, size_t n, bool mark, double *rates, struct so_line *o)
{
	if (n == 0)
		return false;
	if (header(tok, n, o) || row(tok, n, mark, rates, o))
		return true;
	memset(o, 0, sizeof(*o));	/* the next reader starts clean */
	return false;
}

/* Split s on commas in place, empty fields kept. */
static size_t csv_fields(char *s, char **f, size_t room)
{
	size_t n = 0;

	for (char *p = s;; p++) {
		if (n < room && (p == s || p[-1] == '\0'))
			f[n++] = p;
		if (*p == '\0')
			break;
		if (*p == ',')
			*p = '\0';
	}
	return n;
}

bool so_readahead_csv(const char *s, double *rates, size_t room, struct so_line *o)
{
	char buf[1024], *f[2 + 2 * SR_MAX_RUNS + 1];
	size_t n, k;
	uint64_t size;
	const char *rest;

	if (!strchr(s, ',') || strlen(s) >= sizeof(buf))
		return false;
	strcpy(buf, s);
	n = csv_fields(buf, f, sizeof(f) / sizeof(f[0]));
	if (n >= 4 && strcmp(f[0], "size_bytes") == 0 && strcmp(f[1], "plateau") == 0) {
		o->kind = SO_RA_HEADER;
		o->is_readahead = true;
		for (size_t i = 2; i < n; i++)
			o->runs += strncmp(f[i], "rate_bps_", 9) == 0;
		return o->runs > 0;
	}
	/* The step table of --runs (steps.h): ours, no data. */
	if ((n == 5 && strcmp(f[0], "from_bytes") == 0) ||
	    (n == 5 && number_then(f[0], &size, &rest) && !*rest && number_then(f[1], &size, &rest) &&
	     !*rest && isalpha((unsigned char)f[4][0]))) {
		o->kind = SO_OURS;
		return true;
	}
	if (n < 4 || n % 2 || !number_then(f[0], &size, &rest) || *rest ||
	    (strcmp(f[1], "true") != 0 && strcmp(f[1], "false") != 0))
		return false;
	k = (n - 2) / 2;
	if (k > room || k > SR_MAX_RUNS)
		return false;
	for (size_t i = 2; i < n; i++) {
		double v;

		if (*f[i] != '\0' && !plain(f[i], &v))
			return false;
		if (i < 2 + k && *f[i]) {
			/* Read as our text prints it: three significant digits. */
			char shown[32];

			rates[i - 2] = sr_printed(v);
			snprintf(shown, sizeof(shown), "%.3g", rates[i - 2] / 1e6);
			o->step = fmax(o->step, so_rel_step(shown));
		} else if (i < 2 + k) {
			rates[i - 2] = NAN;
		}
	}
	o->kind = SO_RA_ROW;
	o->size = size;
	o->mark = strcmp(f[1], "true") == 0;
	o->bare = o->is_readahead = true;
	o->rates = rates;
	o->nrates = k;
	o->rate = rates[0];
	return true;
}

bool so_readahead_ours(char **tok, size_t n, struct so_line *o)
{
	size_t i = n && strcmp(tok[0], "#") == 0;

	/* The steps of --runs: "64KiB -> 128KiB: +20%, significant". */
	if (n >= 3 && isdigit((unsigned char)tok[0][0]) && strcmp(tok[1], "->") == 0 &&
	    tok[2][strlen(tok[2]) - 1] == ':') {
		o->kind = SO_OURS;
		return true;
	}
	/* The head and end of our CSV, exactly as out_csv.c prints them:
	 * "# parameter size=16777216", "# table: readahead", "# status: done,
	 * exit status 0", "# device: sim:sd (...), 4294967296 bytes, sector 512". */
	if (i && n > 2 && ((n == 3 && strcmp(tok[1], "parameter") == 0 && strchr(tok[2], '=')) ||
			   (n == 3 && strcmp(tok[1], "table:") == 0) ||
			   (strcmp(tok[1], "status:") == 0 && strcmp(tok[n - 2], "status") == 0) ||
			   (strcmp(tok[1], "device:") == 0 && strcmp(tok[n - 2], "sector") == 0))) {
		o->kind = SO_OURS;
		return true;
	}
	if (i + 1 >= n || strcmp(tok[i], "readahead:") != 0)
		return false;
	o->kind = SO_OURS;
	if (strcmp(tok[i + 1], "O_DIRECT") == 0 || strcmp(tok[i + 1], "buffered") == 0) {
		o->kind = SO_COMMAND;
		o->is_readahead = true;
		o->buffered = strcmp(tok[i + 1], "buffered") == 0;
	}
	return true;
}
