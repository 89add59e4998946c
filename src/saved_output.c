/*
 * Reading saved output: see saved_output.h. Each line is taken apart on
 * whitespace (mail archives turn tabs into spaces), quote markers ("> ")
 * are dropped, and a line is used only when every field parses.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "saved_output.h"
#include "units.h"

#define SO_MAX_TOK 24

struct unit {
	const char *name;
	double mult;
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

static int with_unit(const char *s, const struct unit *u, size_t nu, double *out)
{
	const char *rest;
	double v;

	if (number(s, &v, &rest) < 0)
		return -1;
	for (size_t i = 0; i < nu; i++) {
		if (strcmp(rest, u[i].name) == 0) {
			*out = v * u[i].mult;
			return 0;
		}
	}
	return -1;
}

int so_parse_time(const char *s, double *ns)
{
	/*
	 * The original printed negative times without a unit ("-412331") or
	 * cut off ("-49389n"), and 999.5µs as "1e+03µ": all nanoseconds or
	 * truncated units. "Âµ" is a µ that went through Latin-1 once.
	 */
	static const struct unit u[] = {
		{ "", 1 }, { "ns", 1 }, { "n", 1 },
		{ "µs", 1e3 }, { "µ", 1e3 }, { "μs", 1e3 }, { "μ", 1e3 }, { "us", 1e3 },
		{ "u", 1e3 }, { "Âµs", 1e3 }, { "Âµ", 1e3 },
		{ "ms", 1e6 }, { "m", 1e6 }, { "s", 1e9 },
	};

	return with_unit(s, u, sizeof(u) / sizeof(u[0]), ns);
}

