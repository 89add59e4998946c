/*
 * The measurements of --survey as steps, shared by the survey itself
 * (modules/survey.c, whose steps the run conductor takes in turn) and
 * by its twin (survey_twin.c), which takes them all at once on the
 * simulated card fitted to the card.
 */
#ifndef FB_SURVEY_CHAIN_H
#define FB_SURVEY_CHAIN_H

#include <stdint.h>

#include "core/opts.h"
#include "core/out.h"
#include "core/target.h"

/*
 * The block size of the survey's -a when --blocksize is not given: small
 * enough that its rows reach below the page (a 4KiB or 16KiB page needs
 * rows of 2KiB..8KiB to show the floor under it), so that the page is
 * named and the ext4 stride and FAT cluster advice rest on it, not on an
 * assumption. At least twice the sector (-a reads half a block on each
 * side of a boundary). The open-AU searches keep the default block size.
 */
#define SURVEY_ALIGN_BS 1024u
/* Reads of each size in the read sweep, and the largest size it reads. */
#define SURVEY_READS 32
#define SURVEY_READ_MAX (64u * 1024)

/* Its rows (survey-read): block_bytes, low_ns (the fastest), median_ns, high_ns (upper quartile). */
extern const struct out_table survey_read_table;

/* The -a block size of a survey with these options on t. */
uint64_t survey_align_bs(const struct fb_opts *o, const struct target *t);
/*
 * The read sweep the fit of the card needs (verdicts/fit_card.h): reads
 * of the sector up to the page (doubling), each SURVEY_READS times at
 * page starts inside one erase block from --offset; a row per size
 * ("read 4KiB\t652µs\tfastest 640µs, upper quartile 671µs": the
 * median, the fastest and the upper quartile, the table survey-read).
 * Read-only.
 */
int survey_reads(const struct fb_opts *o, struct target *t, uint64_t page);
/*
 * find-fat's erase blocks in the survey. In random order each erase block
 * after a FAT area collects garbage only when more of them than the card's
 * random-write slots take turns (the random search's fast count), so the
 * survey tests SURVEY_FAT_AREA + 1 more than those slots, at least
 * find-fat's default and at most SURVEY_FAT_MAX (announced before the first
 * write); where even that many cannot show an area, find-fat's default.
 */
#define SURVEY_FAT_MIN 6u
#define SURVEY_FAT_AREA 4u
#define SURVEY_FAT_MAX 10u
unsigned survey_fat_nr(unsigned random_fast);
/* From now on find-fat tests n erase blocks whatever the random count (a
 * twin's survey: as many as the card's did; 0: by the count again). */
void survey_fat_nr_fix(unsigned n);
/*
 * After the linear search: the search in random order and find-fat
 * --random, each with what --max-write and --max-time leave (written
 * and spent: what the chain had written and spent before its start),
 * stopped early when no linear count was fast. find-fat tests
 * survey_fat_nr() erase blocks.
 */
int survey_searches(const struct fb_opts *o, struct target *t, uint64_t written, uint64_t spent);

#endif
