/* The one rule of data safety: see safety.h. */
#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/sysfs.h"
#include "core/mountinfo.h"
#include "core/opts.h"
#include "safety/outputs.h"
#include "safety/runlock.h"
#include "safety/safety.h"
#include "sim/sim_spec.h"
#include "safety/storage.h"
#include "core/units.h"

#define WHY_LEN (6 * PATH_MAX)

/* The storage of DEVICE: a sim: card's is its image's (none without one). */
static int resolve_device(const char *device, struct storage *s)
{
	char image[PATH_MAX];

	s->n = 0;
	if (strncmp(device, "sim:", 4) != 0)
		return storage_resolve(device, s);
	return sim_device_image(device, image, sizeof(image)) ? storage_resolve(image, s) : 0;
}

/* Block item of s whose number is dev, or whose node source names; -1. */
static int block_in(const struct storage *s, dev_t dev, const char *source)
{
	struct stat st;
	bool by_source = strncmp(source, "/dev/", 5) == 0 && stat(source, &st) == 0 &&
			 S_ISBLK(st.st_mode);

	for (size_t i = 0; i < s->n; i++)
		if (s->it[i].kind == STOR_BLOCK &&
		    (s->it[i].rdev == dev || (by_source && s->it[i].rdev == st.st_rdev)))
			return (int)i;
	return -1;
}

/* A mount of anything in s: why, and 1; 0 when none; -1 when unreadable. */
static int mounted(const struct storage *s, char *why, size_t len)
{
	struct mount_entry m;
	char how[PATH_MAX * 2];
	FILE *f = mountinfo_open();
	int i = -1;

	if (!f) {
		snprintf(why, len, "cannot read /proc/self/mountinfo to see whether it is "
			 "mounted: %s", strerror(errno));
		return -1;
	}
	/* btrfs and others report an anonymous device number: the source counts too. */
	while (i < 0 && mountinfo_next(f, &m))
		if ((i = block_in(s, m.dev, m.source)) >= 0) {
			storage_how(s, (size_t)i, how, sizeof(how));
			snprintf(why, len, "%s is mounted on %s (%s)%s", s->it[i].name, m.mp,
				 m.fstype, how);
		}
	mountinfo_close(f);
	return i >= 0;
}

/* /proc/swaps: a swap partition or swap file in s. */
static int swapped(const struct storage *s, char *why, size_t len)
{
	FILE *f = fopen("/proc/swaps", "r");
	char *line = NULL, *save, how[PATH_MAX * 2];
	size_t cap = 0;
	int hit = 0;

	if (!f)
		return 0;	/* no swap support: nothing can be swap */
	while (!hit && getline(&line, &cap, f) > 0) {
		char *name = strtok_r(line, " \t\n", &save);
		struct stat st;

		if (!name || name[0] != '/')
			continue;	/* the header line */
		unescape_octal(name);
		if (stat(name, &st) < 0)
			continue;
		for (size_t i = 0; !hit && i < s->n; i++) {
			const struct stor_item *x = &s->it[i];

			if ((S_ISBLK(st.st_mode) && x->kind == STOR_BLOCK && x->rdev == st.st_rdev) ||
			    (!S_ISBLK(st.st_mode) && x->kind == STOR_FILE && x->dev == st.st_dev &&
			     x->ino == st.st_ino)) {
				storage_how(s, i, how, sizeof(how));
				snprintf(why, len, "%s is in use as swap%s", name, how);
				hit = 1;
			}
		}
	}
	free(line);
	fclose(f);
	return hit;
}

