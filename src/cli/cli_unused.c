/*
 * Which options do something: an option given that none of the selected
 * tests uses is named, with the tests it would apply to (a warning in a
 * test run, as the original ignored it; refused with a mode), and
 * cli_option_applies() answers the same question for the docs and tests.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_impl.h"
#include "core/out.h"
#include "modules/test.h"


static bool lists(const struct fb_test *t, const char *name)
{
	for (const char *const *u = t->uses; u && *u; u++)
		if (strcmp(*u, name) == 0)
			return true;
	return false;
}

/*
 * A selected write test that takes --erasesize: its -b must fit in an
 * erase block. The others (--sustained, --queue-depth) refuse -e, so it
 * is no limit of theirs: their -b is bounded by --size and the device.
 */
bool cli_cuts_erase_blocks(const struct fb_opts *o)
{
	for (const struct fb_test *const *t = fb_tests; *t; t++)
		if (fb_test_selected(o, *t) && fb_test_writes(*t) && lists(*t, "erasesize"))
			return true;
	return false;
}

/* Does entry e change what test t does? */
static bool applies(const struct entry *e, const struct fb_test *t)
{
	unsigned scope;

	if (!e->opt || e->test)
		return e->test == t;
	scope = e->opt->scope;
	return (scope & SCOPE_ANY) || ((scope & SCOPE_WRITES) && fb_test_writes(t)) ||
	       ((scope & SCOPE_LISTED) && lists(t, e->name));
}

/* The selected tests (or every test, all) that e applies to, as bits. */
static uint32_t applies_to(const struct entry *e, uint32_t among)
{
	uint32_t bits = 0;

	for (unsigned i = 0; fb_tests[i]; i++)
		if ((among & (1u << i)) && applies(e, fb_tests[i]))
			bits |= 1u << i;
	return bits;
}

static uint32_t all_tests(void)
{
	uint32_t bits = 0;

	for (unsigned i = 0; fb_tests[i]; i++)
		bits |= 1u << i;
	return bits;
}

/* "--align, --scatter and --interval" (conj: " and "); "every test" for all of them. */
void cli_name_list(uint32_t bits, const char *mode, const char *conj, char *buf, size_t len)
{
	size_t at = 0, left = 0;

	buf[0] = '\0';
	if (bits && bits == all_tests()) {
		snprintf(buf, len, "every test%s%s", mode ? " and " : "", mode ? mode : "");
		return;
	}
	for (unsigned i = 0; fb_tests[i]; i++)
		left += (bits >> i) & 1;
	left += mode != NULL;
	for (unsigned i = 0; fb_tests[i] && at < len; i++) {
		if (!((bits >> i) & 1))
			continue;
		left--;
		at += (size_t)snprintf(buf + at, len - at, "%s--%s", at == 0 ? "" :
				       left == 0 ? conj : ", ", fb_tests[i]->name);
	}
	if (mode && at < len)
		snprintf(buf + at, len - at, "%s%s", at == 0 ? "" : conj, mode);
}

/*
 * The warnings of the last cli_parse(), one per line. Old scripts pass
 * one set of options to several tests in a loop (for t in -a -O -f), and
 * the original ignored what a test did not use: a test run warns and
 * goes on. A mode (--analyze, --restore) is newer than those scripts,
 * and there an option that does nothing is still refused.
 */
static char warnings[4096];

static void warn_unused(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warn_unused(const char *fmt, ...)
{
	size_t at = strlen(warnings);
	va_list ap;

	if (at + 2 >= sizeof(warnings))
		return;
	va_start(ap, fmt);
	vsnprintf(warnings + at, sizeof(warnings) - at - 1, fmt, ap);
	va_end(ap);
	strcat(warnings, "\n");
}

const char *cli_warnings(void)
{
	return warnings;
}

void cli_warnings_clear(void)
{
	warnings[0] = '\0';
}

/* An option that none of the selected tests (or the mode) uses does
 * nothing: a warning in a test run, refused with a mode. */
int cli_check_unused(const struct given *g, uint32_t sel, const char *mode, char *err,
		     size_t len)
{
	char with[256], uses[256];

	for (size_t i = 0; i < cli_nentries; i++) {
		const struct entry *e = &cli_entries[i];
		unsigned scope = e->opt && !e->test ? e->opt->scope : 0;
		bool analyze = mode && strcmp(mode, "--analyze") == 0;
		/* With --analyze: its own options, and the tests that run after it with theirs. */
		bool in_mode = analyze && ((scope & SCOPE_ANALYZE) ||
					   (!e->opt && e->test->after_analyze) ||
					   (e->opt && applies_to(e, sel & fb_tests_after_analyze())));

		/* --compare takes --out and --format, as --analyze does. */
		in_mode = in_mode || (mode && strcmp(mode, "--compare") == 0 &&
				      (scope & SCOPE_ANALYZE));

		if (!g->on[i] || (scope & SCOPE_MODE) || (!e->opt && !mode) ||
		    (!mode && applies_to(e, sel)) || in_mode)
			continue;
		cli_name_list(sel, mode, " and ", with, sizeof(with));
		cli_name_list(applies_to(e, all_tests()), scope & SCOPE_ANALYZE ? "--analyze" : NULL,
			  " and ", uses, sizeof(uses));
		if (!mode) {
			warn_unused("--%s%s%.200s: has no effect with %s (it applies to %s)", e->name,
				    g->arg[i] ? "=" : "", g->arg[i] ? g->arg[i] : "", with,
				    uses[0] ? uses : "nothing");
			continue;
		}
		return cli_usage_err(err, len, "--%s%s%s: has no effect with %s (it applies to %s)",
				 e->name, g->arg[i] ? "=" : "", g->arg[i] ? g->arg[i] : "", with,
				 uses[0] ? uses : "nothing");
	}
	return FB_OK;
}

bool cli_option_applies(const char *option, const char *test)
{
	const struct entry *e;
	const struct fb_test *t = fb_test_find(test);

	cli_build_entries();
	e = cli_entry_named(option);
	return e && t && applies(e, t);
}

