/*
 * --advise: the numbers it rests on, and the partition layout (see
 * advice.h); the file systems' options are in advice_fs.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/arith.h"
#include "core/units.h"
#include "advice/advice.h"
#include "verdicts/verdict_align.h"

void adv_from_facts(const struct vf_facts *f, uint64_t size, uint32_t sector,
		    struct adv_in *in)
{
	memset(in, 0, sizeof(*in));
	in->align = f->align;
	in->erase_state = f->va.erase_state;
	in->page_state = f->va.page_state;
	in->erase = f->va.erase;
	in->page = f->va.page;
	in->cand[0] = f->va.cand[0];
	in->cand[1] = f->va.cand[1];
	for (int m = 0; m < 2; m++) {
		in->oa_runs[m] = f->oa_runs[m];
		in->oa_fast[m] = f->oa[m].fast;
		in->oa_slow[m] = f->oa[m].slow;
		in->oa_contradicts[m] = f->oa[m].contradicts;
		in->oa_merge[m] = f->oa_merge[m];
		in->oa_merge_ns[m] = f->oa_merge_ns[m];
		in->oa_merge_x[m] = f->oa_merge_x[m];
	}
	in->fat = f->fat;
	in->fat_state = f->ff.state;
	in->fat_area = f->ff.area;
	in->fat_random = f->ff.random;
	in->size = size;
	in->sector = sector;
	/* --capacity found fewer bytes that hold: the layout is for those */
	if (f->capacity_real && f->capacity_real < size) {
		in->size = f->capacity_real;
		in->claimed = size;
	}
}

static void set_value(struct adv_item *it, uint64_t v, const char *unit)
{
	if (!it)
		return;
	it->has_value = true;
	it->value = v;
	it->unit = unit;
}

/* The least common multiple, or 0 when it passes limit. */
static uint64_t lcm_upto(uint64_t a, uint64_t b, uint64_t limit)
{
	unsigned __int128 l;

	if (!a || !b)
		return 0;
	l = (unsigned __int128)(a / gcd_u64(a, b)) * b;
	return l > limit ? 0 : (uint64_t)l;
}

const char *adv_erase(const struct adv_in *in, uint64_t *erase, char *why, size_t len)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN];
	uint64_t l;

	*erase = 0;
	if (in->erase_given) {
		*erase = in->erase_given;
		snprintf(why, len, "as --erasesize says%s%s", in->align &&
			 in->erase_state == VA_FOUND && in->erase != in->erase_given ?
			 "; the align verdict named " : "", in->align && in->erase_state == VA_FOUND &&
			 in->erase != in->erase_given ? fmt_size(a, sizeof(a), in->erase) : "");
		return "given";
	}
	if (!in->align) {
		snprintf(why, len, "no align verdict in this run (-a, or --survey)");
		return "none";
	}
	if (in->erase_state == VA_FOUND) {
		*erase = in->erase;
		snprintf(why, len, "named by the align verdict");
		return "named";
	}
	if (in->erase_state == VA_UNCERTAIN && in->cand[0] && in->cand[1] &&
	    (l = lcm_upto(in->cand[0], in->cand[1], ADV_MAX_ASSUMED))) {
		*erase = l;
		snprintf(why, len, "assumed: the align verdict is uncertain between %s and %s, "
			 "and %s is a multiple of both", fmt_size(a, sizeof(a), in->cand[0]),
			 fmt_size(b, sizeof(b), in->cand[1]), fmt_size(c, sizeof(c), l));
		return "assumed";
	}
	snprintf(why, len, "the align verdict named none%s", in->erase_state == VA_UNCERTAIN ?
		 " (uncertain, and its readings have no common multiple up to 64MiB)" : "");
	return "none";
}

static void basis_erase(const struct adv_in *in, struct adv *a)
{
	char why[320], s[FB_FMT_LEN];
	uint64_t e;
	const char *res = adv_erase(in, &e, why, sizeof(why));

	a->erase = e;
	if (e)
		set_value(adv_add(a, "basis_erase_block", res, "erase block %s: %s",
				  fmt_size(s, sizeof(s), e), why), e, "bytes");
	else
		adv_add(a, "basis_erase_block", res, "erase block: not known (%s): no layout and no "
			"file-system option that depends on it", why);
}

