/*
 * Inside the output layer: the state every renderer shares and the
 * table of operations each one (text, JSON, CSV) fills in. Only the
 * out_*.c files include this.
 */
#ifndef FB_OUT_IMPL_H
#define FB_OUT_IMPL_H

#include "core/out.h"

struct out_state;

struct out_renderer {
	void (*run_begin)(struct out_state *s, const char *version, int argc, char *const *argv);
	void (*device)(struct out_state *s, const char *path, const char *kind, uint64_t size,
		       uint32_t sector);
	void (*param)(struct out_state *s, const char *name, enum out_type type,
		      const union out_val *v);
	void (*test_begin)(struct out_state *s, const char *test);
	void (*row)(struct out_state *s, const struct out_table *t, const union out_val *v);
	/* Or n rows at once, the first at v, each stride bytes after the last (row unused). */
	void (*rows)(struct out_state *s, const struct out_table *t, const union out_val *v, size_t n,
		     size_t stride);
	void (*verdict)(struct out_state *s, const struct out_verdict *v, const char *text);
	void (*note)(struct out_state *s, const char *text);
	void (*test_end)(struct out_state *s, const char *status, const char *reason);
	void (*run_end)(struct out_state *s, int exit_status, const char *status,
			const char *reason);
};

struct out_state {
	FILE *f;
	const struct out_renderer *r;
	const char *test;		/* the test being written, NULL between tests */
	const struct out_table *table;	/* the table of the last row (headers) */
	unsigned records;		/* records of the current test (JSON commas) */
	unsigned tests;			/* tests begun in this run */
	unsigned params;		/* parameters written */
	unsigned tables;		/* CSV: tables begun in this run */
	bool params_open;		/* JSON: inside "parameters" */
	bool run_begun;
	int tty;			/* the output is a terminal: 1, 0, -1 not known yet */
};

extern const struct out_renderer out_text_renderer;
extern const struct out_renderer out_json_renderer;
extern const struct out_renderer out_csv_renderer;
extern const struct out_renderer out_report_renderer;

/* A value as a plain number or string (CSV cells, text fallback, JSON). */
void out_put_number(FILE *f, enum out_type type, const union out_val *v);
/*
 * A number (not OT_TEXT, OT_BOOL: "") as out_put_number prints it, into
 * buf of OUT_NUMBER_LEN bytes: its length.
 */
#define OUT_NUMBER_LEN 32
size_t out_fmt_number(char *buf, enum out_type type, const union out_val *v);
/* The default text form of a row: values separated by tabs. */
void out_text_default(char *line, size_t len, const struct out_table *t, const union out_val *v);

#endif
