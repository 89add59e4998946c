/* Preserve mode and --restore: see preserve.h. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "safety/backup.h"
#include "core/engine.h"
#include "safety/preserve.h"
#include "safety/safety.h"
#include "sim/sim_spec.h"
#include "core/units.h"

void preserve_default_name(const char *device, char *buf, size_t len)
{
	const char *base = strrchr(device, '/');
	char name[64], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	size_t i;

	/* A device's own name; a sim: spec whole (its image= may hold slashes). */
	base = base && base[1] && strncmp(device, "sim:", 4) != 0 ? base + 1 : device;
	for (i = 0; base[i] && i < sizeof(name) - 1; i++) {
		char c = base[i];
		name[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '.' || c == '-' ? c : '_';
	}
	name[i] = '\0';
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, "flashbench-%s-%s.backup", name, stamp);
}

/* "will overwrite 160MiB in 20 regions between 16MiB and 176MiB of /dev/sdd" */
static void announce(const char *device, const struct region *r, size_t n)
{
	char a[FB_FMT_LEN], b[FB_FMT_LEN], c[FB_FMT_LEN];

	fprintf(stderr, "flashbench: will overwrite %s in %zu region%s between %s and %s of %s\n",
		fmt_size(a, sizeof(a), regions_bytes(r, n)), n, n == 1 ? "" : "s",
		fmt_size(b, sizeof(b), r[0].off), fmt_size(c, sizeof(c), regions_end(r, n)), device);
}

int preserve_begin(const struct fb_opts *o, struct target *t, const struct region *r, size_t n,
		   struct preserve **p)
{
	char name[256];
	const char *file = o->backup;
	int st = FB_OK;

	*p = NULL;
	if (n > BK_MAX_REGIONS) {
		fprintf(stderr, "flashbench: too many regions to write (%zu)\n", n);
		return FB_EDEV;
	}
	if (n && o->preserve && !file) {
		preserve_default_name(o->device, name, sizeof(name));
		file = name;
	}
	/* Every refusal before the announcement: a refused run says nothing will be written. */
	if (n && o->preserve)
		st = safety_check_backup(file, o->device, backup_file_size(n, regions_bytes(r, n)));
	if (st == FB_OK && regions_arm(r, n) < 0)
		st = FB_EDEV;
	if (st == FB_OK && n)
		announce(o->device, r, n);
	/* (eng_signals() has made every stopping signal set fb_stop, which the backup heeds.) */
	if (st == FB_OK && n && o->preserve)
		st = backup_create(o->device, t, r, (uint32_t)n, file, p);
	return st;
}

void preserve_discard(struct preserve *p)
{
	regions_disarm();
	backup_discard(p);
}

int preserve_end(struct preserve *p, struct target *t, int r)
{
	int st;

	regions_disarm();
	if (!p)
		return r;
	st = backup_restore(p, t);
	backup_free(p);
	return st == FB_OK ? r : st;
}

/* Open the device for writing, exclusively; exit status as main.c's open_target(). */
static int open_for_restore(const char *device, struct target **t)
{
	char err[512] = "";
	int r;

	if ((r = target_open(device, TGT_WRITE | TGT_EXCL, t, err, sizeof(err))) == 0)
		return FB_OK;
	fprintf(stderr, "flashbench: %s\n", err[0] ? err : strerror(-r));
	return r == -ENOENT || r == -EINVAL || r == -ENODEV ? FB_EUSAGE :
	       r == -EBUSY ? FB_ESAFETY : FB_EDEV;
}

/* A simulated card keeps its data only in an image file, which must exist. */
static int sim_image_ok(const char *device)
{
	char image[4096];
	struct stat st;

	if (!sim_device_image(device, image, sizeof(image))) {
		fprintf(stderr, "flashbench: --restore: %s has no image=: a simulated card without "
			"a backing image keeps no data to restore\n", device);
		return FB_EUSAGE;
	}
	if (stat(image, &st) < 0) {
		fprintf(stderr, "flashbench: --restore: sim: image '%s': %s\n", image, strerror(errno));
		return FB_EUSAGE;
	}
	return FB_OK;
}

int preserve_restore_file(const char *file, const char *device)
{
	struct run_paths paths = { .device = device, .writes = true, .restore = file };
	struct preserve *p = NULL;
	struct target *t = NULL;
	/* Before a word is said: standard error must not be the device. */
	int r = safety_check_stderr(&paths);

	if (r == FB_OK && strncmp(device, "sim:", 4) == 0)
		r = sim_image_ok(device);
	/* In use, or on what it overwrites? Refused before even looking at the backup. */
	if (r == FB_OK)
		r = safety_check_run(&paths);
	if (r == FB_OK)
		r = backup_open(file, &p);
	if (r == FB_OK)
		r = open_for_restore(device, &t);
	if (r == FB_OK)
		r = safety_check_opened(&paths, target_data_fd(t));
	if (r == FB_OK)
		r = backup_match(p, t, device);
	if (r == FB_OK && strcmp(p->device, device) != 0) {
		/* Say what is written: DEVICE, whatever path the backup was made through. */
		fprintf(stderr, "flashbench: --restore: %s was made of %s; writing it to %s\n",
			file, p->device, device);
		snprintf(p->device, sizeof(p->device), "%s", device);
	}
	if (r == FB_OK)
		r = backup_restore(p, t);
	target_close(t);
	backup_free(p);
	return r;
}
