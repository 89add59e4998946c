/*
 * The name a user most likely meant (core/nearest.c), for "unrecognized
 * option" messages: one or two edits, swaps counted as one, and no guess
 * for a word that is mostly wrong.
 */
#include <stdint.h>

#include "core/nearest.h"
#include "unit.h"

#define E(a, b) nearest_edits(a, strlen(a), b)

int main(void)
{
	static const char *const names[] = { "align", "scatter", "erasesize", "open-au",
					     "open-au-nr", "find-open-au", "help" };
	size_t n = sizeof(names) / sizeof(names[0]);

	CHECK(E("align", "align") == 0);
	CHECK(E("allign", "align") == 1);	/* an insert */
	CHECK(E("aling", "align") == 1);	/* a swap of neighbours is one edit */
	CHECK(E("alxgn", "align") == 1);	/* a change */
	CHECK(E("", "help") == 4);
	CHECK(E("help", "") == 4);
	CHECK(E("erasize", "erasesize") == 2);
	CHECK(nearest_edits("a123456789012345678901234567890123456789012345678901234567890123", 64,
			    "align") == SIZE_MAX);
	CHECK_STR(nearest_name("allign", 6, names, n), "align");
	CHECK_STR(nearest_name("erasize=4M", 7, names, n), "erasesize");	/* n stops at '=' */
	CHECK_STR(nearest_name("open-au-n", 9, names, n), "open-au-nr");	/* 1 edit, not open-au's 2 */
	CHECK_STR(nearest_name("open-aux", 8, names, n), "open-au");	/* 1 edit, open-au-nr 3 */
	CHECK_STR(nearest_name("scater", 6, names, n), "scatter");
	CHECK(nearest_name("frobnicate", 10, names, n) == NULL);
	CHECK(nearest_name("ab", 2, names, n) == NULL);	/* two letters: half of it is no guess */
	CHECK_STR(nearest_name("hlp", 3, names, n), "help");	/* one edit of three letters */
	CHECK(nearest_name("hp", 2, names, n) == NULL);	/* two of two letters: no guess */
	CHECK(nearest_name("x", 1, names, 0) == NULL);
	UNIT_DONE();
}
