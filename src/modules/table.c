/*
 * The table of tests, in the order one run takes them (the read-only
 * tests before the write tests, so that a run never reads what it has
 * just overwritten). A new test: its own file in src/modules/, defining
 * one struct fb_test, and one line here (its declaration and its place).
 */
#include <string.h>

#include "modules/test.h"

extern const struct fb_test test_info;
extern const struct fb_test test_align, test_scatter, test_interval, test_readahead,
	test_find_fat, test_open_au, test_find_open_au;
extern const struct fb_test test_queue_depth;
extern const struct fb_test test_advise;
extern const struct fb_test test_app_class, test_survey;
extern const struct fb_test test_sustained, test_capacity;

const struct fb_test *const fb_tests[] = {
	&test_info,
	&test_align,
	&test_scatter,
	&test_interval,
	&test_readahead,
	&test_queue_depth,
	&test_find_fat,
	&test_open_au,
	&test_find_open_au,
	&test_sustained,
	&test_capacity,
	&test_app_class,
	&test_survey,	/* after --find-open-au: it reads its verdict */
	&test_advise,	/* last: it reads the verdicts of the tests before it */
	NULL,
};

_Static_assert(sizeof(fb_tests) / sizeof(fb_tests[0]) <= 33,
	       "struct fb_opts selects tests with the bits of a uint32_t");

/*
 * The selection's bits are the places in this table: handed down to
 * modules/selection.c before main(), so that the modules that ask
 * whether another test runs (fb_test_bit()) do not use the table that
 * lists them.
 */
__attribute__((constructor)) static void table_hand_down(void)
{
	fb_test_order(fb_tests);
}

const struct fb_test *fb_test_find(const char *name)
{
	for (const struct fb_test *const *t = fb_tests; *t; t++)
		if (strcmp((*t)->name, name) == 0)
			return *t;
	return NULL;
}

bool fb_test_writes(const struct fb_test *t)
{
	if (!t->writes_with)
		return t->writes;
	for (const struct fb_option *w = t->options; w && w->name; w++)
		if (strcmp(w->name, t->writes_with) == 0)
			return t->writes && w->kind == FO_FLAG && *(const bool *)w->var;
	return false;
}

unsigned fb_tests_open_flags(const struct fb_opts *o)
{
	unsigned f = 0;

	for (unsigned i = 0; fb_tests[i]; i++)
		if ((o->tests & (1u << i)) && fb_tests[i]->open_flags)
			f |= fb_tests[i]->open_flags(o);
	return f;
}

bool fb_tests_write(const struct fb_opts *o)
{
	for (unsigned i = 0; fb_tests[i]; i++)
		if ((o->tests & (1u << i)) && fb_test_writes(fb_tests[i]))
			return true;
	return false;
}

uint32_t fb_tests_after_analyze(void)
{
	uint32_t bits = 0;

	for (unsigned i = 0; fb_tests[i]; i++)
		if (fb_tests[i]->after_analyze)
			bits |= 1u << i;
	return bits;
}

uint64_t fb_option_u64(const struct fb_option *opt, const struct fb_opts *o)
{
	const void *p = opt->var ? opt->var : (const char *)o + opt->off;

	switch (opt->kind) {
	case FO_FLAG:
		return *(const bool *)p;
	case FO_UINT:
		return *(const unsigned *)p;
	case FO_SIZE:
	case FO_SIZE0:
	case FO_DURATION:
		return *(const uint64_t *)p;
	default:
		return 0;
	}
}

const struct fb_option *fb_option_find(const char *name)
{
	for (const struct fb_test *const *t = fb_tests; *t; t++)
		for (const struct fb_option *p = (*t)->options; p && p->name; p++)
			if (strcmp(p->name, name) == 0)
				return p;
	return NULL;
}

void fb_tests_expand(struct fb_opts *o)
{
	for (const struct fb_test *const *t = fb_tests; *t; t++)
		if (fb_test_selected(o, *t))
			for (const struct fb_test *const *s = (*t)->selects; s && *s; s++)
				fb_test_select(o, *s);
}

void fb_tests_defaults(void)
{
	for (const struct fb_test *const *t = fb_tests; *t; t++)
		if ((*t)->defaults)
			(*t)->defaults();
}
