/*
 * The inputs of --compare (see compare_input.h): a file read line by line,
 * each line to the reader of its format (compare_csv.c, compare_json.c,
 * compare_text.c), which fill the tables of compare_table.c.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare/compare_csv.h"
#include "compare/compare_input.h"
#include "compare/compare_json.h"
#include "compare/compare_text.h"
#include "saved/saved_output.h"
#include "core/opts.h"
#include "core/units.h"

/*
 * A line only the CSV of --format=csv (or --sustained's --log) starts a
 * run or a table with: its "# flashbench VERSION: " line (a root prompt's
 * "# flashbench -a ..." has no version), "# device: ", "# parameter ",
 * "# table: ", or a log's column names.
 */
static bool csv_line(const char *line)
{
	return (strncmp(line, "# flashbench ", 13) == 0 && isdigit((unsigned char)line[13]) &&
		strstr(line, ": ")) ||
	       strncmp(line, "# device: ", 10) == 0 || strncmp(line, "# parameter ", 12) == 0 ||
	       strncmp(line, "# table: ", 9) == 0 || strncmp(line, "elapsed_ns,", 11) == 0;
}

/* The last line, without its line end, holds a row: its last value may be cut. */
static bool cut_row(const char *line, bool csv)
{
	struct so_line l;

	if (csv)
		return line[0] && line[0] != '#';
	so_classify(line, &l);
	return l.kind == SO_ALIGN || l.kind == SO_RATE || l.kind == SO_RA_ROW;
}

static int read_lines(struct ai_input *ai, struct ci_reader *rd, char *err, size_t len)
{
	bool csv = false;
	int r;

	while ((r = ai_next(ai)) == 1) {
		char *line = ai->buf;
		struct ci_input *in = &rd->ins[rd->n - 1];

		in->line = ai->line;
		if (ai->cut)
			continue;
		if (ai->unterminated && cut_row(line, ai->json || csv)) {
			ci_bad_row(in, "a row without its line end (cut short)");
			continue;
		}
		/* The format by content: the first line may be lost to a paste. */
		if (!csv && !ai->json && !in->ntables && rd->n == 1)
			csv = csv_line(line);
		if (ai->json || csv) {
			/* Runs written one after another: each starts with its command. */
			if (strncmp(line, "# flashbench ", 13) == 0 && in->ntables)
				in = ci_next_run(rd);
			ci_csv_line(in, line);
			continue;
		}
		ci_text_line(rd, line);
	}
	ci_text_end(rd);
	for (size_t i = 0; i < rd->n; i++)
		rd->ins[i].format = ai->json ? "json" : csv ? "csv" : "text";
	/* Exit codes as in every mode: a signal 130, a read error 1, input
	 * that is not saved output 2. */
	if (r < 0 && ai->interrupted) {
		snprintf(err, len, "--compare: interrupted by signal %d while reading '%s'",
			 ai->interrupted, rd->ins[0].path);
		return FB_EINTR;
	}
	if (r < 0) {
		snprintf(err, len, "--compare: cannot read '%s': %s", rd->ins[0].path,
			 ai->err ? strerror(ai->err) : ai->stop);
		return ai->err ? FB_EDEV : FB_EUSAGE;
	}
	return FB_OK;
}

int ci_read_runs(const char *path, struct ci_input *in, size_t max, size_t *n, char *err,
		 size_t len)
{
	struct ai_input *ai = NULL;
	struct ci_reader rd = { .ins = in, .n = 1, .max = max };
	struct stat st;
	int r;

	memset(in, 0, sizeof(*in));
	in->path = path;
	*n = 0;
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
	r = read_lines(ai, &rd, err, len);
	ai_close(ai);
	for (size_t k = 0; k < rd.n; k++) {
		for (size_t i = 0; i < in[k].ncols; i++)
			free(in[k].cols[i]);
		free(in[k].cols);
		in[k].cols = NULL;
		in[k].ncols = 0;
	}
	*n = rd.n;
	if (r == FB_OK && rd.overflow) {
		snprintf(err, len, "--compare: '%s' holds more than %zu runs (A to Z): run %zu starts "
			 "at line %llu; compare them in parts", path, max, max + 1, rd.overflow);
		return FB_EUSAGE;
	}
	return r;
}

int ci_read(const char *path, struct ci_input *in, char *err, size_t len)
{
	size_t n;

	return ci_read_runs(path, in, 1, &n, err, len);
}
