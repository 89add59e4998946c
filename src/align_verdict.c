/*
 * The tail of a live -a run: the 3 x 2^n rows (a separate block after
 * the unchanged power-of-two rows), then the verdict. The verdict reads
 * the numbers as they were printed, rounded to three digits, so that
 * --analyze of the saved output comes to exactly the same lines.
 */
#include <string.h>

#include "align.h"
#include "engine.h"
#include "report.h"
#include "saved_output.h"
#include "verdict_align.h"

static struct va_verdict last;
static bool have_last;

const struct va_verdict *va_last(void)
{
	return have_last ? &last : NULL;
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

int va_live(struct target *t, void *buf, uint64_t bs, unsigned count,
	    const struct va_row *rows, size_t n, struct va_verdict *v)
{
	struct va_row all[VA_MAX_ROWS];
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
		report_align(row.boundary, row.pre, row.on, row.post, row.diff);
		all[m++] = printed(&row);
	}
	va_judge(all, m, &last);
	have_last = true;
	va_print(&last);
	if (v)
		*v = last;
	return FB_OK;
}

/* For test_align: the row it just printed, as printed. */
struct va_row va_printed_row(const struct align_row *r)
{
	return printed(r);
}
