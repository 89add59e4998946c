/*
 * The numbers a survey measured, as the fit of the card (fit_card.h)
 * takes them: the align rows, the survey's read sweep, and the open-AU
 * probes of both searches. Collected from the rows as they are emitted
 * (core/out.h's tap) or read back from a saved survey, so that a live
 * survey and --analyze of it fit the same card.
 */
#ifndef FB_FIT_INPUT_H
#define FB_FIT_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/out.h"
#include "verdicts/verdict_align.h"
#include "verdicts/verdict_openau.h"

#define FIT_READS 16
#define FIT_PROBES 64
#define FIT_FAT_ROWS 16
#define FIT_FAT_COLS 16

/* One size of the survey's read sweep: its fastest read, the median, the upper quartile. */
struct fit_read {
	uint64_t len;
	double low, ns, high;
};

/* One open-AU probe: nr erase blocks, linear or random, its lines as printed. */
struct fit_probe {
	unsigned nr;
	bool random;
	struct oa_run agg, slowest;
};

struct fit_input {
	uint64_t size;			/* the device's bytes (0: not known) */
	uint64_t offset;		/* where the open-AU searches start (0: the default) */
	uint64_t erase;			/* the erase size the searches were given (0: not known) */
	size_t nalign;
	struct va_row align[VA_MAX_ROWS];
	size_t nread;
	struct fit_read read[FIT_READS];
	size_t nprobe;
	struct fit_probe probe[FIT_PROBES];
	unsigned fat_cols;		/* find-fat's erase blocks (0: no find-fat table) */
	size_t nfat;			/* find-fat's rows (the first FIT_FAT_COLS columns) */
	double fat_rate[FIT_FAT_ROWS][FIT_FAT_COLS];
};

void fit_input_reset(struct fit_input *in);
/* One align row (boundary, pre, post, diff in ns). */
void fit_input_align(struct fit_input *in, uint64_t b, double pre, double post, double diff);
void fit_input_read(struct fit_input *in, uint64_t len, double low, double ns, double high);
/* One line of a probe: a new probe starts when nr, the mode or the size's order changes. */
void fit_input_probe(struct fit_input *in, unsigned nr, bool random, uint64_t size,
		     double rate, double slowest);
/* One find-fat row: the rate of each erase block at one block size. */
void fit_input_fat(struct fit_input *in, const double *rates, size_t n);
/*
 * A row as the output layer emits it (the tap): the tables align,
 * survey-read, find-open-au (linear under the test find-open-au,
 * random under the survey) and find-fat (its columns). Other rows are
 * ignored.
 */
void fit_input_row(struct fit_input *in, const char *test, const struct out_table *t,
		   const union out_val *v);

#endif
