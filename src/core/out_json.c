/*
 * The JSON renderer: one document per run, written as the run goes so
 * that an interrupted run is still closed properly by out_close().
 *
 * {"tool":"flashbench","version":V,"command":[ARGV...],
 *  "device":{"path","kind","size_bytes","sector_bytes"},
 *  "parameters":{NAME:VALUE...},
 *  "tests":[{"test":NAME,"records":[RECORD...],"status":S[,"reason":R]}...],
 *  "status":S,"exit_status":N[,"reason":R]}
 *
 * A RECORD is {"type":"row","table":T,FIELD:VALUE...},
 * {"type":"verdict","verdict":NAME,"result":R[,"value":N,"unit":U],"text":TEXT
 * [,"label":L]} (its text line is "L: TEXT", else "verdict: TEXT")
 * or {"type":"note","text":TEXT}. One record per line.
 */
#include "core/json.h"
#include "core/out_impl.h"

static void close_params(struct out_state *s)
{
	if (s->params_open) {
		fputs("},\n", s->f);
		s->params_open = false;
	}
}

static void json_run_begin(struct out_state *s, const char *version, int argc, char *const *argv)
{
	fputs("{\"tool\":\"flashbench\",\"version\":", s->f);
	json_put_string(s->f, version ? version : "");
	fputs(",\"command\":[", s->f);
	for (int i = 0; i < argc; i++) {
		if (i)
			fputc(',', s->f);
		json_put_string(s->f, argv[i]);
	}
	fputs("],\n", s->f);
}

static void json_device(struct out_state *s, const char *path, const char *kind, uint64_t size,
			uint32_t sector)
{
	close_params(s);
	fputs("\"device\":{\"path\":", s->f);
	json_put_string(s->f, path);
	fputs(",\"kind\":", s->f);
	json_put_string(s->f, kind);
	fprintf(s->f, ",\"size_bytes\":%llu,\"sector_bytes\":%u},\n", (unsigned long long)size,
		sector);
}

/* One value as JSON: numbers, null for what is not finite, strings escaped. */
static void json_value(FILE *f, enum out_type type, const union out_val *v)
{
	switch (type) {
	case OT_TEXT:
		json_put_string(f, v->s ? v->s : "");
		return;
	case OT_BPS_LIST:
	case OT_REAL_LIST:
		fputc('[', f);
		for (size_t i = 0; i < v->list.n; i++) {
			fputs(i ? "," : "", f);
			json_put_double(f, v->list.v[i]);
		}
		fputc(']', f);
		return;
	case OT_NS:
	case OT_BPS:
	case OT_REAL:
		json_put_double(f, v->d);
		return;
	default:
		out_put_number(f, type, v);
	}
}

static void json_param(struct out_state *s, const char *name, enum out_type type,
		       const union out_val *v)
{
	fputs(s->params_open ? "," : "\"parameters\":{", s->f);
	s->params_open = true;
	json_put_string(s->f, name);
	fputc(':', s->f);
	json_value(s->f, type, v);
}

static void json_test_begin(struct out_state *s, const char *test)
{
	close_params(s);
	fputs(s->tests ? ",\n{\"test\":" : "\"tests\":[\n{\"test\":", s->f);
	json_put_string(s->f, test);
	fputs(",\"records\":[", s->f);
}

static void record_start(struct out_state *s, const char *type)
{
	fprintf(s->f, "%s\n{\"type\":\"%s\"", s->records ? "," : "", type);
}

static void json_row(struct out_state *s, const struct out_table *t, const union out_val *v)
{
	record_start(s, "row");
	fputs(",\"table\":", s->f);
	json_put_string(s->f, t->name);
	for (size_t i = 0; i < t->nfields; i++) {
		fputc(',', s->f);
		json_put_string(s->f, t->fields[i].name);
		fputc(':', s->f);
		json_value(s->f, t->fields[i].type, &v[i]);
	}
	fputc('}', s->f);
}

static void json_verdict(struct out_state *s, const struct out_verdict *v, const char *text)
{
	record_start(s, "verdict");
	fputs(",\"verdict\":", s->f);
	json_put_string(s->f, v && v->name ? v->name : "");
	fputs(",\"result\":", s->f);
	json_put_string(s->f, v && v->result ? v->result : "");
	if (v && v->has_value) {
		fprintf(s->f, ",\"value\":%llu", (unsigned long long)v->value);
		if (v->unit) {
			fputs(",\"unit\":", s->f);
			json_put_string(s->f, v->unit);
		}
	}
	fputs(",\"text\":", s->f);
	json_put_string(s->f, text);
	if (v && v->label) {
		fputs(",\"label\":", s->f);
		json_put_string(s->f, v->label);
	}
	fputc('}', s->f);
}

static void json_note(struct out_state *s, const char *text)
{
	record_start(s, "note");
	fputs(",\"text\":", s->f);
	json_put_string(s->f, text);
	fputc('}', s->f);
}

static void json_status(FILE *f, const char *status, const char *reason)
{
	fputs("\"status\":", f);
	json_put_string(f, status ? status : "done");
	if (reason) {
		fputs(",\"reason\":", f);
		json_put_string(f, reason);
	}
}

static void json_test_end(struct out_state *s, const char *status, const char *reason)
{
	fputs("],\n", s->f);
	json_status(s->f, status, reason);
	fputc('}', s->f);
}

static void json_run_end(struct out_state *s, int exit_status, const char *status,
			 const char *reason)
{
	close_params(s);
	fputs(s->tests ? "],\n" : "\"tests\":[],\n", s->f);
	json_status(s->f, status, reason);
	fprintf(s->f, ",\"exit_status\":%d}\n", exit_status);
}

const struct out_renderer out_json_renderer = {
	.run_begin = json_run_begin,
	.device = json_device,
	.param = json_param,
	.test_begin = json_test_begin,
	.row = json_row,
	.verdict = json_verdict,
	.note = json_note,
	.test_end = json_test_end,
	.run_end = json_run_end,
};
