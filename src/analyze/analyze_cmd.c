/*
 * --analyze as a mode of the command line: refuses a DEVICE or a test,
 * checks --out against the one rule of what it may land on, reads the
 * input (text, or JSON through analyze_json.c) and writes the verdicts
 * through the output layer in the chosen format.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analyze/analyze_cmd.h"
#include "analyze/analyze_json.h"
#include "core/engine.h"
#include "core/out.h"
#include "safety/safety.h"
#include "modules/test.h"
#include "verdicts/fit_card.h"
#include "analyze/analyze.h"

/* The tests that read the verdicts just printed (--advise), each in its own section. */
static int after_analyze(const struct fb_opts *o)
{
	int r = FB_OK;

	for (const struct fb_test *const *p = fb_tests; *p && r == FB_OK; p++) {
		if (!fb_test_selected(o, *p) || !(*p)->after_analyze)
			continue;
		out_test_begin((*p)->name);
		r = (*p)->run(o, NULL);
	}
	return r;
}

int analyze_main(const struct fb_opts *o, int nargs, char **args)
{
	/* The input is what the run reads: --out must not land on it. */
	struct run_paths p = { .device = strcmp(o->analyze, "-") ? o->analyze : "/dev/stdin",
			       .out = o->out };
	struct ai_input *in = NULL;
	char err[8448];
	int r, w;

	if (nargs > 0) {
		fprintf(stderr, "flashbench: --analyze=%s: takes no DEVICE, but got '%s'\n",
			o->analyze, args[0]);
		return FB_EUSAGE;
	}
	if ((o->tests & ~fb_tests_after_analyze()) || o->restore) {
		fprintf(stderr, "flashbench: --analyze=%s: reads saved output and runs no test\n",
			o->analyze);
		return FB_EUSAGE;
	}
	/* Everything refused before --out is created: one rule for what it may land on. */
	if ((r = safety_check_run(&p)) != FB_OK)
		return r;
	if (ai_open(&in, o->analyze, err, sizeof(err)) != FB_OK) {
		fprintf(stderr, "flashbench: %s\n", err);
		return FB_EUSAGE;
	}
	if (out_open(o->out, (enum out_format)o->format) < 0) {
		fprintf(stderr, "flashbench: --out: cannot open '%s': %s\n", o->out, strerror(errno));
		ai_close(in);
		return FB_EUSAGE;
	}
	/* A signal ends the reading with what was read, as it ends a test. */
	eng_signals();
	ai_json(in, &analyze_json_source);
	out_run_begin(FB_VERSION, o->argc, o->argv);
	out_test_begin("analyze");
	r = analyze_input(in);
	ai_close(in);
	if (r == FB_OK)
		r = after_analyze(o);
	/* A survey's card, last (--advise printed it already after its advice). */
	if (r == FB_OK)
		fit_card_print_last();
	/* A result that could not be written was said when it happened. */
	if ((w = out_close(r, r == FB_OK ? "done" : r == FB_EINTR ? "interrupted" : "failed",
			   NULL)) < 0 && r == FB_OK)
		r = FB_EDEV;
	return r;
}
