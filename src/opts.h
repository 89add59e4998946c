/* The parsed command line, shared by main.c and the test modules. */
#ifndef FB_OPTS_H
#define FB_OPTS_H

#include <stdbool.h>
#include <stdint.h>

/* Exit statuses (documented in the man page). */
enum {
	FB_OK = 0,
	FB_EDEV = 1,		/* the device failed or the test could not run */
	FB_EUSAGE = 2,		/* bad usage, nothing touched */
	FB_ESAFETY = 3,		/* refused for safety, nothing touched */
	FB_EINTR = 130,		/* interrupted, partial results printed */
};

struct fb_opts {
	/* tests selected */
	bool align, scatter, find_fat, open_au, interval;
	/* flashbench's parameters */
	uint64_t blocksize;
	uint64_t erasesize;
	uint64_t offset;
	bool offset_set;
	unsigned count;
	unsigned open_au_nr;
	unsigned fat_nr;
	unsigned scatter_order;
	unsigned scatter_span;
	unsigned interval_order;
	bool random;
	bool verbose;
	/* issue 4: verdicts, the open-AU search, early stop, saved output */
	bool find_open_au;
	bool no_early_stop;
	bool erasesize_set;	/* --erasesize given (else --find-open-au takes -a's verdict) */
	uint64_t max_write;	/* --find-open-au: bytes, 0 = no limit */
	uint64_t max_time;	/* --find-open-au: ns of device time, 0 = no limit */
	unsigned find_au_max;	/* --find-open-au: largest N it may try (set from the device) */
	const char *analyze;
	const char *out;
	const char *device;
	/* what followed the options (getopt moves them to the end of argv):
	 * DEVICE, or the stray arguments --analyze refuses */
	char **args;
	int nargs;
	/* --readahead: request-size (or kernel readahead) sweep */
	bool readahead;
	bool buffered;		/* set the kernel readahead, read through the cache */
	uint64_t min_size, max_size;	/* powers of two, doubling from min to max */
	uint64_t size;		/* bytes read per run of one size; 0: default */
	unsigned runs;		/* columns per size */
	double plateau;		/* percent of the best rate that still counts */
	/* safety (issue 6): --preserve, --backup=FILE, --restore=FILE */
	bool preserve;
	const char *backup;
	const char *restore;
};

/* Fill o with the default of every option. */
void opts_defaults(struct fb_opts *o);

#endif
