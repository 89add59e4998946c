/* Parsing of sizes, counts and durations: every accepted form, every bad one. */
#include <stdint.h>

#include "core/parse.h"
#include "unit.h"

static int size_is(const char *s, uint64_t want)
{
	uint64_t v = 0;
	return parse_size(s, &v) == 0 && v == want;
}

static int size_bad(const char *s)
{
	uint64_t v;
	return parse_size(s, &v) < 0;
}

int main(void)
{
	uint64_t v;

	CHECK(size_is("8388608", 8388608));
	CHECK(size_is("0x200", 512));
	CHECK(size_is("0X800000", 8388608));
	CHECK(size_is("16k", 16384));
	CHECK(size_is("16K", 16384));
	CHECK(size_is("16KiB", 16384));
	CHECK(size_is("4M", 4194304));
	CHECK(size_is("4MiB", 4194304));
	CHECK(size_is("1G", 1073741824));
	CHECK(size_is("1GiB", 1073741824));
	CHECK(size_is("3G", 3221225472ull));		/* above 2 GiB: no int overflow */
	CHECK(size_is("8589934592", 8589934592ull));
	CHECK(size_is("1.5M", 1572864));
	CHECK(size_is("512B", 512));
	CHECK(size_is("010", 10));			/* decimal, not octal */
	CHECK(size_is("0", 0));
	CHECK(size_bad(""));
	CHECK(size_bad("abc"));
	CHECK(size_bad("-1"));
	CHECK(size_bad("-4M"));
	CHECK(size_bad(" 4M"));
	CHECK(size_bad("4 M"));
	CHECK(size_bad("4X"));
	CHECK(size_bad("4MiBs"));
	CHECK(size_bad("1.5"));				/* fraction without a suffix */
	CHECK(size_bad("1.0000001K"));			/* not a whole number of bytes */
	CHECK(size_bad("1.5e3K"));			/* no exponent (was 501KiB) */
	CHECK(size_bad("1.0e1K"));
	CHECK(size_bad("1.K"));
	CHECK(size_is("0.5K", 512));
	CHECK(size_bad("18446744073709551616"));	/* 2^64 */
	CHECK(size_bad("17179869184G"));		/* overflow through the suffix */
	CHECK(size_bad("0x"));
	CHECK(size_bad("0x1.5M"));
	CHECK(size_bad(NULL));
	/* every form the man page and README list: all suffixes binary */
	CHECK(size_is("1B", 1));
	CHECK(size_is("1KB", 1024) && size_is("1kiB", 1024) && size_is("1k", 1024));
	CHECK(size_is("4MB", 4194304) && size_is("4m", 4194304));
	CHECK(size_is("1g", 1073741824) && size_is("1GB", 1073741824));
	CHECK(size_is("1T", 1099511627776ull) && size_is("1t", 1099511627776ull));
	CHECK(size_is("1TB", 1099511627776ull) && size_is("1TiB", 1099511627776ull));
	CHECK(size_is("0x10K", 16384));			/* hex with a suffix */
	CHECK(size_is("1.50M", 1572864));
	CHECK(size_bad("1kb") && size_bad("1mb") && size_bad("1Mb") && size_bad("1mib"));
	CHECK(size_bad("1.1K") && size_bad(".5M") && size_bad("0x1.8M") && size_bad("1e3"));
	CHECK(size_bad("+4M") && size_bad("4M5"));
	CHECK(size_bad("16777216T"));			/* 2^64 through the suffix */

	CHECK(parse_uint("16", 1, 100, &v) == 0 && v == 16);
	CHECK(parse_uint("0", 1, 100, &v) < 0);
	CHECK(parse_uint("101", 1, 100, &v) < 0);
	CHECK(parse_uint("-1", 0, 100, &v) < 0);
	CHECK(parse_uint("5x", 0, 100, &v) < 0);
	CHECK(parse_uint("", 0, 100, &v) < 0);
	CHECK(parse_uint("99999999999999999999999", 0, UINT64_MAX, &v) < 0);

	CHECK(parse_duration("90", &v) == 0 && v == 90000000000ull);
	CHECK(parse_duration("90s", &v) == 0 && v == 90000000000ull);
	CHECK(parse_duration("1.5m", &v) == 0 && v == 90000000000ull);
	CHECK(parse_duration("2h", &v) == 0 && v == 7200000000000ull);
	CHECK(parse_duration("500ms", &v) == 0 && v == 500000000ull);
	CHECK(parse_duration("5 s", &v) < 0);
	CHECK(parse_duration("-5", &v) < 0);
	CHECK(parse_duration("5d", &v) < 0);
	CHECK(parse_duration("2min", &v) == 0 && v == 120000000000ull);
	CHECK(parse_duration("3us", &v) == 0 && v == 3000ull);
	CHECK(parse_duration("7ns", &v) == 0 && v == 7ull);

	/* Rates: "/s" is decimal, as rates are printed; a bare size is binary. */
	CHECK(parse_rate("22M/s", &v) == 0 && v == 22000000ull);
	CHECK(parse_rate("1.5K/s", &v) == 0 && v == 1500ull);
	CHECK(parse_rate("500/s", &v) == 0 && v == 500ull);
	/* what fmt_rate prints below 1K/s reads back (a fitted card's spec) */
	CHECK(parse_rate("47B/s", &v) == 0 && v == 47ull);
	CHECK(parse_rate("B/s", &v) < 0);
	CHECK(parse_rate("2G/s", &v) == 0 && v == 2000000000ull);
	CHECK(parse_rate("20M", &v) == 0 && v == 20971520ull);
	CHECK(parse_rate("M/s", &v) < 0 && parse_rate("/s", &v) < 0 && parse_rate("x/s", &v) < 0);
	CHECK(parse_rate("-1M/s", &v) < 0 && parse_rate("1e30/s", &v) < 0);
	CHECK(parse_rate(NULL, &v) < 0);
	UNIT_DONE();
}
