/*
 * The card as data: from what a survey measured (fit_input.h) and the
 * verdicts it printed (facts.h), the sim: spec of a simulated card that
 * reproduces them -- its geometry, read and write costs, the cost of a
 * garbage collection, its open AUs in both orders, the FAT area, a merge
 * regime and the noise. Pure: numbers in, numbers out; a key that
 * nothing measured is left out, with the reason (the simulated card's
 * default stands in for it).
 *
 * How each key is read off (the model is sim/sim_model.h's):
 *   size            the device's size
 *   erase, page     the align verdict, when it named them
 *   read-lat/-bw    the survey's reads of 512 bytes up to a page, each at
 *                   a page start: time = read-lat + bytes / read-bw
 *   page-cross      the align diffs at page boundaries below the erase
 *                   block; erase-cross what the erase boundaries add
 *   write-lat/-bw   the fast linear probes: a write of s bytes costs
 *                   write-lat + s / write-bw, each line weighted by its
 *                   noise (fit_writes.c); the lines where an erase block
 *                   filled pay its erase too: two twins without jitter tell
 *                   which (fit_card_twins)
 *   erase-time      from those lines, when they tell it within 5%; else
 *                   left out (copy-bw takes in the difference)
 *                   (the twins also count the bytes each line copied: then
 *                   copy-bw is fitted from every collecting line)
 *   copy-bw         the smallest slow linear probe: every write evicts an
 *                   erase block written once since it opened, so it pays
 *                   a copy of the rest of it and an erase
 *   open-au         the linear bracket, less the probe's erase blocks that
 *                   lie in the FAT area (they take no open-AU slot)
 *   open-au-random  the random probes written as their linear peers (no
 *                   collection) below one that collects: the largest N
 *   fat-aus         the find-fat verdict (random order); the survey's twin
 *                   then tries each count of find-fat's erase blocks
 *                   (survey_twin.h: random-write slots look like a FAT area)
 *   log-aus,        the linear family's merge regime: the N where it
 *   log-merge       starts, and what a write pays there beyond the
 *                   cheapest N's cost (judged on the lines above a
 *                   small-write buffer: its merges are not the log's)
 *   subpage-write   the probe of 1 erase block's lines that write part
 *                   of a page (below it, or 3 x 2^n bytes across its
 *                   boundaries): what a write pays beyond write-lat +
 *                   s / write-bw, these two read off the lines of whole
 *                   pages (fit_small.c); with twins, what it pays beyond
 *                   the first twin's same line (erases and all alike);
 *                   left out, unnoted, where those lines pay nothing,
 *                   and noted where the survey wrote no such line (its
 *                   --blocksize is the page or more)
 *   small-buffer,   the linear probes of 2 erase blocks or more whose
 *   small-merge     smallest lines below the page alone pay more than
 *                   the probe of 1's, each about as much (a buffered
 *                   write to another erase block than the one before
 *                   merges, whatever its size): the largest such line
 *                   (a note names the next, which it did not take), and
 *                   what its writes pay beyond the probe of 1's; unnoted
 *                   where no line pays (a buffer below the block size,
 *                   or none)
 *                   The lines these two tell of are left out of
 *                   write-lat, write-bw, copy-bw and the random probes'
 *                   reading, and the linear family is judged again
 *                   without them
 *   random-evict    0 (the sim's rule), unless the survey's twin reaches
 *                   the card's verdicts closer with 1 (survey_twin.h): an
 *                   erase block written out of order when the random slots
 *                   are full takes the least recent one's slot; in the spec
 *                   only when 1
 *   jitter          the spread of the survey's reads of one size
 *
 * Never fitted: cmd-overhead (a cost every request pays: the model cannot
 * tell it from read-lat and write-lat, which take it in, so a twin
 * without it costs the same), cache (a write cache that only a long
 * sustained write fills and shows: the survey never writes so much at
 * once), read-chunk and channels (the survey reads one request at a time).
 */
#ifndef FB_FIT_CARD_H
#define FB_FIT_CARD_H

#include <stdbool.h>
#include <stddef.h>

#include "verdicts/facts.h"
#include "verdicts/fit_input.h"

/* The erase the twin pays when erase-time is left out (sim's sd preset). */
#define FIT_ERASE_NS 3e6

