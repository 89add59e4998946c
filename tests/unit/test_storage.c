/*
 * storage.c and runlock.c without root: a file, a symlink and a hard
 * link to it are the same storage; a file not created yet is known by
 * its directory and name; a second lock on a file this process already
 * locked through another descriptor is refused, and released again.
 * (Loop devices, partitions and mounts: tests/cli/matrix.sh, as root.)
 */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/opts.h"
#include "safety/runlock.h"
#include "safety/safety.h"
#include "safety/storage.h"
#include "unit.h"

static char dir[] = "/tmp/fbstorage.XXXXXX";
static char file[64], sym[64], hard[64], other[64], fresh[64], fresh2[64];

static void make_files(void)
{
	int fd;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(file, sizeof(file), "%s/f", dir);
	snprintf(sym, sizeof(sym), "%s/s", dir);
	snprintf(hard, sizeof(hard), "%s/h", dir);
	snprintf(other, sizeof(other), "%s/o", dir);
	snprintf(fresh, sizeof(fresh), "%s/new", dir);
	snprintf(fresh2, sizeof(fresh2), "%s/./new", dir);
	fd = open(file, O_CREAT | O_WRONLY, 0644);
	CHECK(fd >= 0 && write(fd, "x", 1) == 1);
	close(fd);
	fd = open(other, O_CREAT | O_WRONLY, 0644);
	close(fd);
	CHECK(symlink(file, sym) == 0);
	CHECK(link(file, hard) == 0);
}

static bool same_storage(const char *a, const char *b)
{
	struct storage x = { 0 }, y = { 0 };
	size_t j;
	bool r;

	CHECK(storage_resolve(a, &x) == 0 && storage_resolve(b, &y) == 0);
	r = storage_overlap(&x, &y, &j) >= 0;
	storage_free(&x);
	storage_free(&y);
	return r;
}

static void test_aliases(void)
{
	struct storage s = { 0 };
	char how[256];

	CHECK(same_storage(file, sym));
	CHECK(same_storage(file, hard));
	CHECK(same_storage(sym, hard));
	CHECK(!same_storage(file, other));
	/* Not created yet: the same directory and name, however it is written. */
	CHECK(same_storage(fresh, fresh2));
	CHECK(!same_storage(fresh, file));
	CHECK(storage_resolve(fresh, &s) == 0 && s.n == 1 && s.it[0].kind == STOR_NEW);
	CHECK(storage_resolve("/no/such/dir/x", &s) == 0 && s.n == 0);
	CHECK(storage_resolve(file, &s) == 0 && s.n >= 1 && s.it[0].kind == STOR_FILE);
	CHECK(s.it[0].chain && s.it[0].role == STOR_SELF && s.it[0].via == -1);
	storage_how(&s, 0, how, sizeof(how));
	CHECK_STR(how, "");	/* the path itself needs no explanation */
	storage_free(&s);
}

static void test_locks(void)
{
	struct storage s = { 0 };
	int fd;

	CHECK(storage_resolve(file, &s) == 0);
	CHECK(runlock_storage(&s, file) == FB_OK);
	/* The same process through another open file description: refused too. */
	fd = open(hard, O_RDWR);
	CHECK(fd >= 0 && runlock_fd(fd, "--out=h", hard) == FB_ESAFETY);
	runlock_release();
	CHECK(runlock_fd(fd, "--out=h", hard) == FB_OK);
	runlock_release();
	close(fd);
	/* A file that is locked is refused by the whole rule, as DEVICE. */
	CHECK(runlock_storage(&s, file) == FB_OK);
	runlock_release();
	storage_free(&s);
}

static void test_rule(void)
{
	struct run_paths p = { .device = file, .writes = true };
	struct storage s = { 0 };

	p.out = sym;
	CHECK(safety_check_run(&p) == FB_EUSAGE);	/* --out is DEVICE */
	p.out = NULL;
	p.backup = hard;
	CHECK(safety_check_run(&p) == FB_ESAFETY);	/* the backup exists */
	p.backup = fresh;
	p.out = fresh2;
	CHECK(safety_check_run(&p) == FB_EUSAGE);	/* --out is the backup */
	p.out = NULL;
	CHECK(storage_resolve(sym, &s) == 0 && runlock_storage(&s, sym) == FB_OK);
	runlock_release();
	CHECK(safety_check_run(&p) == FB_OK);
	/* Now this process holds DEVICE's lock: a second take is refused. */
	CHECK(runlock_storage(&s, sym) == FB_ESAFETY);
	runlock_release();
	storage_free(&s);
}

/* Issue 24: a dangling symlink leads where a new file lands; a descriptor is what it is open on. */
static void test_fd_and_dangling(void)
{
	char dang[80], target[80], at[PATH_MAX];
	struct storage s = { 0 }, t = { 0 };
	size_t j;
	int fd = open(sym, O_RDONLY);

	snprintf(dang, sizeof(dang), "%s/dangling", dir);
	snprintf(target, sizeof(target), "%s/landed", dir);
	CHECK(symlink("landed", dang) == 0);
	CHECK(storage_new_path(dang, at, sizeof(at)) == 0);
	CHECK_STR(at, target);
	CHECK(storage_new_path(fresh, at, sizeof(at)) == 0);
	CHECK_STR(at, fresh);
	/* the symlink and its target, not there yet, are one new file */
	CHECK(same_storage(dang, target));
	CHECK(storage_resolve(dang, &s) == 0 && s.n == 1 && s.it[0].kind == STOR_NEW);
	CHECK(strstr(s.it[0].name, "/landed") != NULL);
	/* a descriptor: the file it was opened on, whatever the name says now */
	CHECK(fd >= 0 && storage_resolve_fd(fd, "s", &s) == 0 && s.n >= 1);
	CHECK(storage_resolve(file, &t) == 0 && storage_overlap(&s, &t, &j) == 0);
	CHECK(storage_same(&s.it[0], &t.it[0]));
	CHECK(storage_resolve(other, &t) == 0 && !storage_same(&s.it[0], &t.it[0]));
	close(fd);
	storage_free(&s);
	storage_free(&t);
}

int main(void)
{
	char cmd[128];

	make_files();
	test_aliases();
	test_locks();
	test_rule();
	test_fd_and_dangling();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	UNIT_DONE();
}
