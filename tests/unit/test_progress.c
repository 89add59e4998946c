/*
 * The progress line: nothing when standard error is not a terminal or in
 * the first two seconds, then done/total, elapsed and the time left,
 * redrawn in place at most ten times a second and erased by clear/end.
 * The clock is a fake one; stderr goes to a file.
 */
#include <stdlib.h>
#include <unistd.h>

#include "core/progress.h"
#include "unit.h"

static uint64_t fake;

static uint64_t fake_now(void)
{
	return fake;
}

/* What was written to stderr since the last call. */
static const char *drawn(FILE *f, long *at)
{
	static char buf[4096];
	size_t n;

	fflush(stderr);
	fseek(f, *at, SEEK_SET);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	*at += (long)n;
	return buf;
}

int main(void)
{
	char path[] = "/tmp/fbprog.XXXXXX";
	int fd = mkstemp(path), saved = dup(STDERR_FILENO);
	FILE *f = fopen(path, "r");
	long at = 0;

	dup2(fd, STDERR_FILENO);
	/* Not a terminal: nothing, ever. */
	progress_force(0, fake_now);
	progress_begin("open-au", 10);
	fake = 5000000000ull;
	progress_update(5, NULL);
	progress_end();
	CHECK_STR(drawn(f, &at), "");
	/* A terminal: quiet for two seconds, then the line. */
	progress_force(1, fake_now);
	fake = 0;
	progress_begin("open-au 6 erase blocks", 10);
	fake = 1000000000ull;
	progress_update(1, NULL);
	CHECK_STR(drawn(f, &at), "");
	fake = 4000000000ull;
	progress_update(5, "9.92M/s");
	CHECK_STR(drawn(f, &at), "\ropen-au 6 erase blocks: 5/10 (50%), 9.92M/s, 4s elapsed, 4s left");
	/* Not again within 100 ms. */
	fake += 50000000ull;
	progress_update(6, NULL);
	CHECK_STR(drawn(f, &at), "");
	/* A shorter line pads over the longer one. */
	fake += 100000000ull;
	progress_update(6, NULL);
	CHECK(strstr(drawn(f, &at), "6/10 (60%), 4s elapsed, 3s left        ") != NULL);
	/* Cleared: spaces over it, the cursor back at the start. */
	progress_clear();
	CHECK(strncmp(drawn(f, &at), "\r    ", 5) == 0);
	progress_clear();
	CHECK_STR(drawn(f, &at), "");	/* once only */
	/* A tick redraws the last state (the cleared line comes back), extra and all. */
	progress_update(7, "5.1M/s");
	progress_clear();
	drawn(f, &at);
	fake += 1000000000ull;
	progress_tick();
	CHECK(strstr(drawn(f, &at), "\ropen-au 6 erase blocks: 7/10 (70%), 5.1M/s, ") != NULL);
	/* ... but not within 100 ms of the last drawing. */
	fake += 10000000ull;
	progress_tick();
	CHECK_STR(drawn(f, &at), "");
	progress_clear();
	drawn(f, &at);
	/* No total: the count and the time. */
	progress_begin("sustained", 0);
	fake += 3000000000ull;
	progress_update(42, NULL);
	CHECK_STR(drawn(f, &at), "\rsustained: 42, 3s elapsed");
	progress_end();
	CHECK(strchr(drawn(f, &at), '\r') != NULL);
	/* Ended: a tick draws nothing. */
	fake += 3000000000ull;
	progress_tick();
	CHECK_STR(drawn(f, &at), "");
	dup2(saved, STDERR_FILENO);
	fclose(f);
	unlink(path);
	UNIT_DONE();
}
