/*
 * Reading saved output as people paste it (saved_output.h): rows run
 * together, table columns and list markers, a µ lost in copying, stderr
 * and prose lines, command lines and this tool's own headers.
 */
#include <math.h>
#include <stdint.h>

#include "saved/saved_output.h"
#include "unit.h"

#define KiB 1024ull
#define MiB (1024 * KiB)

struct got {
	size_t n, calls;
	struct so_line l[16];
	size_t nrates[16];
	double rates[16][8];
};

static void collect(void *ctx, const struct so_line *l)
{
	struct got *g = ctx;

	g->calls++;
	if (g->n >= 16)
		return;
	g->l[g->n] = *l;
	g->nrates[g->n] = l->kind == SO_RATE ? l->nrates : 0;
	for (size_t i = 0; i < g->nrates[g->n] && i < 8; i++)
		g->rates[g->n][i] = l->rates[i];
	g->n++;
}

static struct got *scan(const char *line)
{
	static struct got g;

	memset(&g, 0, sizeof(g));
	CHECK(so_scan(line, collect, &g) == g.calls);
	return &g;
}

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b) + 1e-9;
}

static void joined_rows(void)
{
	struct got *g;

	g = scan("align 4194304 pre 741µs on 1.08ms post 788µs diff 317µs align 2097152 pre 745µs "
		 "on 950µs post 811µs diff 171µs");
	CHECK(g->n == 2 && g->l[0].kind == SO_ALIGN && g->l[1].kind == SO_ALIGN);
	CHECK(g->l[0].boundary == 4 * MiB && g->l[1].boundary == 2 * MiB && g->l[1].diff == 171e3);
	g = scan("4MiB 6.45M/s 2MiB 5.19M/s 1MiB 5.19M/s");
	CHECK(g->n == 3 && g->l[2].kind == SO_RATE && g->l[2].size == MiB && g->l[2].rate == 5.19e6);
	/* two find-fat rows of three columns */
	g = scan("4MiB 865K/s 3.56M/s 3.01M/s 2MiB 4.3M/s 4.88M/s 5.11M/s");
	CHECK(g->n == 2 && g->nrates[0] == 3 && g->nrates[1] == 3 && g->rates[1][2] == 5.11e6);
	/* a row cut in the middle spoils the line: nothing is guessed */
	g = scan("4MiB 6.45M/s 2MiB");
	CHECK(g->n == 1 && g->l[0].kind == SO_SKIP);
	g = scan("256KiB\t7.7M/s\tslowest 1.5M/s 128KiB 7.6M/s slowest 1.4M/s");
	CHECK(g->n == 2 && g->l[1].slowest == 1.4e6 && g->l[1].nrates == 1);
}

static void decorations(void)
{
	struct got *g;

	g = scan("| align 4194304 | pre 741µs | on 1.08ms | post 788µs | diff 317µs |");
	CHECK(g->n == 1 && g->l[0].kind == SO_ALIGN && g->l[0].diff == 317e3);
	g = scan(" | | 4MiB    22M/s");
	CHECK(g->n == 1 && g->l[0].kind == SO_RATE && g->l[0].rate == 22e6);
	g = scan("- 512KiB 5.98M/s");
	CHECK(g->n == 1 && g->l[0].kind == SO_RATE && g->l[0].size == 512 * KiB);
	g = scan("> * 2KiB 57.4K/s");
	CHECK(g->n == 1 && g->l[0].kind == SO_RATE && g->l[0].rate == 57.4e3);
	g = scan("\xe2\x80\xa2 2KiB 57.4K/s");
	CHECK(g->n == 1 && g->l[0].kind == SO_RATE);
	CHECK(scan("|---|---|")->l[0].kind == SO_BLANK);
	CHECK(scan("```")->l[0].kind == SO_BLANK);
	CHECK(scan("+--------+---------+")->l[0].kind == SO_BLANK);
	CHECK(scan("```text")->l[0].kind == SO_SKIP);
	/* a negative diff is no list marker */
	g = scan("align 8192 pre 2.06ms on 1.95ms post 2.02ms diff -90026n");
	CHECK(g->n == 1 && g->l[0].kind == SO_ALIGN && g->l[0].diff == -90026);
}

