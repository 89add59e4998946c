/*
 * The test table: every test has what the command line, the help and the
 * dispatch need; every write test lists its regions; and the proof that
 * no write test reaches a device without the safety check: with the
 * device locked as by another flashbench run, every write test is refused
 * (exit 3) and the device stays as it was, while every read-only test runs
 * (it takes no lock, and could not write if it tried).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/cli.h"
#include "safety/preserve.h"
#include "run/run.h"
#include "safety/runlock.h"
#include "modules/test.h"
#include "unit.h"

#define MiB (1024ull * 1024)

static char err[1024];

static void descriptors(void)
{
	size_t n = 0;

	for (const struct fb_test *const *t = fb_tests; *t; t++, n++) {
		CHECK((*t)->name && (*t)->help && (*t)->run);
		CHECK(fb_test_find((*t)->name) == *t);
		/* a write test says what it writes; a read-only one writes nothing */
		CHECK((*t)->writes == ((*t)->regions != NULL));
		for (const struct fb_option *p = (*t)->options; p && p->name; p++)
			CHECK(p->var != NULL && p->help != NULL);
	}
	CHECK(n >= 7);
	CHECK(fb_test_find("no-such-test") == NULL);
}

/* The checksum of the whole file. */
static uint64_t file_sum(const char *path)
{
	static char buf[1 << 16];
	uint64_t h = FNV64_INIT;
	int fd = open(path, O_RDONLY);
	ssize_t k;

	while (fd >= 0 && (k = read(fd, buf, sizeof(buf))) > 0)
		h = fnv1a64(h, buf, (size_t)k);
	if (fd >= 0)
		close(fd);
	return h;
}

static bool lists(const struct fb_test *t, const char *option)
{
	for (const char *const *u = t->uses; u && *u; u++)
		if (strcmp(*u, option) == 0)
			return true;
	return false;
}

/*
 * Run one test on path with its own words; returns the exit status. A
 * test that writes only with one of its options (.writes_with) is run
 * with it when wr, else as the read-only test it then is.
 */
static int run_one(const struct fb_test *t, const char *path, bool wr)
{
	char flag[64], wflag[64];
	char *argv[12];
	int argc = 0, r;
	struct fb_opts o;

	snprintf(flag, sizeof(flag), "--%s", t->name);
	argv[argc++] = "flashbench";
	argv[argc++] = flag;
	if (strcmp(t->name, "find-open-au") == 0)
		argv[argc++] = "--erasesize=1M";
	if (strcmp(t->name, "readahead") == 0)
		argv[argc++] = "--size=8M";
	if (strcmp(t->name, "queue-depth") == 0)
		argv[argc++] = "--size=1M";
	if (t->writes_with && wr) {
		snprintf(wflag, sizeof(wflag), "--%s", t->writes_with);
		argv[argc++] = wflag;
	}
	if (t->after_analyze)	/* it reads the verdicts of another test */
		argv[argc++] = "-a";
	if (t->writes && wr && lists(t, "erasesize"))	/* small erase blocks: they fit in 64 MiB */
		argv[argc++] = "--erasesize=1M";
	if (strcmp(t->name, "app-class") == 0)
		argv[argc++] = "--app-area=16M";
	argv[argc++] = "--out=/dev/null";
	argv[argc++] = (char *)path;
	argv[argc] = NULL;
	r = cli_parse(argc, argv, &o, err, sizeof(err));
	if (r != FB_OK) {
		printf("FAIL: %s: %s\n", t->name, err);
		return r;
	}
	r = fb_run(&o);
	runlock_release();
	return r;
}

static void safety_for_every_write_test(void)
{
	char path[] = "/tmp/fbtable.XXXXXX";
	int fd = mkstemp(path), lock;
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	uint64_t before;
	char *buf = malloc(MiB);

	CHECK(fd >= 0 && buf);
	if (fd < 0 || !buf)
		return;
	for (unsigned i = 0; i < 64; i++) {
		memset(buf, (int)(i * 37 + 1), MiB);
		CHECK(write(fd, buf, MiB) == (ssize_t)MiB);
	}
	close(fd);
	free(buf);
	before = file_sum(path);
	/* Another run writing it: an OFD lock, as runlock.c takes. */
	lock = open(path, O_RDWR);
	CHECK(lock >= 0 && fcntl(lock, F_OFD_SETLK, &fl) == 0);
	for (const struct fb_test *const *t = fb_tests; *t; t++) {
		int r = run_one(*t, path, true);

		if ((*t)->writes && r != FB_ESAFETY)
			printf("FAIL: write test --%s was not refused: exit %d\n", (*t)->name, r);
		if (!(*t)->writes && r != FB_OK)
			printf("FAIL: read-only test --%s did not run: exit %d\n", (*t)->name, r);
		CHECK(r == ((*t)->writes ? FB_ESAFETY : FB_OK));
		CHECK(file_sum(path) == before);
		/* without the option that makes it write: it reads, and runs */
		if ((*t)->writes_with) {
			CHECK(run_one(*t, path, false) == FB_OK);
			CHECK(file_sum(path) == before);
		}
	}
	close(lock);
	unlink(path);
}

int main(void)
{
	descriptors();
	safety_for_every_write_test();
	UNIT_DONE();
}
