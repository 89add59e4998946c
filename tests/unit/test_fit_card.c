/*
 * The pure parts of the card's fit (verdicts/fit_card.h) and of the
 * twin's judgement (verdicts/fit_twin.h), on numbers made by hand: the
 * read sweep's line, the jitter from its quartiles (at most 100%), the
 * page step the align rows show when the verdict named none, the keys
 * left out, and the twin's line when it misses.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/out.h"
#include "unit.h"
#include "verdicts/facts.h"
#include "verdicts/fit_card.h"
#include "verdicts/fit_twin.h"

static struct fit_input in;
static struct vf_facts f;

/* Reads of 512B..4KiB: 500µs + bytes at 20MB/s, the fastest q below the median. */
static void sweep(double q)
{
	for (uint64_t len = 512; len <= 4096; len *= 2) {
		double t = 500e3 + (double)len * 1e9 / 20e6;

		fit_input_read(&in, len, t * (1 - q), t, t * (1 + q));
	}
}

/* Align rows: page 8KiB (diff 100µs), erase 4MiB (diff 100 + 300µs). */
static void rows(bool page_named)
{
	for (uint64_t b = 2048; b <= 64ull << 20; b *= 2)
		fit_input_align(&in, b, 600e3, 600e3, b >= 4u << 20 ? 400e3 : b >= 8192 ? 100e3 : 0);
	f.align = true;
	f.va.erase_state = VA_FOUND;
	f.va.erase = 4u << 20;
	f.va.page_state = page_named ? VA_FOUND : VA_NONE;
	f.va.page = page_named ? 8192 : 0;
}

/* The first line of path that starts with what (empty: none). */
static void line_of(const char *path, const char *what, char *line, size_t len)
{
	FILE *o = fopen(path, "r");

	line[0] = '\0';
	while (o && fgets(line, (int)len, o) && !strstr(line, what))
		line[0] = '\0';
	if (o && !strstr(line, what))
		line[0] = '\0';
	if (o)
		fclose(o);
}

/* An uncertain key: in the spec, and a verdict record of its own in the text and JSON. */
static void uncertain(const char *path)
{
	struct fit_card c;
	char line[1200];

	memset(&c, 0, sizeof(c));
	c.known[FK_ERASE] = c.known[FK_OPEN_AU_RANDOM] = true;
	c.v[FK_ERASE] = 4 << 20;
	c.v[FK_OPEN_AU_RANDOM] = 1;
	c.nalt[FK_OPEN_AU_RANDOM] = 1;
	c.alt[FK_OPEN_AU_RANDOM][0] = 0;
	out_open(path, OUT_TEXT);
	fit_card_print(&c);
	out_close(0, "done", NULL);
	line_of(path, "card: sim:", line, sizeof(line));
	CHECK_STR(line, "");	/* the card's line waits for the end of the output */
	out_open(path, OUT_TEXT);
	fit_card_print(&c);
	CHECK(fit_card_print_last());
	CHECK(!fit_card_print_last());	/* once */
	out_close(0, "done", NULL);
	line_of(path, "card: sim:", line, sizeof(line));
	CHECK_STR(line, "card: sim:erase=4MiB,open-au-random=1\n");
	line_of(path, "is uncertain", line, sizeof(line));
	CHECK_STR(line, "card: open-au-random=1 is uncertain: with 0 too the twin reaches the card's "
		  "verdicts, its find-fat table as close (the FAT area and the search's history trade "
		  "off)\n");
	out_open(path, OUT_JSON);
	fit_card_print(&c);
	out_close(0, "done", NULL);
	line_of(path, "\"result\":\"uncertain\"", line, sizeof(line));
	CHECK(strstr(line, "{\"type\":\"verdict\",\"verdict\":\"open-au-random\",\"result\":"
			   "\"uncertain\",\"value\":1,\"unit\":\"count\",\"text\":\"open-au-random=1 "
			   "is uncertain: with 0 too") != NULL);
	CHECK(strstr(line, "\"label\":\"card\"}") != NULL);
	out_open(path, OUT_CSV);
	fit_card_print(&c);
	out_close(0, "done", NULL);
	line_of(path, "is uncertain", line, sizeof(line));
	CHECK(strncmp(line, "# card: open-au-random=1 is uncertain: with 0 too ", 50) == 0);
}

