/*
 * --sustained's summary: the row of rates and latencies, the cliff and
 * the slow episodes, judged by verdicts/verdict_sustained.c from the
 * run's intervals and the tenths of its first ones (sustained.c).
 */
#include <stdio.h>

#include "core/lat_hist.h"
#include "core/units.h"
#include "modules/sustained_summary.h"
#include "verdicts/verdict_sustained.h"

/* The summary: "average 83M/s, initial 150M/s, sustained 60M/s; latency p50 ...". */
static void sum_text(char *line, size_t len, const union out_val *v)
{
	char a[FB_FMT_LEN], i[FB_FMT_LEN], s[FB_FMT_LEN], w[FB_FMT_LEN], e[FB_FMT_LEN];
	char p50[FB_FMT_LEN], p99[FB_FMT_LEN], p999[FB_FMT_LEN], mx[FB_FMT_LEN];

	snprintf(line, len, "%s in %s: average %s, initial %s, sustained %s; "
		 "latency p50 %s p99 %s p99.9 %s max %s",
		 fmt_size(w, sizeof(w), v[0].u), fmt_time(e, sizeof(e), v[1].d),
		 fmt_rate(a, sizeof(a), v[2].d), fmt_rate(i, sizeof(i), v[3].d),
		 fmt_rate(s, sizeof(s), v[4].d), fmt_time(p50, sizeof(p50), v[5].d),
		 fmt_time(p99, sizeof(p99), v[6].d), fmt_time(p999, sizeof(p999), v[7].d),
		 fmt_time(mx, sizeof(mx), v[8].d));
}

static const struct out_field sum_fields[] = {
	{ "written_bytes", OT_BYTES }, { "elapsed_ns", OT_NS }, { "average_bps", OT_BPS },
	{ "initial_bps", OT_BPS }, { "sustained_bps", OT_BPS }, { "p50_ns", OT_NS },
	{ "p99_ns", OT_NS }, { "p999_ns", OT_NS }, { "max_ns", OT_NS },
};

const struct out_table sus_sum_table = {
	"sustained-summary", sum_fields, 9, sum_text, NULL,
};

static void cliff_verdict(const struct sus_judgement *j, double cliff_pct)
{
	char b[FB_FMT_LEN], tm[FB_FMT_LEN], th[FB_FMT_LEN], in[FB_FMT_LEN];
	struct out_verdict v = { .label = "cliff", .name = "cliff", .result = "none",
				 .unit = "bytes" };

	fmt_rate(th, sizeof(th), j->cliff_threshold);
	fmt_rate(in, sizeof(in), j->initial);
	if (!j->cliff) {
		out_verdict(&v, "none: the rate does not stay below %s (%g%% of the initial %s)",
			    th, cliff_pct, in);
		return;
	}
	v.result = "named";
	v.has_value = true;
	v.value = j->cliff_bytes;
	out_verdict(&v, "after %s (%s): the rate stays below %s (%g%% of the initial %s%s)",
		    fmt_size(b, sizeof(b), j->cliff_bytes), fmt_time(tm, sizeof(tm), j->cliff_ns),
		    th, cliff_pct, in, j->from_start ?
		    ", from tenths of the first intervals: the cliff lies inside the first one" : "");
}

static void slow_verdict(const struct sus_judgement *j)
{
	char th[FB_FMT_LEN], all[FB_FMT_LEN], lng[FB_FMT_LEN], low[FB_FMT_LEN];
	struct out_verdict v = { .label = "slow", .name = "slow_episodes", .result = "none",
				 .has_value = true, .value = j->slow_count, .unit = "count" };

	fmt_rate(th, sizeof(th), j->slow_threshold);
	if (!j->slow_count) {
		out_verdict(&v, "none below %s", th);
		return;
	}
	v.result = j->recovered ? "recovered" : "not_recovered";
	out_verdict(&v, "%u episode%s below %s, %s in all, longest %s, lowest %s; %s",
		    j->slow_count, j->slow_count == 1 ? "" : "s", th,
		    fmt_time(all, sizeof(all), j->slow_ns),
		    fmt_time(lng, sizeof(lng), j->slow_longest_ns),
		    fmt_rate(low, sizeof(low), j->slow_lowest),
		    j->recovered ? "recovered" : "not recovered by the end");
}

void sus_summary(const struct sus_record *r)
{
	struct sus_judgement j;

	if (r->n == 0)
		return;
	if (!sus_judge_start(r->ivs, r->n, r->fine, r->nfine, r->covered, r->cliff_pct,
			     (double)r->slow_bps, (double)r->interval / 2,
			     (double)r->interval / r->fine_parts / 2, &j))
		return;
	out_row(&sus_sum_table, (union out_val[]){
		{ .u = r->written }, { .d = (double)r->elapsed }, { .d = j.average },
		{ .d = j.initial }, { .d = j.sustained }, { .d = lh_percentile(r->all, 50) },
		{ .d = lh_percentile(r->all, 99) }, { .d = lh_percentile(r->all, 99.9) },
		{ .d = (double)lh_max(r->all) } });
	cliff_verdict(&j, r->cliff_pct);
	slow_verdict(&j);
}
