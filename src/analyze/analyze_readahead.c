/* --analyze of readahead sweeps: see analyze_readahead.h. */
#include <stdio.h>

#include "core/out.h"
#include "core/units.h"
#include "analyze/analyze_readahead.h"
#include "verdicts/verdict_readahead.h"

void anr_start(struct an_ra *r, unsigned header_runs, unsigned long long line)
{
	sr_init(&r->t);
	r->header_runs = header_runs;
	r->first_line = line;
	r->left_out = 0;
}

int anr_row(struct an_ra *r, const struct so_line *l, unsigned long long line)
{
	if (r->t.n && l->size <= r->t.size[r->t.n - 1])
		return 1;
	if ((r->header_runs && l->nrates != r->header_runs) ||
	    (r->t.n && l->nrates != r->t.runs) || sr_add(&r->t, l, line) < 0) {
		r->left_out++;
		return -1;
	}
	if (!r->first_line)
		r->first_line = line;
	return 0;
}

/* What the table's own "==>" says beside the rule. */
static void mark(const struct an_ra *r, const struct vr_result *v)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN];
	const struct sr_table *t = &r->t;

	if (t->marked < 0)
		return;
	fmt_size(a, sizeof(a), t->size[t->marked]);
	if (v->disagree)
		out_note("analyze: the table marks %s (==>, line %llu); the runs disagree too much "
			 "to confirm it", a, t->line[t->marked]);
	else if ((size_t)t->marked == v->at)
		out_note("analyze: the table marks %s (==>, line %llu): the same size", a,
			 t->line[t->marked]);
	else
		out_note("analyze: the table marks %s (==>, line %llu); by the runs' spread the "
			 "plateau starts at %s", a, t->line[t->marked],
			 fmt_size(b, sizeof(b), t->size[v->at]));
}

void anr_finish(const struct an_ra *r, unsigned run, bool readahead)
{
	struct vr_result v;
	const struct sr_table *t = &r->t;

	out_note("run %u (line %llu): readahead, %zu size%s, %u run%s, rows on lines %llu-%llu%s",
		 run, r->first_line, t->n, t->n == 1 ? "" : "s", t->runs, t->runs == 1 ? "" : "s",
		 t->line[0], t->line[t->n - 1], r->left_out ? ", some rows left out" : "");
	vr_judge(t, 0, &v);
	vr_print(t, &v, readahead ? "a readahead" : "requests", "");
	vr_print_edge(t, &v, false);
	mark(r, &v);
}
