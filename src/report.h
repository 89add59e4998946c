/*
 * The output layer: every result line goes through here, to standard
 * output or to the --out file, flushed line by line so that a run that
 * is interrupted still leaves everything it measured.
 */
#ifndef FB_REPORT_H
#define FB_REPORT_H

#include <stddef.h>
#include <stdint.h>

/* Send results to path (NULL: standard output), created or emptied. 0 or -errno. */
int report_open(const char *path);
/* The descriptor results go to (for the lock on a new --out). */
int report_fileno(void);
/*
 * Refuse an --out that would overwrite what is measured or read: a block
 * device, or the same file as one of the n paths (NULL or missing ones
 * are skipped). 0, or -1 with a one-line message (no prefix) in err.
 */
int report_check_out(const char *out, const char *const *paths, size_t n, char *err, size_t errlen);
/*
 * Flush and close; 0 or -errno when the output could not be written. The
 * first failed write of a result line already said so on stderr and set
 * the engine's fb_out_failed, which stops the test at its next request.
 */
int report_close(void);

/* align <bytes>\tpre <t>\ton <t>\tpost <t>\tdiff <t> */
void report_align(uint64_t boundary, double pre, double on, double post, double diff);
/* <size>\t<rate>[\t<rate>...]: open-au (one rate) and find-fat (one per AU) */
void report_rates(uint64_t size, const double *rates, size_t n);
/* Free-form result line (verdicts, summaries, tables). */
void report_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
