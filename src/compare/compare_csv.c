/*
 * --compare: the CSV of --format=csv (and of --sustained's --log) line by
 * line: its "# " lines (the command, the device, the parameters, each
 * table's name, verdicts), each table's line of column names, its rows.
 * A JSON document arrives here as the same lines (compare_json.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_csv.h"
#include "compare/compare_table.h"
#include "saved/saved_output.h"
#include "core/units.h"

#define CSV_MAX_COLS 256

/* Split a CSV line in place; quoted cells lose their quotes (a cell is
 * copied over its own start). Returns the count. */
static size_t split_csv(char *s, char **cell, size_t max)
{
	size_t n = 0;

	while (n < max) {
		char *w = s;

		cell[n++] = s;
		if (*s == '"') {
			for (s++; *s; s++) {
				if (*s == '"' && s[1] == '"')
					s++;
				else if (*s == '"') {
					s++;
					break;
				}
				*w++ = *s;
			}
		}
		while (*s && *s != ',')
			*w++ = *s++;
		if (!*s) {
			*w = '\0';
			break;
		}
		*w = '\0';
		s++;
	}
	return n;
}

static void set_columns(struct ci_input *in, char *line)
{
	char *cell[CSV_MAX_COLS];
	size_t n = split_csv(line, cell, CSV_MAX_COLS);
	struct ci_table *t;

	for (size_t i = 0; i < in->ncols; i++)
		free(in->cols[i]);
	free(in->cols);
	in->cols = calloc(n, sizeof(*in->cols));
	in->ncols = 0;
	for (size_t i = 0; in->cols && i < n; i++)
		if ((in->cols[i] = strdup(cell[i])))
			in->ncols = i + 1;
	in->csv_header_next = false;
	/* A log starts again (runs one after another): its first interval again. */
	if (in->cur && (t = (struct ci_table *)ci_table_of(in, in->cur)))
		t->ordinal = 0;
}

static int column(const struct ci_input *in, const char *name)
{
	for (size_t i = 0; i < in->ncols; i++)
		if (strcmp(in->cols[i], name) == 0)
			return (int)i;
	return -1;
}

/*
 * A value cell: all of it a number, and one a device can give (a rate
 * of 1e+300 or -2e+07 B/s is none: see so_implausible_rate). -1 with the
 * row counted as skipped, and why.
 */
static int cell_value(struct ci_input *in, enum ci_unit unit, const char *cell, double *v,
		      double *rel)
{
	const char *why;
	char *end;

	*v = strtod(cell, &end);
	if (end == cell || *end) {
		ci_bad_row(in, "'%.40s' is no number", cell);
		return -1;
	}
	why = unit == CU_BPS ? so_implausible_rate(*v) : unit == CU_IOPS ? so_implausible_iops(*v)
	      : so_implausible_time(*v);
	if (why) {
		ci_bad_row(in, "%.40s is no value a device gives (%s)", cell, why);
		return -1;
	}
	*rel = fmax(*rel, so_rel_step(cell));
	return 0;
}

/* A list field's cells: NAME_1 ... NAME_n. -1 on a cell that is no value. */
static int list_cells(struct ci_input *in, char **cell, size_t n, const char *name, double *v,
		      double *rel)
{
	size_t len = strlen(name), k = 0;

	for (size_t i = 0; i < in->ncols && i < n && k < CI_MAX_RUNS; i++) {
		const char *c = in->cols[i];

		if (strncmp(c, name, len) == 0 && c[len] == '_' && c[len + 1] &&
		    strspn(c + len + 1, "0123456789") == strlen(c + len + 1) && cell[i][0] &&
		    cell_value(in, in->cur->unit, cell[i], &v[k++], rel) < 0)
			return -1;
	}
	return (int)k;
}

/* "12.3s": a time of a log as its interval shows it, every row of it distinct. */
static void log_time(char *key, size_t len, double ns, double interval)
{
	int d = 0;

	while (d < 9 && fabs(interval / 1e9 * pow(10, d) - round(interval / 1e9 * pow(10, d))) > 1e-6)
		d++;
	snprintf(key, len, "%.*fs", d, ns / 1e9);
}

/* A log's interval from its first row's time, which ends a little late: two digits, down. */
static double first_interval(double x)
{
	double p = x > 0 ? pow(10, floor(log10(x)) - 1) : 0;

	return p > 0 ? floor(x / p) * p : 1e9;
}

/* The key of a row as shown, and where it sorts. -1 when the cell is empty. */
static int row_key(struct ci_input *in, struct ci_table *t, const char *cell, char *key,
		   size_t len, double *order)
{
	double x = strtod(cell, NULL);

	if (!cell[0])
		return -1;
	switch (t->kind->key_type) {
	case CK_BYTES:
		fmt_size(key, len, (uint64_t)x);
		break;
	case CK_COUNT:
		snprintf(key, len, "%llu", (unsigned long long)x);
		break;
	case CK_TEXT:
		snprintf(key, len, "%s", cell);
		x = (double)t->nrows;
		break;
	case CK_TIME:
		/*
		 * A log's rows come every --log-interval of device time, each
		 * a little late, the lateness adding up; the last one is a
		 * partial interval. Paired by their place in the log (the
		 * k-th interval), shown as k intervals.
		 */
		if (!t->interval)
			t->interval = in->log_interval ? in->log_interval : first_interval(x);
		x = (double)++t->ordinal * t->interval;
		log_time(key, len, x, t->interval);
		break;
	}
	*order = x;
	return 0;
}