static void basis_page(const struct adv_in *in, struct adv *a)
{
	char s[FB_FMT_LEN];

	if (in->align && in->page_state == VA_FOUND) {
		a->page = in->page;
		set_value(adv_add(a, "basis_page", "named", "page %s: named by the align verdict",
				  fmt_size(s, sizeof(s), in->page)), in->page, "bytes");
		return;
	}
	adv_add(a, "basis_page", "none", "page: not named (%s): what depends on it says what it "
		"assumes", in->align ? "the align verdict named none; -b 1K lets it measure the "
		"floor below the page" : "no align verdict in this run");
}

/* The open-AU count of one mode: *n and how it was come by (NULL: nothing measured). */
static const char *open_aus(const struct adv_in *in, int m, unsigned *n, char *why, size_t len)
{
	unsigned fast = in->oa_fast[m], slow = in->oa_slow[m];

	*n = 0;
	if (!in->oa_runs[m]) {
		snprintf(why, len, "not measured (--find-open-au%s, or --survey)", m ? " --random" : "");
		return NULL;
	}
	if (in->oa_contradicts[m]) {
		*n = slow - 1;
		snprintf(why, len, "%u assumed: the runs disagree (%u fast, but %u slow), and %u "
			 "is below every slow one", *n, fast, slow, *n);
		return "assumed";
	}
	*n = fast;
	if (fast && slow)
		snprintf(why, len, "%u fast, %u slow", fast, slow);
	else if (fast)
		snprintf(why, len, "at least %u: %u fast, none slow", fast, fast);
	else
		snprintf(why, len, "none found fast%s", slow == 1 ? " (even 1 is slow)" : "");
	return fast && slow ? "bracket" : fast ? "at_least" : "none";
}

/* "; a merge regime from 5: every switch of erase block costs 4ms" */
static void merge_text(const struct adv_in *in, int m, char *buf, size_t len)
{
	char t[FB_FMT_LEN];
	size_t u = strlen(buf);

	if (in->oa_merge[m] && u < len)
		snprintf(buf + u, len - u, "; a merge regime from %u: every switch of erase block "
			 "costs %s", in->oa_merge[m], fmt_time(t, sizeof(t), in->oa_merge_ns[m]));
}

/*
 * How many streams to write at once: what the card writes at full speed
 * (below its merge regime), what it keeps open (below its collections).
 */
static void streams(const struct adv_in *in, struct adv *a)
{
	char t[FB_FMT_LEN], x[32] = "";
	/* (with no slow N, what lies above the largest fast one was not measured) */
	const char *more = in->oa_slow[0] ? "more collect garbage" : "more were not measured";

	if (!a->open_aus_known || !a->open_aus)
		return;
	if (!in->oa_merge[0] || in->oa_merge[0] > a->open_aus) {
		set_value(adv_add(a, "write_streams", "derived", "write streams: up to %u at once "
				  "(as many erase blocks as the card %s; %s)", a->open_aus,
				  in->oa_slow[0] ? "keeps open" : "was seen to keep open", more),
			  a->open_aus, "count");
		return;
	}
	a->merge_from = in->oa_merge[0];
	a->merge_ns = in->oa_merge_ns[0];
	a->merge_x = in->oa_merge_x[0];
	if (a->merge_x >= 1.5)
		snprintf(x, sizeof(x), ", small writes %s slower",
			 fmt_times(t, sizeof(t), a->merge_x, 2));
	set_value(adv_add(a, "write_streams", "derived", "write streams: up to %u at once at "
			  "full speed; %u to %u pay %s a switch of erase block (a merge%s), %s",
			  a->merge_from - 1, a->merge_from, a->open_aus,
			  fmt_time(t, sizeof(t), a->merge_ns), x, more), a->merge_from - 1, "count");
}

static void basis_open_aus(const struct adv_in *in, struct adv *a)
{
	static const char *const name[2] = { "basis_open_aus", "basis_open_aus_random" };
	char why[300];
	unsigned n;

	for (int m = 0; m < 2; m++) {
		const char *res = open_aus(in, m, &n, why, sizeof(why));

		merge_text(in, m, why, sizeof(why));
		if (m == 0) {
			a->open_aus = n;
			a->open_aus_known = res != NULL;
		}
		set_value(adv_add(a, name[m], res ? res : "not_measured", "open AUs (%s): %s",
				  m ? "random" : "linear", why), n, "count");
	}
}

