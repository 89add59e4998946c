/* One run of the selected tests: see run.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/engine.h"
#include "run/precondition.h"
#include "safety/preserve.h"
#include "core/out.h"
#include "run/run.h"
#include "safety/safety.h"
#include "modules/test.h"
#include "core/units.h"
#include "verdicts/facts.h"

/* Room for a message naming a 4 KiB path. */
static char msg[8192];

static void print_verbose(const struct fb_opts *o, const struct target *t)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN], d[FB_FMT_LEN];

	fprintf(stderr, "%s (%s), %llu bytes (%s), sector %u\n", t->path, t->ops->kind,
		(unsigned long long)t->size, fmt_size(a, sizeof(a), t->size), t->sector);
	fprintf(stderr, "blocksize %s, erasesize %s, offset %s, count %u, runs %u%s\n",
		fmt_size(b, sizeof(b), o->blocksize), fmt_size(c, sizeof(c), o->erasesize),
		fmt_size(d, sizeof(d), o->offset), o->count, o->runs, o->random ? ", random" : "");
	/* Each selected test's own options, with their values. */
	for (const struct fb_test *const *p = fb_tests; *p; p++) {
		if (!fb_test_selected(o, *p) || !(*p)->options)
			continue;
		fprintf(stderr, "%s:", (*p)->name);
		for (const struct fb_option *x = (*p)->options; x->name; x++) {
			const char *sep = x == (*p)->options ? "" : ",";

			if (x->kind == FO_PERCENT)
				fprintf(stderr, "%s %s %g%%", sep, x->name, *(const double *)x->var);
			else if (x->kind == FO_SIZE || x->kind == FO_SIZE0)
				fprintf(stderr, "%s %s %s", sep, x->name,
					fmt_size(a, sizeof(a), fb_option_u64(x, o)));
			else if (x->kind == FO_TEXT)
				fprintf(stderr, "%s %s %s", sep, x->name,
					*(const char *const *)x->var ? *(const char *const *)x->var : "-");
			else if (x->kind == FO_FLAG)
				fprintf(stderr, "%s %s %s", sep, x->name,
					fb_option_u64(x, o) ? "on" : "off");
			else
				fprintf(stderr, "%s %s %llu", sep, x->name,
					(unsigned long long)fb_option_u64(x, o));
		}
		fputc('\n', stderr);
	}
}

/*
 * Every path the run names, as safety.h takes them: DEVICE, --out, each
 * test's own results file (--log), the backup (its default name chosen
 * here, once).
 */
static void paths_of(struct fb_opts *o, struct run_paths *p)
{
	static char name[256];
	bool writes = fb_tests_write(o);
	size_t n = 0;

	if (writes && o->preserve && !o->backup) {
		preserve_default_name(o->device, name, sizeof(name));
		o->backup = name;
	}
	*p = (struct run_paths){ .device = o->device, .writes = writes, .out = o->out,
				 .backup = writes && o->preserve ? o->backup : NULL };
	for (const struct fb_test *const *t = fb_tests; *t && n < RUN_LOGS; t++)
		if (fb_test_selected(o, *t) && (*t)->out_file && (*t)->out_file(o))
			p->logs[n++] = (*t)->out_file(o);
}

/* Read-write (and exclusive) only when a selected test writes: safety_check_run() came first. */
static int open_target(const struct fb_opts *o, struct target **t)
{
	bool writes = fb_tests_write(o);
	char err[512] = "";
	int r;

	r = target_open(o->device, (writes ? TGT_WRITE | TGT_EXCL : 0) | fb_tests_open_flags(o), t,
			err, sizeof(err));
	if (r == 0)
		return FB_OK;
	fprintf(stderr, "flashbench: %s\n", err[0] ? err : strerror(-r));
	if (r == -ENOENT || r == -EINVAL || r == -ENODEV)
		return FB_EUSAGE;
	if (r == -EBUSY)
		return FB_ESAFETY;
	return FB_EDEV;
}