static void lost_units(void)
{
	struct got *g;

	/* on - (pre + post) / 2 = 1.08ms - 764.5µs = 315.5µs: the diff was 317µs */
	g = scan("align 4194304\tpre 741µs\ton 1.08ms\tpost 788µs\tdiff 317s");
	CHECK(g->l[0].kind == SO_ALIGN && g->l[0].check == SO_RESTORED && g->l[0].diff == 317e3);
	CHECK_STR(g->l[0].note, "diff 317s read as 317µs");
	/* every µ lost */
	g = scan("align 4194304 pre 741s on 1.08ms post 788s diff 317s");
	CHECK(g->l[0].check == SO_RESTORED && g->l[0].pre == 741e3 && g->l[0].post == 788e3 &&
	      g->l[0].diff == 317e3);
	CHECK_STR(g->l[0].note, "pre 741s read as 741µs, post 788s read as 788µs, diff 317s read as 317µs");
	/* a µ turned into "?" or into U+FFFD, or left in Latin-1 */
	g = scan("align 4194304 pre 741?s on 1.08ms post 788\xef\xbf\xbds diff 317\xb5s");
	CHECK(g->l[0].check == SO_AGREES && g->l[0].pre == 741e3 && g->l[0].post == 788e3);
	/* a real 2.4 s read across the boundary is left alone... */
	g = scan("align 4194304 pre 1.5ms on 2.4s post 1.5ms diff 2.4s");
	CHECK(g->l[0].check == SO_AGREES && g->l[0].on == 2.4e9 && g->l[0].diff == 2.4e9);
	/* ...but a row in seconds throughout agrees at any scale, and plain
	 * reads of seconds are no flashbench reads: its µ was lost */
	g = scan("align 4194304 pre 670s on 990s post 678s diff 315s");
	CHECK(g->l[0].check == SO_RESTORED && g->l[0].pre == 670e3 && g->l[0].diff == 315e3);
	/* a diff that fits no reading is reported, not used */
	g = scan("align 4194304 pre 741µs on 1.08ms post 788µs diff 500µs");
	CHECK(g->l[0].kind == SO_ALIGN && g->l[0].check == SO_INCONSISTENT);
	CHECK(strstr(g->l[0].note, "diff 500µs disagrees with on - (pre + post) / 2 = 316µs") != NULL);
	/* the original's quirks agree as printed */
	g = scan("align 16384\tpre 1.1ms\ton 1.1ms\tpost 1e+03µ\tdiff 54.5µs");
	CHECK(g->l[0].check == SO_AGREES);
	g = scan("align 34359738368       pre 986µs       on 1.01ms       post 1.87ms     diff -412331");
	CHECK(g->l[0].check == SO_AGREES && g->l[0].diff == -412331);
}

