/*
 * The backup file of --preserve and --restore on its error paths: a read
 * error in the backup file during the restore, a region the device
 * cannot take, a backup file that cannot be stat'ed. The faults are
 * injected by defining pread() and fstat() here: this program's own
 * definitions win over libc's for every object linked into it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "safety/backup.h"
#include "core/opts.h"
#include "core/target.h"
#include "unit.h"

#define KiB 1024ull
#define MiB (1024ull * 1024)
#define IMG (8 * MiB)
#define RLEN (64 * KiB)

/* pread() of fail_fd fails with EIO inside file offsets [fail_lo, fail_hi). */
static int fail_fd = -1;
static uint64_t fail_lo, fail_hi;
/* fstat() fails with EIO. */
static bool fail_fstat;

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	if (fd == fail_fd && (uint64_t)off < fail_hi && (uint64_t)off + n > fail_lo) {
		errno = EIO;
		return -1;
	}
	return syscall(SYS_pread64, fd, buf, n, off);
}

int fstat(int fd, struct stat *st)
{
	if (fail_fstat) {
		errno = EIO;
		return -1;
	}
	return fstatat(fd, "", st, AT_EMPTY_PATH);
}

/* stderr of the code under test, caught in a file so the checks can read it. */
static FILE *cap;
static int saved_fd = -1;
static char caught[16384];

static void catch_start(void)
{
	fflush(stderr);
	cap = tmpfile();
	saved_fd = dup(2);
	dup2(fileno(cap), 2);
}

static const char *catch_end(void)
{
	size_t n;

	fflush(stderr);
	dup2(saved_fd, 2);
	close(saved_fd);
	rewind(cap);
	n = fread(caught, 1, sizeof(caught) - 1, cap);
	caught[n] = '\0';
	fclose(cap);
	fputs(caught, stdout);	/* in the test's log, for whoever reads a failure */
	return caught;
}

static const struct region regions[3] = {
	{ 1 * MiB, RLEN }, { 3 * MiB, RLEN }, { 5 * MiB, RLEN },
};

/* Does region i of the image hold what it held at first? */
static bool region_is(int fd, const unsigned char *orig, unsigned i)
{
	static unsigned char got[RLEN];

	return pread(fd, got, RLEN, (off_t)regions[i].off) == (ssize_t)RLEN &&
	       memcmp(got, orig + regions[i].off, RLEN) == 0;
}

/* Overwrite the regions, as a write test would. */
static void scribble(int fd)
{
	static unsigned char junk[RLEN];

	memset(junk, 0xee, sizeof(junk));
	for (unsigned i = 0; i < 3; i++)
		CHECK(pwrite(fd, junk, RLEN, (off_t)regions[i].off) == (ssize_t)RLEN);
}

/* A read error in the backup file skips that region only: the others are written back. */
static void test_read_error(const char *img, const char *bk, const unsigned char *orig,
			    struct target *t)
{
	struct preserve *p = NULL;
	const char *err;
	int fd = open(img, O_RDWR), st;

	scribble(fd);
	CHECK(backup_open(bk, &p) == FB_OK && p);
	if (!p)
		return;
	/* The data of regions 0 and 1: the file fails from there on for 128 KiB. */
	fail_fd = p->fd;
	fail_lo = p->data_off;
	fail_hi = p->data_off + 2 * RLEN;
	catch_start();
	st = backup_restore(p, t);
	err = catch_end();
	fail_fd = -1;
	CHECK(st == FB_EDEV);
	CHECK(region_is(fd, orig, 2));	/* restored after the failed ones */
	CHECK(!region_is(fd, orig, 0) && !region_is(fd, orig, 1));
	CHECK(strstr(err, "offset 1048576, length 65536 of the device is not restored\n") != NULL);
	CHECK(strstr(err, "offset 3145728, length 65536 of the device is not restored\n") != NULL);
	CHECK(strstr(err, "Input/output error") != NULL);
	CHECK(strstr(err, "RESTORE FAILED: the original data is kept in") != NULL);
	CHECK(access(bk, F_OK) == 0);
	/* Once the file reads again, a retry puts everything back. */
	catch_start();
	st = backup_restore(p, t);
	catch_end();
	CHECK(st == FB_OK);
	CHECK(region_is(fd, orig, 0) && region_is(fd, orig, 1) && region_is(fd, orig, 2));
	backup_free(p);
	close(fd);
}

/* A region the device cannot take refuses the restore with a reason. */
static void test_region_misfit(const char *img, const char *bk, struct target *t)
{
	struct preserve *p = NULL;
	const char *err;
	int st;

	CHECK(backup_open(bk, &p) == FB_OK && p);
	if (!p)
		return;
	p->e[1].off += 100;
	catch_start();
	st = backup_match(p, t, img);
	err = catch_end();
	CHECK(st == FB_ESAFETY);
	CHECK(strstr(err, "the region at offset 3145828, length 65536 is not aligned to the "
		      "device's sectors") != NULL);
	CHECK(strstr(err, "refusing it\n") != NULL);
	p->e[1].off = IMG - RLEN / 2;
	catch_start();
	st = backup_match(p, t, img);
	err = catch_end();
	CHECK(st == FB_ESAFETY);
	CHECK(strstr(err, "lies past the end of the device") != NULL);
	backup_free(p);
}

/* A backup that cannot be stat'ed is refused with the error, not a made-up size. */
static void test_fstat_error(const char *bk)
{
	struct preserve *p = NULL;
	const char *err;
	int st;

	fail_fstat = true;
	catch_start();
	st = backup_open(bk, &p);
	err = catch_end();
	fail_fstat = false;
	CHECK(st == FB_ESAFETY && p == NULL);
	CHECK(strstr(err, "cannot check ") != NULL);
	CHECK(strstr(err, ": Input/output error; refusing it\n") != NULL);
	CHECK(strstr(err, "truncated") == NULL);
	backup_free(p);
}

/* An image with known contents, opened as a target, and a backup of the regions. */
static struct target *setup(const char *img, const char *bk, unsigned char *orig)
{
	struct target *t = NULL;
	struct preserve *p = NULL;
	char err[512];
	int fd = open(img, O_RDWR | O_CREAT | O_TRUNC, 0600), st;

	for (uint64_t i = 0; i < IMG; i++)
		orig[i] = (unsigned char)(i * 131 + (i >> 9));
	CHECK(fd >= 0 && pwrite(fd, orig, IMG, 0) == (ssize_t)IMG);
	close(fd);
	CHECK(target_open(img, TGT_WRITE, &t, err, sizeof(err)) == 0);
	if (!t)
		return NULL;
	catch_start();
	st = backup_create(img, t, regions, 3, bk, &p);
	catch_end();
	CHECK(st == FB_OK);
	if (p)
		p->keep = true;
	backup_free(p);
	return t;
}

int main(void)
{
	char dir[] = "/tmp/fbunit.XXXXXX", img[64], bk[64];
	unsigned char *orig = malloc(IMG);
	struct target *t;

	CHECK(orig && mkdtemp(dir));
	snprintf(img, sizeof(img), "%s/card.img", dir);
	snprintf(bk, sizeof(bk), "%s/backup", dir);
	t = setup(img, bk, orig);
	if (t) {
		test_read_error(img, bk, orig, t);
		test_region_misfit(img, bk, t);
		test_fstat_error(bk);
		target_close(t);
	}
	unlink(bk);
	unlink(img);
	rmdir(dir);
	free(orig);
	UNIT_DONE();
}
