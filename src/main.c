/*
 * flashbench: find out how a flash device really behaves.
 * The command line (cli/), the modes (analyze/, compare/), then one run
 * of the selected tests (run/), all driven by the test table
 * (modules/table.c).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "analyze/analyze_cmd.h"
#include "compare/compare_cmd.h"
#include "safety/preserve.h"
#include "safety/safety.h"
#include "run/run.h"
#include "sim/sim_spec.h"

/*
 * Room for any usage message: at most two arguments (each below Linux's
 * MAX_ARG_STRLEN, 32 pages) or a 4 KiB path, plus the words. Messages were
 * printed whole before cli/cli.c wrote them into a buffer, and still are.
 */
static char usage_msg[2 * 128 * 1024 + 8192];

int main(int argc, char **argv)
{
	struct fb_opts o;

	safety_guard_stderr();
	switch (cli_parse(argc, argv, &o, usage_msg, sizeof(usage_msg))) {
	case FB_OK:
		break;
	case CLI_HELP:
		cli_usage(stdout);
		return FB_OK;
	case CLI_VERSION:
		printf("flashbench %s\n", FB_VERSION);
		return FB_OK;
	case CLI_LIST_SIMS:
		sim_list_presets(stdout);
		return FB_OK;
	case CLI_ANALYZE:	/* reads saved output: no DEVICE, no test */
		return analyze_main(&o, o.nargs, o.args);
	case CLI_COMPARE:	/* reads saved results: no DEVICE, no test */
		return compare_main(&o, o.nargs, o.args);
	default:
		fprintf(stderr, "flashbench: %s\n", usage_msg);
		return FB_EUSAGE;
	}
	/* The options the tests ignore, as the original ignored them. */
	for (const char *w = cli_warnings(); *w; w = strchr(w, '\n') + 1)
		fprintf(stderr, "flashbench: warning: %.*s\n", (int)strcspn(w, "\n"), w);
	if (o.restore)
		return preserve_restore_file(o.restore, o.device);
	return fb_run(&o);
}