static void other_lines(void)
{
	struct got *g;

	CHECK(scan("sched_setscheduler: Operation not permitted")->l[0].kind == SO_SKIP);
	CHECK(scan("the 4MiB 6.45M/s line looks odd")->l[0].kind == SO_SKIP);
	CHECK(scan("# source: https://example.org/flashbench/")->l[0].kind == SO_SKIP);
	g = scan("stopped: every write costs the same 293ms \xe2\x80\x94 the card is garbage-collecting");
	CHECK(g->l[0].kind == SO_STOPPED && strncmp(g->l[0].note, "every write costs", 17) == 0);
	CHECK(scan("interrupted by signal 2: the lines above are all that was measured")->l[0].kind ==
	      SO_INTERRUPT);
	/* ^C after the last row, and before the next prompt */
	g = scan("128KiB  302K/s  ^C");
	CHECK(g->n == 2 && g->l[0].kind == SO_RATE && g->l[1].kind == SO_INTERRUPT);
	g = scan("^C$ ./flashbench -O --open-au-nr=5 /dev/sdb");
	CHECK(g->n == 2 && g->l[0].kind == SO_INTERRUPT && g->l[1].kind == SO_COMMAND && g->l[1].nr == 5);
	/* ^C in prose is text */
	g = scan("# command: ./flashbench -O --open-au-nr=N (runs at N=4 interrupted with ^C)");
	CHECK(g->n == 1 && g->l[0].kind == SO_COMMAND);
	g = scan("verdict: 3 open AUs (random): fast: 16KiB at 8.04M/s, within 1.23x of the best 9.92M/s");
	CHECK(g->l[0].kind == SO_VERDICT && g->l[0].nr == 3 && g->l[0].random && g->l[0].is_open_au);
	g = scan("verdict: open-au run (linear): fast: 16KiB at 3.27M/s");
	CHECK(g->l[0].kind == SO_VERDICT && g->l[0].nr == 0 && g->l[0].linear);
	g = scan("verdict: no FAT-optimised area seen (linear): at 16KiB the 6 erase blocks write alike");
	CHECK(g->l[0].kind == SO_VERDICT && g->l[0].is_find_fat && !g->l[0].is_open_au && g->l[0].linear);
	g = scan("verdict: FAT-optimised area (random): the first 2 of 6 erase blocks");
	CHECK(g->l[0].is_find_fat && g->l[0].random);
	g = scan("verdict: find-fat (random): too short to judge: 1 line (4MiB); it needs 4");
	CHECK(g->l[0].is_find_fat && g->l[0].random);
	CHECK(scan("verdict: erase block 4MiB (diff 301µs)")->l[0].is_find_fat == false);
	CHECK(scan("find-open-au: wrote 97MiB in 75.1s")->l[0].kind == SO_OURS);
	/* found by fuzzing: a bare "verdict:" (read past the tokens), a bare header */
	CHECK(scan("^C|verdict:")->l[1].kind == SO_VERDICT);
	CHECK(scan("find-open-au:")->l[0].kind == SO_OURS);
	CHECK(scan("probe:")->l[0].kind == SO_COMMAND);
}

static void commands(void)
{
	struct got *g;

	g = scan("$ sudo ./flashbench -O --erasesize=$[4 * 1024 * 1024] --blocksize=$[256 * 1024] "
		 "/dev/mmcblk0  --open-au-nr=3");
	CHECK(g->l[0].kind == SO_COMMAND && g->l[0].is_flashbench && g->l[0].nr == 3 &&
	      g->l[0].erase == 4 * MiB && g->l[0].blocksize == 256 * KiB && !g->l[0].random);
	g = scan("# flashbench -a /dev/mmcblk0  --blocksize=1024");
	CHECK(g->l[0].kind == SO_COMMAND && g->l[0].is_align && g->l[0].blocksize == 1024);
	g = scan("sudo flashbench -f -e 8M -b16K --fat-nr 4 /dev/sdb");
	CHECK(g->l[0].is_find_fat && g->l[0].erase == 8 * MiB && g->l[0].blocksize == 16 * KiB &&
	      g->l[0].fat_nr == 4);
	g = scan("root@beaglebone:~/flashbench# ./flashbench --open-au --random --open-au-nr 5 "
		 "--erasesize $((8*1024*1024)) /dev/mmcblk1");
	CHECK(g->l[0].random && g->l[0].nr == 5 && g->l[0].erase == 8 * MiB);
	g = scan("======= AU=5, random access =======");
	CHECK(g->l[0].kind == SO_COMMAND && g->l[0].nr == 5 && g->l[0].random);
	g = scan("probe: --open-au-nr=3 --erasesize=4MiB --random");
	CHECK(g->l[0].kind == SO_COMMAND && g->l[0].is_probe && g->l[0].nr == 3 &&
	      g->l[0].erase == 4 * MiB && g->l[0].random);
	g = scan("find-open-au: erase block 4MiB, block size 16KiB, 512KiB per erase block and line, linear");
	CHECK(g->l[0].kind == SO_COMMAND && g->l[0].erase == 4 * MiB && g->l[0].blocksize == 16 * KiB &&
	      g->l[0].linear);
}

