/* The verdicts of this run: see facts.h. */
#include <string.h>

#include "verdicts/facts.h"

static struct vf_facts facts;

void vf_reset(void)
{
	memset(&facts, 0, sizeof(facts));
}

const struct vf_facts *vf_get(void)
{
	return &facts;
}

const struct va_verdict *vf_align_verdict(void)
{
	return facts.align ? &facts.va : NULL;
}

void vf_align(const struct va_verdict *v)
{
	facts.align = true;
	facts.va = *v;
}

void vf_open_au(unsigned nr, bool random, enum oa_class c)
{
	if (nr == 0)
		return;		/* a run whose N nothing said brackets nothing */
	facts.oa_runs[random]++;
	oa_bracket_add(&facts.oa[random], nr, c);
}

void vf_open_au_set(bool random, const unsigned *nr, const enum oa_class *c, size_t n)
{
	oa_bracket_init(&facts.oa[random]);
	for (size_t i = 0; i < n; i++)
		oa_bracket_add(&facts.oa[random], nr[i], c[i]);
}

void vf_open_au_merge(bool random, unsigned from, double ns, double x)
{
	facts.oa_merge[random] = from;
	facts.oa_merge_ns[random] = from ? ns : 0;
	facts.oa_merge_x[random] = from ? x : 0;
}

void vf_fat(const struct ff_result *r)
{
	facts.fat = true;
	facts.ff = *r;
}

void vf_capacity(uint64_t real)
{
	facts.capacity_real = real;
}