/* /sys/dev/block/M:m/holders: device mapper, MD RAID, bcache on top of an item. */
static int held(const struct storage *s, char *why, size_t len)
{
	char dir[96], how[PATH_MAX * 2];
	struct dirent *e;
	DIR *d;

	for (size_t i = 0; i < s->n; i++) {
		if (s->it[i].kind != STOR_BLOCK)
			continue;
		snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u/holders",
			 major(s->it[i].rdev), minor(s->it[i].rdev));
		if (!(d = opendir(dir)))
			continue;
		while ((e = readdir(d)) && e->d_name[0] == '.')
			;
		if (e) {
			storage_how(s, i, how, sizeof(how));
			snprintf(why, len, "%s is held by %s (device mapper, RAID or similar)%s",
				 s->it[i].name, e->d_name, how);
		}
		closedir(d);
		if (e)
			return 1;
	}
	return 0;
}

/*
 * A loop device on what the path writes: loop claims nothing, so neither
 * O_EXCL nor holders/ show it, and a file system mounted through it (or
 * through a second loop device on the same file) would change under it.
 */
static int aliased(const struct storage *s, char *why, size_t len)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct stor_item *x = &s->it[i], *on;

		if (x->role != STOR_USER || x->via < 0 || s->it[x->via].role == STOR_USER)
			continue;
		on = &s->it[x->via];
		snprintf(why, len, "%s is %sthe backing %s of %s", on->name,
			 on->role == STOR_BACKING ? "also " : "",
			 on->kind == STOR_BLOCK ? "device" : "file", x->name);
		return 1;
	}
	return 0;
}

/* Is anything s lands on in use? 1 with the reason, 0, or -1 (cannot tell). */
static int in_use(const struct storage *s, char *why, size_t len)
{
	int r = mounted(s, why, len);

	if (r == 0)
		r = swapped(s, why, len);
	if (r == 0)
		r = held(s, why, len);
	if (r == 0)
		r = aliased(s, why, len);
	return r;
}

static int check_device(const struct storage *s, const char *path)
{
	static char why[WHY_LEN];

	if (in_use(s, why, sizeof(why)) == 0)
		return FB_OK;
	fprintf(stderr, "flashbench: refusing to write to %s: %s\n", path, why);
	return FB_ESAFETY;
}

int safety_check_writable(const char *path)
{
	struct storage s = { 0 };
	int r = resolve_device(path, &s) < 0 ? FB_EDEV : check_device(&s, path);

	storage_free(&s);
	return r;
}

/* "--out=X: is Y itself (how Y is reached); results go to another file" */
static int out_overlaps(const char *label, const struct storage *o, const struct storage *other,
			const char *what)
{
	char how[PATH_MAX * 2];
	size_t j;
	int i = storage_overlap(o, other, &j);

	if (i < 0)
		return FB_OK;
	storage_how(other, j, how, sizeof(how));
	fprintf(stderr, "flashbench: %s: is %s%s%s; results go to another file\n", label,
		what ? what : other->it[j].name, what || j ? "" : " itself", how);
	return FB_EUSAGE;
}

/* The files of this run's results (outputs.h): --out or standard output, each --log. */
static struct output outs[RUN_LOGS + 1];
static size_t nouts;
/* What DEVICE was found to be, for safety_check_opened(). */
static struct stor_item dev_checked;
static bool dev_resolved;

static void outputs_reset(void)
{
	for (size_t i = 0; i < nouts; i++)
		output_free(&outs[i]);
	nouts = 0;
}

/* "the --out file" for messages about another output. */
static const char *what_of(const struct output *o, char *buf, size_t len)
{
	if (!o->path)
		snprintf(buf, len, "%.40s", o->label);
	else
		snprintf(buf, len, "the %.*s file", (int)(strchr(o->label, '=') - o->label), o->label);
	return buf;
}

/*
 * Output i: a file of its own, not in use, apart from DEVICE, the
 * backup, the --restore input and every output before it; a regular file
 * locked against other runs.
 */
