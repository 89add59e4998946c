/*
 * What a sustained write says, judged from its intervals (one per
 * --log-interval of device time): the initial rate (the median of the
 * first three intervals, so that neither a slow first request nor a
 * cliff in the third interval moves it), the sustained rate (the last
 * half of the time), the cliff -- the end of the last interval at or
 * above cliff_pct of the initial rate, when at least two intervals
 * follow, all below it: the size of an SLC or media cache -- and the
 * slow episodes, runs of intervals below a rate. Pure functions.
 */
#ifndef FB_VERDICT_SUSTAINED_H
#define FB_VERDICT_SUSTAINED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sus_iv {
	double end_ns;		/* device time since the start, at its end */
	double ns;		/* its length */
	uint64_t written;	/* bytes written since the start, at its end */
	uint64_t bytes;		/* bytes written in it */
};

struct sus_judgement {
	double average, initial, sustained;	/* bytes/s */
	/* the cliff: at written bytes, after ns, below threshold from then on */
	bool cliff;
	uint64_t cliff_bytes;
	double cliff_ns, cliff_threshold;
	/* slow episodes: intervals in a row below slow_threshold */
	double slow_threshold;
	unsigned slow_count;
	double slow_ns, slow_longest_ns, slow_lowest;
	bool recovered;		/* the last episode ended before the run did */
	bool from_start;	/* judged with the finer intervals of the start */
};

double sus_rate(const struct sus_iv *iv);

/*
 * Judge n intervals (n > 0): cliff_pct percent of the initial rate is the
 * cliff threshold; slow_bps the slow one (0: a quarter of the initial rate).
 * A last interval shorter than short_ns (the run ended in it) counts for
 * the average only: a few requests are no rate to judge by.
 */
void sus_judge(const struct sus_iv *iv, size_t n, double cliff_pct, double slow_bps,
	       double short_ns, struct sus_judgement *j);

/*
 * The same, when the start was also recorded in finer intervals: fine,
 * nf of them, covering the first `covered` intervals of iv. A cache that
 * runs out inside the first interval leaves no interval at the initial
 * rate, so the intervals alone see no cliff; when they see none and the
 * fine start followed by the rest does, that judgement is taken (and
 * from_start set). fine_short_ns is short_ns for a fine interval.
 * False when memory ran out (j then holds the intervals' judgement).
 */
bool sus_judge_start(const struct sus_iv *iv, size_t n, const struct sus_iv *fine, size_t nf,
		     size_t covered, double cliff_pct, double slow_bps, double short_ns,
		     double fine_short_ns, struct sus_judgement *j);

#endif
