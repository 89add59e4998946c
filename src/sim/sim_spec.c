/*
 * Parsing of sim: specs (the presets they start from: sim_presets.c).
 *
 * Value syntax, per kind of key:
 *   sizes     parse_size(): 4194304, 0x400000, 16K, 4M, 1.5M, 3MiB
 *   times     a number with a unit: 500us (or 500µs), 2ms, 1.5s; "0"
 *             alone is allowed. A bare number is refused rather than read
 *             as seconds, since "write-lat=500" is surely not 500 s.
 *   rates     bytes per second: "22M/s" is decimal (22,000,000 B/s, as
 *             flashbench prints rates), a plain size is binary ("20M" =
 *             20 MiB/s)
 *   counts    whole numbers within the key's range
 *   jitter    percent 0..100 ("5" or "5%")
 *   outliers  probability 0..1 ("0.001" or "0.1%")
 *   fail-at, fail-read-at, fail-write-at   an offset (a size); may be
 *             given up to SIM_MAX_FAIL times in all
 *   image     a path (it cannot contain a comma)
 */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "sim/sim_presets.h"
#include "sim/sim_spec.h"
#include "core/units.h"


enum ktype { K_SIZE, K_TIME, K_RATE, K_UINT, K_U64, K_PCT, K_PROB, K_FAIL, K_IMAGE };

struct key {
	const char *name;
	enum ktype type;
	size_t off;		/* into struct sim_params */
	uint64_t min, max;	/* K_UINT, K_SIZE, K_RATE; fail mode for K_FAIL */
	int group;		/* line of the preset listing; 0 = not listed */
};

#define P(f) offsetof(struct sim_params, f)

static const struct key keys[] = {
	{ "size", K_SIZE, P(size), 512, UINT64_MAX, 1 },
	{ "erase", K_SIZE, P(erase), 512, UINT64_MAX, 1 },
	{ "page", K_SIZE, P(page), 512, UINT64_MAX, 1 },
	{ "read-lat", K_TIME, P(read_lat), 0, 0, 2 },
	{ "read-bw", K_RATE, P(read_bw), 1, UINT64_MAX, 2 },
	{ "read-chunk", K_SIZE, P(read_chunk), 512, UINT64_MAX, 2 },
	{ "page-cross", K_TIME, P(page_cross), 0, 0, 2 },
	{ "erase-cross", K_TIME, P(erase_cross), 0, 0, 2 },
	{ "write-lat", K_TIME, P(write_lat), 0, 0, 3 },
	{ "write-bw", K_RATE, P(write_bw), 1, UINT64_MAX, 3 },
	{ "copy-bw", K_RATE, P(copy_bw), 1, UINT64_MAX, 3 },
	{ "erase-time", K_TIME, P(erase_ns), 0, 0, 3 },
	{ "open-au", K_UINT, P(open_au), 1, SIM_MAX_OPEN_AU, 4 },
	{ "open-au-random", K_UINT, P(open_au_random), 0, SIM_MAX_OPEN_AU, 4 },
	{ "fat-aus", K_UINT, P(fat_aus), 0, 1U << 30, 4 },
	{ "channels", K_UINT, P(channels), 1, SIM_MAX_CHANNELS, 4 },
	{ "cache", K_SIZE, P(cache), 0, UINT64_MAX, 5 },
	{ "cache-bw", K_RATE, P(cache_bw), 1, UINT64_MAX, 5 },
	{ "cache-recover", K_RATE, P(cache_recover), 0, UINT64_MAX, 5 },
	{ "cache-flush", K_SIZE, P(cache_flush), 0, UINT64_MAX, 5 },
	{ "log-aus", K_UINT, P(log_aus), 0, SIM_MAX_OPEN_AU, 9 },
	{ "log-merge", K_TIME, P(log_merge), 0, 0, 9 },
	{ "subpage-write", K_TIME, P(subpage_ns), 0, 0, 9 },
	{ "cmd-overhead", K_TIME, P(cmd_ns), 0, 0, 9 },
	{ "small-buffer", K_SIZE, P(small_buffer), 0, UINT64_MAX, 9 },
	{ "small-merge", K_TIME, P(small_merge), 0, 0, 9 },
	{ "random-evict", K_UINT, P(random_evict), 0, 1, 9 },
	{ "seed", K_U64, P(seed), 0, UINT64_MAX, 6 },
	{ "jitter", K_PCT, P(jitter), 0, 0, 6 },
	{ "outliers", K_PROB, P(outliers), 0, 0, 6 },
	{ "read-var", K_PCT, P(read_var), 0, 0, 7 },
	{ "cross-var", K_PCT, P(cross_var), 0, 0, 7 },
	{ "post-slow", K_PCT, P(post_slow), 0, 0, 7 },
	{ "stalls", K_PROB, P(stalls), 0, 0, 7 },
	{ "stall-time", K_TIME, P(stall_ns), 0, 0, 7 },
	{ "wrap", K_SIZE, P(wrap), 0, UINT64_MAX, 8 },
	{ "drop-from", K_SIZE, P(drop_from), 0, UINT64_MAX, 8 },
	{ "zoned", K_UINT, P(zoned), 0, 1, 8 },
	{ "conv-zones", K_UINT, P(conv_zones), 0, 1U << 30, 8 },
	{ "fail-at", K_FAIL, 0, SIM_FAIL_READ | SIM_FAIL_WRITE, 0, 0 },
	{ "fail-read-at", K_FAIL, 0, SIM_FAIL_READ, 0, 0 },
	{ "fail-write-at", K_FAIL, 0, SIM_FAIL_WRITE, 0, 0 },
	{ "image", K_IMAGE, 0, 0, 0, 0 },
	{ "stated-erase", K_SIZE, P(stated_erase), 0, UINT64_MAX, 8 },
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static const struct key *find_key(const char *name)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (strcmp(keys[i].name, name) == 0)
			return &keys[i];
	return NULL;
}

