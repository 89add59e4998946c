/*
 * Which tests a run takes: the bits of struct fb_opts' selection, one per
 * place in the table (see test.h). The table (table.c) hands its order
 * down at start-up; nothing here knows the tests.
 */
#include <stddef.h>

#include "modules/test.h"

static const struct fb_test *const *order;

void fb_test_order(const struct fb_test *const *tests)
{
	order = tests;
}

uint32_t fb_test_bit(const struct fb_test *t)
{
	for (unsigned i = 0; order && order[i]; i++)
		if (order[i] == t)
			return 1u << i;
	return 0;
}

bool fb_test_selected(const struct fb_opts *o, const struct fb_test *t)
{
	return (o->tests & fb_test_bit(t)) != 0;
}

void fb_test_select(struct fb_opts *o, const struct fb_test *t)
{
	o->tests |= fb_test_bit(t);
}
