/*
 * The erase blocks --find-fat tests (--fat-nr), for --survey: it announces
 * the most it may test before anything is written, and tests as many as
 * the card's random-write slots need to let a FAT area show (survey_chain.c).
 */
#ifndef FB_FINDFAT_H
#define FB_FINDFAT_H

unsigned findfat_nr(void);
void findfat_set_nr(unsigned n);

#endif
