/*
 * The tables of a --compare input (see compare_table.h): which tests are
 * compared and by what, and the rows and verdict lines of one input.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_table.h"
#include "core/units.h"

/*
 * What is compared per test: the value people read off its rows. Rows
 * with the same key in one input are more runs of that row (a text file
 * with a test run five times holds five runs).
 */
static const struct ci_kind kinds[] = {
	{ "readahead", "--readahead", "size_bytes", CK_BYTES, "rate_bps", NULL, NULL, CU_BPS, 1,
	  true, false, false, false },
	{ "open-au", "-O", "block_bytes", CK_BYTES, "rate_runs_bps", "rate_bps", NULL, CU_BPS, 1,
	  true, true, true, true },
	{ "queue-depth", "--queue-depth", "depth", CK_COUNT, "iops_runs", "iops", NULL, CU_IOPS, 1,
	  true, true, false, false },
	{ "align", "-a", "boundary_bytes", CK_BYTES, NULL, "diff_ns", NULL, CU_NS, 0,
	  false, true, false, false },
	{ "interval", "-i", "size_bytes", CK_BYTES, NULL, "time_ns", NULL, CU_NS, -1,
	  false, false, false, false },
	{ "sustained", "--sustained", "elapsed_ns", CK_TIME, NULL, "rate_bps", NULL, CU_BPS, 1,
	  false, true, false, false },
	{ "app-class", "--app-class", "figure", CK_TEXT, NULL, "rate_bps", "iops", CU_BPS, 1,
	  false, false, false, false },
};

const struct ci_kind *ci_kind_of(const char *table)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kinds[i].table, table) == 0)
			return &kinds[i];
	return NULL;
}

const struct ci_table *ci_table_of(const struct ci_input *in, const struct ci_kind *k)
{
	for (size_t i = 0; i < in->ntables; i++)
		if (in->tables[i].kind == k)
			return &in->tables[i];
	return NULL;
}

struct ci_table *ci_table_for(struct ci_input *in, const struct ci_kind *k)
{
	struct ci_table *t = (struct ci_table *)ci_table_of(in, k);

	if (t || in->ntables == CI_MAX_TABLES)
		return t;
	t = &in->tables[in->ntables++];
	memset(t, 0, sizeof(*t));
	t->kind = k;
	return t;
}

/* FNV-1a: where a key's row is looked up. */
static size_t key_hash(const char *key)
{
	size_t h = 14695981039346656037ull;

	for (; *key; key++)
		h = (h ^ (unsigned char)*key) * 1099511628211ull;
	return h;
}

/* The slot of key in t's index: its row's (+1), or the free one it would take. */
static size_t *slot(const struct ci_table *t, const char *key)
{
	size_t mask = t->nindex - 1, i = key_hash(key) & mask;

	while (t->index[i] && strcmp(t->rows[t->index[i] - 1].key, key) != 0)
		i = (i + 1) & mask;
	return &t->index[i];
}

/* The index kept under half full: a row is found in O(1), not by a scan of them all. */
static int grow_index(struct ci_table *t)
{
	size_t n = t->nindex ? 2 * t->nindex : 64;
	size_t *old = t->index, nold = t->nindex;

	if (2 * (t->nrows + 1) <= t->nindex)
		return 0;
	if (!(t->index = calloc(n, sizeof(*t->index)))) {
		t->index = old;
		return -1;
	}
	t->nindex = n;
	for (size_t i = 0; i < nold; i++)
		if (old[i])
			*slot(t, t->rows[old[i] - 1].key) = old[i];
	free(old);
	return 0;
}

static struct ci_row *new_row(struct ci_table *t, const char *key, double order)
{
	struct ci_row *r;

	if (t->nrows == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 32;
		struct ci_row *p = realloc(t->rows, cap * sizeof(*p));

		if (!p)
			return NULL;
		t->rows = p;
		t->cap = cap;
	}
	r = &t->rows[t->nrows++];
	memset(r, 0, sizeof(*r));
	snprintf(r->key, sizeof(r->key), "%s", key);
	r->order = order;
	*slot(t, r->key) = t->nrows;
	return r;
}

