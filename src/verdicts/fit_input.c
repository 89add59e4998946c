/* The numbers a survey measured, collected for the fit: see fit_input.h. */
#include <string.h>

#include "verdicts/fit_input.h"

void fit_input_reset(struct fit_input *in)
{
	memset(in, 0, sizeof(*in));
}

void fit_input_align(struct fit_input *in, uint64_t b, double pre, double post, double diff)
{
	if (in->nalign < VA_MAX_ROWS)
		in->align[in->nalign++] = (struct va_row){ .b = b, .diff = diff, .pre = pre,
							   .post = post };
}

void fit_input_read(struct fit_input *in, uint64_t len, double low, double ns, double high)
{
	if (in->nread < FIT_READS)
		in->read[in->nread++] = (struct fit_read){ .len = len, .low = low, .ns = ns,
							   .high = high };
}

void fit_input_probe(struct fit_input *in, unsigned nr, bool random, uint64_t size,
		     double rate, double slowest)
{
	struct fit_probe *p = in->nprobe ? &in->probe[in->nprobe - 1] : NULL;

	/* (the lines of a probe halve the size: a size not below the last starts another) */
	if (!p || p->nr != nr || p->random != random ||
	    (p->agg.n && size >= p->agg.size[p->agg.n - 1])) {
		if (in->nprobe == FIT_PROBES)
			return;
		p = &in->probe[in->nprobe++];
		p->nr = nr;
		p->random = random;
		oa_init(&p->agg, in->erase);
		oa_init(&p->slowest, in->erase);
	}
	oa_add(&p->agg, size, rate);
	oa_add(&p->slowest, size, slowest);
}

void fit_input_fat(struct fit_input *in, const double *rates, size_t n)
{
	in->fat_cols = (unsigned)n;
	if (in->nfat == FIT_FAT_ROWS)
		return;
	for (size_t i = 0; i < n && i < FIT_FAT_COLS; i++)
		in->fat_rate[in->nfat][i] = rates[i];
	in->nfat++;
}

void fit_input_row(struct fit_input *in, const char *test, const struct out_table *t,
		   const union out_val *v)
{
	if (strcmp(t->name, "align") == 0 && t->nfields == 5)
		fit_input_align(in, v[0].u, v[1].d, v[3].d, v[4].d);
	else if (strcmp(t->name, "survey-read") == 0 && t->nfields == 4)
		fit_input_read(in, v[0].u, v[1].d, v[2].d, v[3].d);
	else if (strcmp(t->name, "find-open-au") == 0 && t->nfields == 4 && test)
		fit_input_probe(in, (unsigned)v[0].u, strcmp(test, "find-open-au") != 0, v[1].u,
				v[2].d, v[3].d);
	else if (strcmp(t->name, "find-fat") == 0 && t->nfields == 2)
		fit_input_fat(in, v[1].list.v, v[1].list.n);
}
