/*
 * The inputs of --compare (see compare_input.h): which tests are compared
 * and by what, the rows and verdicts of one input, and its text lines,
 * read through the saved-output reader of --analyze.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "verdicts/compare_input.h"
#include "core/opts.h"
#include "core/units.h"

/*
 * What is compared per test: the value people read off its rows. Rows
 * with the same key in one input are more runs of that row (a text file
 * with a test run five times holds five runs).
 */
static const struct ci_kind kinds[] = {
	{ "readahead", "--readahead", "size_bytes", CK_BYTES, "rate_bps", NULL, NULL, CU_BPS, 1,
	  true, false, false },
	{ "open-au", "-O", "block_bytes", CK_BYTES, "rate_runs_bps", "rate_bps", NULL, CU_BPS, 1,
	  true, true, true },
	{ "queue-depth", "--queue-depth", "depth", CK_COUNT, "iops_runs", "iops", NULL, CU_IOPS, 1,
	  true, true, false },
	{ "align", "-a", "boundary_bytes", CK_BYTES, NULL, "diff_ns", NULL, CU_NS, 0,
	  false, true, false },
	{ "interval", "-i", "size_bytes", CK_BYTES, NULL, "time_ns", NULL, CU_NS, -1,
	  false, false, false },
	{ "sustained", "--sustained", "elapsed_ns", CK_TIME, NULL, "rate_bps", NULL, CU_BPS, 1,
	  false, true, false },
	{ "app-class", "--app-class", "figure", CK_TEXT, NULL, "rate_bps", "iops", CU_BPS, 1,
	  false, false, false },
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

void ci_add(struct ci_table *t, const char *key, double order, const double *v, size_t n)
{
	struct ci_row *r = NULL;

	for (size_t i = 0; i < t->nrows && !r; i++)
		if (strcmp(t->rows[i].key, key) == 0)
			r = &t->rows[i];
	if (!r) {
		if (t->nrows == t->cap) {
			size_t cap = t->cap ? 2 * t->cap : 32;
			struct ci_row *p = realloc(t->rows, cap * sizeof(*p));

			if (!p)
				return;
			t->rows = p;
			t->cap = cap;
		}
		r = &t->rows[t->nrows++];
		memset(r, 0, sizeof(*r));
		snprintf(r->key, sizeof(r->key), "%s", key);
		r->order = order;
	}
	for (size_t i = 0; i < n && r->n < CI_MAX_RUNS; i++)
		if (isfinite(v[i]))
			r->v[r->n++] = v[i];
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

/* ---- text, through the saved-output reader ---- */

static void text_record(void *ctx, const struct so_line *l)
{
	struct ci_input *in = ctx;
	char key[FB_FMT_LEN];
	struct ci_table *t;

	switch (l->kind) {
	case SO_COMMAND:
		in->text_open_au = l->is_open_au;
		snprintf(in->topic, sizeof(in->topic), "%s", l->is_align ? "align"
			 : l->is_open_au ? "open-au" : l->is_find_fat ? "find-fat" : "");
		if (l->erase)
			in->erasesize = l->erase;
		if (l->blocksize)
			in->blocksize = l->blocksize;
		/* The original's defaults: 16KiB blocks, 4MiB erase blocks. */
		if (l->is_flashbench && !in->erasesize)
			in->erasesize = 4ull << 20;
		if (l->is_flashbench && !in->blocksize)
			in->blocksize = 16ull << 10;
		break;
	case SO_ALIGN:
		if ((t = ci_table_for(in, ci_kind_of("align"))))
			ci_add(t, fmt_size(key, sizeof(key), l->boundary), (double)l->boundary,
			       &l->diff, 1);
		break;
	case SO_RATE:
		/* An open-au row; find-fat's rows (a rate per erase block) are not compared. */
		if (l->nrates == 1 && !l->slowest && (t = ci_table_for(in, ci_kind_of("open-au"))))
			ci_add(t, fmt_size(key, sizeof(key), l->size), (double)l->size, &l->rate, 1);
		else
			in->rows_ignored++;
		break;
	default:
		break;
	}
}

static void text_line(struct ci_input *in, const char *line)
{
	so_scan(line, text_record, in);
	ci_verdict_line(in, line);
}

/* A command line remembered as the input shows it. */
static void remember_command(struct ci_input *in, const char *line)
{
	const char *p = line + strspn(line, "$# \t>");

	if (!in->command[0] && (strstr(p, "flashbench") || strchr(line, '$')))
		snprintf(in->command, sizeof(in->command), "%s", p);
}

static int read_lines(struct ai_input *ai, struct ci_input *in, char *err, size_t len)
{
	bool csv = false;
	int r;

	while ((r = ai_next(ai)) == 1) {
		char *line = ai->buf;

		if (ai->cut)
			continue;
		if (ai->line == 1 && !ai->json)
			csv = strncmp(line, "# flashbench ", 13) == 0 ||
			      (strchr(line, ',') && strncmp(line, "elapsed_ns,", 11) == 0);
		if (ai->json || csv) {
			ci_csv_line(in, line);
			continue;
		}
		if (!in->date[0] && strncmp(line, "Date: ", 6) == 0)
			snprintf(in->date, sizeof(in->date), "%.63s", line + 6);
		if (line[0] == '$' || strncmp(line, "# flashbench", 12) == 0 ||
		    strncmp(line, "./flashbench", 12) == 0)
			remember_command(in, line);
		text_line(in, line);
	}
	in->format = ai->json ? "json" : csv ? "csv" : "text";
	if (r < 0) {
		snprintf(err, len, "--compare: cannot read '%s': %s", in->path,
			 ai->err ? strerror(ai->err) : ai->stop);
		return FB_EUSAGE;
	}
	return FB_OK;
}

int ci_read(const char *path, struct ci_input *in, char *err, size_t len)
{
	struct ai_input *ai = NULL;
	struct stat st;
	int r;

	memset(in, 0, sizeof(*in));
	in->path = path;
	if (ai_open(&ai, path, err, len) != FB_OK) {
		/* ai_open names --analyze: this is --compare. */
		char *p = strstr(err, "--analyze");

		if (p)
			memcpy(p, "--compare", 9);
		return FB_EUSAGE;
	}
	if (fstat(fileno(ai->f), &st) == 0)
		in->mtime = st.st_mtime;
	ai_json(ai, &compare_json_source);
	r = read_lines(ai, in, err, len);
	ai_close(ai);
	for (size_t i = 0; i < in->ncols; i++)
		free(in->cols[i]);
	free(in->cols);
	in->cols = NULL;
	in->ncols = 0;
	return r;
}

void ci_free(struct ci_input *in)
{
	for (size_t i = 0; i < in->ntables; i++)
		free(in->tables[i].rows);
	in->ntables = 0;
}
