/*
 * How many erase blocks the survey's find-fat tests (modules/survey_chain.h):
 * find-fat's 6, or SURVEY_FAT_AREA + 1 more than the card's random-write
 * slots, at most SURVEY_FAT_MAX; 6 where even that many cannot show an
 * area; and as many as the card's did while a twin's survey runs.
 */
#include "modules/survey_chain.h"
#include "unit.h"

int main(void)
{
	CHECK(survey_fat_nr(0) == 6);
	CHECK(survey_fat_nr(1) == 6);	/* an area of up to 4 shows beyond 1 slot */
	CHECK(survey_fat_nr(2) == 7);
	CHECK(survey_fat_nr(3) == 8);	/* fakecard sd4m: 6 would hide an area of 3 or 4 */
	CHECK(survey_fat_nr(5) == 10);
	CHECK(survey_fat_nr(8) == 10);	/* an area of 1 still shows */
	CHECK(survey_fat_nr(9) == 6);	/* none can: find-fat's default */
	CHECK(survey_fat_nr(4000) == 6);
	survey_fat_nr_fix(6);		/* a twin of a card whose find-fat tested 6 */
	CHECK(survey_fat_nr(3) == 6);
	CHECK(survey_fat_nr(0) == 6);
	survey_fat_nr_fix(9);
	CHECK(survey_fat_nr(0) == 9);
	survey_fat_nr_fix(0);
	CHECK(survey_fat_nr(3) == 8);
	UNIT_DONE();
}
