/* The live progress line: see progress.h. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/hot.h"
#include "core/progress.h"
#include "core/units.h"

#define SHOW_AFTER_NS 2000000000ull	/* short runs stay quiet */
#define REDRAW_NS 100000000ull

static struct {
	bool active, shown;
	char what[128];
	char extra[64];			/* of the last update ("" none) */
	uint64_t total, done;
	uint64_t t0, last;
	int force;			/* -1: isatty */
	uint64_t (*now)(void);
	size_t width;			/* of the line drawn, to erase it */
} pg = { .force = -1 };

static uint64_t now_ns(void)
{
	return pg.now ? pg.now() : clock_now_ns();
}

static bool terminal(void)
{
	return pg.force >= 0 ? pg.force == 1 : isatty(STDERR_FILENO) == 1;
}

void progress_force(int on, uint64_t (*now)(void))
{
	pg.force = on;
	pg.now = now;
}

void progress_begin(const char *what, uint64_t total)
{
	progress_end();
	pg.active = terminal();
	fb_hot.progress = pg.active;	/* the engine asks before it calls progress_tick() */
	snprintf(pg.what, sizeof(pg.what), "%s", what);
	pg.total = total;
	pg.done = 0;
	pg.extra[0] = '\0';
	pg.t0 = now_ns();
	pg.last = 0;
}

/* "1m05s", "42s": whole seconds are enough for a line that moves. */
static void fmt_secs(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = (ns + 500000000ull) / 1000000000ull;

	if (s >= 3600)
		snprintf(buf, len, "%lluh%02llum", (unsigned long long)(s / 3600),
			 (unsigned long long)(s % 3600 / 60));
	else if (s >= 60)
		snprintf(buf, len, "%llum%02llus", (unsigned long long)(s / 60),
			 (unsigned long long)(s % 60));
	else
		snprintf(buf, len, "%llus", (unsigned long long)s);
}

static void draw(const char *extra, uint64_t t)
{
	char line[256], el[32], left[32];
	uint64_t elapsed = t - pg.t0;
	int n;

	fmt_secs(el, sizeof(el), elapsed);
	if (pg.total && pg.done) {
		double frac = (double)pg.done / (double)pg.total;

		fmt_secs(left, sizeof(left), (uint64_t)((double)elapsed * (1 - frac) / frac));
		n = snprintf(line, sizeof(line), "%s: %llu/%llu (%.0f%%)%s%s, %s elapsed, %s left",
			     pg.what, (unsigned long long)pg.done, (unsigned long long)pg.total,
			     100 * frac, extra ? ", " : "", extra ? extra : "", el, left);
	} else {
		n = snprintf(line, sizeof(line), "%s: %llu%s%s, %s elapsed", pg.what,
			     (unsigned long long)pg.done, extra ? ", " : "", extra ? extra : "", el);
	}
	if (n < 0)
		return;
	/* Pad over a longer line drawn before. */
	fprintf(stderr, "\r%s%*s", line, pg.width > (size_t)n ? (int)(pg.width - (size_t)n) : 0, "");
	fflush(stderr);
	pg.width = (size_t)n;
	pg.shown = true;
}

void progress_update(uint64_t done, const char *extra)
{
	uint64_t t;

	if (!pg.active)
		return;
	pg.done = done;
	if (extra != pg.extra)
		snprintf(pg.extra, sizeof(pg.extra), "%s", extra ? extra : "");
	extra = pg.extra[0] ? pg.extra : NULL;
	t = now_ns();
	if (t - pg.t0 < SHOW_AFTER_NS || (pg.last && t - pg.last < REDRAW_NS))
		return;
	pg.last = t;
	draw(extra, t);
}

void progress_tick(void)
{
	if (pg.active)
		progress_update(pg.done, pg.extra);
}

void progress_clear(void)
{
	if (!pg.shown)
		return;
	fprintf(stderr, "\r%*s\r", (int)pg.width, "");
	fflush(stderr);
	pg.shown = false;
	pg.width = 0;
	pg.last = 0;	/* redraw at the next update */
}

void progress_end(void)
{
	progress_clear();
	pg.active = false;
	fb_hot.progress = false;
}
