/*
 * What a line of saved output says about the run that follows (or, for
 * this tool's own verdict lines, the run just printed): a flashbench
 * command line ("$ ./flashbench ...", "# flashbench ...", "sudo
 * flashbench ..."), the header of a benchmark script ("AU=3, random
 * access", "Align test: 2"), or this tool's own probe and search headers.
 */
#include <stdio.h>
#include <string.h>

#include "core/parse.h"
#include "saved/saved_command.h"
#include "saved/saved_values.h"

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

/* The value of --name=V or --name V, or of the short -s V and -sV. */
static const char *opt_value(char **tok, size_t n, size_t *i, const char *name, const char *s)
{
	size_t l = strlen(name);

	if (strncmp(tok[*i], name, l) == 0 && tok[*i][l] == '=')
		return tok[*i] + l + 1;
	if (strcmp(tok[*i], name) == 0 || (s && strcmp(tok[*i], s) == 0))
		return *i + 1 < n ? tok[++*i] : NULL;
	if (s && strncmp(tok[*i], s, 2) == 0 && tok[*i][2] != '\0')
		return tok[*i] + 2;
	return NULL;
}

static bool flag(const char *t, const char *s, const char *l)
{
	return strcmp(t, s) == 0 || strcmp(t, l) == 0;
}

/* One option of a command line; false when it is none we read. */
static bool option(char **tok, size_t n, size_t *i, struct so_line *o)
{
	const char *t = tok[*i], *v;
	uint64_t x;

	if (flag(t, "-a", "--align"))
		o->is_align = true;
	else if (flag(t, "-O", "--open-au") || strcmp(t, "--find-open-au") == 0)
		o->is_open_au = true;
	else if (flag(t, "-f", "--find-fat"))
		o->is_find_fat = true;
	else if (flag(t, "-r", "--random"))
		o->random = true;
	else if (strcmp(t, "--readahead") == 0)
		o->is_readahead = true;
	else if (strcmp(t, "--buffered") == 0)
		o->buffered = true;
	else if ((v = opt_value(tok, n, i, "--open-au-nr", NULL)))
		o->nr = parse_uint(v, 1, 100000, &x) == 0 ? (unsigned)x : 0;
	else if ((v = opt_value(tok, n, i, "--fat-nr", NULL)))
		o->fat_nr = parse_uint(v, 1, 100000, &x) == 0 ? (unsigned)x : 0;
	else if ((v = opt_value(tok, n, i, "--erasesize", "-e")))
		o->erase = arith_size(v, &x) == 0 ? x : 0;
	else if ((v = opt_value(tok, n, i, "--blocksize", "-b")))
		o->blocksize = arith_size(v, &x) == 0 ? x : 0;
	else
		return false;
	return true;
}

/* What a flashbench command line (or our probe header) says. */
static void command(char **tok, size_t n, size_t from, struct so_line *o)
{
	o->kind = SO_COMMAND;
	for (size_t i = from; i < n; i++)
		option(tok, n, &i, o);
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

/* "find-open-au: erase block 4MiB, block size 16KiB, ..., linear"; other
 * find-open-au lines are summaries. */
static void search_header(char **tok, size_t n, struct so_line *o)
{
	uint64_t x;

	o->kind = SO_OURS;
	if (n < 7 || strcmp(tok[1], "erase") != 0 || strcmp(tok[5], "size") != 0)
		return;
	o->kind = SO_COMMAND;
	o->is_open_au = o->is_probe = true;
	tok[3][strcspn(tok[3], ",")] = '\0';
	tok[6][strcspn(tok[6], ",")] = '\0';
	if (parse_size(tok[3], &x) == 0)
		o->erase = x;
	if (parse_size(tok[6], &x) == 0)
		o->blocksize = x;
	o->random = strcmp(tok[n - 1], "random") == 0;
	o->linear = strcmp(tok[n - 1], "linear") == 0;
}

/*
 * Our own verdict lines name the parameters of the run above them, which
 * our output does not print otherwise: "verdict: 3 open AUs (random): ...".
 */
static void verdict(char **tok, size_t n, struct so_line *o)
{
	uint64_t x;
	size_t m = 1;

	o->kind = SO_VERDICT;
	if (n < 2)
		return;
	if (n > 3 && parse_uint(tok[1], 1, 100000, &x) == 0 && strcmp(tok[2], "open") == 0 &&
	    (strcmp(tok[3], "AU") == 0 || strcmp(tok[3], "AUs") == 0)) {
		o->nr = (unsigned)x;
		m = 4;
	} else if (n > 2 && strcmp(tok[1], "open-au") == 0 && strcmp(tok[2], "run") == 0) {
		m = 3;
	} else {
		/* verdict_findfat.c: "FAT-optimised area (mode)...", "no FAT-optimised area seen
		 * (mode)", "find-fat (mode): ..." */
		o->is_find_fat = strcmp(tok[1], "FAT-optimised") == 0 || strcmp(tok[1], "find-fat") == 0 ||
				 (n > 2 && strcmp(tok[1], "no") == 0 && strcmp(tok[2], "FAT-optimised") == 0);
		for (m = 2; o->is_find_fat && m < n && m < 6 && !o->random && !o->linear; m++) {
			o->random = strncmp(tok[m], "(random)", 8) == 0;
			o->linear = strncmp(tok[m], "(linear)", 8) == 0;
		}
		return;
	}
	o->is_open_au = true;
	if (m < n && strncmp(tok[m], "(random)", 8) == 0)
		o->random = true;
	else if (m < n && strncmp(tok[m], "(linear)", 8) == 0)
		o->linear = true;
}

/* A command line goes on with an option or a device ("flashbench README" is prose). */
static bool has_argument(char **tok, size_t n, size_t from)
{
	for (size_t i = from; i < n; i++)
		if (tok[i][0] == '-' || tok[i][0] == '/' || tok[i][0] == '$' ||
		    strncmp(tok[i], "sim:", 4) == 0)
			return true;
	return false;
}

bool so_command_at(char **tok, size_t n, size_t i)
{
	return is_flashbench(tok[i]) && has_argument(tok, n, i + 1);
}

bool so_command(char **tok, size_t n, struct so_line *o)
{
	if (n == 0)
		return false;
	if (strcmp(tok[0], "verdict:") == 0) {
		verdict(tok, n, o);
		return true;
	}
	if (strcmp(tok[0], "find-open-au:") == 0) {
		search_header(tok, n, o);
		return true;
	}
	if (strcmp(tok[0], "probe:") == 0) {
		command(tok, n, 1, o);
		o->is_probe = true;
		return true;
	}
	if (script_header(tok, n, o))
		return true;
	for (size_t i = 0; i < n; i++) {
		if (is_flashbench(tok[i]) && has_argument(tok, n, i + 1)) {
			command(tok, n, i + 1, o);
			o->is_flashbench = true;
			return true;
		}
	}
	return false;
}
