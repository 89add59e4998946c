/*
 * The text renderer: flashbench's own lines. Rows print as their table's
 * text function says, verdicts as "verdict: ...", notes as they are; the
 * run and its parameters print nothing (-v puts them on stderr).
 */
#include "core/out_impl.h"

static char line[8192];

static void text_run_begin(struct out_state *s, const char *version, int argc, char *const *argv)
{
	(void)s, (void)version, (void)argc, (void)argv;
}

static void text_device(struct out_state *s, const char *path, const char *kind, uint64_t size,
			uint32_t sector)
{
	(void)s, (void)path, (void)kind, (void)size, (void)sector;
}

static void text_param(struct out_state *s, const char *name, enum out_type type,
		       const union out_val *v)
{
	(void)s, (void)name, (void)type, (void)v;
}

static void text_test_begin(struct out_state *s, const char *test)
{
	(void)s, (void)test;
}

static void text_row(struct out_state *s, const struct out_table *t, const union out_val *v)
{
	if (s->table != t && t->text_header) {
		t->text_header(line, sizeof(line), v);
		fprintf(s->f, "%s\n", line);
	}
	if (t->text)
		t->text(line, sizeof(line), v);
	else
		out_text_default(line, sizeof(line), t, v);
	fprintf(s->f, "%s\n", line);
}

static void text_verdict(struct out_state *s, const struct out_verdict *v, const char *text)
{
	fprintf(s->f, "%s: %s\n", v && v->label ? v->label : "verdict", text);
}

static void text_note(struct out_state *s, const char *text)
{
	fprintf(s->f, "%s\n", text);
}

static void text_test_end(struct out_state *s, const char *status, const char *reason)
{
	(void)s, (void)status, (void)reason;
}

static void text_run_end(struct out_state *s, int exit_status, const char *status,
			 const char *reason)
{
	(void)s, (void)exit_status, (void)status, (void)reason;
}

const struct out_renderer out_text_renderer = {
	.run_begin = text_run_begin,
	.device = text_device,
	.param = text_param,
	.test_begin = text_test_begin,
	.row = text_row,
	.verdict = text_verdict,
	.note = text_note,
	.test_end = text_test_end,
	.run_end = text_run_end,
};