static void basis_fat(const struct adv_in *in, struct adv *a)
{
	const char *mode = in->fat_random ? "random" : "linear";

	if (!in->fat) {
		adv_add(a, "basis_fat_area", "assumed_none", "FAT-optimised area: not measured "
			"(--find-fat --random, or --survey): none assumed");
	} else if (in->fat_state == FF_AREA) {
		a->fat_aus = in->fat_area;
		set_value(adv_add(a, "basis_fat_area", "named", "FAT-optimised area: the first %u erase "
				  "block%s (find-fat, %s)", in->fat_area, in->fat_area == 1 ? "" : "s",
				  mode), in->fat_area, "count");
	} else if (in->fat_state == FF_NONE) {
		adv_add(a, "basis_fat_area", "none", "FAT-optimised area: none seen (find-fat, %s%s)",
			mode, in->fat_random ? "" : "; linear writes rarely show one");
	} else {
		adv_add(a, "basis_fat_area", "assumed_none", "FAT-optimised area: none assumed: the "
			"find-fat verdict (%s) is %s", mode,
			in->fat_state == FF_UNCERTAIN ? "uncertain" : "too short to judge");
	}
}

/* The first multiple of e at or above at. */
static uint64_t round_up(uint64_t at, uint64_t e)
{
	return (at + e - 1) / e * e;
}

static void layout_start(struct adv *a, bool three)
{
	char s[FB_FMT_LEN], f[FB_FMT_LEN], e[FB_FMT_LEN], range[48];
	uint64_t s0 = round_up(ADV_MIN_START, a->erase), fat_end = (uint64_t)a->fat_aus * a->erase;
	struct adv_item *it;

	a->start = s0 > fat_end ? s0 : fat_end;
	if (fat_end > s0) {
		a->fat_start = s0;
		a->fat_len = fat_end - s0;
	}
	fmt_size(s, sizeof(s), a->start);
	if (a->fat_aus == 1)
		snprintf(range, sizeof(range), "erase block 0");
	else
		snprintf(range, sizeof(range), "erase blocks 0 to %u", a->fat_aus - 1);
	if (a->fat_aus && fat_end >= s0)
		it = adv_add(a, "partition_start", "aligned", "partition start %s (sector %llu): "
			     "the first erase-block boundary after the FAT-optimised area (%s, %s), "
			     "which is left to FAT%s", s, (unsigned long long)(a->start / a->sector),
			     range, fmt_size(f, sizeof(f), fat_end), a->fat_len ?
			     " (a FAT partition there is the commented line of the script)" : "");
	else
		it = adv_add(a, "partition_start", "aligned", "partition start %s (sector %llu): "
			     "the first erase-block boundary at or above %s, so that every erase "
			     "block of the partition is one of the card's; the space before it "
			     "keeps the partition table%s%s", s,
			     (unsigned long long)(a->start / a->sector),
			     fmt_size(e, sizeof(e), ADV_MIN_START), a->fat_aus ?
			     " (and is the FAT-optimised area)" : "", three ?
			     "; a 3 x 2^n erase block: tools that align to 1MiB or 4MiB miss it" : "");
	set_value(it, a->start, "bytes");
}

/* Whole erase blocks from the start to the last that ends inside the usable device. */
static bool layout_size(const struct adv_in *in, struct adv *a)
{
	char s[FB_FMT_LEN], r[FB_FMT_LEN];
	uint64_t usable = in->size, blocks;

	if (!in->size) {
		adv_add(a, "partition_size", "rest", "partition size: not known here (saved output "
			"does not hold the device's size): without size= sfdisk gives the "
			"partition the rest of the device, whose end may cut an erase block");
		return true;
	}
	/* GPT keeps a copy of its table in the last 33 sectors. */
	if (strcmp(a->label, "gpt") == 0)
		usable = in->size > 33ull * a->sector ? in->size - 33ull * a->sector : 0;
	blocks = usable > a->start ? (usable - a->start) / a->erase : 0;
	if (blocks == 0) {
		adv_add(a, "partition_size", "none", "no partition: the device (%s) has no whole "
			"erase block after %s", fmt_size(s, sizeof(s), in->size),
			fmt_size(r, sizeof(r), a->start));
		return false;
	}
	a->size = blocks * a->erase;
	set_value(adv_add(a, "partition_size", "aligned", "partition size %s (%llu sectors): "
			  "%llu whole erase blocks, to the last that ends inside the device "
			  "(%s left over at its end)", fmt_size(s, sizeof(s), a->size),
			  (unsigned long long)(a->size / a->sector), (unsigned long long)blocks,
			  fmt_size(r, sizeof(r), in->size - a->start - a->size)), a->size, "bytes");
	return true;
}

