/*
 * --compare: a text input, line by line through the saved-output reader
 * of --analyze (saved_output.h, saved_readahead.h): align rows, open-au
 * rows, readahead tables (ours and mailed ones such as seed 001's), the
 * command lines that start a run and what they say about it, and the
 * verdict lines.
 */
#include <stdio.h>
#include <string.h>

#include "compare/compare_text.h"
#include "compare/compare_table.h"
#include "saved/saved_output.h"
#include "core/units.h"

struct ci_input *ci_next_run(struct ci_reader *rd)
{
	struct ci_input *cur = &rd->ins[rd->n - 1], *in;

	if (rd->n == rd->max) {
		cur->merged++;	/* said in its heading, or refused (ci_read_runs) */
		if (rd->max > 1 && !rd->overflow)
			rd->overflow = cur->line;
		return cur;
	}
	in = &rd->ins[rd->n++];
	memset(in, 0, sizeof(*in));
	in->path = cur->path;
	in->mtime = cur->mtime;
	memcpy(in->date, cur->date, sizeof(in->date));
	if (cur->run == 0)
		cur->run = 1;
	in->run = cur->run + 1;
	/* A mailed table's title ("SSD 80G Intel x25-M ...") names its device. */
	snprintf(in->device, sizeof(in->device), "%s", rd->title);
	return in;
}

/* A new run starts: with max > 1, an input of its own. */
static struct ci_input *run_starts(struct ci_reader *rd)
{
	struct ci_input *in = &rd->ins[rd->n - 1];

	if (in->ntables)
		return ci_next_run(rd);
	if (!in->device[0] && rd->title[0])
		snprintf(in->device, sizeof(in->device), "%s", rd->title);
	return in;
}

static void command(struct ci_reader *rd, struct ci_input *in, const struct so_line *l)
{
	rd->in_readahead = l->is_readahead;
	snprintf(in->topic, sizeof(in->topic), "%s", l->is_align ? "align"
		 : l->is_open_au ? "open-au" : l->is_find_fat ? "find-fat"
		 : l->is_readahead ? "readahead" : "");
	if (l->erase)
		in->erasesize = l->erase;
	if (l->blocksize)
		in->blocksize = l->blocksize;
	if (l->nr && l->is_open_au)
		in->open_au_nr = l->nr;
	/* A flashbench -O without --random writes linearly. */
	if (l->random || l->linear || (l->is_flashbench && l->is_open_au))
		in->random = l->random ? CI_YES : CI_NO;
	/* The original's defaults: 16KiB blocks, 4MiB erase blocks. */
	if (l->is_flashbench && !in->erasesize)
		in->erasesize = 4ull << 20;
	if (l->is_flashbench && !in->blocksize)
		in->blocksize = 16ull << 10;
}

static void row(struct ci_input *in, const char *table, uint64_t size, const double *v, size_t n,
		double rel)
{
	char key[FB_FMT_LEN];
	struct ci_table *t = ci_table_for(in, ci_kind_of(table));

	/* The "verdict:" lines that follow are this test's. */
	snprintf(in->topic, sizeof(in->topic), "%s", table);
	if (t)
		ci_add(t, fmt_size(key, sizeof(key), size), (double)size, v, n, rel);
}

static void text_record(void *ctx, const struct so_line *l)
{
	struct ci_reader *rd = ctx;
	struct ci_input *in = &rd->ins[rd->n - 1];

	switch (l->kind) {
	case SO_COMMAND:
		in = l->is_readahead && rd->in_readahead ? in : run_starts(rd);
		command(rd, in, l);
		break;
	case SO_RA_HEADER:
		/* A second table's header, though no blank line came between. */
		if (!rd->in_readahead || ci_table_of(in, ci_kind_of("readahead")))
			in = run_starts(rd);
		rd->in_readahead = true;
		snprintf(in->topic, sizeof(in->topic), "readahead");
		break;
	case SO_RA_ROW:
		if (!l->bare || rd->in_readahead)
			row(in, "readahead", l->size, l->rates, l->nrates, l->step);
		if (l->mark && !in->ra_mark)
			in->ra_mark = l->size;
		break;
	case SO_ALIGN:
		row(in, "align", l->boundary, &l->diff, 1, l->step);
		break;
	case SO_RATE:
		/* An open-au row; find-fat's rows (a rate per erase block) are not compared. */
		if (l->nrates == 1 && !l->slowest) {
			row(in, "open-au", l->size, &l->rate, 1, l->step);
		} else {
			in->rows_ignored++;
			snprintf(in->topic, sizeof(in->topic), "%s", l->slowest ? "find-open-au"
				 : "find-fat");
		}
		break;
	case SO_VERDICT:
		/* "verdict: 2 open AUs (linear): ...": the parameters of -O above it. */
		if (l->is_open_au && l->nr && !in->open_au_nr)
			in->open_au_nr = l->nr;
		if (l->is_open_au && (l->random || l->linear) && !in->random)
			in->random = l->random ? CI_YES : CI_NO;
		break;
	case SO_SKIP:
		rd->skipped = true;
		if (l->note[0])
			ci_bad_row(in, "%s", l->note);
		break;
	case SO_BLANK:
		/* A readahead table ends at a blank line: the next needs its header. */
		rd->in_readahead = false;
		break;
	default:
		break;
	}
}

/* A command line remembered as the input shows it. */
static void remember_command(struct ci_input *in, const char *line)
{
	const char *p = line + strspn(line, "$# \t>");

	if (!in->command[0] && (strstr(p, "flashbench") || strchr(line, '$')))
		snprintf(in->command, sizeof(in->command), "%s", p);
}

void ci_text_end(struct ci_reader *rd)
{
	for (size_t i = 0; i < rd->n; i++) {
		struct ci_input *in = &rd->ins[i];
		char size[FB_FMT_LEN], line[128];
		bool said = false;

		for (size_t k = 0; k < in->nverdicts; k++)
			said = said || strcmp(in->verdicts[k].topic, "readahead") == 0;
		if (said || !in->ra_mark)
			continue;
		/* A mailed table's "==>": its author's reading of the plateau. */
		snprintf(line, sizeof(line), "readahead: plateau at %s: marked ==> in the input",
			 fmt_size(size, sizeof(size), in->ra_mark));
		ci_verdict_line(in, line);
	}
}

void ci_text_line(struct ci_reader *rd, const char *line)
{
	struct ci_input *in;

	rd->skipped = false;
	so_scan(line, text_record, rd);
	in = &rd->ins[rd->n - 1];
	/* "Date: Sun, 29 Jan 2012 17:28:06 +0800\t[thread overview]" */
	if (!in->date[0] && strncmp(line, "Date: ", 6) == 0)
		snprintf(in->date, sizeof(in->date), "%.*s", (int)strcspn(line + 6, "\t["), line + 6);
	if (line[0] == '$' || strncmp(line, "# flashbench", 12) == 0 ||
	    strncmp(line, "./flashbench", 12) == 0)
		remember_command(in, line);
	ci_verdict_line(in, line);
	if (rd->skipped && line[strspn(line, " \t>")])
		snprintf(rd->title, sizeof(rd->title), "%.159s", line + strspn(line, " \t>"));
}