static void bounds(void)
{
	static char line[SO_MAX_LINE + 100];
	struct got *g;
	size_t n = 0;

	/* more rows on one line than anyone pastes: all read, nothing overflows */
	while (n + 11 < SO_MAX_LINE)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "16KiB 1M/s ");
	g = scan(line);
	CHECK(g->calls == n / 11 && g->l[15].kind == SO_RATE);
	/* brackets open to the end, blanks inside them: one pass, one token */
	for (n = 0; n + 2 < sizeof(line); n += 2)
		memcpy(line + n, "[ ", 2);
	line[n] = '\0';
	CHECK(scan(line)->l[0].kind == SO_SKIP);
	CHECK(near(so_round_rate(5.987e6), 5.99e6));
	/* Issue 30: the rounding a number shows, relative to it. */
	CHECK(near(so_rel_step("17.6M/s"), 0.1 / 17.6));
	CHECK(near(so_rel_step("5212909.37654477"), 1e-8 / 5212909.37654477));
	CHECK(near(so_rel_step("1e+03µ"), 1));
	CHECK(near(so_rel_step("-412331"), 1 / 412331.0));
	CHECK(near(so_rel_step("1761"), 1 / 1761.0));
	CHECK(so_rel_step("0") == 0 && so_rel_step("abc") == 0);
}

/* A terminal session as a mail archive keeps it (seed 000): prompt, command, rows, next prompt. */
static void session(void)
{
	struct got *g;

	g = scan("@15:21:05 # ./flashbench --open-au --open-au-nr=16 --erasesize=$[8 * 512 * 1024] "
		 "/dev/sdd --blocksize=512 4MiB 6.9M/s 2MiB 5.14M/s 1MiB 4.65M/s @17:58:45 # "
		 "./flashbench --open-au --open-au-nr=20 --erasesize=$[8 * 512 * 1024] /dev/sdd "
		 "--blocksize=512 4MiB 4.54M/s 2MiB 4.98M/s Terminated (was running from 1800 "
		 "overnight until 1042, so I killed it)");
	CHECK(g->n == 8);
	CHECK(g->l[0].kind == SO_COMMAND && g->l[0].is_flashbench && g->l[0].nr == 16);
	CHECK(g->l[0].erase == 4 * MiB && g->l[0].blocksize == 512 && !g->l[0].random);
	CHECK(g->l[1].kind == SO_RATE && g->l[1].size == 4 * MiB && g->l[1].rate == 6.9e6);
	CHECK(g->l[3].kind == SO_RATE && g->l[3].size == 1 * MiB && g->l[3].rate == 4.65e6);
	CHECK(g->l[4].kind == SO_COMMAND && g->l[4].nr == 20 && g->l[4].erase == 4 * MiB);
	CHECK(g->l[6].kind == SO_RATE && g->l[6].size == 2 * MiB && g->l[6].rate == 4.98e6);
	CHECK(g->l[7].kind == SO_INTERRUPT && strcmp(g->l[7].note, "Terminated") == 0);
	g = scan("@10:58:54 # ./flashbench --open-au --open-au-nr=1 --erasesize=$[8 * 1024 * 1024] "
		 "/dev/sdd --blocksize=512 --random 8MiB 7.11M/s 4MiB 21.9M/s");
	CHECK(g->n == 3 && g->l[0].random && g->l[0].erase == 8 * MiB && g->l[2].rate == 21.9e6);
	/* a command alone is still a command; prose with a command in it is not rows */
	g = scan("$ ./flashbench --open-au --open-au-nr=2 /dev/sdd");
	CHECK(g->n == 1 && g->l[0].kind == SO_COMMAND && g->l[0].nr == 2);
	g = scan("Terminated");
	CHECK(g->n == 1 && g->l[0].kind == SO_INTERRUPT);
	g = scan("Terminated by the fact that it was late");
	CHECK(g->n == 1 && g->l[0].kind == SO_SKIP);
}

int main(void)
{
	session();
	joined_rows();
	decorations();
	lost_units();
	other_lines();
	commands();
	bounds();
	UNIT_DONE();
}
