/* Judging a sustained write: see verdict_sustained.h. */
#include <stdlib.h>
#include <string.h>

#include "verdicts/verdict_sustained.h"

double sus_rate(const struct sus_iv *iv)
{
	return iv->ns > 0 ? (double)iv->bytes * 1e9 / iv->ns : 0;
}

/* The median of the first three intervals' rates (fewer when there are fewer). */
static double initial_rate(const struct sus_iv *iv, size_t n)
{
	double a = sus_rate(&iv[0]), b, c, t;

	if (n < 2)
		return a;
	b = sus_rate(&iv[1]);
	if (n < 3)
		return (a + b) / 2;
	c = sus_rate(&iv[2]);
	if (a > b) {
		t = a, a = b, b = t;
	}
	/* a <= b: the median is b unless c lies outside [a, b] */
	return c < a ? a : c > b ? b : c;
}

/* Bytes per second over the intervals that start in the last half of the time. */
static double last_half(const struct sus_iv *iv, size_t n)
{
	double half = iv[n - 1].end_ns / 2, ns = 0, bytes = 0;

	for (size_t i = 0; i < n; i++) {
		if (iv[i].end_ns - iv[i].ns < half)
			continue;
		ns += iv[i].ns;
		bytes += (double)iv[i].bytes;
	}
	return ns > 0 ? bytes * 1e9 / ns : sus_rate(&iv[n - 1]);
}

static void find_cliff(const struct sus_iv *iv, size_t n, struct sus_judgement *j)
{
	size_t last = 0;

	for (size_t i = 0; i < n; i++)
		if (sus_rate(&iv[i]) >= j->cliff_threshold)
			last = i;
	if (n - 1 - last < 2)
		return;
	j->cliff = true;
	j->cliff_bytes = iv[last].written;
	j->cliff_ns = iv[last].end_ns;
}

static void slow_episodes(const struct sus_iv *iv, size_t n, struct sus_judgement *j)
{
	double run = 0;
	bool in = false;

	for (size_t i = 0; i < n; i++) {
		double r = sus_rate(&iv[i]);

		if (r >= j->slow_threshold) {
			in = false;
			continue;
		}
		if (!in) {
			j->slow_count++;
			run = 0;
		}
		in = true;
		run += iv[i].ns;
		j->slow_ns += iv[i].ns;
		if (run > j->slow_longest_ns)
			j->slow_longest_ns = run;
		if (j->slow_count == 1 && run == iv[i].ns)
			j->slow_lowest = r;
		else if (r < j->slow_lowest)
			j->slow_lowest = r;
	}
	j->recovered = j->slow_count > 0 && !in;
}

void sus_judge(const struct sus_iv *iv, size_t n, double cliff_pct, double slow_bps,
	       double short_ns, struct sus_judgement *j)
{
	memset(j, 0, sizeof(*j));
	if (n == 0)
		return;
	j->average = iv[n - 1].end_ns > 0 ? (double)iv[n - 1].written * 1e9 / iv[n - 1].end_ns : 0;
	if (n > 1 && iv[n - 1].ns < short_ns)
		n--;
	j->initial = initial_rate(iv, n);
	j->sustained = last_half(iv, n);
	j->cliff_threshold = j->initial * cliff_pct / 100;
	j->slow_threshold = slow_bps > 0 ? slow_bps : j->initial / 4;
	find_cliff(iv, n, j);
	slow_episodes(iv, n, j);
}

bool sus_judge_start(const struct sus_iv *iv, size_t n, const struct sus_iv *fine, size_t nf,
		     size_t covered, double cliff_pct, double slow_bps, double short_ns,
		     double fine_short_ns, struct sus_judgement *j)
{
	struct sus_iv *all;
	struct sus_judgement f;
	size_t rest = n > covered ? n - covered : 0;

	sus_judge(iv, n, cliff_pct, slow_bps, short_ns, j);
	if (j->cliff || nf < 3)
		return true;
	all = malloc((nf + rest) * sizeof(*all));
	if (!all)
		return false;
	memcpy(all, fine, nf * sizeof(*all));
	memcpy(all + nf, iv + covered, rest * sizeof(*all));
	sus_judge(all, nf + rest, cliff_pct, slow_bps, rest ? short_ns : fine_short_ns, &f);
	free(all);
	if (f.cliff) {
		*j = f;
		j->from_start = true;
	}
	return true;
}
