/* The output layer: text, JSON and CSV renderings of the same records,
 * and the bounded JSON reader that --analyze uses. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/json.h"
#include "core/out.h"
#include "core/out_impl.h"
#include "unit.h"

static const struct out_field fields[] = {
	{ "size_bytes", OT_BYTES }, { "time_ns", OT_NS }, { "rate_bps", OT_BPS_LIST },
	{ "name", OT_TEXT },
};

static void row_text(char *line, size_t len, const union out_val *v)
{
	snprintf(line, len, "%llu\t%g", (unsigned long long)v[0].u, v[1].d);
}

static const struct out_table table = { "demo", fields, 4, row_text, NULL };
static const struct out_table plain = { "plain", fields, 2, NULL, NULL };

/* Run the same records through fmt into a file; returns its contents (malloc). */
static char *render(enum out_format fmt, bool interrupted)
{
	char path[] = "/tmp/fbout.XXXXXX";
	int fd = mkstemp(path);
	double rates[3] = { 1e6, 2.5e6, 0.5 };
	union out_val v[4] = { { .u = 4096 }, { .d = 1234.5 }, { .list = { rates, 3 } },
			       { .s = "a \"quoted\", name\n" } };
	struct out_verdict vd = { NULL, "erase_block", "named", true, 4194304, "bytes" };
	char *argv[] = { "flashbench", "-a", "sim:" };
	static char buf[65536];
	FILE *f;
	size_t n;

	close(fd);
	CHECK(out_open(path, fmt) == 0);
	out_run_begin("9.9", 3, argv);
	out_device("sim:", "simulated card", 1ull << 32, 512);
	out_param_u64("blocksize_bytes", 1024);
	out_param_str("engine", "sync");
	out_test_begin("align");
	out_row(&table, v);
	out_row(&table, v);
	out_verdict(&vd, "erase block %s", "4MiB");
	out_note("a note with a tab\tinside");
	if (interrupted) {
		CHECK(out_close(130, "interrupted", "signal 2") == 0);
	} else {
		out_test_end("done", NULL);
		out_test_begin("second");
		out_row(&plain, v);
		CHECK(out_close(0, "done", NULL) == 0);
	}
	f = fopen(path, "r");
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(path);
	return buf;
}

/* Walk a document with the reader: counts of rows and the last number seen. */
static int walk(const char *doc, unsigned *rows, double *last, unsigned *depth_max)
{
	FILE *f = fmemopen((void *)doc, strlen(doc), "r");
	struct json_reader r;
	enum json_tok t;

	*rows = 0, *depth_max = 0;
	json_reader_init(&r, f);
	while ((t = json_next(&r)) != JT_EOF && t != JT_ERROR) {
		if (t == JT_STRING && strcmp(r.text, "row") == 0)
			(*rows)++;
		if (t == JT_NUMBER)
			*last = r.num;
		if ((unsigned)r.depth > *depth_max)
			*depth_max = (unsigned)r.depth;
	}
	fclose(f);
	return t == JT_EOF ? 0 : -1;
}

static void test_text(void)
{
	CHECK_STR(render(OUT_TEXT, false),
		  "4096\t1234.5\n4096\t1234.5\nverdict: erase block 4MiB\n"
		  "a note with a tab\tinside\n4096\t1234.5\n");
}

static void test_json(void)
{
	unsigned rows, depth;
	double last = 0;
	const char *doc = render(OUT_JSON, false);

	CHECK(walk(doc, &rows, &last, &depth) == 0);
	CHECK(rows == 3);
	CHECK(last == 0);	/* "exit_status":0 is the last number */
	CHECK(strstr(doc, "\"rate_bps\":[1000000,2500000,0.5]") != NULL);
	CHECK(strstr(doc, "\"name\":\"a \\\"quoted\\\", name\\n\"") != NULL);
	CHECK(strstr(doc, "\"value\":4194304,\"unit\":\"bytes\"") != NULL);
	CHECK(strstr(doc, "\"parameters\":{\"blocksize_bytes\":1024,\"engine\":\"sync\"}") != NULL);
	CHECK(strstr(doc, "\"status\":\"done\",\"exit_status\":0}") != NULL);
	/* Interrupted: still one complete document, with the reason. */
	doc = render(OUT_JSON, true);
	CHECK(walk(doc, &rows, &last, &depth) == 0);
	CHECK(rows == 2);
	CHECK(last == 130);
	CHECK(strstr(doc, "\"status\":\"interrupted\",\"reason\":\"signal 2\"") != NULL);
}

static void test_csv(void)
{
	const char *doc = render(OUT_CSV, false);

	CHECK(strstr(doc, "# table: demo\nsize_bytes,time_ns,rate_bps_1,rate_bps_2,rate_bps_3,name\n"
		      "4096,1234.5,1000000,2500000,0.5,\"a \"\"quoted\"\", name\n\"\n") != NULL);
	CHECK(strstr(doc, "# verdict: erase block 4MiB\n") != NULL);
	CHECK(strstr(doc, "\n\n# table: plain\nsize_bytes,time_ns\n4096,1234.5\n") != NULL);
	CHECK(strstr(doc, "# status: done, exit status 0\n") != NULL);
}

static void test_reader_errors(void)
{
	static const char *const bad[] = {
		"{\"a\" 1}", "[1 2]", "{\"a\":1", "[}", "\"open", "{1:2}", "[tru]", "[1e]",
	};
	static const char *const good[] = {
		"{}", "[]", "{\"a\":[1,{\"b\":null}],\"c\":\"\\u00e9\\n\"}", "  [ -1.5e3 , true ]  ",
	};
	unsigned rows, depth;
	double last;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(walk(bad[i], &rows, &last, &depth) < 0);
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK(walk(good[i], &rows, &last, &depth) == 0);
}