static int check_output(size_t i, const struct run_paths *p, const struct storage *dev)
{
	static char why[WHY_LEN];
	struct output *o = &outs[i];
	struct storage b = { 0 };
	char what[64];
	int r = out_overlaps(o->label, &o->st, dev, NULL);

	if (r == FB_OK && o->st.n && o->st.it[0].kind == STOR_BLOCK) {
		fprintf(stderr, "flashbench: %s: is a block device; results go to a file\n", o->label);
		r = FB_EUSAGE;
	}

	if (r == FB_OK && p->backup && storage_resolve(p->backup, &b) == 0)
		r = out_overlaps(o->label, &o->st, &b, "the --backup file");
	if (r == FB_OK && p->restore && storage_resolve(p->restore, &b) == 0)
		r = out_overlaps(o->label, &o->st, &b, "the --restore file");
	for (size_t j = 0; r == FB_OK && j < i; j++)
		r = out_overlaps(o->label, &o->st, &outs[j].st, what_of(&outs[j], what, sizeof(what)));
	if (r == FB_OK && in_use(&o->st, why, sizeof(why)) != 0) {
		fprintf(stderr, "flashbench: %s: %s; results go to another file\n", o->label, why);
		r = FB_EUSAGE;
	}
	if (r == FB_OK && o->fd >= 0 && o->regular)
		r = runlock_fd(o->fd, o->label, o->path ? o->path : o->label);
	storage_free(&b);
	return r;
}

/* --out (or standard output, when results go there) and every --log, opened and checked. */
static int check_outputs(const struct run_paths *p, const struct storage *dev)
{
	int r = FB_OK;

	if (p->out)
		r = output_open(&outs[nouts++], "--out", p->out);
	else if (!p->restore)
		r = output_std(&outs[nouts++], STDOUT_FILENO, "standard output");
	for (size_t i = 0; r == FB_OK && i < RUN_LOGS && p->logs[i]; i++)
		r = output_open(&outs[nouts++], "--log", p->logs[i]);
	for (size_t i = 0; r == FB_OK && i < nouts; i++)
		r = check_output(i, p, dev);
	return r;
}

/* --restore=FILE: not on the storage it is about to overwrite. */
static int check_restore_input(const char *file, const char *device, const struct storage *dev)
{
	struct storage in = { 0 }, fs = { 0 };
	char dir[PATH_MAX], how[PATH_MAX * 2];
	size_t j;
	int i = -1;

	snprintf(dir, sizeof(dir), "%s", file);
	if (strrchr(dir, '/'))
		*strrchr(dir, '/') = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	if (storage_resolve(file, &in) == 0 && (i = storage_overlap(&in, dev, &j)) < 0 &&
	    storage_resolve_fs(dir, &fs) == 0)
		i = storage_overlap(&fs, dev, &j);
	if (i >= 0) {
		storage_how(dev, j, how, sizeof(how));
		fprintf(stderr, "flashbench: --restore=%s: lies on %s%s, which it would overwrite "
			"on %s; copy it elsewhere first\n", file, dev->it[j].name, how, device);
	}
	storage_free(&in);
	storage_free(&fs);
	return i >= 0 ? FB_ESAFETY : FB_OK;
}

int safety_check_run(const struct run_paths *p)
{
	struct storage dev = { 0 };
	int r = resolve_device(p->device, &dev) < 0 ? FB_EDEV : FB_OK;

	outputs_reset();
	dev_resolved = r == FB_OK && dev.n > 0;
	if (dev_resolved)
		dev_checked = dev.it[0];
	if (r == FB_OK && p->writes)
		r = check_device(&dev, p->device);
	if (r == FB_OK && p->backup)
		r = safety_check_backup(p->backup, p->device, 0);
	if (r == FB_OK && p->restore)
		r = check_restore_input(p->restore, p->device, &dev);
	if (r == FB_OK)
		r = check_outputs(p, &dev);
	if (r == FB_OK && p->writes)
		r = runlock_storage(&dev, p->device);
	storage_free(&dev);
	return r;
}

