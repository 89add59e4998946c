/*
 * --compare as a mode of the command line: refuses a test, fewer than two
 * inputs or more than CMP_MAX_INPUTS, reads every input, refuses inputs
 * that do not match (before --out is created), then writes the comparison
 * through the output layer in the chosen format.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare/compare_cmd.h"
#include "core/engine.h"
#include "core/out.h"
#include "safety/safety.h"
#include "compare/compare.h"

static int usage(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "flashbench: --compare: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return FB_EUSAGE;
}

/*
 * --out may not be one of the inputs: it would be read as it is
 * overwritten. The baseline goes through the one rule of what --out may
 * land on (which also locks it); the others are compared by inode.
 */
static int check_out(const struct fb_opts *o, int nargs, char **args)
{
	struct run_paths p = { .device = strcmp(args[0], "-") ? args[0] : "/dev/stdin",
			       .out = o->out };
	struct stat so, si;
	int r = safety_check_run(&p);

	if (r != FB_OK || !o->out || stat(o->out, &so) < 0)
		return r;
	for (int i = 1; i < nargs; i++)
		if (stat(args[i], &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino)
			return usage("--out=%s: is the input '%s': it would be overwritten", o->out,
				     args[i]);
	return FB_OK;
}

/* The inputs: each file one, or the runs in a single file each one. */
static int read_all(struct ci_input *in, int nargs, char **args, size_t *n)
{
	char err[8448];
	int r = FB_OK;

	*n = 0;
	if (nargs == 1) {
		r = ci_read_runs(args[0], in, CMP_MAX_INPUTS, n, err, sizeof(err));
		if (r == FB_OK && *n < 2) {
			snprintf(err, sizeof(err), "--compare: needs at least two saved results (A, "
				 "the baseline, and B), got one: '%s' holds one run", args[0]);
			r = FB_EUSAGE;
		}
	}
	for (int i = 0; nargs > 1 && i < nargs && r == FB_OK; i++) {
		*n = (size_t)i + 1;	/* what was read before an error is freed too */
		r = ci_read(args[i], &in[i], err, sizeof(err));
	}
	if (r == FB_OK)
		r = compare_check(in, *n, err, sizeof(err));
	if (r != FB_OK)
		fprintf(stderr, "flashbench: %s\n", err);
	return r;
}

int compare_main(const struct fb_opts *o, int nargs, char **args)
{
	struct ci_input *in;
	size_t n = 0;
	int r, stdins = 0;

	if (o->tests || o->restore || o->analyze)
		return usage("compares saved results and runs no test, nor %s%s",
			     o->restore ? "--restore" : o->analyze ? "--analyze" : "a test", "");
	if (nargs < 1)
		return usage("needs at least two saved results (A, the baseline, and B), or one "
			     "file that holds several runs%s%s", "", "");
	if (nargs > CMP_MAX_INPUTS)
		return usage("compares at most 26 inputs (A to Z), got more: '%s'%s", args[26], "");
	for (int i = 0; i < nargs; i++)
		stdins += strcmp(args[i], "-") == 0;
	if (stdins > 1)
		return usage("standard input (-) can be only one of the inputs%s%s", "", "");
	if ((r = check_out(o, nargs, args)) != FB_OK)
		return r;
	if (!(in = calloc(CMP_MAX_INPUTS, sizeof(*in))))
		return usage("%s%s", strerror(ENOMEM), "");
	/* A signal ends the reading (exit 130), a closed pipe is a write error (1). */
	eng_signals();
	r = read_all(in, nargs, args, &n);
	if (r == FB_OK && out_open(o->out, (enum out_format)o->format) < 0) {
		fprintf(stderr, "flashbench: --out: cannot open '%s': %s\n", o->out, strerror(errno));
		r = FB_EUSAGE;
	} else if (r == FB_OK) {
		out_run_begin(FB_VERSION, o->argc, o->argv);
		compare_emit(in, n);
		if (fb_stop) {
			out_note("interrupted by signal %d: the lines above are all that was compared",
				 (int)fb_stop);
			r = FB_EINTR;
		}
		if (out_close(r, r == FB_OK ? "done" : "interrupted", NULL) < 0 && r == FB_OK)
			r = FB_EDEV;
	}
	for (size_t i = 0; i < n; i++)
		ci_free(&in[i]);
	free(in);
	return r;
}
