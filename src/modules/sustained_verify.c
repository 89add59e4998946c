/*
 * --sustained --verify: read back what the run wrote, block by block,
 * and say what each holds (modules/stamp.h): the first bad offset, the bad
 * blocks by kind, and how far the device really holds what it is given.
 */
#include <stdlib.h>

#include "core/engine.h"
#include "core/opts.h"
#include "core/progress.h"
#include "core/units.h"
#include "modules/stamp.h"
#include "modules/sustained_perm.h"
#include "modules/sustained_verify.h"

/*
 * "read back 4096 blocks: 2048 bad (2048 wrapped, 0 misplaced, 0 dropped,
 * 0 corrupt), first bad at 0B, usable up to 32MiB"; blocks written at
 * random over part of the region (--duration) say what they cover
 * instead: a few blocks are no usable size.
 */
static void verify_text(char *line, size_t len, const union out_val *v)
{
	char fb[FB_FMT_LEN], u[FB_FMT_LEN], w[FB_FMT_LEN], tail[3 * FB_FMT_LEN + 64];

	if (v[8].u)
		snprintf(tail, sizeof(tail), "%s written at random over %s: no usable size known",
			 fmt_size(w, sizeof(w), v[8].u), fmt_size(u, sizeof(u), v[9].u));
	else
		snprintf(tail, sizeof(tail), "usable up to %s", fmt_size(u, sizeof(u), v[7].u));
	snprintf(line, len, "read back %llu blocks: %llu bad (%llu wrapped, %llu misplaced, "
		 "%llu dropped, %llu corrupt), first bad at %s, %s",
		 (unsigned long long)v[0].u, (unsigned long long)v[1].u,
		 (unsigned long long)v[2].u, (unsigned long long)v[3].u,
		 (unsigned long long)v[4].u, (unsigned long long)v[5].u,
		 v[1].u ? fmt_size(fb, sizeof(fb), v[6].u) : "-", tail);
}

static const struct out_field verify_fields[] = {
	{ "blocks", OT_COUNT }, { "bad", OT_COUNT }, { "wrapped", OT_COUNT },
	{ "misplaced", OT_COUNT }, { "dropped", OT_COUNT }, { "corrupt", OT_COUNT },
	{ "first_bad_bytes", OT_BYTES }, { "usable_bytes", OT_BYTES },
	{ "scattered_bytes", OT_BYTES }, { "region_bytes", OT_BYTES },
};

const struct out_table sus_verify_table = {
	"sustained-verify", verify_fields, 10, verify_text, NULL,
};

/* The kind of damage that comes first on the device: what the verdict names. */
static const char *worst(const struct stamp_tally *s)
{
	if (!s->bad)
		return "good";
	if (s->n[ST_WRAPPED] && (s->first_lost == UINT64_MAX || s->period))
		return "wrapped";
	if (s->n[ST_DROPPED] >= s->n[ST_MISPLACED] && s->n[ST_DROPPED] >= s->n[ST_CORRUPT])
		return "dropped";
	return s->n[ST_MISPLACED] >= s->n[ST_CORRUPT] ? "misplaced" : "corrupt";
}

/* Blocks written at random over part of the region: what they tell, and no more. */
static void report_scattered(const struct stamp_tally *s, struct out_verdict *v,
			     uint64_t written, uint64_t region)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN];

	fmt_size(b, sizeof(b), written);
	fmt_size(c, sizeof(c), region);
	v->has_value = false;
	if (!s->bad)
		out_verdict(v, "good: the %llu block%s written hold%s what was written (%s at "
			    "random over %s: the rest was not written, so no usable size is known)",
			    (unsigned long long)s->blocks, s->blocks == 1 ? "" : "s",
			    s->blocks == 1 ? "s" : "", b, c);
	else
		out_verdict(v, "%s: %llu of the %llu blocks written do not hold, the first at %s "
			    "(%s at random over %s: no usable size is known)", v->result,
			    (unsigned long long)s->bad, (unsigned long long)s->blocks,
			    fmt_size(a, sizeof(a), s->first_bad), b, c);
}

static void report(const struct stamp_tally *s, uint64_t start, uint64_t end,
		   uint64_t scattered)
{
	uint64_t usable = stamp_usable_end(s, start, end);
	struct out_verdict v = { .label = "verify", .name = "verify", .result = worst(s),
				 .has_value = true, .value = usable, .unit = "bytes" };
	char a[FB_FMT_LEN], b[FB_FMT_LEN];
	bool wrapped = s->n[ST_WRAPPED] && usable == start + s->period;

	out_row(&sus_verify_table, (union out_val[]){
		{ .u = s->blocks }, { .u = s->bad }, { .u = s->n[ST_WRAPPED] },
		{ .u = s->n[ST_MISPLACED] }, { .u = s->n[ST_DROPPED] }, { .u = s->n[ST_CORRUPT] },
		{ .u = s->bad ? s->first_bad : 0 }, { .u = scattered ? 0 : usable },
		{ .u = scattered }, { .u = scattered ? end - start : 0 } });
	if (scattered && !wrapped)
		report_scattered(s, &v, scattered, end - start);
	else if (!s->bad)
		out_verdict(&v, "good: every block holds what was written");
	else if (wrapped)
		out_verdict(&v, "wrapped: the device keeps only %s: writes past it land on "
			    "earlier blocks (fake capacity)", fmt_size(a, sizeof(a), s->period));
	else
		out_verdict(&v, "%s: blocks lost from %s on; what was written holds up to %s",
			    v.result, fmt_size(a, sizeof(a), s->first_bad),
			    fmt_size(b, sizeof(b), usable));
}

int sus_verify(struct target *t, uint64_t start, uint64_t len_all, uint64_t bs, uint64_t run,
	       uint64_t written, bool random)
{
	struct stamp_tally s;
	struct sus_perm perm;
	uint64_t ns, done = 0, end = start + (random ? len_all / bs * bs : written);
	void *buf = eng_buffer(t, (size_t)bs);
	int r = buf ? FB_OK : FB_EDEV;

	stamp_tally_init(&s, run);
	sus_perm_init(&perm, len_all / bs);
	progress_begin("sustained read-back, MiB", written >> 20);
	while (r == FB_OK && done < written) {
		uint64_t off = start + (random ? sus_perm_next(&perm) * bs : done);
		size_t len = (size_t)(written - done < bs ? written - done : bs);

		if ((r = eng_read(t, buf, len, off, &ns)) == FB_OK)
			stamp_check(&s, buf, len, off);
		done += len;
		progress_update(done >> 20, NULL);
	}
	progress_end();
	/* at random, a --duration that ended first leaves blocks scattered over the region */
	if (r == FB_OK || r == FB_EINTR)
		report(&s, start, end, random && written < end - start ? written : 0);
	eng_buffer_free(buf);
	return r;
}
