/*
 * The text lines of the modules not yet turned into records: through
 * the output layer (core/out.h), as notes, or as align rows.
 */
#ifndef FB_REPORT_H
#define FB_REPORT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Refuse an --out that would overwrite what is measured or read: a block
 * device, or the same file as one of the n paths (NULL or missing ones
 * are skipped). 0, or -1 with a one-line message (no prefix) in err.
 */
int report_check_out(const char *out, const char *const *paths, size_t n, char *err, size_t errlen);

/* align <bytes>\tpre <t>\ton <t>\tpost <t>\tdiff <t> */
void report_align(uint64_t boundary, double pre, double on, double post, double diff);
/* Free-form result line (verdicts, summaries, tables). */
void report_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
