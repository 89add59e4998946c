/*
 * Reading open-AU lines (write rates for halving block sizes): is the
 * card keeping up (fast), garbage-collecting on every write (slow), or
 * can't one tell (inconclusive)? Shared by the early stop of --open-au
 * and --find-fat, by --find-open-au and by --analyze.
 *
 * One rule, by the size of the cost (the expert's): what a write costs
 * beyond moving its bytes at the card's own write rate, against copying
 * one erase block at that rate (the copy estimate). At least OA_GC_COPY
 * of it is a garbage collection (slow); at most OA_FAR_BELOW of it is not
 * one, whatever its shape (a command's overhead, a merge of the card's
 * log, a read-modify-write of partial pages: fast); in between it cannot
 * tell, and says so with the numbers. Every block size votes: the cost
 * of a run is the most that any OA_GC_LINES lines in a row cost (their
 * median), so one noisy line decides nothing and a band of collections
 * above cheaper small blocks is a collection. The smallest blocks may
 * be cheap where larger ones collect (a card that buffers writes below
 * its page): such a tail is named as the exception, it does not decide.
 */
#ifndef FB_VERDICT_OPENAU_H
#define FB_VERDICT_OPENAU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verdicts/verdict_results.h"	/* enum oa_class, struct oa_bracket */

#define OA_MAX_LINES 64
/* Lines in a row with the signature before it counts (and a run stops);
 * also the lines whose median cost is a run's level. */
#define OA_GC_LINES 3
/* A write's cost beyond its transfer, against the copy estimate: at least
 * this much of it is a collection, ... */
#define OA_GC_COPY 0.25
/* ...this much or less is far below one (never inconclusive), ... */
#define OA_FAR_BELOW 0.1
/* ...and this little is a command's overhead, even with the signature. */
#define OA_OVERHEAD_COPY 0.025
/* Cheap smallest blocks (at most this size) below collections: a small-write buffer. */
#define OA_SMALL_MAX (32 * 1024)


struct oa_run {
	uint64_t erase;			/* erase block size, bytes */
	size_t n;
	uint64_t size[OA_MAX_LINES];	/* halving block sizes */
	double rate[OA_MAX_LINES];	/* bytes/s, as printed */
	bool complete;			/* reached the smallest block size */
};

/* What a run's writes cost: the most of any OA_GC_LINES lines in a row. */
struct oa_level {
	double ns;			/* beyond the transfer, ns (the median of lines from..to) */
	bool paid;			/* it stands out of the noise of the lines' transfer */
	size_t from, to;		/* those lines */
	size_t tail;			/* cheap smallest lines left out (a small-write buffer) */
	double tail_ns;			/* ...what the cheapest of them costs a write */
};

struct oa_result {
	enum oa_class c;
	double write_ns;		/* slow: what every write costs */
	char why[640];
};

void oa_init(struct oa_run *r, uint64_t erase);
/* Add a line (the rate is rounded as the output shows it). */
void oa_add(struct oa_run *r, uint64_t size, double rate);
/* Lines in a row, ending with the last one, that show the signature. */
size_t oa_gc_tail(const struct oa_run *r);
/* True when the last OA_GC_LINES lines show it; *write_ns: what a write costs. */
bool oa_gc_clear(const struct oa_run *r, double *write_ns);
void oa_classify(const struct oa_run *r, struct oa_result *res);
/*
 * The level of a run at the card's write rate (bytes/s; 0: the run's best
 * rate) against the copy estimate copy_ns (0: the run's own). A line
 * counts only with a cost of at least 0.3 of its transfer (below
 * that, the noise of a large block's time).
 */
void oa_level(const struct oa_run *r, double rate, double copy_ns, struct oa_level *l);
/* A level's class against a copy estimate: slow, fast or inconclusive. */
enum oa_class oa_level_class(double level_ns, double copy_ns);
/* "4KiB writes cost 21ms: the card buffers writes below the page" (l->tail > 0). */
void oa_tail_text(const struct oa_run *r, const struct oa_level *l, char *buf, size_t len);
/* The best rate of a run; the time per write of its line i (ns). */
double oa_best_rate(const struct oa_run *r);
double oa_write_ns(const struct oa_run *r, size_t i);
/* What line i costs beyond moving its bytes at rate (bytes/s; 0: the
 * run's best), ns, at least 0. */
double oa_extra(const struct oa_run *r, size_t i, double rate);
/* The block size below which writes cost more than at it (a page), or 0:
 * the last few lines (at most OA_GC_LINES) each cost clearly more beyond
 * their transfer than the line above them; *more: by how much. */
uint64_t oa_subpage(const struct oa_run *r, double *more);
/* Copying an erase block of erase bytes at rate bytes/s, ns (0: unknown). */
double oa_copy_ns(uint64_t erase, double rate);
/* The run's erase size: as given, else its first line. */
uint64_t oa_erase(const struct oa_run *r);
/*
 * Every other line slow (22M/s, 5.99M/s, 21.2M/s, 5.98M/s, ...): the
 * erase size given is half the card's, so every other line's writes fill
 * the card's erase blocks only half-way. The lines text in buf when true.
 */
bool oa_alternates(const struct oa_run *r, char *buf, size_t len);
/* A run with both the aggregate and the slowest erase block's rates: slow
 * when either shows the signature, else as the slowest one says. */
void oa_classify_pair(const struct oa_run *agg, const struct oa_run *slowest,
		      struct oa_result *res);
/*
 * A fast run whose rates are far below those of the run with the fewest
 * erase blocks (base, with base_nr of them) is not fast: something slows
 * the card down, even without the signature. Turns it inconclusive.
 */
void oa_against(const struct oa_run *base, unsigned base_nr, const struct oa_run *r,
		struct oa_result *res);

/* "verdict: 3 open AUs (linear): fast: ..." (nr 0: not known) */
void oa_result_print(unsigned nr, bool random, const struct oa_result *res);

/* "stopped: every write costs the same 40ms -- the card is garbage-collecting" */
void oa_report_stop(double write_ns);

/*
 * Early stop for --open-au (one column) and --find-fat (one per erase
 * block): feed every printed line; true, after printing the "stopped:"
 * line, once every column has shown the signature for OA_GC_LINES lines
 * in a row. A NULL tracker (out of memory) never stops.
 */
struct oa_stop;
struct oa_stop *oa_stop_new(unsigned ncol, uint64_t erase);
bool oa_stop_line(struct oa_stop *s, uint64_t size, const double *rates);
void oa_stop_free(struct oa_stop *s);

/* "verdict: open AUs (linear): 16 fast, 17 slow" (why: appended when not NULL). */
void oa_bracket_print(const struct oa_bracket *b, bool random, const char *why);

const char *oa_class_name(enum oa_class c);

#endif
