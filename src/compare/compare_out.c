/*
 * --compare's records: a heading per input, a row per key of each test
 * the inputs share (both values, the change, the judgement), the rows
 * only one input has, a verdict per test and input, and the inputs' own
 * verdicts side by side. Text, JSON and CSV come from the output layer.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compare/compare.h"
#include "compare/compare_pair.h"
#include "core/out.h"
#include "core/stats.h"
#include "core/units.h"

enum {
	F_TEST, F_KEY, F_ORDER, F_INPUT, F_BASE, F_BASE_SPREAD, F_BASE_RUNS, F_VALUE, F_SPREAD,
	F_RUNS, F_UNIT, F_CHANGE, F_P, F_JUDGEMENT, F_NEEDED, F_N
};

static const struct out_field cmp_fields[] = {
	{ "test", OT_TEXT }, { "key", OT_TEXT }, { "key_value", OT_REAL }, { "input", OT_TEXT },
	{ "base_median", OT_REAL }, { "base_spread", OT_REAL }, { "base_runs", OT_COUNT },
	{ "median", OT_REAL }, { "spread", OT_REAL }, { "runs", OT_COUNT }, { "unit", OT_TEXT },
	{ "change_pct", OT_REAL }, { "p", OT_REAL }, { "judgement", OT_TEXT },
	{ "runs_needed", OT_COUNT },
};

/* A value in its unit: "17.6M/s", "1272 IOPS", "735µs". */
static void value_text(char *buf, size_t len, double v, const char *unit)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (strcmp(unit, "bytes_per_s") == 0)
		fmt_rate(buf, len, v);
	else if (strcmp(unit, "ns") == 0)
		fmt_time(buf, len, v);
	else
		snprintf(buf, len, "%.0f IOPS", v);
}

/* "17.6M/s    0.4%    5": a side's median, spread and runs. */
static int side_text(char *buf, size_t len, double median, double spread, uint64_t runs,
		     const char *unit)
{
	char v[FB_FMT_LEN], s[16] = "-";

	if (!runs)
		return snprintf(buf, len, "%10s %7s %4s", "-", "", "");
	value_text(v, sizeof(v), median, unit);
	if (runs > 1 && median != 0 && isfinite(spread))
		snprintf(s, sizeof(s), "%.1f%%", fabs(spread / median) * 100);
	return snprintf(buf, len, "%10s %7s %4llu", v, s, (unsigned long long)runs);
}

/* The key column: wide enough for --app-class's figures ("random write 4KiB"). */
static int key_width(const char *test)
{
	const struct ci_kind *k = ci_kind_of(test);

	return k && k->key_type == CK_TEXT ? 17 : 10;
}

static const char *const judgements[][2] = {
	{ "significant", "significant" }, { "within_noise", "within noise" },
	{ "within_spread", "within noise (p < 0.05, but within the spread of the runs)" },
	{ "within_rounding", "within rounding (no change beyond the digits printed)" },
	{ "only_in_base", "only in A" }, { "only_in_input", "only in this input" },
};

static void cmp_text(char *line, size_t len, const union out_val *v)
{
	char a[64], b[64], change[16] = "";
	const char *j = v[F_JUDGEMENT].s;
	size_t at;

	side_text(a, sizeof(a), v[F_BASE].d, v[F_BASE_SPREAD].d, v[F_BASE_RUNS].u, v[F_UNIT].s);
	side_text(b, sizeof(b), v[F_VALUE].d, v[F_SPREAD].d, v[F_RUNS].u, v[F_UNIT].s);
	if (isfinite(v[F_CHANGE].d))
		snprintf(change, sizeof(change), "%+.1f%%", v[F_CHANGE].d);
	at = (size_t)snprintf(line, len, "%*s  %s  %s  %7s  ", key_width(v[F_TEST].s), v[F_KEY].s, a,
			      b, change);
	if (at >= len)
		return;
	for (size_t i = 0; i < sizeof(judgements) / sizeof(judgements[0]); i++)
		if (strcmp(j, judgements[i][0]) == 0) {
			snprintf(line + at, len - at, "%s", judgements[i][1]);
			return;
		}
	/* cannot_tell */
	at += (size_t)snprintf(line + at, len - at, "cannot tell: %llu run%s",
			       (unsigned long long)(v[F_BASE_RUNS].u < v[F_RUNS].u ? v[F_BASE_RUNS].u
						    : v[F_RUNS].u),
			       (v[F_BASE_RUNS].u == 1 && v[F_RUNS].u == 1) ? " each"
			       : (v[F_BASE_RUNS].u < v[F_RUNS].u ? v[F_BASE_RUNS].u : v[F_RUNS].u) == 1
			       ? "" : "s");
	if (at >= len)
		return;
	if (v[F_CHANGE].d == 0)
		snprintf(line + at, len - at, " (no change to see)");
	else if (v[F_NEEDED].u == 0)
		snprintf(line + at, len - at, " (no spread to estimate the runs needed)");
	else if (v[F_NEEDED].u > CJ_MAX_ESTIMATE)
		snprintf(line + at, len - at, " (no number of runs would: the change is within "
			 "the spread)");
	else
		snprintf(line + at, len - at, " (about %llu runs each would show it)",
			 (unsigned long long)v[F_NEEDED].u);
}