enum fit_key {
	FK_SIZE, FK_ERASE, FK_PAGE, FK_READ_LAT, FK_READ_BW, FK_PAGE_CROSS, FK_ERASE_CROSS,
	FK_WRITE_LAT, FK_WRITE_BW, FK_COPY_BW, FK_ERASE_TIME, FK_OPEN_AU, FK_OPEN_AU_RANDOM, FK_FAT_AUS,
	FK_LOG_AUS, FK_LOG_MERGE, FK_SUBPAGE, FK_SMALL_BUFFER, FK_SMALL_MERGE, FK_RANDOM_EVICT,
	FK_JITTER, FK_N
};

/* Other values of a key whose twin reaches the card's verdicts as well (survey_twin.h). */
#define FIT_ALTS 4

struct fit_card {
	bool known[FK_N];
	double v[FK_N];			/* bytes, ns, bytes/s, a count, percent */
	double se[FK_N];		/* its standard error, where the fit tells it (else 0) */
	const char *why[FK_N];		/* not known: the reason */
	/*
	 * Uncertain: a known key with nalt > 0 is one of several values whose
	 * twins all reach the card's verdicts with find-fat tables alike (the
	 * survey cannot tell them apart). It stays in the spec (the twin needs
	 * one) and the note names the others.
	 */
	unsigned nalt[FK_N];
	double alt[FK_N][FIT_ALTS];
	/* A known count that is only a lower bound: the search found that many
	 * fast and no slow N (no room on the device for more, or its budget
	 * ended). It stays in the spec (its twin ends the same way) and a note
	 * says so. */
	bool atleast[FK_N];
	/* At most this many of the search's erase blocks counted in the FAT area (below). */
	unsigned fat_cap;
	/* small-buffer known: the smallest line that paid no merge (the buffer is below it). */
	double buffer_next;
	/* The writes' keys from lines of whole pages alone (fit_small.c: before a sub-page
	 * cost is known, the lines that could pay one). */
	bool pages_only;
};

/*
 * The precision the fit aims at (issue 31): rates within 10%, times
 * within 15%. A key whose standard error is more than half of that is
 * rough: the survey's measurements do not tell it so closely. It stays in
 * the spec (the twin needs a value, and it is the best one), and the
 * note says how rough.
 */
#define FIT_RATE_PREC 0.10
#define FIT_TIME_PREC 0.15
bool fit_rough(const struct fit_card *c, enum fit_key k);

/* The key's name in a sim: spec ("open-au-random"). */
const char *fit_key_name(enum fit_key k);
void fit_card(const struct fit_input *in, const struct vf_facts *f, struct fit_card *c);
/*
 * The fit with a FAT area of fat erase blocks, whatever find-fat's verdict said
 * (open-au and log-aus without the probes' erase blocks that lie in it). The
 * search picks a probe's erase blocks by its history (those a slow probe left
 * half-written go last), so which of them lie in the FAT area no formula
 * tells: at most cap of them are counted there.
 */
void fit_card_fat(const struct fit_input *in, const struct vf_facts *f, unsigned fat,
		  unsigned cap, struct fit_card *c);
/* Of the first n erase blocks of the open-AU search, those in c's FAT area (no cap). */
unsigned fit_in_fat(const struct fit_input *in, const struct fit_card *c, unsigned n);
/*
 * Three surveys of the fitted card without jitter (twins): the first as
 * the spec said it (lat, bw, erase[0], copy[0] as sim: parsed them), the
 * second with its erases erase[1] each, the third copying at copy[1]: the
 * differences of a line count its erases and the bytes it copied, and
 * what it costs beyond them and its writes (lat + s / bw) is something
 * else (a merge, a random-mode write).
 */
struct fit_twins {
	const struct fit_input *in[3];
	double lat, bw, erase[2], copy[2];
	double subpage, merge;	/* the first twin's subpage-write and small-merge (0: none) */
};
/*
 * write-lat, write-bw, erase-time where it shows and copy-bw again, now
 * that the twins tell what each line of the card's linear probes paid
 * (only the search's history does). False: the twins' probes were not
 * the card's, or told nothing (c as it was).
 */
bool fit_card_twins(const struct fit_input *card, const struct vf_facts *f,
		     const struct fit_twins *t, struct fit_card *c);
/* "size=1GiB,erase=8MiB,...": the known keys, as sim: parses them. */
char *fit_card_spec(const struct fit_card *c, char *buf, size_t len);
/*
 * The notes on the fit (the keys left out and why, the uncertain and the
 * rough ones), now; the card's line "card: sim:..." is held for
 * fit_card_print_last(), which prints it (true) once, where the output
 * ends: after the twin and the advice.
 */
void fit_card_print(const struct fit_card *c);
bool fit_card_print_last(void);

#endif
