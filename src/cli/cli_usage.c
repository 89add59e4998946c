/*
 * The --help text, made from the same tables the parser reads: the
 * tests (each with its own options under it), the shared options and
 * the modes. A test added to the table shows up here by itself.
 */
#include <string.h>

#include "cli/cli.h"
#include "modules/test.h"

#define HELP_COLUMN 27

/* "  -b, --blocksize=SIZE     smallest block size", continuation lines indented. */
static void put_item(FILE *f, char letter, const char *name, const char *arg, bool optional,
		     const char *help)
{
	char left[128];
	int n;

	if (letter)
		n = snprintf(left, sizeof(left), "  -%c, --%s", letter, name);
	else
		n = snprintf(left, sizeof(left), "      --%s", name);
	if (arg)
		n += snprintf(left + n, sizeof(left) - (size_t)n, optional ? "[=%s]" : "=%s", arg);
	fputs(left, f);
	if (n >= HELP_COLUMN - 1)
		fprintf(f, "\n%*s", HELP_COLUMN, "");
	else
		fprintf(f, "%*s", HELP_COLUMN - n, "");
	for (const char *p = help; *p; p++) {
		fputc(*p, f);
		if (*p == '\n')
			fprintf(f, "%*s", HELP_COLUMN, "");
	}
	fputc('\n', f);
}

static void put_options(FILE *f, const struct fb_option *p)
{
	for (; p && p->name; p++)
		put_item(f, p->letter, p->name, p->arg, p->arg_optional, p->help);
}

/* "(TEST: -a -s -i --readahead -f -O\n or --find-open-au, below)" */
static void put_test_list(FILE *f)
{
	int col = 45;

	fputs("Usage: flashbench TEST... [OPTIONS] DEVICE   (TEST:", f);
	for (const struct fb_test *const *t = fb_tests; *t; t++) {
		char word[64];
		int n;

		if ((*t)->letter)
			n = snprintf(word, sizeof(word), "%s-%c", t[1] ? "" : "or ", (*t)->letter);
		else
			n = snprintf(word, sizeof(word), "%s--%s", t[1] ? "" : "or ", (*t)->name);

		if (col + 6 + n > 79) {
			fprintf(f, "\n%*s", 44, "");
			col = 45 - 6;
		}
		fprintf(f, " %s", word);
		col += n + 1;
	}
	fputs(", below)\n", f);
}

void cli_usage(FILE *f)
{
	put_test_list(f);
	fputs("       flashbench --restore=BACKUP DEVICE\n"
	      "       flashbench --analyze=FILE [--advise] [--out=FILE] [--format=FMT]\n"
	      "       flashbench --compare A B [C...] [--out=FILE] [--format=FMT]\n"
	      "       flashbench --list-sims | --help | --version\n"
	      "Find out how a flash device behaves: erase block and page size, open\n"
	      "allocation units, FAT-optimised areas. DEVICE is a block device, a file,\n"
	      "or sim:[PRESET][,key=value...] for the built-in simulated card.\n"
	      "\n"
	      "Tests (read-only tests never write; write tests DESTROY data on DEVICE),\n"
	      "each with the options only it takes:\n", f);
	for (const struct fb_test *const *t = fb_tests; *t; t++) {
		put_item(f, (*t)->letter, (*t)->name, (*t)->flag_arg, true, (*t)->help);
		put_options(f, (*t)->options);
	}
	fputs("\nOptions shared by several tests:\n", f);
	put_options(f, cli_shared_options());
	fputs("\nModes (no test runs):\n", f);
	put_options(f, cli_mode_options());
	fputs("\n"
	      "SIZE: bytes (8388608), hex (0x800000), either with a binary suffix: B,\n"
	      "k K KB KiB kiB, m M MB MiB, g G GB GiB, t T TB TiB (KB and MB are binary too);\n"
	      "a fraction with a suffix when the bytes are whole (1.5M, 0.5K). Only --offset\n"
	      "may be 0.\n"
	      "An option that none of the selected tests uses is ignored with a warning\n"
	      "(see flashbench(1)).\n"
	      "Exit status: 0 done, 1 device error, 2 bad usage, 3 refused for safety,\n"
	      "130 interrupted (partial results printed). See flashbench(1).\n", f);
}