static void layout_script(struct adv *a)
{
	bool gpt = strcmp(a->label, "gpt") == 0;
	unsigned long long s = a->sector;

	adv_script_line(a, "label: %s", a->label);
	adv_script_line(a, "unit: sectors");
	adv_script_line(a, "sector-size: %llu", s);
	if (a->fat_len)
		adv_script_line(a, "# start=%llu, size=%llu, type=%s", (unsigned long long)(a->fat_start / s),
			    (unsigned long long)(a->fat_len / s),
			    gpt ? "EBD0A0A2-B9E5-4433-87C0-68B6B72699C7" : "c");
	if (a->size)
		adv_script_line(a, "start=%llu, size=%llu, type=L", (unsigned long long)(a->start / s),
			    (unsigned long long)(a->size / s));
	else
		adv_script_line(a, "start=%llu, type=L", (unsigned long long)(a->start / s));
}

static void layout(const struct adv_in *in, struct adv *a)
{
	bool three = va_is_3x(a->erase);

	/* An MBR addresses 2^32 sectors; beyond that, GPT. */
	a->label = in->size / a->sector > 0xffffffffull ? "gpt" : "dos";
	layout_start(a, three);
	if (layout_size(in, a))
		layout_script(a);
	if (!in->sector)
		adv_add(a, "sector", "assumed", "sector: 512 bytes assumed (saved output does not "
			"say); give sfdisk the device's own if it differs");
}

void adv_plan(const struct adv_in *in, struct adv *a)
{
	memset(a, 0, sizeof(*a));
	a->sector = in->sector ? in->sector : 512;
	if (in->claimed) {
		char r[FB_FMT_LEN], c[FB_FMT_LEN];

		set_value(adv_add(a, "device_size", "capacity", "device size %s: what --capacity "
				  "found holds, not the %s the device reports: the advice is "
				  "for that size", fmt_size(r, sizeof(r), in->size),
				  fmt_size(c, sizeof(c), in->claimed)), in->size, "bytes");
	}
	basis_erase(in, a);
	basis_page(in, a);
	basis_open_aus(in, a);
	streams(in, a);
	basis_fat(in, a);
	if (a->erase && a->erase % a->sector) {
		adv_add(a, "layout", "declined", "no layout: the erase block is not a multiple "
			"of the %u-byte sector", a->sector);
		a->erase = 0;
	}
	if (!a->erase)
		return;
	layout(in, a);
	a->fs_from = a->nitems;
	adv_ext4(in, a);
	adv_f2fs(in, a);
	adv_fat(in, a);
}

/* A line of the sfdisk script, as it is. */
static void sfdisk_text(char *line, size_t len, const union out_val *v)
{
	snprintf(line, len, "%s", v[0].s);
}

static const struct out_field sfdisk_fields[] = { { "line", OT_TEXT } };

const struct out_table adv_sfdisk_table = { "sfdisk", sfdisk_fields, 1, sfdisk_text, NULL };

static void print_item(const struct adv_item *it)
{
	out_verdict(&(struct out_verdict){ .label = "advice", .name = it->name,
					   .result = it->result, .has_value = it->has_value,
					   .value = it->value, .unit = it->unit }, "%s", it->text);
}

void adv_print(const struct adv *a)
{
	size_t i = 0, fs = a->fs_from ? a->fs_from : a->nitems;

	/* What it rests on and the layout's reasons, the script, then the file systems. */
	for (; i < fs; i++)
		print_item(&a->item[i]);
	if (a->nscript)
		out_note("advice: the layout as an sfdisk script, the %zu lines below (sfdisk "
			 "DEVICE < FILE; check DEVICE twice: it replaces the partition table)",
			 a->nscript);
	for (size_t k = 0; k < a->nscript; k++)
		out_row(&adv_sfdisk_table, (union out_val[]){ { .s = a->script[k] } });
	for (; i < a->nitems; i++)
		print_item(&a->item[i]);
}
