/* How close the card's twin came: see fit_twin.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/out.h"
#include "core/units.h"
#include "verdicts/fit_twin.h"

static bool close_to(double card, double twin, double noise)
{
	double tol = fmax(TWIN_NOISES * noise, TWIN_FRACTION * fabs(card));

	return fabs(twin - card) <= tol;
}

/* Rows at the same boundary: the diff within the table's noise, the plain reads within
 * TWIN_PLAIN of the card's (a busy host disturbs plain reads beyond the diffs' noise). */
static void judge_align(const struct fit_input *card, double noise, const struct fit_input *twin,
			struct twin_judgement *j)
{
	for (size_t i = 0; i < card->nalign; i++)
		for (size_t k = 0; k < twin->nalign; k++) {
			const struct va_row *a = &card->align[i], *b = &twin->align[k];

			if (a->b != b->b)
				continue;
			j->align_rows++;
			j->align_close += close_to(a->diff, b->diff, noise) &&
					  fabs(b->pre - a->pre) <= TWIN_PLAIN * a->pre &&
					  fabs(b->post - a->post) <= TWIN_PLAIN * a->post;
			break;
		}
}

/* The largest difference of the rates of the first linear probe of one erase block, %. */
static double worst_n1(const struct fit_input *card, const struct fit_input *twin)
{
	const struct oa_run *a = NULL, *b = NULL;
	double worst = -1;

	for (size_t i = 0; i < card->nprobe && !a; i++)
		if (card->probe[i].nr == 1 && !card->probe[i].random)
			a = &card->probe[i].agg;
	for (size_t i = 0; i < twin->nprobe && !b; i++)
		if (twin->probe[i].nr == 1 && !twin->probe[i].random)
			b = &twin->probe[i].agg;
	for (size_t i = 0; a && b && i < a->n && i < b->n; i++)
		if (a->size[i] == b->size[i] && a->rate[i] > 0)
			worst = fmax(worst, 100 * fabs(b->rate[i] / a->rate[i] - 1));
	return worst;
}

static double worst_read(const struct fit_input *card, const struct fit_input *twin)
{
	double worst = -1;

	for (size_t i = 0; i < card->nread && i < twin->nread; i++)
		if (card->read[i].len == twin->read[i].len && card->read[i].ns > 0)
			worst = fmax(worst, 100 * fabs(twin->read[i].ns / card->read[i].ns - 1));
	return worst;
}

static bool same_bracket(const struct vf_facts *a, const struct vf_facts *b, int m)
{
	return !a->oa_runs[m] == !b->oa_runs[m] && a->oa[m].fast == b->oa[m].fast &&
	       a->oa[m].slow == b->oa[m].slow;
}

void twin_judge(const struct fit_input *card, const struct vf_facts *cf,
		const struct twin_result *twin, struct twin_judgement *j)
{
	const struct vf_facts *tf = &twin->facts;

	memset(j, 0, sizeof(*j));
	judge_align(card, cf->align ? cf->va.noise : 0, &twin->in, j);
	j->erase_same = cf->align == tf->align && cf->va.erase_state == tf->va.erase_state &&
			cf->va.erase == tf->va.erase;
	j->page_same = cf->align == tf->align && cf->va.page_state == tf->va.page_state &&
		       (cf->va.page_state != VA_FOUND || cf->va.page == tf->va.page);
	j->lin_same = same_bracket(cf, tf, 0);
	j->rnd_same = same_bracket(cf, tf, 1);
	j->fat_same = cf->fat == tf->fat && cf->ff.state == tf->ff.state &&
		      (cf->ff.state != FF_AREA || cf->ff.area == tf->ff.area);
	j->n1_worst = worst_n1(card, &twin->in);
	j->read_worst = worst_read(card, &twin->in);
	j->same = j->erase_same && j->page_same && j->lin_same && j->rnd_same && j->fat_same;
}

static const char *bracket_text(const struct vf_facts *f, int m, char *buf, size_t len)
{
	if (!f->oa_runs[m])
		snprintf(buf, len, "not run");
	else
		snprintf(buf, len, "%u/%u", f->oa[m].fast, f->oa[m].slow);
	return buf;
}

/* The open-AU part: "open AUs linear 6/7 and random 2/3 as the card" or the misses. */
static size_t open_text(const struct twin_judgement *j, const struct vf_facts *cf,
			const struct vf_facts *tf, char *buf, size_t len)
{
	char a[32], b[32], c[32], d[32];

	if (j->lin_same && j->rnd_same)
		return (size_t)snprintf(buf, len, "; open AUs linear %s and random %s as the card",
					bracket_text(cf, 0, a, sizeof(a)), bracket_text(cf, 1, b, sizeof(b)));
	return (size_t)snprintf(buf, len, "; open AUs linear %s%s%s%s, random %s%s%s%s",
				bracket_text(cf, 0, a, sizeof(a)), j->lin_same ? " as the card" : " (twin ",
				j->lin_same ? "" : bracket_text(tf, 0, c, sizeof(c)),
				j->lin_same ? "" : ": open-au misses)",
				bracket_text(cf, 1, b, sizeof(b)), j->rnd_same ? " as the card" : " (twin ",
				j->rnd_same ? "" : bracket_text(tf, 1, d, sizeof(d)),
				j->rnd_same ? "" : ": open-au-random misses)");
}

void twin_print(const struct twin_judgement *j, const struct vf_facts *cf,
		const struct twin_result *twin)
{
	const struct vf_facts *tf = &twin->facts;
	char buf[900], a[FB_FMT_LEN], b[FB_FMT_LEN];
	size_t u;

	u = (size_t)snprintf(buf, sizeof(buf), "-a %u of %u rows within the card's noise%s",
			     j->align_close, j->align_rows,
			     j->align_close < j->align_rows ? " (the others: read-lat, page-cross or "
			     "erase-cross, or a row the host disturbed)" : "");
	if (j->erase_same && j->page_same)
		u += (size_t)snprintf(buf + u, sizeof(buf) - u, "; erase block and page as the card");
	else
		u += (size_t)snprintf(buf + u, sizeof(buf) - u, "; the twin's -a names erase %s, "
				      "page %s (the card: %s, %s)",
				      fmt_size(a, sizeof(a), tf->va.erase),
				      fmt_size(b, sizeof(b), tf->va.page),
				      j->erase_same ? "the same" : "another erase block",
				      j->page_same ? "the same page" : "another page");
	u += open_text(j, cf, tf, buf + u, sizeof(buf) - u);
	if (u < sizeof(buf))
		u += (size_t)snprintf(buf + u, sizeof(buf) - u, "; FAT area %s",
				      j->fat_same ? "as the card" : "not as the card (fat-aus misses)");
	if (j->n1_worst >= 0 && u < sizeof(buf))
		u += (size_t)snprintf(buf + u, sizeof(buf) - u, "; N=1 rows within %.2g%%",
				      j->n1_worst);
	if (j->read_worst >= 0 && u < sizeof(buf))
		snprintf(buf + u, sizeof(buf) - u, "; reads within %.2g%%", j->read_worst);
	out_verdict(&(struct out_verdict){ .label = "twin", .name = "twin",
					   .result = j->same ? "same" : "differs" },
		    "%s", buf);
}
