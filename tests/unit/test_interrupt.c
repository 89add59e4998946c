/*
 * Ctrl-C at an exact request: a simulated card whose write (or read)
 * number K sets the stop flag, as the SIGINT handler does. Every module
 * stops there, returns FB_EINTR, and has printed what it measured; the
 * open-AU search also prints the bracket found so far.
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/out.h"
#include "core/engine.h"
#include "modules/test.h"
#include "modules/test.h"
#include "core/target.h"
#include "unit.h"

static struct target_ops wrapped;
static const struct target_ops *orig;
static long countdown;

static void tick(void)
{
	if (--countdown == 0)
		fb_stop = SIGINT;
}

static int wr(struct target *t, const void *b, size_t l, uint64_t o, uint64_t *ns)
{
	tick();
	return orig->write(t, b, l, o, ns);
}

static int rd(struct target *t, void *b, size_t l, uint64_t o, uint64_t *ns)
{
	tick();
	return orig->read(t, b, l, o, ns);
}

/* Run test on sim:spec, stopped after k requests; its output in *out. */
static int run(int (*test)(const struct fb_opts *, struct target *), struct fb_opts *o,
	       const char *spec, long k, char **out)
{
	char err[256], path[] = "/tmp/fbunitXXXXXX";
	struct target *t;
	size_t len = 0;
	FILE *f;
	int fd = mkstemp(path), r;

	if (fd < 0 || target_sim_open(spec, TGT_WRITE, &t, err, sizeof(err)) != 0)
		return -1;
	close(fd);
	orig = t->ops;
	wrapped = *orig;
	wrapped.write = wr;
	wrapped.read = rd;
	t->ops = &wrapped;
	countdown = k;
	fb_stop = 0;
	out_open(path, OUT_TEXT);
	r = test(o, t);
	out_close(0, "done", NULL);
	t->ops = orig;
	target_close(t);
	f = fopen(path, "r");
	*out = NULL;
	if (f) {
		getdelim(out, &len, '\0', f);
		fclose(f);
	}
	unlink(path);
	fb_stop = 0;
	return r;
}

extern const struct fb_test test_find_open_au, test_open_au, test_align, test_scatter;

int main(void)
{
	struct fb_opts o;
	char *out;

	opts_defaults(&o);
	fb_tests_defaults();
	o.offset = 16 << 20;
	/* The search, stopped inside its third probe (N = 4). */
	CHECK(run(test_find_open_au.run, &o, "sd", 200, &out) == FB_EINTR);
	CHECK(out && strstr(out, "probe: --open-au-nr=4 "));
	CHECK(out && strstr(out, "verdict: 2 open AUs (linear): fast"));
	CHECK(out && strstr(out, "verdict: open AUs (linear): at least 2 fast, none slow; per write beyond its transfer: "));
	CHECK(out && strstr(out, "find-open-au: interrupted: the bracket above is what was found so far\n"));
	CHECK(out && !strstr(out, "probe: --open-au-nr=8"));
	free(out);
	/* --open-au: the lines before the stop. */
	CHECK(run(test_open_au.run, &o, "sd", 1000, &out) == FB_EINTR);
	CHECK(out && strstr(out, "4MiB\t") && strstr(out, "128KiB\t") && !strstr(out, "16KiB\t"));
	free(out);
	/* -a: the rows so far, no verdict on a partial table. */
	CHECK(run(test_align.run, &o, "sd", 1000, &out) == FB_EINTR);
	CHECK(out && strstr(out, "align 2147483648\t") && !strstr(out, "verdict"));
	free(out);
	/* scatter: the points measured, printed although stopped. */
	CHECK(run(test_scatter.run, &o, "sd", 800, &out) == FB_EINTR);
	CHECK(out && strchr(out, '\t'));
	free(out);
	UNIT_DONE();
}