int safety_check_opened(const struct run_paths *p, int fd)
{
	struct storage s = { 0 };
	int r = FB_OK;

	if (fd < 0 || !dev_resolved)
		return FB_OK;	/* no storage (sim: without image), or an image not created yet */
	if (storage_resolve_fd(fd, dev_checked.name, &s) < 0)
		return FB_EDEV;
	if (s.n == 0 || !storage_same(&s.it[0], &dev_checked)) {
		fprintf(stderr, "flashbench: refusing to write to %s: %s changed between its check "
			"and its opening (a symlink or a file replaced meanwhile?)\n", p->device,
			dev_checked.name);
		r = FB_ESAFETY;
	}
	/* Checked again as opened (the lock, on its inode, was taken by the check). */
	if (r == FB_OK && p->writes)
		r = check_device(&s, p->device);
	storage_free(&s);
	return r;
}

int safety_commit_output(const char *path, int *fd)
{
	int st = FB_EDEV;

	*fd = -1;
	for (size_t i = 0; i < nouts; i++)
		if (outs[i].path && strcmp(outs[i].path, path) == 0) {
			*fd = output_commit(&outs[i], &st);
			return st;
		}
	fprintf(stderr, "flashbench: internal error: %s was not checked\n", path);
	return st;
}

/* Standard error elsewhere (standard output, unless a file too; else nowhere). */
static void move_stderr(void)
{
	struct stat st;
	int fd = -1;

	if (fstat(STDOUT_FILENO, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		fd = dup(STDOUT_FILENO);
	if (fd < 0)
		fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
}

/* What standard error must not land on, by the names given. */
static int stderr_hits(const struct output *e, const struct run_paths *p, char *what, size_t len)
{
	const char *names[RUN_LOGS + 4] = { p->device, p->backup, p->restore, p->out };
	const char *whats[] = { "the device under test", "the --backup file", "the --restore file",
				"the --out file" };
	struct storage s = { 0 };
	size_t j, n = 4;
	int hit = -1;

	for (size_t i = 0; i < RUN_LOGS && p->logs[i]; i++)
		names[n++] = p->logs[i];
	for (size_t i = 0; hit < 0 && i < n; i++) {
		if (!names[i])
			continue;
		if ((i == 0 ? resolve_device(names[i], &s) : storage_resolve(names[i], &s)) == 0 &&
		    storage_overlap(&e->st, &s, &j) >= 0) {
			snprintf(what, len, "%s (%s)", i < 4 ? whats[i] : "the --log file", names[i]);
			hit = (int)i;
		}
		storage_free(&s);
	}
	return hit;
}

/* Standard error was a block device, and was moved away by safety_guard_stderr(). */
static bool stderr_was_block;

void safety_guard_stderr(void)
{
	struct stat st;

	if (fstat(STDERR_FILENO, &st) == 0 && S_ISBLK(st.st_mode)) {
		move_stderr();
		stderr_was_block = true;
	}
}

int safety_check_stderr(const struct run_paths *p)
{
	struct output e;
	char what[PATH_MAX + 64];
	int r = output_std(&e, STDERR_FILENO, "standard error");

	what[0] = '\0';
	if (stderr_was_block || (r == FB_OK && e.st.n && e.st.it[0].kind == STOR_BLOCK))
		snprintf(what, sizeof(what), "a block device");
	else if (r == FB_OK && e.st.n)
		stderr_hits(&e, p, what, sizeof(what));
	output_free(&e);
	if (r != FB_OK || !what[0])
		return r;
	/* Not one more byte there: the message itself goes elsewhere. */
	move_stderr();
	fprintf(stderr, "flashbench: standard error: is %s; messages go to another file\n", what);
	return FB_EUSAGE;
}

/* The directory a file would be created in. */
static void dir_of(const char *file, char *dir, size_t len)
{
	const char *slash = strrchr(file, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == file)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - file), file);
}

static int check_backup_space(const char *backup, const char *dir, uint64_t need)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN];
	struct statvfs vfs;
	uint64_t avail;

	if (!need || statvfs(dir, &vfs) < 0)
		return FB_OK;	/* cannot tell: the writes will say so */
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (avail >= need)
		return FB_OK;
	fprintf(stderr, "flashbench: --backup: not enough free space for %s: it needs %s, "
		"%s has %s free\n", backup, fmt_size(a, sizeof(a), need), dir,
		fmt_size(b, sizeof(b), avail));
	return FB_ESAFETY;
}

