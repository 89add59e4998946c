/* The output layer: see out.h. The renderers live in out_text.c,
 * out_json.c and out_csv.c; this file holds the state and the dispatch. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/hot.h"
#include "core/out_impl.h"
#include "core/progress.h"

static struct out_state st = { .r = &out_text_renderer, .tty = -1 };
/* The first failed write of the results (errno), where the engine reads it too. */
#define first_error (fb_hot.out_error)
static const char *out_name;		/* --out, NULL for standard output */
static const char *stop_reason;		/* the test stopped early, and why */

/* Rows waiting to be formatted, their raw values (see out_row()). */
#define OUT_PENDING_ROWS 512
#define OUT_PENDING_FIELDS 12

static struct pending_row {
	const struct out_table *t;
	union out_val v[OUT_PENDING_FIELDS];
} pending[OUT_PENDING_ROWS];
static size_t npending;
static uint64_t last_flush;	/* out_now() of the last flush after a row */
static uint64_t (*out_clock)(void);	/* tests: a clock of their own */

/*
 * The pace of the flushes after rows, not a measurement: the coarse clock
 * (a few ms steps, 4 ns a read here against 19 for the raw clock's), read
 * after every row, between two timed requests (issue 23).
 */
static uint64_t out_now(void)
{
	struct timespec ts;

	if (out_clock)
		return out_clock();
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void out_set_clock(uint64_t (*now)(void))
{
	out_clock = now;
}

/* Rows are flushed at least this often (see out_flush_row). */
#define OUT_FLUSH_NS 100000000ull

/* Verdict and note lines are at most this long (longer ones are cut). */
#define OUT_LINE 8192

static FILE *out_file(void)
{
	return st.f ? st.f : stdout;
}

int out_parse_format(const char *s, enum out_format *fmt)
{
	if (strcmp(s, "text") == 0)
		*fmt = OUT_TEXT;
	else if (strcmp(s, "json") == 0)
		*fmt = OUT_JSON;
	else if (strcmp(s, "csv") == 0)
		*fmt = OUT_CSV;
	else
		return -1;
	return 0;
}

static void out_failed(int e, const char *then);
static void out_drain(void);

/* Results held in memory (out_hold) until out_unhold(). */
static char *held_buf;
static size_t held_len;

static int open_on(FILE *f, const char *name, enum out_format fmt)
{
	static const struct out_renderer *const r[] = {
		[OUT_TEXT] = &out_text_renderer,
		[OUT_JSON] = &out_json_renderer,
		[OUT_CSV] = &out_csv_renderer,
		[OUT_REPORT] = &out_report_renderer,
	};

	memset(&st, 0, sizeof(st));
	st.f = f;
	st.r = r[fmt];
	st.tty = -1;
	first_error = 0;
	npending = 0;
	last_flush = 0;
	out_name = name;
	return 0;
}

int out_open(const char *path, enum out_format fmt)
{
	FILE *f = stdout;

	if ((unsigned)fmt > OUT_REPORT)
		return -EINVAL;
	if (path && !(f = fopen(path, "w")))
		return -errno;
	return open_on(f, path, fmt);
}

int out_open_fd(int fd, const char *name, enum out_format fmt)
{
	FILE *f = stdout;

	if ((unsigned)fmt > OUT_REPORT)
		return -EINVAL;
	if (fd >= 0 && !(f = fdopen(fd, "w")))
		return -errno;
	return open_on(f, name, fmt);
}

int out_hold(const char *name, enum out_format fmt)
{
	FILE *f;

	if ((unsigned)fmt > OUT_REPORT)
		return -EINVAL;
	if (!(f = open_memstream(&held_buf, &held_len)))
		return -errno;
	return open_on(f, name, fmt);
}

int out_unhold(int fd)
{
	FILE *to = fd >= 0 ? fdopen(fd, "w") : stdout;
	int e = 0;

	if (!to)
		return -errno;
	out_drain();	/* the rows that wait belong to what was held */
	if (fflush(st.f) != 0 || fwrite(held_buf, 1, held_len, to) != held_len)
		e = errno ? errno : EIO;
	fclose(st.f);
	free(held_buf);
	held_buf = NULL;
	held_len = 0;
	st.f = to;
	st.tty = -1;
	if (e)
		out_failed(e, "");
	return -e;
}

int out_fileno(void)
{
	return fileno(out_file());
}

enum out_format out_format(void)
{
	if (st.r == &out_json_renderer)
		return OUT_JSON;
	if (st.r == &out_report_renderer)
		return OUT_REPORT;
	return st.r == &out_csv_renderer ? OUT_CSV : OUT_TEXT;
}

/* The first error, said once, with the real errno. */
static void out_failed(int e, const char *then)
{
	if (first_error)
		return;
	first_error = e ? e : EIO;
	if (out_name)
		fprintf(stderr, "flashbench: --out=%s: cannot write the results: %s%s\n", out_name,
			strerror(first_error), then);
	else
		fprintf(stderr, "flashbench: standard output: cannot write the results: %s%s\n",
			strerror(first_error), then);
}

/*
 * After every record: a result that cannot be written (a full disk, a
 * closed pipe) stops the test at its next request (out_error()), with
 * the real error -- a write test must not go on writing the device for
 * results nobody will see.
 */
static void out_drain(void);
static void out_need_test(void);

static void out_flush(void)
{
	FILE *f = out_file();

	out_drain();
	errno = 0;
	if (fflush(f) != 0 || ferror(f)) {
		out_failed(errno, "; stopping the test");
		clearerr(f);
	}
}

/*
 * Rows wait here, as their raw values, until they are formatted: when the
 * results go to a terminal at once (rows appear as they are measured),
 * else every 100 ms, when the buffer is full, and before any other
 * record. Between two timed requests a row then costs a copy, not its
 * formatting (issue 23); a scatter of 65536 rows is a few write(2) calls,
 * not 65536; and a broken output still stops a write test within a tenth
 * of a second. Rows with text or lists (pointers into the caller's
 * memory) and wider ones are formatted at once, after those waiting.
 * emit_rows: n rows of table t, the first at v, each stride bytes after
 * the last.
 */
static void emit_rows(const struct out_table *t, const union out_val *v, size_t n, size_t stride)
{
	progress_clear();
	out_need_test();
	if (st.r->rows) {	/* at once (CSV: one write for many rows) */
		st.r->rows(&st, t, v, n, stride);
		st.table = t;
		st.records += (unsigned)n;
		return;
	}
	for (size_t i = 0; i < n; i++) {	/* one by one: JSON counts its records */
		st.r->row(&st, t, (const union out_val *)((const char *)v + i * stride));
		st.table = t;
		st.records++;
	}
}

/* Format the rows that wait, in their order, those of one table together. */
static void out_drain(void)
{
	size_t n = npending, i = 0, j;

	npending = 0;
	for (; i < n; i = j) {
		for (j = i + 1; j < n && pending[j].t == pending[i].t; j++)
			;
		emit_rows(pending[i].t, pending[i].v, j - i, sizeof(pending[0]));
	}
}

/* Can the row wait as a copy of its values? (The last table's answer is kept.) */
static bool row_waits(const struct out_table *t)
{
	static const struct out_table *last_t;
	static bool last_waits;

	if (st.tty < 0)
		st.tty = isatty(fileno(out_file())) == 1;
	if (st.tty || t->nfields > OUT_PENDING_FIELDS)
		return false;
	if (t == last_t)
		return last_waits;
	last_t = t;
	last_waits = false;
	for (size_t i = 0; i < t->nfields; i++)
		switch (t->fields[i].type) {
		case OT_TEXT:
		case OT_BPS_LIST:
		case OT_REAL_LIST:
			return false;
		default:
			break;
		}
	return last_waits = true;
}

/* After a row: format and flush what waits when the last flush is 100 ms old. */
static void out_flush_row(void)
{
	uint64_t now = out_now();

	if (!st.tty && now - last_flush < OUT_FLUSH_NS && !ferror_unlocked(out_file()))
		return;
	last_flush = now;
	out_drain();
	out_flush();
}

int out_error(void)
{
	return first_error;
}

void out_run_begin(const char *version, int argc, char *const *argv)
{
	st.f = out_file();
	st.run_begun = true;
	st.r->run_begin(&st, version, argc, argv);
	out_flush();
}

void out_device(const char *path, const char *kind, uint64_t size, uint32_t sector)
{
	out_drain();
	st.r->device(&st, path, kind, size, sector);
}

void out_param_u64(const char *name, uint64_t v)
{
	union out_val x = { .u = v };

	out_drain();
	st.r->param(&st, name, OT_COUNT, &x);
}

void out_param_str(const char *name, const char *v)
{
	union out_val x = { .s = v };

	out_drain();
	st.r->param(&st, name, OT_TEXT, &x);
}

void out_param_bool(const char *name, bool v)
{
	union out_val x = { .b = v };

	out_drain();
	st.r->param(&st, name, OT_BOOL, &x);
}

void out_param_real(const char *name, double v)
{
	union out_val x = { .d = v };

	out_drain();
	st.r->param(&st, name, OT_REAL, &x);
}

/* A record outside out_test_begin/end (a note of main's): its own test. */
static void out_need_test(void)
{
	if (!st.run_begun) {
		st.f = out_file();
		st.run_begun = true;
		st.r->run_begin(&st, NULL, 0, NULL);
	}
	if (!st.test)
		out_test_begin("run");
}

void out_test_begin(const char *test)
{
	out_drain();
	if (!st.run_begun)
		out_run_begin(NULL, 0, NULL);
	if (st.test)
		out_test_end("done", NULL);
	st.test = test;
	st.table = NULL;
	st.records = 0;
	stop_reason = NULL;
	st.r->test_begin(&st, test);
	st.tests++;
}

static out_tap_fn row_tap;

void out_set_tap(out_tap_fn tap)
{
	row_tap = tap;
}

void out_row(const struct out_table *t, const union out_val *v)
{
	if (row_tap)
		row_tap(st.test, t, v);
	if (row_waits(t)) {
		if (npending == OUT_PENDING_ROWS)
			out_drain();
		pending[npending].t = t;
		memcpy(pending[npending].v, v, t->nfields * sizeof(*v));
		npending++;
	} else {
		out_drain();
		emit_rows(t, v, 1, 0);
	}
	out_flush_row();
}

/* The text of a verdict or note, with the terminal and the test's head ready for it. */
static void text_begin(char *text, size_t len, const char *fmt, va_list ap)
{
	vsnprintf(text, len, fmt, ap);
	out_drain();
	progress_clear();
	out_need_test();
}

static void text_end(void)
{
	st.records++;
	out_flush();
}

void out_verdict(const struct out_verdict *v, const char *fmt, ...)
{
	char text[OUT_LINE];
	va_list ap;

	va_start(ap, fmt);
	text_begin(text, sizeof(text), fmt, ap);
	va_end(ap);
	st.r->verdict(&st, v, text);
	text_end();
}

void out_note(const char *fmt, ...)
{
	char text[OUT_LINE];
	va_list ap;

	va_start(ap, fmt);
	text_begin(text, sizeof(text), fmt, ap);
	va_end(ap);
	st.r->note(&st, text);
	text_end();
}

void out_test_stopped(const char *reason)
{
	stop_reason = reason;
}

void out_test_end(const char *status, const char *reason)
{
	out_drain();
	progress_end();
	if (!st.test)
		return;
	if (stop_reason && strcmp(status, "done") == 0) {
		status = "stopped";
		reason = stop_reason;
	}
	st.r->test_end(&st, status, reason);
	st.test = NULL;
	out_flush();
}

int out_close(int exit_status, const char *status, const char *reason)
{
	FILE *f = out_file();
	int e;

	out_drain();
	progress_end();
	if (st.test)
		out_test_end(status, reason);
	if (st.run_begun)
		st.r->run_end(&st, exit_status, status, reason);
	out_flush();
	errno = 0;
	if (f != stdout && fclose(f) != 0)
		out_failed(errno, "");
	/* Held and never let out: a run refused after all leaves nothing. */
	free(held_buf);
	held_buf = NULL;
	held_len = 0;
	e = first_error;
	out_name = NULL;
	memset(&st, 0, sizeof(st));
	st.r = &out_text_renderer;
	st.tty = -1;
	return e ? -e : 0;
}

/* Two digits at a time: the pairs 00 to 99. */
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* The number of decimal digits of v. */
static unsigned digits_u64(uint64_t v)
{
	unsigned n = 1;

	while (v >= 10000) {
		v /= 10000;
		n += 4;
	}
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/*
 * v in decimal, as "%" PRIu64 prints it (with "-" first when neg), at buf
 * and NUL-terminated: its length. Written in place, back to front, two
 * digits at a time: no copy (a -s row holds two of these, issue 23).
 */
static size_t fmt_u64(char *buf, uint64_t v, bool neg)
{
	size_t len = digits_u64(v) + neg;
	char *p = buf + len;

	*p = '\0';
	while (v >= 100) {
		p -= 2;
		memcpy(p, digit_pairs + v % 100 * 2, 2);
		v /= 100;
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, digit_pairs + v * 2, 2);
	} else {
		*--p = (char)('0' + v);
	}
	if (neg)
		*--p = '-';
	return len;
}

size_t out_fmt_number(char *buf, enum out_type type, const union out_val *v)
{
	double d = v->d;

	switch (type) {
	case OT_BYTES:
	case OT_COUNT:
		return fmt_u64(buf, v->u, false);
	case OT_BOOL:
	case OT_TEXT:
		buf[0] = '\0';
		return 0;
	default:
		/*
		 * Enough digits to give back the double; no exponent for plain
		 * values. A whole number below 10^15 prints under "%.15g" as its
		 * digits alone: those (every time of -s) skip printf's
		 * floating-point conversion, about 3,000 instructions a number.
		 */
		if (fabs(d) < 1e15 && d == (double)(int64_t)d && (d != 0 || !signbit(d))) {
			int64_t i = (int64_t)d;

			return fmt_u64(buf, i < 0 ? -(uint64_t)i : (uint64_t)i, i < 0);
		}
		if (!isfinite(d)) {
			buf[0] = '\0';
			return 0;
		}
		return (size_t)snprintf(buf, OUT_NUMBER_LEN, "%.15g", d);
	}
}

void out_put_number(FILE *f, enum out_type type, const union out_val *v)
{
	char buf[OUT_NUMBER_LEN];

	switch (type) {
	case OT_BOOL:
		fputs(v->b ? "true" : "false", f);
		break;
	case OT_TEXT:
		fputs(v->s ? v->s : "", f);
		break;
	default:
		fwrite_unlocked(buf, 1, out_fmt_number(buf, type, v), f);
		break;
	}
}

void out_text_default(char *line, size_t len, const struct out_table *t, const union out_val *v)
{
	FILE *m = fmemopen(line, len, "w");

	if (!m) {
		snprintf(line, len, "(out of memory)");
		return;
	}
	for (size_t i = 0; i < t->nfields; i++) {
		if (i)
			fputc('\t', m);
		if (t->fields[i].type == OT_BPS_LIST || t->fields[i].type == OT_REAL_LIST) {
			for (size_t j = 0; j < v[i].list.n; j++) {
				union out_val e = { .d = v[i].list.v[j] };

				fputs(j ? "\t" : "", m);
				out_put_number(m, OT_REAL, &e);
			}
		} else {
			out_put_number(m, t->fields[i].type, &v[i]);
		}
	}
	fclose(m);
}