void ci_add(struct ci_table *t, const char *key, double order, const double *v, size_t n,
	    double rel)
{
	size_t *at;
	struct ci_row *r;

	if (grow_index(t) < 0)
		return;
	at = slot(t, key);
	if (!(r = *at ? &t->rows[*at - 1] : new_row(t, key, order)))
		return;
	for (size_t i = 0; i < n && r->n < CI_MAX_RUNS; i++) {
		if (!isfinite(v[i]))
			continue;
		if (r->n == r->cap) {
			unsigned cap = r->cap ? 2 * r->cap : 1;
			double *p = realloc(r->v, cap * sizeof(*p));

			if (!p)
				return;
			r->v = p;
			r->cap = cap;
		}
		r->v[r->n++] = v[i];
		r->step = fmax(r->step, rel * fabs(v[i]));
	}
}

/* The lines that are verdicts, by their start: the label and what follows. */
static const char *const verdict_starts[] = {
	"verdict: ", "readahead: plateau", "readahead: no plateau", "queue-depth: throughput",
	"cliff: ", "slow: ", "app-class: A", NULL,
};

/* Words after a ": " that are part of the claim ("fast", "fail"), not its evidence. */
static bool result_word(const char *s)
{
	static const char *const words[] = { "fast", "slow", "pass", "fail", "none", "named",
					     "uncertain", NULL };

	for (const char *const *w = words; *w; w++) {
		size_t n = strlen(*w);

		if (strncmp(s, *w, n) == 0 && (s[n] == ':' || s[n] == ',' || s[n] == '\0'))
			return true;
	}
	return false;
}

/* The claim of a verdict: up to its evidence, a " (" of several words or a ": ". */
static void claim_of(const char *text, char *out, size_t len)
{
	size_t i = 0;

	for (; text[i]; i++) {
		if (text[i] == ' ' && text[i + 1] == '(') {
			size_t w = strcspn(text + i + 2, " )");

			if (text[i + 2 + w] != ')')
				break;
		}
		if (text[i] == ':' && text[i + 1] == ' ' && !result_word(text + i + 2))
			break;
	}
	snprintf(out, len, "%.*s", (int)i, text);
}

void ci_verdict_line(struct ci_input *in, const char *line)
{
	struct ci_verdict *v;
	const char *colon;
	const char *const *s;

	for (s = verdict_starts; *s && strncmp(line, *s, strlen(*s)) != 0; s++)
		;
	if (!*s || in->nverdicts == CI_MAX_VERDICTS || !(colon = strchr(line, ':')))
		return;
	v = &in->verdicts[in->nverdicts++];
	/* "verdict:" is the test's: the one its command named, or its rows. */
	if (strncmp(line, "verdict:", 8) == 0)
		snprintf(v->topic, sizeof(v->topic), "%s", in->topic[0] ? in->topic
			 : in->ntables ? in->tables[in->ntables - 1].kind->table : "verdict");
	else
		snprintf(v->topic, sizeof(v->topic), "%.*s", (int)(colon - line), line);
	claim_of(colon + 2, v->claim, sizeof(v->claim));
	snprintf(v->text, sizeof(v->text), "%s", line);
}

void ci_bad_row(struct ci_input *in, const char *fmt, ...)
{
	size_t at;
	va_list ap;

	if (in->rows_bad++)
		return;
	at = (size_t)snprintf(in->bad, sizeof(in->bad), "line %llu: ", in->line);
	va_start(ap, fmt);
	vsnprintf(in->bad + at, sizeof(in->bad) - at, fmt, ap);
	va_end(ap);
}

void ci_free(struct ci_input *in)
{
	for (size_t i = 0; i < in->ntables; i++) {
		struct ci_table *t = &in->tables[i];

		for (size_t k = 0; k < t->nrows; k++)
			free(t->rows[k].v);
		free(t->rows);
		free(t->index);
	}
	in->ntables = 0;
}
