/* The open-AU bracket's bookkeeping: see verdict_results.h. */
#include <string.h>

#include "verdicts/verdict_results.h"

void oa_bracket_init(struct oa_bracket *b)
{
	memset(b, 0, sizeof(*b));
}

/* Rank of a class: slow < inconclusive < fast. */
static int rank(enum oa_class c)
{
	return c == OA_FAST ? 2 : c == OA_INCONCLUSIVE ? 1 : 0;
}

/* fast, slow and inconclusive from the best result of every N seen. */
static void bracket_recount(struct oa_bracket *b)
{
	b->fast = b->slow = b->inconclusive = 0;
	for (unsigned n = 1; n <= OA_BRACKET_N; n++) {
		enum oa_class c = (enum oa_class)(b->best[n] - 1);

		if (!b->best[n])
			continue;
		if (c == OA_FAST)
			b->fast = n;
		else if (c == OA_SLOW && !b->slow)
			b->slow = n;
		else if (c == OA_INCONCLUSIVE && !b->inconclusive)
			b->inconclusive = n;
	}
}

void oa_bracket_add(struct oa_bracket *b, unsigned nr, enum oa_class c)
{
	if (nr < 1 || nr > OA_BRACKET_N)
		return;
	if (!b->best[nr] || rank(c) > rank((enum oa_class)(b->best[nr] - 1)))
		b->best[nr] = (unsigned char)(1 + c);
	bracket_recount(b);
	b->contradicts = b->fast && b->slow && b->fast >= b->slow;
}