/* ---- exact formatting: what is printed parses back to the same value */

static char *exact_scaled(char *buf, size_t len, uint64_t v,
			  const uint64_t *scale, const char *const *unit, int n)
{
	for (int i = 0; i < n && v; i++) {
		if (v % scale[i] == 0) {
			snprintf(buf, len, "%llu%s", (unsigned long long)(v / scale[i]), unit[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

static char *exact_time(char *buf, size_t len, uint64_t ns)
{
	static const uint64_t s[] = { 1000000000ULL, 1000000ULL, 1000ULL, 1 };
	static const char *const u[] = { "s", "ms", "us", "ns" };

	return exact_scaled(buf, len, ns, s, u, 4);
}

static char *exact_rate(char *buf, size_t len, uint64_t bps)
{
	static const uint64_t s[] = { 1000000000ULL, 1000000ULL, 1000ULL };
	static const char *const u[] = { "G/s", "M/s", "K/s" };

	return exact_scaled(buf, len, bps, s, u, 3);
}

static void format_value(const struct key *k, const struct sim_params *p,
			 char *buf, size_t len)
{
	const char *base = (const char *)p + k->off;

	switch (k->type) {
	case K_SIZE:
		fmt_size_exact(buf, len, *(const uint64_t *)base, "");
		break;
	case K_TIME:
		exact_time(buf, len, *(const uint64_t *)base);
		break;
	case K_RATE:
		exact_rate(buf, len, *(const uint64_t *)base);
		break;
	case K_UINT:
		snprintf(buf, len, "%u", *(const unsigned *)base);
		break;
	case K_U64:
		snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)base);
		break;
	case K_PCT:
	case K_PROB:
		snprintf(buf, len, "%.15g", *(const double *)base);
		break;
	default:
		buf[0] = '\0';
	}
}

/* ---- parsing of values */

/* A time needs a unit; "µs" is accepted for "us". */
static int parse_time(const char *s, uint64_t *ns)
{
	char tmp[64];
	size_t n = strlen(s);

	if (strcmp(s, "0") == 0) {
		*ns = 0;
		return 0;
	}
	if (n == 0 || n >= sizeof(tmp) || !isalpha((unsigned char)s[n - 1]))
		return -1;
	snprintf(tmp, sizeof(tmp), "%s", s);
	if (n > strlen("µs") && strcmp(tmp + n - strlen("µs"), "µs") == 0)
		strcpy(tmp + n - strlen("µs"), "us");
	return parse_duration(tmp, ns);
}

/* A number with an optional trailing '%'; *pct tells whether it had one. */
static int parse_percent(const char *s, double *v, int *pct)
{
	char num[64];
	size_t n = strlen(s);

	*pct = n > 1 && s[n - 1] == '%';
	if (n == 0 || n >= sizeof(num) || !isdigit((unsigned char)s[0]))
		return -1;
	memcpy(num, s, n + 1);
	if (*pct)
		num[n - 1] = '\0';
	return parse_double(num, v);
}

static int set_fail(struct sim_params *p, const struct key *k, const char *val)
{
	uint64_t off;

	if (p->nfail >= SIM_MAX_FAIL || parse_size(val, &off) < 0)
		return -1;
	p->fail[p->nfail].off = off;
	p->fail[p->nfail].mode = (unsigned)k->min;
	p->nfail++;
	return 0;
}

static int set_number(struct sim_params *p, const struct key *k, const char *val)
{
	char *base = (char *)p + k->off;
	uint64_t v = 0;
	int r;

	switch (k->type) {
	case K_SIZE:
		r = parse_size(val, &v);
		break;
	case K_RATE:
		r = parse_rate(val, &v);
		break;
	case K_TIME:
		return parse_time(val, (uint64_t *)base);
	case K_U64:
		return parse_uint(val, 0, UINT64_MAX, (uint64_t *)base);
	default:
		r = parse_uint(val, k->min, k->max, &v);
		if (r == 0)
			*(unsigned *)base = (unsigned)v;
		return r;
	}
	if (r < 0 || v < k->min || v > k->max)
		return -1;
	*(uint64_t *)base = v;
	return 0;
}

static int set_value(struct sim_spec *sp, const struct key *k, const char *val)
{
	double *dst = (double *)((char *)&sp->p + k->off);
	double d;
	int pct;

	switch (k->type) {
	case K_IMAGE:
		if (!*val || strlen(val) >= sizeof(sp->image))
			return -1;
		strcpy(sp->image, val);
		return 0;
	case K_FAIL:
		return set_fail(&sp->p, k, val);
	case K_PCT:
		if (parse_percent(val, &d, &pct) < 0 || d < 0 || d > 100)
			return -1;
		*dst = d;
		return 0;
	case K_PROB:
		if (parse_percent(val, &d, &pct) < 0)
			return -1;
		if (pct)
			d /= 100;
		if (d < 0 || d > 1)
			return -1;
		*dst = d;
		return 0;
	default:
		return set_number(&sp->p, k, val);
	}
}

/* ---- the spec as a whole */

/* A fake card's sizes and the zones: 0 or -1 with a message. */
static int validate_fake(const struct sim_params *p, uint64_t naus, char *err, size_t errlen)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN];
	const char *key = p->wrap % 512 ? "wrap" : p->drop_from % 512 ? "drop-from" : NULL;
	uint64_t v = p->wrap % 512 ? p->wrap : p->drop_from;

	if (key) {
		snprintf(err, errlen, "sim: %s (%s) is not a multiple of 512", key,
			 fmt_size_exact(a, sizeof(a), v, ""));
		return -1;
	}
	key = p->wrap > p->size ? "wrap" : p->drop_from > p->size ? "drop-from" : NULL;
	v = p->wrap > p->size ? p->wrap : p->drop_from;
	if (key) {
		snprintf(err, errlen, "sim: %s (%s) lies beyond the end of the card (%s)", key,
			 fmt_size_exact(a, sizeof(a), v, ""),
			 fmt_size_exact(b, sizeof(b), p->size, ""));
		return -1;
	}
	if (p->conv_zones && !p->zoned) {
		snprintf(err, errlen, "sim: conv-zones (%u) needs zoned=1", p->conv_zones);
		return -1;
	}
	if (p->conv_zones > naus) {
		snprintf(err, errlen, "sim: conv-zones (%u) exceeds the card's %llu zones",
			 p->conv_zones, (unsigned long long)naus);
		return -1;
	}
	return 0;
}

/* Checks that involve more than one key; 0 or -1 with a message. */
static int validate(const struct sim_params *p, char *err, size_t errlen)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN];
	uint64_t naus;

	if (p->page % 512 != 0) {
		snprintf(err, errlen, "sim: page (%s) is not a multiple of 512",
			 fmt_size_exact(a, sizeof(a), p->page, ""));
		return -1;
	}
	if (p->erase % p->page != 0) {
		snprintf(err, errlen, "sim: page (%s) does not divide erase (%s)",
			 fmt_size_exact(a, sizeof(a), p->page, ""),
			 fmt_size_exact(b, sizeof(b), p->erase, ""));
		return -1;
	}
	if (p->size % 512 != 0 || p->read_chunk % 512 != 0) {
		int sz = p->size % 512 != 0;

		snprintf(err, errlen, "sim: %s (%s) is not a multiple of 512",
			 sz ? "size" : "read-chunk",
			 fmt_size_exact(a, sizeof(a), sz ? p->size : p->read_chunk, ""));
		return -1;
	}
	if (p->size < p->erase) {
		snprintf(err, errlen, "sim: size (%s) is smaller than erase (%s)",
			 fmt_size_exact(a, sizeof(a), p->size, ""),
			 fmt_size_exact(b, sizeof(b), p->erase, ""));
		return -1;
	}
	naus = (p->size + p->erase - 1) / p->erase;
	if (p->fat_aus > naus) {
		snprintf(err, errlen, "sim: fat-aus (%u) exceeds the card's %llu AUs",
			 p->fat_aus, (unsigned long long)naus);
		return -1;
	}
	if (validate_fake(p, naus, err, errlen) < 0)
		return -1;
	for (unsigned i = 0; i < p->nfail; i++) {
		if (p->fail[i].off >= p->size) {
			snprintf(err, errlen, "sim: fail offset (%s) lies beyond the end of the card (%s)",
				 fmt_size_exact(a, sizeof(a), p->fail[i].off, ""),
				 fmt_size_exact(b, sizeof(b), p->size, ""));
			return -1;
		}
	}
	return 0;
}

