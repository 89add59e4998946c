/*
 * The walker of saved JSON documents (saved/saved_json.h) and its two
 * emitters: the frame's events in order, records read whole (lists of
 * numbers, null as NaN, nested objects skipped), the headers only when
 * asked for, and every malformed frame refused with its reason and line;
 * then one document through --analyze's emitter (text lines) and
 * --compare's (CSV lines).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze_json.h"
#include "compare/compare_json.h"
#include "saved/saved_json.h"
#include "unit.h"

static const char doc[] =
	"{\"tool\":\"flashbench\",\"version\":\"0.1\",\"command\":[\"./flashbench\",\"-O\",\"sim:\"],\n"
	"\"device\":{\"path\":\"sim:\",\"kind\":\"simulated card\",\"size_bytes\":4096,\"x\":{\"y\":[1]}},\n"
	"\"parameters\":{\"blocksize\":16384,\"random\":false},\n"
	"\"tests\":[\n"
	"{\"test\":\"open-au\",\"records\":[\n"
	"{\"type\":\"row\",\"table\":\"open-au\",\"block_bytes\":4194304,\"rate_bps\":2e6,"
	"\"rate_runs_bps\":[2e6,null],\"skip\":{\"a\":[\"b\"]}},\n"
	"{\"type\":\"verdict\",\"verdict\":\"open-au\",\"text\":\"a, \\\"b\\\"\",\"label\":\"L\"},\n"
	"{\"type\":\"note\",\"text\":\"a note\"}],\n"
	"\"status\":\"done\"}]}\n";

static struct sj_walk *walk(const char *text, bool headers, FILE **f)
{
	*f = fmemopen((void *)text, strlen(text), "r");
	return sj_open(*f, headers);
}

static void events(void)
{
	FILE *f;
	struct sj_walk *w = walk(doc, true, &f);
	const struct sj_value *v;

	CHECK(sj_next(w) == SJ_COMMAND && w->nwords == 3);
	CHECK_STR(w->words, "./flashbench");
	CHECK_STR(w->words + strlen("./flashbench") + 1, "-O");
	CHECK(sj_next(w) == SJ_DEVICE && w->rec.nv == 4);
	CHECK_STR(sj_text(&w->rec, "kind"), "simulated card");
	CHECK((v = sj_field(&w->rec, "size_bytes")) && v->tok == JT_NUMBER && v->num == 4096);
	CHECK((v = sj_field(&w->rec, "x")) && v->tok == JT_OBJECT);
	CHECK(sj_next(w) == SJ_PARAMETERS && w->rec.nv == 2);
	CHECK((v = sj_field(&w->rec, "random")) && v->tok == JT_FALSE);
	CHECK(sj_next(w) == SJ_TEST);
	CHECK_STR(w->name, "open-au");
	CHECK(sj_next(w) == SJ_RECORD && w->rec.nv == 6);
	CHECK_STR(w->rec.v[0].key, "type");
	CHECK((v = sj_field(&w->rec, "rate_runs_bps")) && v->tok == JT_ARRAY && v->list_n == 2);
	CHECK(v && w->rec.list[v->list_at] == 2e6 && isnan(w->rec.list[v->list_at + 1]));
	CHECK(sj_text(&w->rec, "rate_bps") == NULL && sj_field(&w->rec, "none") == NULL);
	CHECK(sj_next(w) == SJ_RECORD);
	CHECK_STR(sj_text(&w->rec, "text"), "a, \"b\"");
	CHECK(sj_next(w) == SJ_RECORD);
	CHECK(sj_next(w) == SJ_END && sj_next(w) == SJ_END);
	sj_close(w);
	fclose(f);

	/* Without headers: the command and the records alone. */
	w = walk(doc, false, &f);
	CHECK(sj_next(w) == SJ_COMMAND);
	CHECK(sj_next(w) == SJ_RECORD);
	CHECK(sj_next(w) == SJ_RECORD && sj_next(w) == SJ_RECORD && sj_next(w) == SJ_END);
	sj_close(w);
	fclose(f);
}

/* The first SJ_ERROR's reason (or "" when there is none). */
static const char *error_of(const char *text, bool headers)
{
	static char why[160];
	FILE *f;
	struct sj_walk *w = walk(text, headers, &f);
	enum sj_event e;

	while ((e = sj_next(w)) != SJ_END && e != SJ_ERROR)
		;
	snprintf(why, sizeof(why), "%s", e == SJ_ERROR ? w->why : "");
	CHECK(sj_next(w) == SJ_END);	/* nothing after an error */
	sj_close(w);
	fclose(f);
	return why;
}