static const char *key_name(const char *test)
{
	const struct ci_kind *k = ci_kind_of(test);

	if (!k)
		return "key";
	switch (k->key_type) {
	case CK_COUNT: return "depth";
	case CK_TEXT: return "figure";
	case CK_TIME: return "time";
	case CK_BYTES: break;
	}
	return strcmp(k->key, "boundary_bytes") == 0 ? "boundary"
	       : strcmp(k->key, "block_bytes") == 0 ? "block" : "size";
}

static void cmp_header(char *line, size_t len, const union out_val *first)
{
	const char *x = first[F_INPUT].s;

	snprintf(line, len, "%*s  %10s %7s %4s  %10s %7s %4s  %7s  judgement",
		 key_width(first[F_TEST].s), key_name(first[F_TEST].s),
		 "A", "spread", "runs", x, "spread", "runs", "change");
}

static const struct out_table cmp_table = { "compare", cmp_fields, F_N, cmp_text, cmp_header };

static const struct out_field verdict_fields[] = {
	{ "topic", OT_TEXT }, { "input", OT_TEXT }, { "base_claim", OT_TEXT },
	{ "claim", OT_TEXT }, { "same", OT_BOOL },
};

static void verdict_text(char *line, size_t len, const union out_val *v)
{
	if (!v[2].s[0] || !v[3].s[0])
		snprintf(line, len, "%s: only %s says: %s", v[0].s, v[2].s[0] ? "A" : v[1].s,
			 v[2].s[0] ? v[2].s : v[3].s);
	else
		snprintf(line, len, "%s: A %s, %s %s: %s", v[0].s, v[2].s, v[1].s, v[3].s,
			 v[4].b ? "same" : "different");
}

static const struct out_table verdict_table = { "compare-verdicts", verdict_fields, 5,
						verdict_text, NULL };

static const char *unit_name(enum ci_unit u)
{
	return u == CU_BPS ? "bytes_per_s" : u == CU_NS ? "ns" : "iops";
}

static const char *judgement_name(const struct cp_pair *p)
{
	if (!p->b)
		return "only_in_base";
	if (!p->a)
		return "only_in_input";
	switch (p->j.result) {
	case CJ_SIGNIFICANT: return "significant";
	case CJ_WITHIN_SPREAD: return "within_spread";
	case CJ_NOISE: return "within_noise";
	case CJ_ROUNDING: return "within_rounding";
	case CJ_CANNOT_TELL: break;
	}
	return "cannot_tell";
}

static void emit_pair(const struct ci_kind *k, const struct cp_pair *p, const char *x)
{
	union out_val v[F_N];
	const struct cj_row *j = &p->j;
	const struct ci_row *one = p->a ? p->a : p->b;
	double nan = NAN;

	v[F_TEST].s = k->table;
	v[F_KEY].s = one->key;
	v[F_ORDER].d = p->order;
	v[F_INPUT].s = x;
	v[F_UNIT].s = unit_name(k->value_random && strncmp(one->key, "random", 6) == 0
				? CU_IOPS : k->unit);
	v[F_BASE].d = p->a && p->b ? j->median_a : p->a ? stats_median(p->a->v, p->a->n) : nan;
	v[F_BASE_SPREAD].d = p->a && p->b ? j->spread_a : nan;
	v[F_BASE_RUNS].u = p->a ? p->a->n : 0;
	v[F_VALUE].d = p->a && p->b ? j->median_b : p->b ? stats_median(p->b->v, p->b->n) : nan;
	v[F_SPREAD].d = p->a && p->b ? j->spread_b : nan;
	v[F_RUNS].u = p->b ? p->b->n : 0;
	v[F_CHANGE].d = p->a && p->b ? j->change_pct : nan;
	v[F_P].d = p->a && p->b ? j->p : nan;
	v[F_JUDGEMENT].s = judgement_name(p);
	v[F_NEEDED].u = p->a && p->b ? j->runs_needed : 0;
	if (p->a && p->b && p->a->n == 1)
		v[F_BASE_SPREAD].d = nan;
	out_row(&cmp_table, v);
}

