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
	"\"device\":{\"path\":\"sim:\",\"kind\":\"simulated card\",\"size_bytes\":4096,\"x\":{\"y\":[1]},"
	"\"ids\":[\"a\",[\"b\"]]},\n"
	"\"parameters\":{\"blocksize\":16384,\"random\":false},\n"
	"\"tests\":[\n"
	"{\"test\":\"open-au\",\"records\":[\n"
	"{\"type\":\"row\",\"table\":\"open-au\",\"block_bytes\":4194304,\"rate_bps\":2e6,"
	"\"rate_runs_bps\":[2e6,null],\"skip\":{\"a\":[\"b\"]}},\n"
	"{\"type\":\"verdict\",\"verdict\":\"open-au\",\"text\":\"a, \\\"b\\\"\",\"label\":\"L\"},\n"
	"{\"type\":\"row\",\"table\":\"align\",\"boundary_bytes\":8192,\"pre_ns\":1000,"
	"\"on_ns\":1500,\"post_ns\":1000,\"diff_ns\":500},\n"
	"{\"type\":\"note\",\"text\":\"a note\"}],\n"
	"\"status\":\"done\"},\n"
	"{\"test\":\"align\",\"records\":[\n"
	"{\"type\":\"row\",\"table\":\"align\",\"boundary_bytes\":4096,\"pre_ns\":1000,"
	"\"on_ns\":1000,\"post_ns\":1000,\"diff_ns\":0}],\n"
	"\"status\":\"done\"}]}\n";

static struct sj_walk *walk(const char *text, bool headers, FILE **f)
{
	static struct sj_walk w;

	*f = fmemopen((void *)text, strlen(text), "r");
	sj_init(&w, *f, headers);
	return &w;
}