/* One parameter by its option's name: sizes in bytes, times in ns. */
static void put_param(const struct fb_option *x, const struct fb_opts *o)
{
	if (x->kind == FO_FLAG)
		out_param_bool(x->name, fb_option_u64(x, o) != 0);
	else if (x->kind == FO_PERCENT)
		out_param_real(x->name, *(const double *)x->var);
	else if (x->kind == FO_TEXT && x->var && *(const char *const *)x->var)
		out_param_str(x->name, *(const char *const *)x->var);	/* a test's own */
	else if (x->kind != FO_TEXT && x->kind != FO_CALL)
		out_param_u64(x->name, fb_option_u64(x, o));
}

/* The head of the results: the command, the device, every parameter in force. */
static void put_head(const struct fb_opts *o, const struct target *t)
{
	out_run_begin(FB_VERSION, o->argc, o->argv);
	out_device(t->path, t->ops->kind, t->size, t->sector);
	out_param_u64("blocksize", o->blocksize);
	out_param_u64("erasesize", o->erasesize);
	out_param_u64("offset", o->offset);
	out_param_u64("count", o->count);
	out_param_bool("random", o->random);
	if (o->size)
		out_param_u64("size", o->size);
	if (o->runs)
		out_param_u64("runs", o->runs);
	if (o->max_write)
		out_param_u64("max-write", o->max_write);
	if (o->max_time)
		out_param_u64("max-time", o->max_time);
	if (o->precondition != PRECOND_NONE)
		out_param_str("precondition", o->precondition == PRECOND_FILL ? "fill" : "discard");
	for (const struct fb_test *const *p = fb_tests; *p; p++)
		for (const struct fb_option *x = (*p)->options; x && x->name; x++)
			if (fb_test_selected(o, *p))
				put_param(x, o);
}

/*
 * Every check passed: --out (or standard output) and each --log created
 * or emptied now, through the descriptors the checks saw (safety.h); the
 * results held so far (held: a test measured first) written there.
 */
static int open_outputs(const struct fb_opts *o, const struct target *t, bool held)
{
	int fd = -1, r = FB_OK;

	if (o->out)
		r = safety_commit_output(o->out, &fd);
	if (r == FB_OK && held && out_unhold(fd) < 0)
		r = FB_EDEV;	/* (said by the output layer) */
	if (r == FB_OK && !held && out_open_fd(fd, o->out, (enum out_format)o->format) < 0) {
		fprintf(stderr, "flashbench: --out: cannot open '%s': %s\n", o->out, strerror(errno));
		r = FB_EUSAGE;
	}
	if (r == FB_OK && !held)
		put_head(o, t);
	for (const struct fb_test *const *p = fb_tests; *p && r == FB_OK; p++)
		if (fb_test_selected(o, *p) && (*p)->out_file && (*p)->out_file(o) && (*p)->out_fd &&
		    (r = safety_commit_output((*p)->out_file(o), &fd)) == FB_OK)
			(*p)->out_fd(fd);
	return r;
}

static bool test_uses(const struct fb_test *w, const char *name)
{
	for (const char *const *u = w->uses; u && *u; u++)
		if (strcmp(*u, name) == 0)
			return true;
	return false;
}

/*
 * The way forward when a write test's regions pass the end (as -i's
 * message gives one): the options of that test that move or grow them,
 * with their values -- --offset=0, then its own counts and sizes, then
 * --erasesize and --size. "" when it has none.
 */
