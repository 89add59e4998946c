/*
 * libFuzzer target for the command line: the input, split at newlines, is
 * argv[1..], parsed by cli_parse() in this process (it neither exits nor
 * prints), so libFuzzer sees the coverage of the option parsing. Nothing
 * is opened: when the command line is accepted, cli_check_geometry() is
 * run against made-up targets instead of the device.
 *
 * Besides not crashing (ASan, UBSan), it checks what cli_parse promises:
 * a usage error is one non-empty line; a second parse of the same
 * command line (getopt reset) gives the same answer, also into a small
 * buffer, where the message is cut short, not overrun; an accepted
 * command line has its DEVICE and consistent sizes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "modules/test.h"
#include "core/opts.h"
#include "core/target.h"

#define MAX_ARGS 32
#define SMALL 16

static void check_message(int r, const char *err, size_t len)
{
	if (!memchr(err, '\0', len))
		abort();
	if (r == FB_EUSAGE && (err[0] == '\0' || strchr(err, '\n')))
		abort();
}

/* The accepted command line, checked against a made-up target. */
static void check_accepted(const struct fb_opts *o, char **argv, int argc)
{
	/* no operations: a check that asks for one (queued requests) finds none */
	static const struct target_ops no_ops;
	static struct target t = { .ops = &no_ops };
	char err[8192];

	if (!o->device || o->nargs != 1 || o->args < argv || o->args + o->nargs > argv + argc)
		abort();
	if (o->restore)
		return;
	if (o->blocksize == 0 || o->erasesize == 0 || !o->count)
		abort();
	/* only the write tests cut an erase block into blocks */
	if (o->blocksize > o->erasesize && fb_tests_write(o))
		abort();
	for (int i = 0; i < 4; i++) {
		t.sector = i & 1 ? 4096 : 512;
		t.sim = i & 2;
		snprintf(t.path, sizeof(t.path), "%s", o->device);
		check_message(cli_check_geometry(o, &t, err, sizeof(err)), err, sizeof(err));
	}
}

/* Parse argv twice (the second copy into a small buffer): the same answer. */
static void parse(int argc, char **argv)
{
	char *argv2[MAX_ARGS + 2], err[8192], small[SMALL];
	struct fb_opts o, o2;
	int r, r2;

	memcpy(argv2, argv, sizeof(*argv) * (argc + 1));	/* getopt reorders argv */
	r = cli_parse(argc, argv, &o, err, sizeof(err));
	check_message(r, err, sizeof(err));
	r2 = cli_parse(argc, argv2, &o2, small, sizeof(small));
	check_message(r2, small, sizeof(small));
	if (r != r2 || strncmp(err, small, SMALL - 1) != 0)
		abort();
	if (r == FB_OK)
		check_accepted(&o, argv, argc);
	if (r == CLI_ANALYZE && !o.analyze)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, *argv[MAX_ARGS + 2], *save = NULL;
	int argc = 0;

	if (size > 4096)
		return 0;
	text = calloc(1, size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	argv[argc++] = "flashbench";
	for (char *a = strtok_r(text, "\n", &save); a && argc <= MAX_ARGS; a = strtok_r(NULL, "\n", &save))
		argv[argc++] = a;
	argv[argc] = NULL;
	parse(argc, argv);
	free(text);
	return 0;
}