static void data_line(struct ci_input *in, char *line)
{
	const struct ci_kind *k = in->cur;
	char *cell[CSV_MAX_COLS], key[48];
	double v[CI_MAX_RUNS], order, rel = 0;
	size_t n = split_csv(line, cell, CSV_MAX_COLS), nv;
	int kc = column(in, k->key), vc, r = 0;
	struct ci_table *t = ci_table_for(in, k);

	if (kc < 0 || (size_t)kc >= n || !t)
		return;
	/* Logs written one after another: each starts with its names again. */
	if (strcmp(cell[kc], k->key) == 0) {
		for (size_t i = 1; i < n; i++)
			cell[i][-1] = ',';
		set_columns(in, line);
		return;
	}
	/* A row cut short (a file cut, a paste cut): its last cell is cut too. */
	if (n < in->ncols) {
		ci_bad_row(in, "%zu of %zu cells (cut short)", n, in->ncols);
		return;
	}
	if (row_key(in, t, cell[kc], key, sizeof(key), &order) < 0)
		return;
	if (k->runs && (r = list_cells(in, cell, n, k->runs, v, &rel)) < 0)
		return;
	nv = r > 0 ? (size_t)r : 0;
	if (!nv) {
		bool random = k->value_random && strncmp(key, "random", 6) == 0;
		const char *name = random ? k->value_random : k->value;

		vc = name ? column(in, name) : -1;
		if (vc < 0 || (size_t)vc >= n || !cell[vc][0])
			return;
		if (cell_value(in, random ? CU_IOPS : k->unit, cell[vc], &v[nv++], &rel) < 0)
			return;
	}
	ci_add(t, key, order, v, nv, rel);
}

/* "# device: PATH (KIND), N bytes, sector S" */
static void device_line(struct ci_input *in, const char *s)
{
	const char *open = strrchr(s, '('), *close = open ? strchr(open, ')') : NULL;
	unsigned long long size;

	if (!open || !close || open == s)
		return;
	snprintf(in->device, sizeof(in->device), "%.*s", (int)(open - s - 1), s);
	snprintf(in->dev_kind, sizeof(in->dev_kind), "%.*s", (int)(close - open - 1), open + 1);
	if (sscanf(close + 1, ", %llu bytes", &size) == 1)
		in->dev_size = size;
}

static void table_line(struct ci_input *in, const char *name)
{
	size_t n = strcspn(name, " ");

	in->cur = ci_kind_of(name);
	in->csv_header_next = true;
	/* The verdicts that follow belong to the test: "open-au-step" is -O's. */
	if (strstr(name, "-step"))
		n = (size_t)(strstr(name, "-step") - name);
	else if (strstr(name, "-summary"))
		n = (size_t)(strstr(name, "-summary") - name);
	snprintf(in->topic, sizeof(in->topic), "%.*s", (int)n, name);
	if (!in->cur && !strstr(name, "-step") && !strstr(name, "-summary") &&
	    strlen(in->ignored) + strlen(name) + 3 < sizeof(in->ignored) && !strstr(in->ignored, name))
		snprintf(in->ignored + strlen(in->ignored), sizeof(in->ignored) - strlen(in->ignored),
			 "%s%s", in->ignored[0] ? ", " : "", name);
}

static void comment_line(struct ci_input *in, const char *s)
{
	unsigned long long v;
	const char *colon;

	if (strncmp(s, "flashbench ", 11) == 0 && (colon = strstr(s, ": "))) {
		snprintf(in->command, sizeof(in->command), "%s", colon + 2);
		in->csv_run = true;
	} else if (strncmp(s, "status: ", 8) == 0)
		in->csv_status = true;
	else if (strncmp(s, "device: ", 8) == 0)
		device_line(in, s + 8);
	else if (sscanf(s, "parameter blocksize=%llu", &v) == 1)
		in->blocksize = v;
	else if (sscanf(s, "parameter erasesize=%llu", &v) == 1)
		in->erasesize = v;
	else if (sscanf(s, "parameter log-interval=%llu", &v) == 1)
		in->log_interval = (double)v;
	else if (sscanf(s, "parameter open-au-nr=%llu", &v) == 1)
		in->open_au_nr = (unsigned)v;
	else if (strncmp(s, "parameter write=", 16) == 0)
		in->write = strcmp(s + 16, "true") == 0 ? CI_YES : CI_NO;
	else if (strncmp(s, "parameter random=", 17) == 0)
		in->random = strcmp(s + 17, "true") == 0 ? CI_YES : CI_NO;
	else if (strncmp(s, "table: ", 7) == 0)
		table_line(in, s + 7);
	else if (strncmp(s, "test: ", 6) == 0) {	/* a JSON document's test */
		snprintf(in->topic, sizeof(in->topic), "%s", s + 6);
		in->cur = NULL;
	}
	else
		ci_verdict_line(in, s);
}

void ci_csv_line(struct ci_input *in, char *line)
{
	if (line[0] == '#') {
		comment_line(in, line + 1 + strspn(line + 1, " "));
		return;
	}
	if (!line[0]) {
		in->cur = NULL;
		return;
	}
	/* --sustained --log: a file of one table, its names on the first line. */
	if (!in->csv_header_next && !in->ncols && strncmp(line, "elapsed_ns,", 11) == 0) {
		in->cur = ci_kind_of("sustained");
		snprintf(in->topic, sizeof(in->topic), "sustained");
		in->csv_header_next = true;
	}
	if (in->csv_header_next) {
		set_columns(in, line);
		return;
	}
	if (in->cur)
		data_line(in, line);
}