int main(void)
{
	struct fit_card c;
	struct twin_result twin;
	struct twin_judgement j;
	char spec[1024];
	char path[] = "/tmp/fbfit.XXXXXX", line[1200] = "";
	int fd = mkstemp(path);
	FILE *o;

	fit_input_reset(&in);
	in.size = 1ull << 30;
	rows(false);
	sweep(0.02 * 0.94);
	fit_card(&in, &f, &c);
	CHECK(c.known[FK_PAGE] && c.v[FK_PAGE] == 8192);	/* the rows' step, no verdict */
	CHECK(c.known[FK_PAGE_CROSS] && fabs(c.v[FK_PAGE_CROSS] - 100e3) < 1);
	CHECK(c.known[FK_ERASE_CROSS] && fabs(c.v[FK_ERASE_CROSS] - 300e3) < 1);
	/* the fastest reads: 1.88% low, latency and rate alike */
	CHECK(fabs(c.v[FK_READ_LAT] / (500e3 * 0.9812) - 1) < 0.001);
	CHECK(fabs(c.v[FK_READ_BW] / (20e6 / 0.9812) - 1) < 0.001);
	CHECK(fabs(c.v[FK_JITTER] - 2) < 0.01);
	CHECK(!c.known[FK_OPEN_AU] && strstr(c.why[FK_OPEN_AU], "linear bracket"));
	CHECK(!c.known[FK_WRITE_LAT] && !c.known[FK_COPY_BW] && !c.known[FK_FAT_AUS]);
	fit_card_spec(&c, spec, sizeof(spec));
	CHECK_STR(spec, "size=1GiB,erase=4MiB,page=8KiB,read-lat=491µs,read-bw=20.4M/s,"
		  "page-cross=100µs,erase-cross=300µs,jitter=2.0");
	/* a host far noisier than any card: the jitter stops at 5% */
	fit_input_reset(&in);
	rows(true);
	sweep(0.5);
	fit_card(&in, &f, &c);
	CHECK(c.v[FK_JITTER] == 5);
	CHECK(!c.known[FK_SIZE] && strstr(fit_card_spec(&c, spec, sizeof(spec)), "jitter=5.0"));
	/* the twin: another linear bracket and FAT area, named with their keys */
	memset(&twin, 0, sizeof(twin));
	twin.in = in;
	twin.facts = f;
	f.oa_runs[0] = twin.facts.oa_runs[0] = 3;
	f.oa[0].fast = 5, f.oa[0].slow = 6;
	twin.facts.oa[0].fast = 4, twin.facts.oa[0].slow = 5;
	f.fat = twin.facts.fat = true;
	f.ff.state = FF_AREA, f.ff.area = 2;
	twin.facts.ff.state = FF_NONE;
	twin_judge(&in, &f, &twin, &j);
	CHECK(!j.same && !j.lin_same && j.rnd_same && !j.fat_same && j.erase_same && j.page_same);
	CHECK(j.align_rows == 16 && j.align_close == 16);
	CHECK(fd >= 0);
	out_open(path, OUT_TEXT);
	twin_print(&j, &f, &twin);
	out_close(0, "done", NULL);
	o = fopen(path, "r");
	while (o && fgets(line, sizeof(line), o) && strncmp(line, "twin: ", 6) != 0)
		;
	CHECK_STR(line, "twin: -a 16 of 16 rows within the card's noise; erase block and page as the "
		  "card; open AUs linear 5/6 (twin 4/5: open-au misses), random not run as the card; "
		  "FAT area not as the card (fat-aus misses); reads within 0%\n");
	if (o)
		fclose(o);
	uncertain(path);
	close(fd);
	unlink(path);
	UNIT_DONE();
}
