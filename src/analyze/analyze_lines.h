/*
 * Which input lines --analyze used, which it skipped, and why: text that
 * is no table, command or line of ours; a flashbench command line no
 * table follows (so a lone command is never "1 of 1 used" beside "no
 * table found"); a row left out of its table; input that is not text.
 */
#ifndef FB_ANALYZE_LINES_H
#define FB_ANALYZE_LINES_H

#include <stdbool.h>
#include <stddef.h>

enum al_why { AL_TEXT, AL_COMMAND, AL_ROW, AL_NOT_TEXT, AL_VALUE, AL_NWHY };

#define AL_RANGES 8

struct an_lines {
	unsigned long long used, skipped;
	unsigned long long from[AL_RANGES], to[AL_RANGES];	/* skipped, ascending */
	size_t n;
	bool more;
	unsigned long long why[AL_NWHY], why_line[AL_NWHY];	/* count, first line */
};

void al_used(struct an_lines *l);
/* Line 'line' skipped for 'why' (lines may come out of order). */
void al_skip(struct an_lines *l, unsigned long long line, enum al_why why);
/* "analyze: 19 of 22 lines used, 3 skipped (lines 1-3)" and, with skips, why. */
void al_summary(const struct an_lines *l);

#endif