/* A first item without '=' names a preset. */
static int apply_preset(struct sim_spec *sp, const char *name, char *err, size_t errlen)
{
	const struct sim_params *p = sim_preset(name);

	if (!p) {
		snprintf(err, errlen, "sim: unknown preset '%s' (see --list-sims)", name);
		return -1;
	}
	sp->p = *p;
	snprintf(sp->preset, sizeof(sp->preset), "%s", name);
	return 0;
}

_Static_assert(NKEYS <= 64, "apply_item() keeps one bit per key");

/* One item "key=value" (or a bare word, which is an error here). seen has
 * a bit for each key given so far: a key given twice is refused (the
 * last used to win silently), except the fail points, which add up. */
static int apply_item(struct sim_spec *sp, char *item, uint64_t *seen, char *err, size_t errlen)
{
	char *eq = strchr(item, '=');
	const struct key *k;

	if (!eq) {
		if (sim_preset(item))
			snprintf(err, errlen, "sim: preset '%s' must come first", item);
		else if (find_key(item))
			snprintf(err, errlen, "sim: missing value for key '%s'", item);
		else
			snprintf(err, errlen, "sim: unknown key '%s'", item);
		return -1;
	}
	*eq = '\0';
	k = find_key(item);
	if (!k) {
		snprintf(err, errlen, "sim: unknown key '%s'", item);
		return -1;
	}
	if (k->type != K_FAIL && (*seen >> (k - keys) & 1)) {
		snprintf(err, errlen, "sim: key '%s' given twice", k->name);
		return -1;
	}
	*seen |= 1ull << (k - keys);
	if (set_value(sp, k, eq + 1) < 0) {
		if (k->type == K_FAIL && sp->p.nfail >= SIM_MAX_FAIL)
			snprintf(err, errlen, "sim: more than %d fail points", SIM_MAX_FAIL);
		else
			snprintf(err, errlen, "sim: bad value for %s: '%s'", k->name, eq + 1);
		return -1;
	}
	return 0;
}

