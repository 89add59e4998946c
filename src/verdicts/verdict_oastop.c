/*
 * The early stop of --open-au and --find-fat (verdict_openau.h): a run
 * stops once every column shows a collection's worth for OA_GC_LINES
 * lines in a row (oa_gc_clear), with the "stopped:" line.
 */
#include <stdlib.h>

#include "core/out.h"
#include "core/units.h"
#include "verdicts/verdict_openau.h"

void oa_report_stop(double wns)
{
	char a[FB_FMT_LEN];

	out_note("stopped: every write costs the same %s \xe2\x80\x94 the card is "
		 "garbage-collecting (--no-early-stop measures every size)",
		 fmt_time(a, sizeof(a), wns));
	out_test_stopped("every write is a garbage collection");
}

struct oa_stop {
	unsigned ncol;
	struct oa_run col[];
};

struct oa_stop *oa_stop_new(unsigned ncol, uint64_t erase)
{
	struct oa_stop *s = calloc(1, sizeof(*s) + ncol * sizeof(s->col[0]));

	if (!s)
		return NULL;
	s->ncol = ncol;
	for (unsigned i = 0; i < ncol; i++)
		oa_init(&s->col[i], erase);
	return s;
}

bool oa_stop_line(struct oa_stop *s, uint64_t size, const double *rates)
{
	double wns, worst = 0;

	if (!s)
		return false;
	for (unsigned i = 0; i < s->ncol; i++)
		oa_add(&s->col[i], size, rates[i]);
	for (unsigned i = 0; i < s->ncol; i++) {
		if (!oa_gc_clear(&s->col[i], &wns))
			return false;
		if (wns > worst)
			worst = wns;
	}
	oa_report_stop(worst);
	return true;
}

void oa_stop_free(struct oa_stop *s)
{
	free(s);
}
