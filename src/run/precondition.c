/* --precondition: see precondition.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "core/out.h"
#include "core/progress.h"
#include "core/units.h"
#include "run/precondition.h"

/* A fill writes in pieces of this much (a sector multiple, as every region is). */
#define FILL_PIECE (1ull << 20)

/* Does the block at off read back as zeros? 1 yes, 0 no, or -1 with *st set. */
static int reads_zero(struct target *t, void *buf, size_t len, uint64_t off, int *st)
{
	const unsigned char *p = buf;
	uint64_t ns;

	if ((*st = eng_read(t, buf, len, off, &ns)) != FB_OK)
		return -1;
	for (size_t i = 0; i < len; i++)
		if (p[i])
			return 0;
	return 1;
}

/* The first and the last block of each region, read back. */
static int check_zeros(struct target *t, const struct region *r, size_t n, unsigned *zero,
		       unsigned *read)
{
	size_t len = t->sector > 4096 ? t->sector : 4096;
	void *buf = eng_buffer(t, len);
	int st = FB_OK, z;

	*zero = *read = 0;
	if (!buf)
		return FB_EDEV;
	for (size_t i = 0; i < n && st == FB_OK; i++) {
		size_t l = r[i].len < len ? (size_t)r[i].len : len;
		uint64_t at[2] = { r[i].off, r[i].off + r[i].len - l };

		for (int k = 0; k < (r[i].len > l ? 2 : 1); k++) {
			if ((z = reads_zero(t, buf, l, at[k], &st)) < 0)
				break;
			*zero += (unsigned)z;
			(*read)++;
		}
	}
	eng_buffer_free(buf);
	return st;
}

static int discard(struct target *t, const struct region *r, size_t n)
{
	char a[FB_FMT_LEN];
	unsigned zero, read;
	int st = FB_OK;

	for (size_t i = 0; i < n && st == FB_OK; i++)
		st = eng_discard(t, r[i].off, r[i].len);
	if (st != FB_OK) {
		/* No fallback: a test run from a state not asked for would mislead. */
		fprintf(stderr, "flashbench: %s: --precondition=discard is not possible here; "
			"--precondition=fill writes the regions once instead\n", t->path);
		out_note("precondition: the discard failed (the message above): no test is run "
			 "from a state that was not asked for");
		return st;
	}
	if ((st = check_zeros(t, r, n, &zero, &read)) != FB_OK)
		return st;
	out_note("precondition: discarded %s in %zu region%s (%s); %s",
		 fmt_size(a, sizeof(a), regions_bytes(r, n)), n, n == 1 ? "" : "s",
		 t->ops->discard_how, zero == read ? "they read back as zeros" :
		 zero == 0 ? "they do not read back as zeros (a device need not zero what it "
			     "discards)" : "some of them read back as zeros");
	return FB_OK;
}

static int fill(struct target *t, const struct region *r, size_t n)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN];
	uint64_t total = regions_bytes(r, n), done = 0, spent = 0, ns;
	void *buf = eng_buffer(t, FILL_PIECE);
	int st = FB_OK;

	if (!buf)
		return FB_EDEV;
	progress_begin("precondition: fill", total);
	for (size_t i = 0; i < n && st == FB_OK; i++) {
		for (uint64_t at = 0; at < r[i].len && st == FB_OK; at += FILL_PIECE) {
			uint64_t piece = r[i].len - at < FILL_PIECE ? r[i].len - at : FILL_PIECE;

			if ((st = eng_write_long(t, buf, piece, r[i].off + at, &ns)) != FB_OK)
				break;
			spent += ns;
			done += piece;
			progress_update(done, NULL);
		}
	}
	progress_end();
	eng_buffer_free(buf);
	if (st == FB_OK)
		out_note("precondition: filled %s in %zu region%s, sequentially, in %s of device "
			 "time", fmt_size(a, sizeof(a), total), n, n == 1 ? "" : "s",
			 fmt_time(b, sizeof(b), (double)spent));
	return st;
}

int precondition_run(const struct fb_opts *o, struct target *t, const struct region *r,
		     size_t n)
{
	int st;

	if (o->precondition == PRECOND_NONE || n == 0)
		return FB_OK;
	out_test_begin("precondition");
	st = o->precondition == PRECOND_DISCARD ? discard(t, r, n) : fill(t, r, n);
	if (st == FB_OK)
		out_test_end("done", NULL);
	return st;
}
