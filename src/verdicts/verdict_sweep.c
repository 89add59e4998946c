/* Enough of a sweep to judge: see verdict_sweep.h. */
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "verdicts/verdict_sweep.h"

bool vs_too_short(const struct oa_run *r, struct oa_result *res)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN];

	if (r->n >= VS_MIN_LINES)
		return false;
	memset(res, 0, sizeof(*res));
	res->c = OA_INCONCLUSIVE;
	if (r->n == 0)
		snprintf(res->why, sizeof(res->why), "too short to judge: no lines");
	else if (r->n == 1)
		snprintf(res->why, sizeof(res->why), "too short to judge: 1 line (%s); the "
			 "garbage-collection signature needs %d", fmt_size(a, sizeof(a), r->size[0]),
			 VS_MIN_LINES);
	else
		snprintf(res->why, sizeof(res->why), "too short to judge: %zu lines (%s to %s); the "
			 "garbage-collection signature needs %d", r->n, fmt_size(a, sizeof(a), r->size[0]),
			 fmt_size(b, sizeof(b), r->size[r->n - 1]), VS_MIN_LINES);
	return true;
}

void vs_open_au(const struct oa_run *r, struct oa_result *res)
{
	if (!vs_too_short(r, res))
		oa_classify(r, res);
}
