/*
 * -a/--align: find the boundaries the device cares about. For each
 * power-of-two boundary B, time a block-sized read ending at B (pre),
 * straddling it (on) and starting at it (post), each the fastest of
 * --count tries. A read that crosses a page or erase-block boundary
 * costs more, so diff = on - (pre+post)/2 jumps at the page size and
 * again at the erase-block size.
 */
#include <stdlib.h>

#include "modules/align.h"
#include "core/engine.h"
#include "core/out.h"
#include "saved/saved_values.h"
#include "core/units.h"
#include "modules/info.h"
#include "core/progress.h"
#include "modules/test.h"
#include "verdicts/verdict_align.h"
#include "verdicts/verdict_stated.h"

/* How many boundaries of each size are measured and averaged. */
#define ALIGN_POSITIONS 8

/*
 * The largest boundary measured: the largest power of two that lies at
 * least twice in the device (as the original did: 1 GiB on a 4 GB card).
 */
uint64_t align_pow2_ceil(uint64_t x)
{
	uint64_t p = 1;

	while (p < x && p <= UINT64_MAX / 2)
		p *= 2;
	return p;
}

uint64_t align_max_boundary(uint64_t size, uint64_t bs)
{
	/* Powers of two even when the block size is not one (-b 3072). */
	uint64_t b = align_pow2_ceil(bs * 2);

	while (b * 4 <= size && b * 4 > b)
		b *= 2;
	return b;
}

/* Offset of the j-th of npos boundaries measured for B: odd multiples of B,
 * spread over the device, so no position is also a larger boundary. */
static uint64_t align_position(uint64_t size, uint64_t b, uint64_t bs, unsigned j, unsigned npos)
{
	uint64_t odd = (size - bs) / b;	/* multiples of b that fit */
	uint64_t k = (odd + 1) / 2;	/* odd multiples available */

	return (2 * ((k * j) / npos) + 1) * b;
}

static unsigned align_npos(uint64_t size, uint64_t b, uint64_t bs)
{
	uint64_t k = ((size - bs) / b + 1) / 2;

	return k < ALIGN_POSITIONS ? (unsigned)k : ALIGN_POSITIONS;
}

/*
 * The fastest of count tries of pre, on and post at position p, the tries
 * taken in turns (pre, on, post, pre, ...): a slow episode of the device
 * or the host then slows all three alike and shows in the plain reads,
 * instead of raising one read alone, which would look like a boundary.
 */
static int measure_at(struct target *t, void *buf, uint64_t p, uint64_t bs, unsigned count,
		      uint64_t best[3])
{
	const uint64_t off[3] = { p - bs, p - bs / 2, p };
	uint64_t ns;
	int r;

	best[0] = best[1] = best[2] = UINT64_MAX;
	for (unsigned i = 0; i < (count ? count : 1); i++) {
		for (int k = 0; k < 3; k++) {
			if ((r = eng_read(t, buf, bs, off[k], &ns)) != FB_OK)
				return r;
			if (ns < best[k])
				best[k] = ns;
		}
	}
	return FB_OK;
}

int align_measure(struct target *t, void *buf, uint64_t b, uint64_t bs,
		  unsigned count, struct align_row *row)
{
	unsigned npos = align_npos(t->size, b, bs);
	double pre = 0, on = 0, post = 0;
	uint64_t ns[3];
	int r;

	if (npos == 0)
		return FB_EUSAGE;
	for (unsigned j = 0; j < npos; j++) {
		if ((r = measure_at(t, buf, align_position(t->size, b, bs, j, npos), bs, count,
				    ns)) != FB_OK)
			return r;
		pre += (double)ns[0];
		on += (double)ns[1];
		post += (double)ns[2];
	}
	row->boundary = b;
	row->pre = pre / npos;
	row->on = on / npos;
	row->post = post / npos;
	row->diff = row->on - (row->pre + row->post) / 2;
	return FB_OK;
}

/* align <bytes>\tpre <t>\ton <t>\tpost <t>\tdiff <t> */
static void align_text(char *line, size_t len, const union out_val *v)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN], d[FB_FMT_LEN];

	snprintf(line, len, "align %llu\tpre %s\ton %s\tpost %s\tdiff %s",
		 (unsigned long long)v[0].u, fmt_time(a, sizeof(a), v[1].d),
		 fmt_time(b, sizeof(b), v[2].d), fmt_time(c, sizeof(c), v[3].d),
		 fmt_time(d, sizeof(d), v[4].d));
}

static const struct out_field align_fields[] = {
	{ "boundary_bytes", OT_BYTES }, { "pre_ns", OT_NS }, { "on_ns", OT_NS },
	{ "post_ns", OT_NS }, { "diff_ns", OT_NS },
};

static const struct out_table align_table = { "align", align_fields, 5, align_text, NULL };

static void align_emit(const struct align_row *r)
{
	out_row(&align_table, (union out_val[]){ { .u = r->boundary }, { .d = r->pre },
						 { .d = r->on }, { .d = r->post }, { .d = r->diff } });
}

