/*
 * The lines --analyze skipped (analyze_lines.h): ranges kept in order and
 * merged when a skip comes late (a command line found to have no table
 * after the lines below it were read), and the reasons counted.
 */
#include "analyze/analyze_lines.h"
#include "unit.h"

int main(void)
{
	static struct an_lines l;

	al_skip(&l, 1, AL_TEXT);
	al_skip(&l, 2, AL_TEXT);
	al_skip(&l, 4, AL_TEXT);
	al_skip(&l, 5, AL_TEXT);
	CHECK(l.n == 2 && l.from[0] == 1 && l.to[0] == 2 && l.from[1] == 4 && l.to[1] == 5);
	al_skip(&l, 3, AL_COMMAND);	/* late: joins both ranges */
	CHECK(l.n == 1 && l.from[0] == 1 && l.to[0] == 5 && l.skipped == 5);
	CHECK(l.why[AL_TEXT] == 4 && l.why[AL_COMMAND] == 1 && l.why_line[AL_COMMAND] == 3);
	al_skip(&l, 9, AL_TEXT);
	al_skip(&l, 7, AL_ROW);		/* late, alone: between the two */
	CHECK(l.n == 3 && l.from[1] == 7 && l.to[1] == 7 && l.from[2] == 9);
	al_skip(&l, 8, AL_TEXT);
	CHECK(l.n == 2 && l.from[1] == 7 && l.to[1] == 9);
	for (unsigned long long x = 20; x < 40; x += 2)
		al_skip(&l, x, AL_TEXT);
	CHECK(l.n == AL_RANGES && l.more);
	al_used(&l);
	CHECK(l.used == 1);
	UNIT_DONE();
}