static void events(void)
{
	FILE *f;
	struct sj_walk *w = walk(doc, true, &f);
	const struct sj_value *v;

	CHECK(sj_next(w) == SJ_COMMAND && w->nwords == 3);
	CHECK_STR(w->words, "./flashbench");
	CHECK_STR(w->words + strlen("./flashbench") + 1, "-O");
	CHECK(sj_next(w) == SJ_DEVICE && w->rec.nv == 5);
	CHECK((v = sj_field(&w->rec, "ids")) && v->tok == JT_ARRAY && v->list_n == 0);	/* skipped */
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
	CHECK(sj_next(w) == SJ_RECORD && sj_next(w) == SJ_RECORD);
	CHECK(sj_next(w) == SJ_TEST);
	CHECK_STR(w->name, "align");
	CHECK(sj_next(w) == SJ_RECORD);
	CHECK(sj_next(w) == SJ_END && sj_next(w) == SJ_END);
	sj_release(w);
	fclose(f);

	/* Without headers: the command and the records alone. */
	w = walk(doc, false, &f);
	CHECK(sj_next(w) == SJ_COMMAND);
	CHECK(sj_next(w) == SJ_RECORD);
	for (int i = 0; i < 4; i++)
		CHECK(sj_next(w) == SJ_RECORD);
	CHECK(sj_next(w) == SJ_END);
	sj_release(w);
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
	sj_release(w);
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

/* A document of one record with two lists of a and b numbers. */
static const char *lists(int a, int b)
{
	static char text[SJ_MAX_LIST * 4 + 200];
	char *p = text + sprintf(text, "{\"tests\":[{\"records\":[{\"l\":[");

	for (int i = 0; i < a; i++)
		p += sprintf(p, "%s1", i ? "," : "");
	p += sprintf(p, "],\"m\":[");
	for (int i = 0; i < b; i++)
		p += sprintf(p, "%snull", i ? "," : "");
	sprintf(p, "]}]}]}");
	return text;
}

/* A document whose command's words take n bytes (each with its NUL). */
static const char *command(size_t n)
{
	static char text[SJ_MAX_COMMAND + 4096];
	char *p = text + sprintf(text, "{\"command\":[");
	size_t word = 1000;

	for (; n > 0; n -= word < n ? word : n) {
		size_t len = (word < n ? word : n) - 1;

		*p++ = '"';
		memset(p, 'w', len);
		p += len;
		p += sprintf(p, "\"%s", n > word ? "," : "");
	}
	sprintf(p, "]}");
	return text;
}

static void errors(void)
{
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
	CHECK_STR(error_of(lists(SJ_MAX_LIST, 0), false), "");
	CHECK_STR(error_of(lists(SJ_MAX_LIST + 1, 0), false),
		  "not a flashbench JSON document: a bad record at line 1");
	CHECK_STR(error_of(lists(SJ_MAX_LIST / 2, SJ_MAX_LIST / 2), false), "");
	CHECK_STR(error_of(lists(SJ_MAX_LIST / 2, SJ_MAX_LIST / 2 + 1), false),
		  "not a flashbench JSON document: a bad record at line 1");
	CHECK_STR(error_of(fields(SJ_MAX_FIELDS + 1), false),
		  "not a flashbench JSON document: a bad record at line 1");
	CHECK_STR(error_of(fields(SJ_MAX_FIELDS), false), "");
	CHECK_STR(error_of(command(SJ_MAX_COMMAND), false), "");
	CHECK_STR(error_of(command(SJ_MAX_COMMAND + 1), false),
		  "not a flashbench JSON document: a bad command at line 1");
}

/* A record's field is its key's first; a key is cut to 63 bytes, a string to JSON_MAX_TEXT - 1. */
static void fields_read(void)
{
	static char text[2 * JSON_MAX_TEXT + 200];
	char key[100], *p = text;
	FILE *f;
	struct sj_walk *w;
	const struct sj_value *v;

	memset(key, 'k', sizeof(key) - 1);
	key[sizeof(key) - 1] = '\0';
	p += sprintf(p, "{\"tests\":[{\"records\":[{\"a\":1,\"a\":2,\"%s\":3,\"s\":\"", key);
	for (int i = 0; i < JSON_MAX_TEXT + 10; i++)
		*p++ = 'x';
	sprintf(p, "\"}]}]}");
	w = walk(text, false, &f);
	CHECK(sj_next(w) == SJ_RECORD && w->rec.nv == 4);
	CHECK((v = sj_field(&w->rec, "a")) && v->num == 1);
	CHECK(strlen(w->rec.v[2].key) == 63 && w->rec.v[2].num == 3);
	CHECK(strlen(sj_text(&w->rec, "s")) == JSON_MAX_TEXT - 1);
	sj_release(w);
	fclose(f);
}

/* Every line a source makes of text, each ending in '\n'. */
static void lines_of(const struct ai_json_source *src, const char *text, char *out, size_t len)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
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

	lines_of(&analyze_json_source, doc, out, sizeof(out));
	CHECK_STR(out, "$ ./flashbench -O sim:\n"
		  "4MiB\t2M/s\n"
		  "L: a, \"b\"\n"
		  "align 8192\tpre 1\xc2\xb5s\ton 1.5\xc2\xb5s\tpost 1\xc2\xb5s\tdiff 500ns\n"
		  "a note\n"
		  "align 4096\tpre 1\xc2\xb5s\ton 1\xc2\xb5s\tpost 1\xc2\xb5s\tdiff 0ns\n");
	lines_of(&compare_json_source, doc, out, sizeof(out));
	CHECK_STR(out, "# flashbench ?: ./flashbench -O sim:\n"
		  "# device: sim: (simulated card), 4096 bytes\n"
		  "# parameter blocksize=16384\n"
		  "# parameter random=false\n"	/* issue 30: true/false carried too */
		  "# test: open-au\n"
		  "# table: open-au\n"
		  "type,table,block_bytes,rate_bps,rate_runs_bps_1,rate_runs_bps_2\n"
		  "row,open-au,4194304,2000000,2000000,\n"
		  "# L: a, \"b\"\n"
		  "# table: align\n"	/* another table: its name and columns */
		  "type,table,boundary_bytes,pre_ns,on_ns,post_ns,diff_ns\n"
		  "row,align,8192,1000,1500,1000,500\n"
		  "# a note\n"
		  "# test: align\n"
		  "# table: align\n"	/* again: a test starts its tables afresh */
		  "type,table,boundary_bytes,pre_ns,on_ns,post_ns,diff_ns\n"
		  "row,align,4096,1000,1000,1000,0\n");
	/* A size beyond 2^64 is no size: the row is skipped, not cast (undefined). */
	lines_of(&analyze_json_source, "{\"tests\":[{\"records\":[{\"type\":\"row\",\"table\":\"align\","
		 "\"boundary_bytes\":1e999,\"pre_ns\":1,\"on_ns\":1,\"post_ns\":1,\"diff_ns\":0},"
		 "{\"type\":\"note\",\"text\":\"n\"}]}]}", out, sizeof(out));
	CHECK_STR(out, "n\n");
}

/* A broken document through each emitter: -1, the walker's reason in stop, then the end. */
static void emitters_stop(void)
{
	static const char bad[] = "{\"command\":[\"./flashbench\"],\"tests\":[3]}";
	const struct ai_json_source *src[] = { &analyze_json_source, &compare_json_source };

	for (size_t i = 0; i < 2; i++) {
		FILE *f = fmemopen((void *)bad, strlen(bad), "r");
		struct ai_json *j = src[i]->open(f);
		char buf[4096], stop[160] = "";

		CHECK(src[i]->next(j, buf, sizeof(buf), stop, sizeof(stop)) == 1);	/* the command */
		CHECK(src[i]->next(j, buf, sizeof(buf), stop, sizeof(stop)) == -1);
		CHECK_STR(stop, "not a flashbench JSON document: a test that is not an object at line 1");
		CHECK(src[i]->next(j, buf, sizeof(buf), stop, sizeof(stop)) == 0);
		src[i]->close(j);
		fclose(f);
	}
}

int main(void)
{
	events();
	errors();
	fields_read();
	emitters();
	emitters_stop();
	UNIT_DONE();
}
