/*
 * What the accuracy harnesses share (tests/unit/test_accuracy*.c): the
 * tallies, the seeded draws, running a test on a simulated card into a
 * file, and reading the open-AU bracket it printed.
 */
#ifndef FB_TEST_ACCURACY_H
#define FB_TEST_ACCURACY_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/out.h"
#include "core/regions.h"
#include "core/target.h"
#include "modules/align.h"
#include "modules/test.h"
#include "unit.h"

#define KiB 1024ull
#define MiB (1024ull * 1024)
#define GiB (1024ull * MiB)

enum { RIGHT, UNSURE, WRONG };

/* One line of the table: cards (or runs) right, uncertain, wrong. */
struct tally {
	const char *what;
	unsigned n[3];
};

static inline void count(struct tally *t, int outcome)
{
	t->n[outcome]++;
}

static inline void print_tally(const struct tally *t)
{
	printf("accuracy: %-44s %5u %6u %9u %6u\n", t->what, t->n[0] + t->n[1] + t->n[2],
	       t->n[RIGHT], t->n[UNSURE], t->n[WRONG]);
}

static inline void print_head(const char *what)
{
	printf("accuracy: %-44s %5s %6s %9s %6s\n", what, "total", "right", "uncertain", "wrong");
}

/* ---- random numbers for the draws (xorshift, fixed seed: the same cards every run) */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static inline double unit_draw(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

static inline unsigned pick(unsigned n)
{
	return (unsigned)(unit_draw() * n);
}

/* Log-uniform in [lo, hi]. */
static inline double logu(double lo, double hi)
{
	return lo * pow(hi / lo, unit_draw());
}

/* ---- running a test on a simulated card, the output kept in a file */

static char out_path[] = "/tmp/fbacc.XXXXXX";

extern const struct fb_test test_find_open_au, test_open_au;

static const struct fb_test *write_test = &test_find_open_au;

static inline int run_test(const char *spec, struct fb_opts *o, bool write)
{
	struct region all;
	struct target *t;
	char err[256];
	int r;

	if (target_sim_open(spec, write ? TGT_WRITE : 0, &t, err, sizeof(err)) != 0) {
		printf("FAIL: sim:%s: %s\n", spec, err);
		return -1;
	}
	out_open(out_path, OUT_TEXT);
	all.off = 0;
	all.len = t->size;
	regions_arm(&all, 1);
	r = write ? write_test->run(o, t) : align_run(o, t);
	regions_disarm();
	out_close(0, "done", NULL);
	target_close(t);
	return r;
}

/* ---- open-AU brackets */

/*
 * The numbers of "verdict: open AUs (MODE): 5 fast, 6 slow" and the like
 * (0: not said); false for any other line, *unsure for "uncertain: ...".
 */
static inline bool bracket(const char *line, unsigned *fast, unsigned *slow, bool *unsure)
{
	const char *s = strstr(line, "): ");
	char *end;

	*fast = *slow = 0;
	if (strncmp(line, "verdict: open AUs (", 19) != 0 || !s)
		return false;
	*unsure = strncmp(s + 3, "uncertain", 9) == 0;
	for (s += 3; *s; s++) {
		unsigned long n;

		if (*s < '0' || *s > '9')
			continue;
		n = strtoul(s, &end, 10);
		if (strncmp(end, " fast", 5) == 0)
			*fast = (unsigned)n;
		else if (strncmp(end, " slow", 5) == 0 || strncmp(end, " is slow", 8) == 0)
			*slow = (unsigned)n;
		s = end - 1;
	}
	return true;
}

/* Right: K fast, K + 1 slow. Wrong: a fast N above K or a slow N at most K. */
static inline int judge_bracket(unsigned fast, unsigned slow, unsigned k)
{
	if (fast > k || (slow && slow <= k))
		return WRONG;
	return fast == k && slow == k + 1 ? RIGHT : UNSURE;
}

/* Judge the last bracket line in out_path against the truth k. */
static inline int last_bracket(unsigned k, const char *what)
{
	FILE *f = fopen(out_path, "r");
	char line[512];
	unsigned fast = 0, slow = 0, a, b;
	bool seen = false, unsure = false, u;

	while (f && fgets(line, sizeof(line), f))
		if (bracket(line, &a, &b, &u))
			fast = a, slow = b, unsure = u, seen = true;
	if (f)
		fclose(f);
	if (!seen || unsure)
		return UNSURE;
	if (judge_bracket(fast, slow, k) == WRONG)
		printf("FAIL: wrong bracket for %s: %u fast, %u slow, truth %u\n", what, fast, slow, k);
	return judge_bracket(fast, slow, k);
}

#endif