/* A row as the output shows it. */
static struct va_row printed(const struct align_row *r)
{
	struct va_row v = {
		.b = r->boundary,
		.diff = so_round_time(r->diff),
		.pre = so_round_time(r->pre),
		.post = so_round_time(r->post),
	};

	return v;
}

/* The largest 3 x 2^n boundary that lies at least twice in the device. */
static uint64_t max_3x(uint64_t size, uint64_t bs)
{
	/* The smallest 3 x 2^k at or above twice the block size. */
	uint64_t b = 3 * align_pow2_ceil((2 * bs + 2) / 3);

	if (b * 2 > size)
		return 0;
	while (b * 4 <= size && b * 4 > b)
		b *= 2;
	return b;
}

/* Where the device states an erase block: does the measurement agree? */
static void stated_line(const struct target *t, const struct va_verdict *v)
{
	struct di_fact from;
	uint64_t stated;

	if (info_stated_erase(t, &stated, &from))
		vst_print(v, stated, from.name);
}

/*
 * The tail of the run: the 3 x 2^n rows (a separate block after the
 * unchanged power-of-two rows), then the verdict. It reads the numbers
 * as they were printed, rounded to three digits, so that --analyze of
 * the saved output comes to exactly the same lines.
 */
static int align_tail(struct target *t, void *buf, uint64_t bs, unsigned count,
		      const struct va_row *rows, size_t n)
{
	struct va_row all[VA_MAX_ROWS];
	struct va_verdict v;
	struct align_row row;
	size_t m = 0;
	int r = FB_OK;

	for (size_t i = 0; i < n && m < VA_MAX_ROWS; i++)
		all[m++] = rows[i];
	for (uint64_t b = max_3x(t->size, bs); b >= 2 * bs && m < VA_MAX_ROWS; b /= 2) {
		/*
		 * Below this, the pre and post reads themselves cross a boundary
		 * of the block's size (a page) at some of the positions, and
		 * their diff says nothing (-b 6144: align 12288 ... diff -188µs).
		 */
		if (b / 3 < align_pow2_ceil(bs))
			break;
		r = align_measure(t, buf, b, bs, count, &row);
		if (r == FB_EUSAGE) {
			r = FB_OK;	/* no room for this boundary */
			continue;
		}
		if (r != FB_OK)
			return r;
		align_emit(&row);
		all[m++] = printed(&row);
		progress_update(m, NULL);
	}
	/* (va_print() records it for --find-open-au, --survey and --advise: facts.h.) */
	va_judge(all, m, &v);
	va_print(&v);
	stated_line(t, &v);
	return FB_OK;
}

/* The rows align_run() and align_tail() will measure: the progress line's total. */
static uint64_t align_rows(uint64_t size, uint64_t bs)
{
	uint64_t n = 0;

	for (uint64_t b = align_max_boundary(size, bs); b >= bs * 2; b /= 2)
		n++;
	for (uint64_t b = max_3x(size, bs); b >= 2 * bs && b / 3 >= align_pow2_ceil(bs); b /= 2)
		n += align_npos(size, b, bs) > 0;
	return n;
}

int align_run(const struct fb_opts *o, struct target *t)
{
	uint64_t bs = o->blocksize;
	struct va_row rows[VA_MAX_ROWS];
	struct align_row row;
	size_t n = 0;
	void *buf;
	int r = FB_OK;

	if (bs * 4 > t->size)
		return eng_check_end(t, "align", bs * 4);
	buf = eng_buffer(t, bs);
	if (!buf)
		return FB_EDEV;
	progress_begin("align boundaries", align_rows(t->size, bs));
	for (uint64_t b = align_max_boundary(t->size, bs); b >= bs * 2; b /= 2) {
		r = align_measure(t, buf, b, bs, o->count, &row);
		if (r != FB_OK)
			break;
		align_emit(&row);
		if (n < VA_MAX_ROWS)
			rows[n++] = printed(&row);
		progress_update(n, NULL);
	}
	/* The 3 x 2^n rows and the verdict (issue 4), after the unchanged lines. */
	if (r == FB_OK)
		r = align_tail(t, buf, bs, o->count, rows, n);
	eng_buffer_free(buf);
	return r;
}

/* The read "on" a boundary starts half a block before it. */
static int align_check_target(const struct fb_opts *o, const struct target *t, char *err,
			      size_t len)
{
	uint64_t s = t->sector;

	if ((o->blocksize / 2) % s == 0)
		return FB_OK;
	snprintf(err, len, "--blocksize %llu: --align reads half a block on each side of a "
		 "boundary, so the block size must be a multiple of twice the %llu-byte sector "
		 "(%llu)", (unsigned long long)o->blocksize, (unsigned long long)s,
		 (unsigned long long)(2 * s));
	return FB_EUSAGE;
}

static const char *const align_uses[] = { "blocksize", "count", NULL };

const struct fb_test test_align = {
	.name = "align",
	.letter = 'a',
	.help = "read timing around power-of-two (and 3 x 2^n)\n"
		"boundaries, then a verdict: erase block and page size",
	.uses = align_uses,
	.check_target = align_check_target,
	.run = align_run,
	.tables = (const struct out_table *const[]){ &align_table, NULL },
};
