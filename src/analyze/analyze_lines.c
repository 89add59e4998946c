/* The lines --analyze used and skipped: see analyze_lines.h. */
#include <stdio.h>
#include <string.h>

#include "core/out.h"
#include "analyze/analyze_lines.h"

void al_used(struct an_lines *l)
{
	l->used++;
}

/* Merge range i with i + 1 when they touch. */
static void merge(struct an_lines *l, size_t i)
{
	if (i + 1 >= l->n || l->to[i] + 1 < l->from[i + 1])
		return;
	l->to[i] = l->to[i + 1];
	memmove(&l->from[i + 1], &l->from[i + 2], (l->n - i - 2) * sizeof(l->from[0]));
	memmove(&l->to[i + 1], &l->to[i + 2], (l->n - i - 2) * sizeof(l->to[0]));
	l->n--;
}

void al_skip(struct an_lines *l, unsigned long long line, enum al_why why)
{
	size_t i = 0;

	l->skipped++;
	if (!l->why[why]++)
		l->why_line[why] = line;
	while (i < l->n && l->to[i] + 1 < line)
		i++;
	if (i < l->n && l->from[i] <= line + 1 && line <= l->to[i] + 1) {
		l->from[i] = line < l->from[i] ? line : l->from[i];
		l->to[i] = line > l->to[i] ? line : l->to[i];
		merge(l, i);
		return;
	}
	if (l->n == AL_RANGES) {
		l->more = true;
		return;
	}
	memmove(&l->from[i + 1], &l->from[i], (l->n - i) * sizeof(l->from[0]));
	memmove(&l->to[i + 1], &l->to[i], (l->n - i) * sizeof(l->to[0]));
	l->from[i] = l->to[i] = line;
	l->n++;
}

static const char *const why_text[AL_NWHY] = {
	"text that is no table, command or line of ours",
	"a flashbench command line that no table follows",
	"a row left out of its table (named above)",
	"not a line of text (too long, or NUL bytes)",
	"a row with a value no device gives (named above)",
};

void al_summary(const struct an_lines *l)
{
	char list[256] = "", why[512] = "";
	size_t len = 0, wl = 0;
	bool one = l->n == 1 && l->from[0] == l->to[0];

	for (size_t i = 0; i < l->n && len < sizeof(list); i++) {
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%llu", i ? ", " : "",
					l->from[i]);
		if (l->to[i] != l->from[i] && len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len, "-%llu", l->to[i]);
	}
	if (!l->n) {
		out_note("analyze: %llu of %llu lines used, 0 skipped", l->used, l->used);
		return;
	}
	out_note("analyze: %llu of %llu lines used, %llu skipped (line%s %s%s)", l->used,
		 l->used + l->skipped, l->skipped, one ? "" : "s", list, l->more ? ", ..." : "");
	/* Text that is no table is the usual case, shown by its lines above;
	 * anything else is said with its reason. */
	if (l->why[AL_TEXT] == l->skipped)
		return;
	for (int w = 0; w < AL_NWHY && wl < sizeof(why); w++)
		if (l->why[w])
			wl += (size_t)snprintf(why + wl, sizeof(why) - wl, "%s%llu: %s (%sline %llu)",
					       wl ? "; " : "", l->why[w], why_text[w],
					       l->why[w] > 1 ? "from " : "", l->why_line[w]);
	out_note("analyze: skipped: %s", why);
}