int so_parse_size(const char *s, uint64_t *bytes)
{
	static const struct unit u[] = {
		{ "", 1 }, { "B", 1 }, { "KiB", 1024.0 }, { "MiB", 1048576.0 },
		{ "GiB", 1073741824.0 }, { "TiB", 1099511627776.0 },
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
		{ "B/s", 1 }, { "/s", 1 }, { "K/s", 1e3 }, { "M/s", 1e6 }, { "G/s", 1e9 },
		{ "T/s", 1e12 },
	};

	if (with_unit(s, u, sizeof(u) / sizeof(u[0]), bps) < 0 || *bps < 0)
		return -1;
	return 0;
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

/* Split on blanks; "$[4 * 1024]" stays one token. Returns the count. */
static size_t split(char *s, char **tok, size_t max)
{
	size_t n = 0;
	int depth = 0;

	for (char *p = s; *p; p++) {
		if (*p == '[' || *p == '(')
			depth++;
		else if ((*p == ']' || *p == ')') && depth > 0)
			depth--;
		else if (depth > 0 && isspace((unsigned char)*p))
			memmove(p, p + 1, strlen(p)), p--;
	}
	for (char *p = strtok(s, " \t\r\n"); p && n < max; p = strtok(NULL, " \t\r\n"))
		tok[n++] = p;
	return n;
}

/* A value of --erasesize: a size, or shell arithmetic "$[4*1024*1024]", "$((...))". */
static int arith_size(const char *s, uint64_t *out)
{
	uint64_t v = 1, x;
	char buf[128], *p, *save;

	if (parse_size(s, out) == 0)
		return 0;
	if (strncmp(s, "$[", 2) != 0 && strncmp(s, "$((", 3) != 0)
		return -1;
	snprintf(buf, sizeof(buf), "%s", s + (s[1] == '[' ? 2 : 3));
	buf[strcspn(buf, "])")] = '\0';
	for (p = strtok_r(buf, "*", &save); p; p = strtok_r(NULL, "*", &save)) {
		if (parse_uint(p, 1, UINT32_MAX, &x) < 0 || v > UINT64_MAX / x)
			return -1;
		v *= x;
	}
	*out = v;
	return 0;
}

static bool is_flashbench(const char *t)
{
	size_t n = strlen(t);

	return strcmp(t, "flashbench") == 0 || (n > 11 && strcmp(t + n - 11, "/flashbench") == 0);
}

/* The value of --name=V or --name V (and -s V for a short alias). */
static const char *opt_value(char **tok, size_t n, size_t *i, const char *name, const char *s)
{
	size_t l = strlen(name);

	if (strncmp(tok[*i], name, l) == 0 && tok[*i][l] == '=')
		return tok[*i] + l + 1;
	if ((strcmp(tok[*i], name) == 0 || (s && strcmp(tok[*i], s) == 0)) && *i + 1 < n)
		return tok[++*i];
	return NULL;
}

/* What a flashbench command line (or our probe header) says. */
static void command(char **tok, size_t n, struct so_line *o)
{
	uint64_t x;
	const char *v;

	o->kind = SO_COMMAND;
	for (size_t i = 0; i < n; i++) {
		const char *t = tok[i];

		if (strcmp(t, "-a") == 0 || strcmp(t, "--align") == 0)
			o->is_align = true;
		else if (strcmp(t, "-O") == 0 || strcmp(t, "--open-au") == 0 ||
			 strcmp(t, "--find-open-au") == 0)
			o->is_open_au = true;
		else if (strcmp(t, "-r") == 0 || strcmp(t, "--random") == 0)
			o->random = true;
		else if ((v = opt_value(tok, n, &i, "--open-au-nr", NULL)) &&
			 parse_uint(v, 1, 100000, &x) == 0)
			o->nr = (unsigned)x;
		else if ((v = opt_value(tok, n, &i, "--erasesize", "-e")) && arith_size(v, &x) == 0)
			o->erase = x;
	}
	if (o->nr)
		o->is_open_au = true;
}

/* Headers of benchmark scripts: "AU=3, random access", "Align test: 2". */
static bool script_header(char **tok, size_t n, struct so_line *o)
{
	uint64_t x;

	if (n >= 3 && strncmp(tok[0], "AU=", 3) == 0 && strcmp(tok[2], "access") == 0) {
		char num[16];

		snprintf(num, sizeof(num), "%s", tok[0] + 3);
		num[strcspn(num, ",")] = '\0';
		if (parse_uint(num, 1, 100000, &x) < 0)
			return false;
		o->kind = SO_COMMAND;
		o->is_open_au = true;
		o->nr = (unsigned)x;
		o->random = strcmp(tok[1], "random") == 0;
		o->linear = strcmp(tok[1], "linear") == 0;
		return true;
	}
	if (n >= 2 && strcmp(tok[0], "Align") == 0 && strcmp(tok[1], "test:") == 0) {
		o->kind = SO_COMMAND;
		o->is_align = true;
		return true;
	}
	return false;
}

static void align_line(char **tok, size_t n, struct so_line *o)
{
	if (n == 10 && strcmp(tok[2], "pre") == 0 && strcmp(tok[4], "on") == 0 &&
	    strcmp(tok[6], "post") == 0 && strcmp(tok[8], "diff") == 0 &&
	    so_parse_size(tok[1], &o->boundary) == 0 && so_parse_time(tok[3], &o->pre) == 0 &&
	    so_parse_time(tok[5], &o->on) == 0 && so_parse_time(tok[7], &o->post) == 0 &&
	    so_parse_time(tok[9], &o->diff) == 0)
		o->kind = SO_ALIGN;
}

static void rate_line(char **tok, size_t n, struct so_line *o)
{
	if (so_parse_size(tok[0], &o->size) < 0 || so_parse_rate(tok[1], &o->rate) < 0)
		return;
	if (n == 2)
		o->kind = SO_RATE;
	else if (n == 4 && strcmp(tok[2], "slowest") == 0 && so_parse_rate(tok[3], &o->slowest) == 0)
		o->kind = SO_RATE;
}

/* Drop mail quoting and the "=====" decoration of script headers. */
static char *unwrap(char *s)
{
	size_t n;

	while (*s == '>' || *s == '=' || isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && (s[n - 1] == '=' || isspace((unsigned char)s[n - 1])))
		s[--n] = '\0';
	return s;
}

void so_classify(const char *line, struct so_line *out)
{
	char buf[1024], *tok[SO_MAX_TOK], *s;
	size_t n;

	memset(out, 0, sizeof(*out));
	out->kind = SO_SKIP;
	snprintf(buf, sizeof(buf), "%s", line);
	s = unwrap(buf);
	if (*s == '\0') {
		out->kind = SO_BLANK;
		return;
	}
	if (strncmp(s, "^C", 2) == 0 || strncmp(s, "interrupted by signal", 21) == 0 ||
	    strncmp(s, "stopped:", 8) == 0) {
		out->kind = SO_INTERRUPT;
		return;
	}
	n = split(s, tok, SO_MAX_TOK);
	if (n == 0)
		return;
	if (strcmp(tok[0], "align") == 0) {
		align_line(tok, n, out);
		return;
	}
	if (n == 2 || n == 4) {
		rate_line(tok, n, out);
		if (out->kind == SO_RATE)
			return;
	}
	if (script_header(tok, n, out))
		return;
	for (size_t i = 0; i < n; i++) {
		if (is_flashbench(tok[i]) || (i == 0 && strcmp(tok[0], "probe:") == 0)) {
			command(tok, n, out);
			return;
		}
	}
}
