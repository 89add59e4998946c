/* The lines of the advice: see advice_list.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "advice/advice_list.h"

struct adv_item *adv_add(struct adv *a, const char *name, const char *result, const char *fmt,
			 ...)
{
	struct adv_item *it;
	va_list ap;

	if (a->nitems >= ADV_MAX_ITEMS)
		return NULL;
	it = &a->item[a->nitems++];
	memset(it, 0, sizeof(*it));
	it->name = name;
	it->result = result;
	va_start(ap, fmt);
	vsnprintf(it->text, sizeof(it->text), fmt, ap);
	va_end(ap);
	return it;
}

/* One more line of the sfdisk script (beyond ADV_MAX_SCRIPT: dropped). */
void adv_script_line(struct adv *a, const char *fmt, ...)
{
	va_list ap;

	if (a->nscript >= ADV_MAX_SCRIPT)
		return;
	va_start(ap, fmt);
	vsnprintf(a->script[a->nscript++], sizeof(a->script[0]), fmt, ap);
	va_end(ap);
}