/* Deep nesting and long strings stay within the reader's fixed memory. */
static void test_reader_bounds(void)
{
	size_t n = 100000;
	char *doc = malloc(n + 3);
	unsigned rows, depth;
	double last;

	memset(doc, '[', n);
	doc[n] = '\0';
	CHECK(walk(doc, &rows, &last, &depth) < 0);
	CHECK(depth <= JSON_MAX_DEPTH);
	doc[0] = '"';
	memset(doc + 1, 'x', n);
	doc[n + 1] = '"';
	doc[n + 2] = '\0';
	CHECK(walk(doc, &rows, &last, &depth) == 0);
	free(doc);
}

/* What out_put_number prints for v, of type. */
static const char *put(enum out_type type, union out_val v)
{
	static char buf[64];
	FILE *m;

	memset(buf, 0, sizeof(buf));
	m = fmemopen(buf, sizeof(buf), "w");

	out_put_number(m, type, &v);
	fclose(m);
	return buf;
}

/*
 * Numbers print as "%.15g" and "%" PRIu64 print them (the goldens, JSON
 * and CSV rest on it), also where a whole number skips printf.
 */
static void test_numbers(void)
{
	static const double d[] = {
		0, 1, -1, 7, 10, 4096, 123456789, 999999999999999, -999999999999999,
		1e15, 1e15 + 2, 1e16, 1e300, -1e300, 9.3e18, 1.8e19, 0.5, -0.5, 1.5, 1e-5,
		123456.789, 1234567890123.5, 4.039e3, 3.003e-6, 2.2250738585072014e-308,
	};
	static const uint64_t u[] = { 0, 1, 9, 10, 65535, 1ull << 32, UINT64_MAX, UINT64_MAX / 10 };
	char want[64];

	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		snprintf(want, sizeof(want), "%.15g", d[i]);
		CHECK(strcmp(put(OT_REAL, (union out_val){ .d = d[i] }), want) == 0);
		CHECK(strcmp(put(OT_NS, (union out_val){ .d = d[i] }), want) == 0);
	}
	CHECK(strcmp(put(OT_REAL, (union out_val){ .d = -0.0 }), "-0") == 0);
	CHECK(strcmp(put(OT_REAL, (union out_val){ .d = NAN }), "") == 0);
	CHECK(strcmp(put(OT_REAL, (union out_val){ .d = -INFINITY }), "") == 0);
	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		snprintf(want, sizeof(want), "%" PRIu64, u[i]);
		CHECK(strcmp(put(OT_BYTES, (union out_val){ .u = u[i] }), want) == 0);
		CHECK(strcmp(put(OT_COUNT, (union out_val){ .u = u[i] }), want) == 0);
	}
}

static unsigned formatted;	/* calls of count_text */
static uint64_t fake_ns;

static void count_text(char *line, size_t len, const union out_val *v)
{
	formatted++;
	snprintf(line, len, "%llu", (unsigned long long)v[0].u);
}

static uint64_t fake_clock(void)
{
	return fake_ns;
}

/*
 * Rows of numbers wait as raw values and are formatted every 100 ms (of
 * the output's clock), before any other record, and at the end: not
 * between two requests (issue 23). Rows with text are formatted at once.
 */
static void test_pending(void)
{
	static const struct out_field nf[] = { { "size_bytes", OT_BYTES }, { "name", OT_TEXT } };
	static const struct out_table nums = { "nums", nf, 1, count_text, NULL };
	static const struct out_table texts = { "texts", nf, 2, count_text, NULL };
	char path[] = "/tmp/fbpend.XXXXXX";
	int fd = mkstemp(path);
	char buf[4096];
	FILE *f;
	size_t n;

	close(fd);
	fake_ns = 1000000000;
	out_set_clock(fake_clock);
	CHECK(out_open(path, OUT_TEXT) == 0);
	out_test_begin("demo");
	for (uint64_t i = 1; i <= 5; i++)
		out_row(&nums, (union out_val[]){ { .u = i } });
	CHECK(formatted == 1);	/* the first, 1 s after the last flush; the rest wait */
	fake_ns += 99000000;
	out_row(&nums, (union out_val[]){ { .u = 6 } });
	CHECK(formatted == 1);
	fake_ns += 1000000;
	out_row(&nums, (union out_val[]){ { .u = 7 } });
	CHECK(formatted == 7);	/* 100 ms: all that waited, in order */
	out_row(&nums, (union out_val[]){ { .u = 8 } });
	CHECK(formatted == 7);
	out_row(&texts, (union out_val[]){ { .u = 9 }, { .s = "x" } });
	CHECK(formatted == 9);	/* a row with text goes at once, after the waiting one */
	out_row(&nums, (union out_val[]){ { .u = 10 } });
	out_note("a note");
	CHECK(formatted == 10);	/* any other record comes after the rows before it */
	for (uint64_t i = 11; i <= 2000; i++)
		out_row(&nums, (union out_val[]){ { .u = i } });
	CHECK(formatted >= 2000 - 512 && formatted < 2000);	/* a full buffer is formatted */
	CHECK(out_close(0, "done", NULL) == 0);
	CHECK(formatted == 2000);
	out_set_clock(NULL);
	f = fopen(path, "r");
	CHECK(f != NULL);
	n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
	unlink(path);
	CHECK(strncmp(buf, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", 21) == 0);	/* in order */
	CHECK(strstr(buf, "10\na note\n11\n") != NULL);
}

int main(void)
{
	test_numbers();
	test_pending();
	test_text();
	test_json();
	test_csv();
	test_reader_errors();
	test_reader_bounds();
	UNIT_DONE();
}
