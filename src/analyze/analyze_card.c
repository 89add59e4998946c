/* --analyze of a saved survey: its card, see analyze_card.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze_card.h"
#include "core/opts.h"
#include "modules/survey_twin.h"
#include "saved/saved_output.h"
#include "saved/saved_values.h"
#include "verdicts/facts.h"
#include "verdicts/fit_card.h"

void ac_reset(struct ac_state *s)
{
	memset(s, 0, sizeof(*s));
	fit_input_reset(&s->in);
}

/* Split a copy of line at tabs: at most max fields. */
static size_t fields(char *copy, char **f, size_t max)
{
	size_t n = 0;

	for (char *p = copy; p && n < max; n++) {
		f[n] = p;
		p = strchr(p, '\t');
		if (p)
			*p++ = '\0';
	}
	return n;
}

/* "read 4KiB\t652µs\tfastest 640µs, upper quartile 671µs" */
static void read_line(struct ac_state *s, char **f, size_t n)
{
	char *hi = n == 3 ? strstr(f[2], ", upper quartile ") : NULL;
	uint64_t len;
	double ns, lo, high;

	if (!hi || strncmp(f[2], "fastest ", 8) != 0)
		return;
	*hi = '\0';
	if (so_parse_size(f[0] + 5, &len) == 0 && so_parse_time(f[1], &ns) == 0 &&
	    so_parse_time(f[2] + 8, &lo) == 0 && so_parse_time(hi + 17, &high) == 0)
		fit_input_read(&s->in, len, lo, ns, high);
}

/* A probe's line "1MiB\t9.96M/s\tslowest 9.96M/s", or a row of find-fat's table. */
static void rate_line(struct ac_state *s, char **f, size_t n)
{
	uint64_t size;
	double rate, slowest;

	if (n < 2 || so_parse_size(f[0], &size) != 0 || so_parse_rate(f[1], &rate) != 0)
		return;
	if (s->fat) {
		double r[16];
		size_t k = 0;

		while (k + 1 < n && k < 16 && so_parse_rate(f[k + 1], &r[k]) == 0)
			k++;
		if (k + 1 == n)
			fit_input_fat(&s->in, r, k);
	} else if (n == 3 && s->nr && strncmp(f[2], "slowest ", 8) == 0 &&
		 so_parse_rate(f[2] + 8, &slowest) == 0)
		fit_input_probe(&s->in, s->nr, s->random, size, rate, slowest);
}

/* The size at p, up to the next comma ("4MiB, block size ..."); false: none. */
static bool size_at(const char *p, uint64_t *size)
{
	char copy[64];
	size_t n = strcspn(p, ",");

	if (n >= sizeof(copy))
		return false;
	memcpy(copy, p, n);
	copy[n] = '\0';
	return so_parse_size(copy, size) == 0;
}

void ac_line(struct ac_state *s, const char *line)
{
	char copy[512], *f[16];
	uint64_t size;
	size_t n;
	struct so_line l;

	if (strncmp(line, "align ", 6) == 0) {
		so_classify(line, &l);
		if (l.kind == SO_ALIGN) {
			fit_input_align(&s->in, l.boundary, l.pre, l.post, l.diff);
			if (!(l.boundary & (l.boundary - 1)) &&
			    (!s->align_min || l.boundary < s->align_min))
				s->align_min = l.boundary;
		}
		return;
	}
	if (strncmp(line, "find-open-au: erase block ", 26) == 0) {
		const char *b = strstr(line, ", block size ");

		s->random = strstr(line, ", random") != NULL;
		if (size_at(line + 26, &size))
			s->in.erase = size;
		/* (the searches' block size) */
		if (b && size_at(b + 13, &size) && size >= 512)
			s->probe_bs = size;
		s->fat = false;
		s->nr = 0;
	} else if (sscanf(line, "probe: --open-au-nr=%u", &s->nr) == 1) {
		return;
	} else if (strncmp(line, "survey: the open-AU search in random order", 42) == 0) {
		s->survey = true;
	} else if (strncmp(line, "survey: find-fat", 16) == 0) {
		s->fat = true;
	} else if (strncmp(line, "card: sim:size=", 15) == 0) {
		/* (the size a text output says nowhere else: the card it printed) */
		if (size_at(line + 15, &size))
			s->in.size = size;
		return;
	}
	if (strlen(line) >= sizeof(copy))
		return;
	strcpy(copy, line);
	n = fields(copy, f, 16);
	if (strncmp(line, "read ", 5) == 0)
		read_line(s, f, n);
	else
		rate_line(s, f, n);
}

/*
 * The card as the survey fitted it: the pure fit, then refined on its
 * twins (survey_twin.h), which run the survey's tests again as the survey
 * ran them (its erase size, the searches' start it said or the default),
 * and how close the twin came, as the survey says it.
 */
void ac_end(const struct ac_state *s)
{
	const struct vf_facts *f = vf_get();
	struct twin_result *twin = calloc(1, sizeof(*twin));
	uint64_t e = s->in.erase, page = f->align && f->va.page_state == VA_FOUND ? f->va.page : 0;
	struct twin_judgement j;
	struct fb_opts o;
	struct fit_card c;
	bool ran = false;

	if (s->survey) {
		fit_card(&s->in, f, &c);
		if (twin && e) {
			opts_defaults(&o);
			o.erasesize = e;
			o.erasesize_set = true;
			o.offset = s->in.offset ? s->in.offset : ((16ull << 20) + e - 1) / e * e;
			/* (the survey's -b, where it had one: its -a's smallest rows read
			 * two blocks, and its searches said theirs) */
			if (s->probe_bs) {
				o.blocksize = s->probe_bs;
				o.blocksize_set = s->align_min == 2 * s->probe_bs;
			}
			ran = twin_refine(&o, page, &s->in, f, &c, twin) == 0;
		}
		fit_card_print(&c);
		if (ran) {
			twin_judge(&s->in, f, twin, &j);
			twin_print(&j, f, twin);
		}
	}
	free(twin);
}