/* "only in A: 16MiB, 32MiB" */
static void only_note(const struct cp_pair *p, size_t n, bool base, char name)
{
	char list[1024];
	size_t at = 0, count = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ci_row *r = base ? p[i].a : p[i].b;

		if (!r || (base ? p[i].b : p[i].a))
			continue;
		count++;
		if (at < sizeof(list))
			at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", at ? ", " : "",
					       r->key);
	}
	if (count)
		out_note("only in %c (%zu row%s, not compared): %s", name, count,
			 count == 1 ? "" : "s", list);
}

static void compare_test(const struct ci_kind *k, const struct ci_table *a,
			 const struct ci_table *b, char name, bool from_text)
{
	struct cp_pair *p;
	size_t n = cp_pairs(a, b, &p);
	char x[2] = { name, '\0' }, text[512];
	const char *result;

	out_test_begin("compare");
	out_note("%s: %c against A (the baseline), %zu row%s", k->option, name, n,
		 n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++)
		emit_pair(k, &p[i], x);
	only_note(p, n, true, 'A');
	only_note(p, n, false, name);
	result = compare_summary_pairs(k, p, n, name, from_text, text, sizeof(text));
	out_verdict(&(struct out_verdict){ .label = "compare", .name = k->table, .result = result },
		    "%s: %s", k->option, text);
	free(p);
}

static void heading(const struct ci_input *in, char name)
{
	char size[FB_FMT_LEN], date[32] = "", dev[400] = "", run[32] = "";
	struct tm tm;

	if (in->mtime && gmtime_r(&in->mtime, &tm))
		strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", &tm);
	if (in->device[0] && (in->dev_kind[0] || in->dev_size))
		snprintf(dev, sizeof(dev), "; device %s (%s%s%s)", in->device, in->dev_kind,
			 in->dev_kind[0] && in->dev_size ? ", " : "",
			 in->dev_size ? fmt_size(size, sizeof(size), in->dev_size) : "");
	else if (in->device[0])
		snprintf(dev, sizeof(dev), "; %s", in->device);	/* a mailed table's title */
	/* Our own output carries no date: the file's is the next best. */
	if (in->run)
		snprintf(run, sizeof(run), ", run %u", in->run);
	out_note("%c%s: %s%s (%s)%s%s%s; %s %s", name, name == 'A' ? " (the baseline)" : "",
		 in->path, run, in->format, dev, in->command[0] ? "; command: " : "", in->command,
		 in->date[0] ? "dated" : "file dated", in->date[0] ? in->date : date);
}

/* A claim without its numbers: "erase block 4MiB" and "erase block 8MiB" say the same kind. */
static void claim_kind(const char *claim, char *out, size_t len)
{
	size_t at = 0;

	out[0] = '\0';
	while (*claim) {
		size_t n = strcspn(claim, " ");

		if (!memchr(claim, '0', n) && strcspn(claim, "0123456789") >= n && at < len)
			at += (size_t)snprintf(out + at, len - at, "%.*s ", (int)n, claim);
		claim += n + strspn(claim + n, " ");
	}
}

/*
 * Which of b's verdicts answers each of a's (-1: none): the same claim
 * first, then one of its kind ("erase block 8MiB" against "4MiB"), then
 * what is left of the topic in order -- never by place alone, so a
 * verdict one input has more of ("1 row left out") does not shift the rest.
 */