static void shrink_hint(const struct fb_opts *o, const struct fb_test *w, uint64_t size, char *buf,
			size_t len)
{
	char v[32], items[4][96];
	size_t n = 0, at = 0;

	struct fb_opts at0 = *o;
	uint64_t end, end0;

	/* --offset=0 only where it moves the regions (-f starts at 0 unless given one). */
	at0.offset = 0;
	at0.offset_set = true;
	w->regions(o, size, NULL, 0, &end);
	w->regions(&at0, size, NULL, 0, &end0);
	if (end0 < end)
		snprintf(items[n++], sizeof(items[0]), "--offset=0 (now %s)",
			 fmt_size_exact(v, sizeof(v), o->offset, "B"));
	for (const struct fb_option *p = w->options; p && p->name && n < 2; p++) {
		uint64_t x = p->kind == FO_UINT || p->kind == FO_SIZE ? fb_option_u64(p, o) : 0;

		if (p->kind == FO_UINT)
			snprintf(items[n++], sizeof(items[0]), "a smaller --%s (now %llu)", p->name,
				 (unsigned long long)x);
		else if (p->kind == FO_SIZE)
			snprintf(items[n++], sizeof(items[0]), "a smaller --%s (now %s)", p->name,
				 fmt_size_exact(v, sizeof(v), x, "B"));
	}
	if (test_uses(w, "erasesize")) {
		bool said = n && strstr(items[n - 1], "smaller");	/* "a smaller --x or --erasesize" */

		snprintf(items[n], sizeof(items[0]), "%s--erasesize (now %s)", said ? "" : "a smaller ",
			 fmt_size_exact(v, sizeof(v), o->erasesize, "B"));
		n++;
	}
	if (test_uses(w, "size") && o->size && n < 4)
		snprintf(items[n++], sizeof(items[0]), "a smaller --size (now %s)",
			 fmt_size_exact(v, sizeof(v), o->size, "B"));
	buf[0] = '\0';
	for (size_t i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i == 0 ? ": give " :
				       i + 1 == n ? " or " : ", ", items[i]);
}

/* One write test's regions appended to *r (grown); its end checked against size. */
static int add_regions(const struct fb_opts *o, const struct fb_test *w, const char *device,
		       uint64_t size, struct region **r, size_t *n)
{
	uint64_t end = 0;
	size_t k = w->regions(o, size, NULL, 0, &end);
	struct region *grown;

	if (end > size) {
		char hint[512];

		shrink_hint(o, w, size, hint, sizeof(hint));
		fprintf(stderr, "flashbench: %s would access up to byte %llu, but %s has only "
			"%llu bytes%s\n", w->name, (unsigned long long)end, device,
			(unsigned long long)size, hint);
		return FB_EUSAGE;
	}
	if (k == 0)
		return FB_OK;
	grown = k <= SIZE_MAX / sizeof(**r) - *n ? realloc(*r, (*n + k) * sizeof(**r)) : NULL;
	if (!grown) {
		fprintf(stderr, "flashbench: too many regions to write (%zu)\n", *n + k);
		return FB_EDEV;
	}
	*r = grown;
	*n += w->regions(o, size, *r + *n, k, &end);
	return FB_OK;
}

int run_regions(const struct fb_opts *o, const char *device, uint64_t size, struct region **r,
		size_t *n)
{
	int st = FB_OK;

	*r = NULL;
	*n = 0;
	for (const struct fb_test *const *p = fb_tests; *p && st == FB_OK; p++)
		if (fb_test_selected(o, *p) && fb_test_writes(*p))
			st = add_regions(o, *p, device, size, r, n);
	if (st != FB_OK) {
		free(*r);
		*r = NULL;
		*n = 0;
		return st;
	}
	*n = regions_merge(*r, *n);
	return FB_OK;
}

static bool measures_first(const struct fb_opts *o)
{
	for (const struct fb_test *const *p = fb_tests; *p; p++)
		if (fb_test_selected(o, *p) && (*p)->measures_first && (*p)->measures_first(o))
			return true;
	return false;
}

/* The tests' own preparations (a parameter measured first), in the table's order. */
static int prepare_tests(struct fb_opts *o, struct target *t)
{
	int r = FB_OK;

	for (const struct fb_test *const *p = fb_tests; *p && r == FB_OK; p++)
		if (fb_test_selected(o, *p) && (*p)->prepare)
			r = (*p)->prepare(o, t);
	return r;
}

/*
 * The last steps before the tests: the regions announced, the guard armed
 * and the backup made (--preserve), then --out and --log created or
 * emptied (a run refused on the way creates, grows and empties nothing),
 * then --precondition. A test that measures first (--find-open-au
 * without --erasesize runs -a) has its table held in memory until then;
 * *measured says it did, so that an interrupt there is reported.
 */
