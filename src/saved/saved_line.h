/*
 * One record of saved output, as the readers of saved/saved_*.c make
 * it (saved_output.h reads a line into them): the kinds of lines and what
 * each says.
 */
#ifndef FB_SAVED_LINE_H
#define FB_SAVED_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longer lines are not saved output (--analyze skips them). */
#define SO_MAX_LINE (64 * 1024)
/* The most columns of a find-fat row (--fat-nr). */
#define SO_MAX_RATES 4096

enum so_kind {
	SO_SKIP,	/* nothing usable: counted (note: a row with a value no
			 * device gives, and which) */
	SO_BLANK,	/* empty, or only table decoration: ignored */
	SO_COMMAND,	/* a command line or header that starts a run */
	SO_INTERRUPT,	/* "^C", "interrupted by signal ..." */
	SO_STOPPED,	/* "stopped: ...": this tool ended the run early */
	SO_ALIGN,	/* align B pre T on T post T diff T */
	SO_RATE,	/* SIZE RATE... [slowest RATE]: open-au, find-fat, a probe */
	SO_VERDICT,	/* this tool's own "verdict: ..." line */
	SO_OURS,	/* another summary line of this tool: no data */
	SO_RA_HEADER,	/* the header of a readahead table (saved_readahead.h) */
	SO_RA_ROW,	/* SIZE RATE...: a row of a readahead table */
};

/* The diff of an align row against its own pre, on and post. */
enum so_check {
	SO_AGREES,	/* as printed */
	SO_RESTORED,	/* only with a lost unit restored (note says which) */
	SO_INCONSISTENT,	/* in no reading of its units (note says why) */
};

struct so_line {
	enum so_kind kind;
	/* SO_ALIGN */
	uint64_t boundary;
	double pre, on, post, diff;
	enum so_check check;
	/* SO_RATE: rates[0..nrates-1], valid during the so_scan() callback;
	 * rate = rates[0]; slowest: 0 when the line has none */
	uint64_t size;
	double rate, slowest;
	/* SO_ALIGN, SO_RATE, SO_RA_ROW: the coarsest rounding of its values
	 * as printed, relative to each (so_rel_step): "17.6" 0.1 / 17.6 */
	double step;
	size_t nrates;
	const double *rates;
	/* SO_COMMAND, SO_VERDICT: what the line says (0/false: not said) */
	bool is_align, is_open_au, is_find_fat, is_probe, random, linear;
	bool is_flashbench;	/* a flashbench command line (defaults apply);
				 * SO_INTERRUPT: this tool's own line */
	bool is_readahead, buffered;	/* --readahead [--buffered], its table */
	/* SO_RA_ROW: marked "==>"; values without a unit (only inside a
	 * readahead table); SO_RA_HEADER: its runs (rate columns) */
	bool mark, bare;
	unsigned runs;
	unsigned nr;		/* --open-au-nr=N, AU=N, "verdict: N open AUs" */
	unsigned fat_nr;	/* --fat-nr=N */
	uint64_t erase;		/* --erasesize=N */
	uint64_t blocksize;	/* --blocksize=N */
	/* SO_ALIGN: a restored unit or the inconsistency; SO_STOPPED: why;
	 * SO_INTERRUPT: the shell's message ("Terminated ...") */
	char note[160];
};

/* Called for each record of a line (saved_output.h's so_scan). */
typedef void so_record_fn(void *ctx, const struct so_line *l);

#endif