static void match_verdicts(const struct ci_input *a, const struct ci_input *b,
			   int m[CI_MAX_VERDICTS], bool used[CI_MAX_VERDICTS])
{
	char ka[160], kb[160];

	memset(used, 0, CI_MAX_VERDICTS * sizeof(*used));
	for (size_t i = 0; i < a->nverdicts; i++)
		m[i] = -1;
	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < a->nverdicts; i++) {
			const struct ci_verdict *va = &a->verdicts[i];

			claim_kind(va->claim, ka, sizeof(ka));
			for (size_t k = 0; m[i] < 0 && k < b->nverdicts; k++) {
				const struct ci_verdict *vb = &b->verdicts[k];

				if (used[k] || strcmp(va->topic, vb->topic) != 0)
					continue;
				claim_kind(vb->claim, kb, sizeof(kb));
				if (pass == 0 ? strcmp(va->claim, vb->claim) == 0
				    : pass == 1 ? strcmp(ka, kb) == 0 : true) {
					m[i] = (int)k;
					used[k] = true;
				}
			}
		}
}

static void verdict_row(const char *topic, const char *x, const char *ca, const char *cb)
{
	out_row(&verdict_table, (union out_val[]){ { .s = topic }, { .s = x }, { .s = ca },
						   { .s = cb }, { .b = ca[0] && strcmp(ca, cb) == 0 } });
}

static void compare_verdicts(const struct ci_input *a, const struct ci_input *b, char name)
{
	char x[2] = { name, '\0' };
	int m[CI_MAX_VERDICTS];
	bool used[CI_MAX_VERDICTS];

	if (!a->nverdicts && !b->nverdicts)
		return;
	out_test_begin("compare");
	out_note("verdicts: %c against A, without their evidence", name);
	match_verdicts(a, b, m, used);
	for (size_t i = 0; i < a->nverdicts; i++)
		verdict_row(a->verdicts[i].topic, x, a->verdicts[i].claim,
			    m[i] >= 0 ? b->verdicts[m[i]].claim : "");
	for (size_t k = 0; k < b->nverdicts; k++)
		if (!used[k])
			verdict_row(b->verdicts[k].topic, x, "", b->verdicts[k].claim);
}

/* The tests of an input that the baseline has not, or the other way round. */
static void unshared(const struct ci_input *a, const struct ci_input *b, char name)
{
	for (size_t i = 0; i < a->ntables; i++)
		if (!ci_table_of(b, a->tables[i].kind))
			out_note("%s: only in A, not in %c: not compared", a->tables[i].kind->option,
				 name);
	for (size_t i = 0; i < b->ntables; i++)
		if (!ci_table_of(a, b->tables[i].kind))
			out_note("%s: only in %c, not in A: not compared", b->tables[i].kind->option,
				 name);
}

/* What an input lost: rows skipped, and a file that may be cut short. */
static void losses(const struct ci_input *in, char name)
{
	if (in->rows_bad)
		out_note("%c: %lu row%s skipped, not compared (%s%s)", name, in->rows_bad,
			 in->rows_bad == 1 ? "" : "s", in->rows_bad == 1 ? "" : "the first: ", in->bad);
	if (in->merged)
		out_note("%c: %u runs one after another: read as more runs of each row", name,
			 in->merged + 1);
	/* A JSON document cut short is refused by its reader. */
	if (in->csv_run && !in->csv_status && strcmp(in->format, "csv") == 0)
		out_note("%c: no \"# status\" line at its end: the run or the file was cut short", name);
}

void compare_emit(const struct ci_input *in, size_t n)
{
	out_test_begin("compare");
	for (size_t i = 0; i < n; i++) {
		heading(&in[i], (char)('A' + i));
		losses(&in[i], (char)('A' + i));
		if (in[i].ignored[0])
			out_note("%c: %s: not compared (rows of no value to compare)",
				 (char)('A' + i), in[i].ignored);
		if (in[i].rows_ignored)
			out_note("%c: %lu rows of find-fat or find-open-au: not compared",
				 (char)('A' + i), in[i].rows_ignored);
	}
	for (size_t i = 1; i < n; i++)
		unshared(&in[0], &in[i], (char)('A' + i));
	for (size_t t = 0; t < in[0].ntables; t++)
		for (size_t i = 1; i < n; i++) {
			const struct ci_table *b = ci_table_of(&in[i], in[0].tables[t].kind);

			if (b)
				compare_test(in[0].tables[t].kind, &in[0].tables[t], b,
					     (char)('A' + i), strcmp(in[0].format, "text") == 0 ||
					     strcmp(in[i].format, "text") == 0);
		}
	for (size_t i = 1; i < n; i++)
		compare_verdicts(&in[0], &in[i], (char)('A' + i));
}