static int prepare(struct fb_opts *o, struct target *t, struct preserve **saved, bool *measured)
{
	bool early = measures_first(o);
	struct region *r = NULL;
	size_t n = 0;
	int st = FB_OK;

	eng_signals();
	*measured = false;
	if (early && out_hold(o->out, (enum out_format)o->format) < 0) {
		fprintf(stderr, "flashbench: %s\n", strerror(errno));
		return FB_EDEV;
	}
	if (early)
		put_head(o, t);
	st = prepare_tests(o, t);
	*measured = early;
	if (st == FB_OK)
		st = run_regions(o, o->device, t->size, &r, &n);
	if (st == FB_OK)
		st = preserve_begin(o, t, r, n, saved);
	if (st == FB_OK && (st = open_outputs(o, t, early)) != FB_OK) {
		preserve_discard(*saved);
		*saved = NULL;
	} else if (st != FB_OK && early && st != FB_EUSAGE && st != FB_ESAFETY) {
		open_outputs(o, t, true);	/* what was measured before the failure or signal */
	}
	/* The regions discarded or filled once, after the backup, before the tests. */
	if (st == FB_OK)
		st = precondition_run(o, t, r, n);
	free(r);
	return st;
}

/* What the results say of a test or a run that ended with status r. */
static const char *status_of(int r)
{
	return r == FB_OK ? "done" : r == FB_EINTR ? "interrupted" : "failed";
}

static const char *reason_of(int r)
{
	static char why[64];

	if (r == FB_EINTR) {
		snprintf(why, sizeof(why), "signal %d", (int)fb_stop);
		return why;
	}
	if (r != FB_OK && out_error())
		return strerror(out_error());
	return r == FB_OK ? NULL : eng_last_error();
}

/* Each selected test in its own section of the results, in the table's order. */
static int run_tests(const struct fb_opts *o, struct target *t, int r)
{
	for (const struct fb_test *const *p = fb_tests; *p && r == FB_OK; p++) {
		if (!fb_test_selected(o, *p))
			continue;
		out_test_begin((*p)->name);
		r = (*p)->run(o, t);
		if (r == FB_OK && fb_stop)
			r = FB_EINTR;
		if (r != FB_EINTR)
			out_test_end(status_of(r), reason_of(r));
	}
	/* Inside the section of the test that was stopped (or that measured first). */
	if (r == FB_EINTR) {
		out_note("interrupted by signal %d: the lines above are all that was measured",
			 (int)fb_stop);
		out_test_end(status_of(r), reason_of(r));
	}
	return r;
}

int fb_run(struct fb_opts *o)
{
	struct run_paths paths;
	struct preserve *saved = NULL;
	struct target *t;
	bool measured;
	int r;

	paths_of(o, &paths);
	/* Before a word is said: standard error must not be the device. */
	if ((r = safety_check_stderr(&paths)) != FB_OK)
		return r;
	/* Before any check that may refuse it: a report is not read-only. */
	if (o->report)
		fprintf(stderr, "flashbench: --report runs --find-open-au, which writes to %s and "
			"destroys the data in the regions it announces: every safety check of a "
			"write test applies%s\n", o->device,
			o->preserve ? "" : " (--preserve puts the data back)");
	vf_reset();	/* the verdicts of this run only (the tests read them: facts.h) */
	if ((r = safety_check_run(&paths)) != FB_OK)
		return r;
	if ((r = open_target(o, &t)) != FB_OK)
		return r;
	/* What was opened is what was checked (a symlink swapped meanwhile is refused). */
	if ((r = safety_check_opened(&paths, target_data_fd(t))) != FB_OK) {
		target_close(t);
		return r;
	}
	/* FB_EUSAGE, or FB_ESAFETY from a test's claim (the readahead's lock) */
	if ((r = cli_check_geometry(o, t, msg, sizeof(msg))) != FB_OK) {
		fprintf(stderr, "flashbench: %s\n", msg);
		target_close(t);
		return r;
	}
	if (o->verbose)
		print_verbose(o, t);
	r = prepare(o, t, &saved, &measured);
	/* An interrupt while a test measured first: report it, run nothing more. */
	if (r == FB_OK || (r == FB_EINTR && measured))
		r = run_tests(o, t, r);
	/* ...and put the data back, also after a signal or an error. */
	r = preserve_end(saved, t, r);
	if (o->verbose && t->ops->stats)
		t->ops->stats(t, stderr);
	/* A result that could not be written was reported when it happened. */
	if (out_close(r, status_of(r), reason_of(r)) < 0 && r == FB_OK)
		r = FB_EDEV;
	target_close(t);
	return r;
}