int sim_spec_parse(const char *spec, struct sim_spec *out, char *err, size_t errlen)
{
	char item[sizeof(out->image) + 32];
	const char *s = spec ? spec : "";
	int first = 1, named = 0;	/* named: the first item was a preset */
	uint64_t seen = 0;

	memset(out, 0, sizeof(*out));
	apply_preset(out, sim_preset_at(0, NULL), err, errlen);
	while (*s) {
		size_t n = strcspn(s, ",");

		if (n >= sizeof(item)) {
			snprintf(err, errlen, "sim: item too long: '%.40s...'", s);
			return -1;
		}
		memcpy(item, s, n);
		item[n] = '\0';
		s += n + (s[n] == ',');
		if (n == 0)
			continue;	/* tolerate ",," and a trailing comma */
		if (first && !strchr(item, '=')) {
			if (apply_preset(out, item, err, errlen) < 0)
				return -1;
			named = 1;
		} else if (named && sim_preset(item)) {
			snprintf(err, errlen, "sim: two presets, '%s' and '%s': give one, "
				 "then key=value", out->preset, item);
			return -1;
		} else if (apply_item(out, item, &seen, err, errlen) < 0) {
			return -1;
		}
		first = 0;
	}
	return validate(&out->p, err, errlen);
}

/* ---- listing */