/* Would the backup land on what the device under test writes? */
static int backup_on_device(const char *backup, const char *dir, const char *device)
{
	struct storage dev = { 0 }, b = { 0 }, fs = { 0 };
	char how[PATH_MAX * 2];
	size_t j;
	int i = -1;

	if (resolve_device(device, &dev) == 0 && storage_resolve(backup, &b) == 0 &&
	    (i = storage_overlap(&b, &dev, &j)) < 0 && storage_resolve_fs(dir, &fs) == 0)
		i = storage_overlap(&fs, &dev, &j);
	if (i >= 0) {
		storage_how(&dev, j, how, sizeof(how));
		fprintf(stderr, "flashbench: --backup: '%s' would lie on %s%s, the device under "
			"test\n", backup, j == 0 ? device : dev.it[j].name, how);
	}
	storage_free(&dev);
	storage_free(&b);
	storage_free(&fs);
	return i >= 0 ? FB_ESAFETY : FB_OK;
}

int safety_check_backup(const char *backup, const char *device, uint64_t need)
{
	char dir[PATH_MAX];
	struct stat st;

	if (lstat(backup, &st) == 0) {
		fprintf(stderr, "flashbench: --backup: '%s' already exists; "
			"refusing to overwrite it\n", backup);
		return FB_ESAFETY;
	}
	dir_of(backup, dir, sizeof(dir));
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "flashbench: --backup: no directory '%s' for '%s'\n", dir, backup);
		return FB_ESAFETY;
	}
	if (access(dir, W_OK | X_OK) < 0) {
		fprintf(stderr, "flashbench: --backup: cannot create '%s' in '%s': %s\n", backup,
			dir, strerror(errno));
		return FB_ESAFETY;
	}
	if (backup_on_device(backup, dir, device) != FB_OK)
		return FB_ESAFETY;
	return check_backup_space(backup, dir, need);
}

/* The first of the identity files of a disk that the kernel offers. */
static void disk_identity(const char *disk, char *buf, size_t len)
{
	static const char *const files[][2] = {
		{ "device/cid", "mmc cid" }, { "wwid", "wwid" }, { "device/wwid", "wwid" },
		{ "device/serial", "serial" }, { "serial", "serial" },
	};
	char path[PATH_MAX + 32], v[512];
	size_t n;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "/sys/block/%s/%s", disk, files[i][0]);
		if (sysfs_read_line(path, v, sizeof(v)) == 0 && v[0]) {
			snprintf(buf, len, "%s %s", files[i][1], v);
			return;
		}
	}
	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", disk);
	if (sysfs_read_line(path, v, sizeof(v)) == 0) {
		n = strlen(v);
		if (n > 10 && strcmp(v + n - 10, " (deleted)") == 0)
			v[n - 10] = '\0';
		snprintf(buf, len, "loop backing file %s", v);
		return;
	}
	snprintf(buf, len, "block device");
}

void safety_identity(const char *path, char *buf, size_t len)
{
	struct storage s = { 0 };
	const struct stor_item *x;
	size_t n;

	snprintf(buf, len, "%s", strncmp(path, "sim:", 4) == 0 ? "simulated card" : "");
	if (buf[0] || storage_resolve(path, &s) < 0 || s.n == 0 || s.it[0].kind == STOR_NEW) {
		storage_free(&s);
		return;
	}
	x = &s.it[0];
	if (x->kind != STOR_BLOCK)
		snprintf(buf, len, "file");
	else if (!x->disk_kname[0])
		snprintf(buf, len, "block device");
	else
		disk_identity(x->disk_kname, buf, len);
	n = strlen(buf);
	if (x->kind == STOR_BLOCK && x->disk != x->rdev && n < len)
		snprintf(buf + n, len - n, ", partition at sector %llu",
			 (unsigned long long)(x->part_start / 512));
	storage_free(&s);
}