/* A document of one record of n fields. */
static const char *fields(int n)
{
	static char text[(SJ_MAX_FIELDS + 1) * 16 + 100];
	char *p = text + sprintf(text, "{\"tests\":[{\"records\":[{");

	for (int i = 0; i < n; i++)
		p += sprintf(p, "%s\"k%d\":1", i ? "," : "", i);
	sprintf(p, "}]}]}");
	return text;
}

static void errors(void)
{
	static char big[SJ_MAX_LIST * 2 + 200];
	char *p = big;

	/* A document, whether headers are asked for, the reason (after the
	 * "not a flashbench JSON document: " prefix; "": none). */
	static const struct { const char *doc; bool headers; const char *why; } bad[] = {
		{ "{\"command\":[\"a\",1]}", false, "a bad command at line 1" },
		{ "{\"device\":[1]}", true, "a bad device at line 1" },
		{ "{\"device\":[1]}", false, "" },	/* not asked for: skipped whole */
		{ "{\"parameters\":3}", true, "bad parameters at line 1" },
		{ "{\"tests\":{}}", false, "bad tests at line 1" },
		{ "{\"tests\":[3]}", false, "a test that is not an object at line 1" },
		{ "{\"tests\":[{\"test\":1}]}", true, "a bad test name at line 1" },
		{ "{\"tests\":[{\"records\":3}]}", false, "bad records at line 1" },
		{ "{\"tests\":[{\"records\":[{\"a\":[\"x\"]}]}]}", false, "a bad record at line 1" },
		{ "{\"tests\":[{\"records\":[\n3]}]}", false, "a bad record at line 2" },
		{ "[1]", false, "a value without a key at line 1" },
		{ "{\"a\":", false, "unexpected end at line 1" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[200];

		snprintf(want, sizeof(want), "%s%s", bad[i].why[0] ? "not a flashbench JSON document: " : "",
			 bad[i].why);
		CHECK_STR(error_of(bad[i].doc, bad[i].headers), want);
	}
	/* A list longer than SJ_MAX_LIST numbers, a record of too many fields. */
	p += sprintf(p, "{\"tests\":[{\"records\":[{\"l\":[");
	for (int i = 0; i <= SJ_MAX_LIST; i++)
		p += sprintf(p, "%s1", i ? "," : "");
	sprintf(p, "]}]}]}");
	CHECK_STR(error_of(big, false), "not a flashbench JSON document: a bad record at line 1");
	CHECK_STR(error_of(fields(SJ_MAX_FIELDS + 1), false),
		  "not a flashbench JSON document: a bad record at line 1");
	CHECK_STR(error_of(fields(SJ_MAX_FIELDS), false), "");
}

/* Every line a source makes of doc, each ending in '\n'. */
static void lines_of(const struct ai_json_source *src, char *out, size_t len)
{
	FILE *f = fmemopen((void *)doc, strlen(doc), "r");
	struct ai_json *j = src->open(f);
	char buf[4096], stop[160] = "";
	size_t at = 0;

	while (src->next(j, buf, sizeof(buf), stop, sizeof(stop)) == 1)
		at += (size_t)snprintf(out + at, len - at, "%s\n", buf);
	CHECK_STR(stop, "");
	src->close(j);
	fclose(f);
}

static void emitters(void)
{
	char out[8192];

	lines_of(&analyze_json_source, out, sizeof(out));
	CHECK_STR(out, "$ ./flashbench -O sim:\n"
		  "4MiB\t2M/s\n"
		  "L: a, \"b\"\n"
		  "a note\n");
	lines_of(&compare_json_source, out, sizeof(out));
	CHECK_STR(out, "# flashbench ?: ./flashbench -O sim:\n"
		  "# device: sim: (simulated card), 4096 bytes\n"
		  "# parameter blocksize=16384\n"
		  "# test: open-au\n"
		  "# table: open-au\n"
		  "type,table,block_bytes,rate_bps,rate_runs_bps_1,rate_runs_bps_2\n"
		  "row,open-au,4194304,2000000,2000000,\n"
		  "# L: a, \"b\"\n"
		  "# a note\n");
}

int main(void)
{
	events();
	errors();
	emitters();
	UNIT_DONE();
}
