/* Formatting of sizes, rates and times against flashbench's own output. */
#include "unit.h"
#include "core/units.h"

static const char *sz(uint64_t v)
{
	static char b[FB_FMT_LEN];
	return fmt_size(b, sizeof(b), v);
}

static const char *rt(double v)
{
	static char b[FB_FMT_LEN];
	return fmt_rate(b, sizeof(b), v);
}

static const char *tm(double v)
{
	static char b[FB_FMT_LEN];
	return fmt_time(b, sizeof(b), v);
}

int main(void)
{
	/* The examples of DESIGN.md and issue 2. */
	CHECK_STR(rt(22000000), "22M/s");
	CHECK_STR(rt(5990000), "5.99M/s");
	CHECK_STR(rt(14400), "14.4K/s");
	CHECK_STR(rt(471000), "471K/s");
	CHECK_STR(rt(57400), "57.4K/s");
	CHECK_STR(rt(1.2e9), "1.2G/s");
	CHECK_STR(rt(999), "999B/s");
	CHECK_STR(rt(999600), "1M/s");		/* no "1e+03K/s" */
	CHECK_STR(rt(0), "0B/s");
	CHECK_STR(sz(4194304), "4MiB");
	/* Exact sizes, as options and sim: take them back. */
	{
		char b[FB_FMT_LEN];

		CHECK_STR(fmt_size_exact(b, sizeof(b), 4292870144ull, "B"), "4094MiB");
		CHECK_STR(fmt_size_exact(b, sizeof(b), 1ull << 30, ""), "1GiB");
		CHECK_STR(fmt_size_exact(b, sizeof(b), 3ull << 19, ""), "1536KiB");
		CHECK_STR(fmt_size_exact(b, sizeof(b), 512, "B"), "512B");
		CHECK_STR(fmt_size_exact(b, sizeof(b), 512, ""), "512");
		CHECK_STR(fmt_size_exact(b, sizeof(b), 0, "B"), "0B");
		CHECK_STR(fmt_size_exact(b, sizeof(b), 5ull << 40, ""), "5TiB");
		CHECK_STR(fmt_size_exact(b, sizeof(b), 1ull << 50, ""), "1024TiB");
		/* ratios: no e-notation */
		CHECK_STR(fmt_times(b, sizeof(b), 1530.4, 3), "1530x");
		CHECK_STR(fmt_times(b, sizeof(b), 10.74, 3), "10.7x");
		CHECK_STR(fmt_times(b, sizeof(b), 123.4, 2), "123x");
		CHECK_STR(fmt_times(b, sizeof(b), 6.43, 2), "6.4x");
	}
	CHECK_STR(sz(512), "512B");
	CHECK_STR(sz(16384), "16KiB");
	CHECK_STR(sz(2048), "2KiB");
	CHECK_STR(sz(1024), "1KiB");
	CHECK_STR(sz(3 * 1024 * 1024 / 2), "1.5MiB");
	CHECK_STR(sz(1536ull * 1024 * 1024), "1.5GiB");
	CHECK_STR(sz(4128 * 1024), "4.03MiB");
	CHECK_STR(sz(8ull << 40), "8TiB");
	CHECK_STR(tm(735000), "735µs");
	CHECK_STR(tm(1080000), "1.08ms");
	CHECK_STR(tm(487), "487ns");
	CHECK_STR(tm(999700), "1ms");		/* the original printed "1e+03µ" */
	CHECK_STR(tm(-12300), "-12.3µs");	/* negative diffs keep their unit */
	CHECK_STR(tm(2.5e9), "2.5s");
	CHECK_STR(tm(2.78271e14), "278271s");	/* 77 hours: no exponent */
	CHECK_STR(tm(977), "977ns");
	UNIT_DONE();
}