/* Append "key=value" for every listed key of group g (0: all of them). */
static size_t format_group(const struct sim_params *p, int g, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NKEYS; i++) {
		char v[FB_FMT_LEN];
		int n;

		if (keys[i].group == 0 || (g && keys[i].group != g))
			continue;
		format_value(&keys[i], p, v, sizeof(v));
		n = snprintf(buf + used, len - used, "%s%s=%s",
			     used ? "," : "", keys[i].name, v);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	return used;
}

char *sim_params_format(const struct sim_params *p, char *buf, size_t len)
{
	if (len == 0)
		return buf;
	format_group(p, 0, buf, len);
	return buf;
}

/* The readahead plateau of sim_model.h: read_chunk / (A + T). */
static double plateau_rate(const struct sim_params *p)
{
	double a = (double)(p->read_lat + p->page_cross);
	double t = (double)sim_xfer_ns(p->read_chunk, p->read_bw);

	return (double)p->read_chunk * 1e9 / (a + t);
}

void sim_list_presets(FILE *f)
{
	char line[512], a[FB_FMT_LEN], b[FB_FMT_LEN];

	fprintf(f, "Simulated cards: sim:PRESET[,key=value...] or sim:key=value,...\n"
		"The first preset is the default. Parameters of each preset:\n");
	for (size_t i = 0; sim_preset_at(i, NULL); i++) {
		const char *what, *name = sim_preset_at(i, &what);
		const struct sim_params *p = sim_preset(name);

		fprintf(f, "\n%s\t%s\n", name, what);
		for (int g = 1; g <= 9; g++) {
			format_group(p, g, line, sizeof(line));
			fprintf(f, "\t%s\n", line);
		}
		fprintf(f, "\treadahead plateau %s from %s\n",
			fmt_rate(a, sizeof(a), plateau_rate(p)),
			fmt_size(b, sizeof(b), p->read_chunk));
	}
	fprintf(f, "\nOther keys: fail-at=OFFSET, fail-read-at=OFFSET, fail-write-at=OFFSET\n"
		"(a request covering OFFSET fails with EIO; up to %d in all),\n"
		"image=PATH (a backing file, so that reads return what was written),\n"
		"stated-erase=SIZE (the erase block the card claims, as an SD card's AU:\n"
		"--info shows it, -a compares; no effect on timing).\n"
		"A fake card: wrap=SIZE keeps only SIZE bytes (offset o lands on o %% SIZE),\n"
		"drop-from=OFFSET loses every write from OFFSET on (both need image=).\n"
		"zoned=1: every erase block is a zone written only at its write pointer\n"
		"(host-managed, all zones full at first), the first conv-zones of them\n"
		"conventional. cache-flush=SIZE: a full cache folds SIZE bytes at copy-bw.\n"
		"log-aus=N,log-merge=TIME: only the N AUs written last are fast, a write\n"
		"to another AU pays TIME (a merge regime below the GC one);\n"
		"subpage-write=TIME: a write covering part of a page pays TIME;\n"
		"cmd-overhead=TIME: every request pays TIME;\n"
		"small-buffer=SIZE,small-merge=TIME: writes of at most SIZE go to a buffer\n"
		"of their own (no AU opened, no GC), paying TIME when they go to another\n"
		"AU than the one before; random-evict=1: when the random-write slots\n"
		"are full, an AU written out of order takes the slot of the one written\n"
		"out of order least recently, which is merged once (a GC), instead of\n"
		"being collected itself on every such write (all of these 0: off).\n"
		"Times take a unit (500us, 3ms); rates \"22M/s\" are decimal bytes/s.\n",
		SIM_MAX_FAIL);
}

bool sim_device_image(const char *device, char *buf, size_t len)
{
	struct sim_spec *spec;
	char err[256];
	bool found;

	if (strncmp(device, "sim:", 4) != 0 || !(spec = calloc(1, sizeof(*spec))))
		return false;
	found = sim_spec_parse(device + 4, spec, err, sizeof(err)) == 0 && spec->image[0];
	if (found)
		snprintf(buf, len, "%s", spec->image);
	free(spec);
	return found;
}
