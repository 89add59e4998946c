/*
 * libFuzzer target for the value parsers: sizes, counts, durations,
 * reals and sim: specs. The first byte picks the parser, the rest is the
 * text. Besides not crashing (ASan, UBSan), it checks what each parser
 * promises: a plain decimal size means that many bytes, a count lies
 * within its bounds, and a parsed sim: spec printed by
 * sim_params_format() parses back to the same parameters. A line of
 * saved output gives records that hold what they promise. A first byte
 * of 0xff walks the rest as a saved JSON document (saved/saved_json.h),
 * and reads it through --analyze's and --compare's emitters.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "analyze/analyze_json.h"
#include "compare/compare_json.h"
#include "saved/saved_json.h"
#include "saved/saved_output.h"
#include "saved/saved_readahead.h"
#include "sim/sim_spec.h"

static void check_size(const char *s)
{
	uint64_t v;
	size_t n = strlen(s);

	if (parse_size(s, &v) == 0 && n > 0 && n < 19 && strspn(s, "0123456789") == n &&
	    v != strtoull(s, NULL, 10))
		abort();
}

static void check_uint(const char *s, uint64_t min, uint64_t max)
{
	uint64_t v;

	if (parse_uint(s, min, max, &v) == 0 && (v < min || v > max))
		abort();
}

static int close_enough(double x, double y)
{
	return fabs(x - y) <= 1e-9 * (fabs(x) > 1 ? fabs(x) : 1);
}

/* A spec that parses must survive a round trip through sim_params_format(). */
static void check_spec(const char *s)
{
	static struct sim_spec a, b;
	static char text[8192];
	char err[512];

	if (sim_spec_parse(s, &a, err, sizeof(err)) != 0) {
		if (!memchr(err, '\0', sizeof(err)))
			abort();
		return;
	}
	sim_params_format(&a.p, text, sizeof(text));
	if (sim_spec_parse(text, &b, err, sizeof(err)) != 0)
		abort();
	b.p.nfail = a.p.nfail;
	memcpy(b.p.fail, a.p.fail, sizeof(b.p.fail));
	/* Percentages are printed as fractions: 2.2% / 100 and 0.022 may differ in the last bit. */
	if (!close_enough(a.p.jitter, b.p.jitter) || !close_enough(a.p.outliers, b.p.outliers))
		abort();
	b.p.jitter = a.p.jitter;
	b.p.outliers = a.p.outliers;
	if (memcmp(&a.p, &b.p, sizeof(a.p)) != 0)
		abort();
}

/* Every record of a line: a known kind, finite times, rates and counts in range. */
static void check_record(void *ctx, const struct so_line *l)
{
	(void)ctx;
	if (l->kind > SO_RA_ROW)
		abort();
	/* a readahead row: 1..SR_MAX_RUNS rates, each measured (>= 0, finite) or NaN ("-") */
	if (l->kind == SO_RA_ROW) {
		if (l->nrates == 0 || l->nrates > SR_MAX_RUNS || l->size == 0)
			abort();
		for (size_t i = 0; i < l->nrates; i++)
			if (!isnan(l->rates[i]) && (!(l->rates[i] >= 0) || !isfinite(l->rates[i])))
				abort();
	}
	if (l->kind == SO_RA_HEADER && (l->runs == 0 || l->runs > 2 * SR_MAX_RUNS + 64))
		abort();
	if (l->kind == SO_ALIGN && (!isfinite(l->pre) || !isfinite(l->on) || !isfinite(l->post) ||
				    !isfinite(l->diff) || l->boundary == 0))
		abort();
	if (l->kind == SO_RATE) {
		if (l->nrates == 0 || l->nrates > SO_MAX_RATES || l->size == 0 || l->rate != l->rates[0])
			abort();
		for (size_t i = 0; i < l->nrates; i++)
			if (!(l->rates[i] >= 0) || !isfinite(l->rates[i]))
				abort();
	}
	if (!memchr(l->note, '\0', sizeof(l->note)))
		abort();
}

/* Every line a reader of saved JSON makes of it: terminated, nothing after the end. */
static void check_emitter(const struct ai_json_source *src, const char *s, size_t n)
{
	static char buf[64 * 1024], stop[160];
	FILE *f = fmemopen((void *)s, n, "r");
	struct ai_json *j;
	int r;

	if (!f)
		return;
	if ((j = src->open(f))) {
		while ((r = src->next(j, buf, sizeof(buf), stop, sizeof(stop))) == 1)
			if (!memchr(buf, '\0', sizeof(buf)))
				abort();
		if (r < 0 && !memchr(stop, '\0', sizeof(stop)))
			abort();
		if (src->next(j, buf, sizeof(buf), stop, sizeof(stop)) == 1)
			abort();
		src->close(j);
	}
	fclose(f);
}

/* Every event of a document, each holding what it promises; nothing after the end. */
static void check_json(const char *s, size_t n)
{
	FILE *f = fmemopen((void *)s, n, "r");
	static struct sj_walk walk;
	struct sj_walk *w = &walk;
	enum sj_event e;

	if (!f)
		return;
	sj_init(w, f, n & 1);
	while ((e = sj_next(w)) != SJ_END && e != SJ_ERROR) {
		if (w->rec.nv > SJ_MAX_FIELDS || w->rec.nlist > SJ_MAX_LIST)
			abort();
		for (size_t i = 0; e == SJ_RECORD && i < w->rec.nv; i++)
			if (w->rec.v[i].tok == JT_ARRAY &&
			    w->rec.v[i].list_at + w->rec.v[i].list_n > w->rec.nlist)
				abort();
		if (e == SJ_COMMAND && w->nwords > 0 && w->words[w->wlen - 1] != '\0')
			abort();
	}
	if (e == SJ_ERROR && !memchr(w->why, '\0', sizeof(w->why)))
		abort();
	if (sj_next(w) != SJ_END)
		abort();
	sj_release(w);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;
	uint64_t v;
	double d;

	if (size == 0 || size > 4096)
		return 0;
	s = malloc(size);
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	if (data[0] == 0xff) {
		check_json((const char *)data + 1, size - 1);
		check_emitter(&analyze_json_source, (const char *)data + 1, size - 1);
		check_emitter(&compare_json_source, (const char *)data + 1, size - 1);
		free(s);
		return 0;
	}
	switch (data[0] % 6) {
	case 0: check_size(s); break;
	case 1: check_uint(s, data[0] & 0x10 ? 1 : 0, data[0] & 0x20 ? 4096 : UINT64_MAX); break;
	case 2: parse_duration(s, &v); break;
	case 3: parse_double(s, &d); break;
	case 4: check_spec(s); break;
	case 5: if (so_scan(s, check_record, NULL) == 0) abort(); break;
	}
	free(s);
	return 0;
}
