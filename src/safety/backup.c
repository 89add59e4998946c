/* Making the backup file and writing it back: see backup.h and preserve.h.
 * Reading and checking it for --restore: backup_open.c. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "safety/backup.h"
#include "core/engine.h"
#include "core/fullio.h"
#include "core/opts.h"
#include "safety/safety.h"
#include "core/units.h"


uint64_t fnv1a64(uint64_t h, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

uint64_t bk_get64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}


/* The signals that stop a test: held back while the data goes back. */
static void hold_signals(bool hold, sigset_t *old)
{
	sigset_t s;

	eng_stop_signals(&s);
	sigprocmask(hold ? SIG_BLOCK : SIG_SETMASK, hold ? &s : old, hold ? old : NULL);
}

void *bk_io_buffer(const struct target *t)
{
	void *buf;
	size_t align = t->mem_align > 4096 ? t->mem_align : 4096;

	if (posix_memalign(&buf, align, BK_CHUNK) != 0) {
		fprintf(stderr, "flashbench: cannot allocate a buffer of %u bytes\n", BK_CHUNK);
		return NULL;
	}
	return buf;
}

/* The largest multiple of the sector that fits in the I/O buffer. */
static size_t chunk_len(const struct target *t, uint64_t left)
{
	uint64_t c = t->sector > BK_CHUNK ? t->sector : BK_CHUNK / t->sector * t->sector;

	return (size_t)(left < c ? left : c);
}

/* Checksum of [off, off + len) of the device; 0 or -errno (message printed). */
int bk_device_sum(struct target *t, void *buf, uint64_t off, uint64_t len, uint64_t *sum)
{
	uint64_t h = FNV64_INIT, ns;

	for (uint64_t done = 0; done < len;) {
		size_t n = chunk_len(t, len - done);
		int r = target_read(t, buf, n, off + done, &ns);

		if (r < 0) {
			fprintf(stderr, "flashbench: read at offset %llu, length %zu: %s\n",
				(unsigned long long)(off + done), n, strerror(-r));
			return r;
		}
		h = fnv1a64(h, buf, n);
		done += n;
	}
	*sum = h;
	return 0;
}

static bool overlaps(const struct bk_entry *e, uint32_t n, uint64_t off, uint64_t len)
{
	for (uint32_t i = 0; i < n; i++)
		if (off < e[i].off + e[i].len && e[i].off < off + len)
			return true;
	return false;
}

/* Identity samples: ranges spread over the device that the test never writes. */
static int take_samples(struct preserve *p, struct target *t, void *buf)
{
	uint64_t len = (BK_SAMPLE_LEN + t->sector - 1) / t->sector * t->sector;
	struct bk_entry *s = p->e + p->nr;

	p->ns = 0;
	for (unsigned k = 0; len <= p->size && k < BK_SAMPLES; k++) {
		uint64_t off = (p->size - len) / (BK_SAMPLES - 1) * k;

		off -= off % t->sector;
		if (overlaps(p->e, p->nr, off, len) || overlaps(s, p->ns, off, len))
			continue;
		s[p->ns].off = off;
		s[p->ns].len = len;
		if (bk_device_sum(t, buf, off, len, &s[p->ns].sum) < 0)
			return -1;
		p->ns++;
	}
	return 0;
}

uint64_t bk_table_len(uint32_t nr, uint32_t ns)
{
	return (uint64_t)(nr + ns) * BK_ENTRY;
}

/* Where the data starts: after header and tables, at a multiple of BK_HDR. */
static uint64_t data_start(uint32_t nr)
{
	return (BK_HDR + bk_table_len(nr, BK_SAMPLES) + BK_HDR - 1) / BK_HDR * BK_HDR;
}

uint64_t backup_file_size(size_t n, uint64_t bytes)
{
	return data_start((uint32_t)n) + bytes;
}

/* Header and tables into a buffer of data_off bytes, with their checksum. */
static void encode(const struct preserve *p, unsigned char *h)
{
	memset(h, 0, p->data_off);
	memcpy(h, BK_MAGIC, 8);
	put64(h + 8, (uint64_t)BK_VERSION | (uint64_t)p->nr << 32);
	put64(h + 16, (uint64_t)p->ns | (uint64_t)p->sector << 32);
	put64(h + 24, p->size);
	put64(h + 32, p->total);
	put64(h + 40, p->data_off);
	put64(h + 48, (uint64_t)time(NULL));
	snprintf((char *)h + 64, BK_TEXT, "%s", p->device);
	snprintf((char *)h + 64 + BK_TEXT, BK_TEXT, "%s", p->identity);
	for (uint32_t i = 0; i < p->nr + p->ns; i++) {
		put64(h + BK_HDR + i * BK_ENTRY, p->e[i].off);
		put64(h + BK_HDR + i * BK_ENTRY + 8, p->e[i].len);
		put64(h + BK_HDR + i * BK_ENTRY + 16, p->e[i].sum);
	}
	put64(h + BK_SUM_AT, fnv1a64(fnv1a64(FNV64_INIT, h, BK_SUM_AT), h + BK_HDR,
				     bk_table_len(p->nr, p->ns)));
}

/*
 * Copy the regions from the device into the file, after the header space.
 * A signal stops it (-EINTR): nothing has been written to the device yet,
 * so there is nothing to wait for. A failed device read is printed and
 * sets *dev_failed.
 */
static int copy_out(struct preserve *p, struct target *t, void *buf, bool *dev_failed)
{
	uint64_t ns;
	int r;

	if (lseek(p->fd, (off_t)p->data_off, SEEK_SET) < 0)
		return -errno;
	for (uint32_t i = 0; i < p->nr; i++) {
		struct bk_entry *e = &p->e[i];
		uint64_t h = FNV64_INIT;

		for (uint64_t done = 0; done < e->len;) {
			size_t n = chunk_len(t, e->len - done);

			if (fb_stop)
				return -EINTR;
			if ((r = target_read(t, buf, n, e->off + done, &ns)) < 0) {
				fprintf(stderr, "flashbench: --preserve: read at offset %llu, length %zu: %s\n",
					(unsigned long long)(e->off + done), n, strerror(-r));
				*dev_failed = true;
				return r;
			}
			if ((r = full_write(p->fd, buf, n)) < 0)
				return r;
			h = fnv1a64(h, buf, n);
			done += n;
		}
		e->sum = h;
	}
	return fb_stop ? -EINTR : 0;	/* a signal during the last chunk */
}

/* Samples, data, then the header last (with its magic), fsync'ed. */
static int write_backup(struct preserve *p, struct target *t, void *buf, bool *dev_failed)
{
	unsigned char *h;
	int r;

	if (take_samples(p, t, buf) < 0) {
		*dev_failed = true;
		return -EIO;
	}
	p->data_off = data_start(p->nr);
	if ((r = copy_out(p, t, buf, dev_failed)) < 0)
		return r;
	if (!(h = malloc(p->data_off)))
		return -ENOMEM;
	encode(p, h);
	r = lseek(p->fd, 0, SEEK_SET) < 0 ? -errno : full_write(p->fd, h, p->data_off);
	free(h);
	if (r == 0 && fsync(p->fd) < 0)
		r = -errno;
	return r;
}

/* Make the directory entry of the new file durable too. */
static void fsync_dir(const char *file)
{
	char dir[4096];
	const char *slash = strrchr(file, '/');
	int fd;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - file) + 1 : 1, slash ? file : ".");
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		fsync(fd);
		close(fd);
	}
}

void backup_free(struct preserve *p)
{
	if (!p)
		return;
	if (p->fd >= 0)
		close(p->fd);
	free(p->e);
	free(p);
}

static struct preserve *backup_new(uint32_t nr)
{
	struct preserve *p = calloc(1, sizeof(*p));

	if (p && !(p->e = calloc(nr + BK_SAMPLES, sizeof(*p->e)))) {
		free(p);
		p = NULL;
	}
	if (p)
		p->fd = -1;
	else
		fprintf(stderr, "flashbench: out of memory\n");
	return p;
}

/* Why a backup failed, and the exit status that goes with it. */
static int create_failed(const char *file, int e, bool dev_failed)
{
	if (e == -EINTR) {
		fprintf(stderr, "flashbench: --preserve: interrupted by signal %d during the backup; "
			"nothing was written, %s removed\n", (int)fb_stop, file);
		return FB_EINTR;
	}
	fprintf(stderr, "flashbench: --preserve: cannot back up to %s: %s; nothing was written\n",
		file, strerror(-e));
	/* The device failed, or the backup could not be placed (refused, as documented). */
	return dev_failed ? FB_EDEV : FB_ESAFETY;
}

/* Create the backup of r[0..n) of t in file. */
int backup_create(const char *device, struct target *t, const struct region *r,
		  uint32_t n, const char *file, struct preserve **out)
{
	struct preserve *p = backup_new(n);
	char a[FB_FMT_LEN];
	void *buf = bk_io_buffer(t);
	bool dev_failed = false;
	int e = -ENOMEM;

	if (!p || !buf)
		goto fail;
	snprintf(p->file, sizeof(p->file), "%s", file);
	snprintf(p->device, sizeof(p->device), "%s", device);
	safety_identity(device, p->identity, sizeof(p->identity));
	p->size = t->size;
	p->sector = t->sector;
	p->nr = n;
	for (uint32_t i = 0; i < n; i++) {
		p->e[i] = (struct bk_entry){ r[i].off, r[i].len, 0 };
		p->total += r[i].len;
	}
	/* Signals only set fb_stop now, which copy_out() heeds. */
	p->fd = open(file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	e = p->fd < 0 ? -errno : write_backup(p, t, buf, &dev_failed);
	if (e < 0) {
		if (p->fd >= 0)
			unlink(file);
		goto fail;
	}
	fsync_dir(file);
	fprintf(stderr, "flashbench: backed up %s of %s to %s\n",
		fmt_size(a, sizeof(a), p->total), device, file);
	free(buf);
	*out = p;
	return FB_OK;
fail:
	free(buf);
	backup_free(p);
	return create_failed(file, e, dev_failed);
}

void backup_discard(struct preserve *p)
{
	if (p && unlink(p->file) == 0)
		fprintf(stderr, "flashbench: removed the backup %s (nothing was written)\n", p->file);
	backup_free(p);
}

/*
 * What could not be written back, summed up: a device that shrank during
 * the run fails every sector past its new end, and a line per sector
 * buried the one that matters (the retry command) under thousands.
 */
struct unrestored {
	uint64_t first, end, bytes, pieces;
	uint64_t err_off;
	int err;
};

static void unrestored_add(struct unrestored *u, uint64_t off, uint64_t len, int err)
{
	if (!u->bytes) {
		u->first = off;
		u->err_off = off;
		u->err = err;
	}
	if (!u->bytes || off != u->end)
		u->pieces++;
	if (off < u->first)
		u->first = off;
	if (off + len > u->end)
		u->end = off + len;
	u->bytes += len;
}

static void unrestored_say(const struct unrestored *u, const struct target *t)
{
	char a[FB_FMT_LEN];

	if (!u->bytes)
		return;
	fprintf(stderr, "flashbench: restore: %s between offset %llu and %llu of the device "
		"(%llu piece%s) not written back; the first failed write, at offset %llu, length "
		"%u: %s\n", fmt_size(a, sizeof(a), u->bytes), (unsigned long long)u->first,
		(unsigned long long)u->end, (unsigned long long)u->pieces, u->pieces == 1 ? "" : "s",
		(unsigned long long)u->err_off, t->sector, strerror(-u->err));
}

/*
 * A chunk the device refused as a whole: sector by sector. A sector that
 * still fails counts as restored when it reads back as the backup has
 * it: the test's own write to it failed the same way, so it never changed.
 */
static int write_sectors(struct target *t, const unsigned char *want, size_t len, uint64_t off,
			 struct unrestored *u)
{
	unsigned char *got = NULL;
	uint64_t ns;
	int r, bad = 0;

	if (posix_memalign((void **)&got, t->mem_align > 4096 ? t->mem_align : 4096, t->sector))
		return -ENOMEM;
	for (size_t s = 0; s < len; s += t->sector) {
		if ((r = target_write(t, want + s, t->sector, off + s, &ns)) == 0)
			continue;
		if (target_read(t, got, t->sector, off + s, &ns) == 0 &&
		    memcmp(got, want + s, t->sector) == 0)
			continue;
		unrestored_add(u, off + s, t->sector, r);
		bad = r;
	}
	free(got);
	return bad;
}

/*
 * Write region e back from its data at pos in the file. A read error in
 * the file ends this region only (reported): the caller goes on with the
 * others. 0, or the last -errno.
 */
static int copy_region(struct preserve *p, struct target *t, void *buf,
		       const struct bk_entry *e, uint64_t pos, struct unrestored *u)
{
	uint64_t ns;
	int r, bad = 0;

	for (uint64_t done = 0; done < e->len;) {
		size_t n = chunk_len(t, e->len - done);

		if ((r = pread_exact(p->fd, buf, n, pos + done)) < 0) {
			fprintf(stderr, "flashbench: restore: cannot read %s at offset %llu: %s; "
				"offset %llu, length %llu of the device is not restored\n", p->file,
				(unsigned long long)(pos + done), strerror(-r),
				(unsigned long long)e->off, (unsigned long long)e->len);
			return r;
		}
		if (target_write(t, buf, n, e->off + done, &ns) < 0 &&
		    (r = write_sectors(t, buf, n, e->off + done, u)) < 0)
			bad = r;
		done += n;
	}
	return bad;
}

/* Write every region back, whatever failed before it. 0, or the last -errno. */
static int copy_in(struct preserve *p, struct target *t, void *buf)
{
	struct unrestored u = { 0 };
	uint64_t pos = p->data_off;
	int r, bad = 0;

	for (uint32_t i = 0; i < p->nr; pos += p->e[i].len, i++)
		if ((r = copy_region(p, t, buf, &p->e[i], pos, &u)) < 0)
			bad = r;
	unrestored_say(&u, t);
	if (t->fd >= 0 && fsync(t->fd) < 0 && errno != EINVAL)
		bad = -errno;
	return bad;
}

/* Read every region back and compare with the backup's checksums. */
static int verify(struct preserve *p, struct target *t, void *buf)
{
	uint64_t sum;

	for (uint32_t i = 0; i < p->nr; i++) {
		if (bk_device_sum(t, buf, p->e[i].off, p->e[i].len, &sum) < 0)
			return -1;
		if (sum != p->e[i].sum) {
			fprintf(stderr, "flashbench: restore: offset %llu, length %llu reads back "
				"different from the backup\n", (unsigned long long)p->e[i].off,
				(unsigned long long)p->e[i].len);
			return -1;
		}
	}
	return 0;
}

/* Write back and verify with signals held: a second Ctrl-C must not cut it short. */
int backup_restore(struct preserve *p, struct target *t)
{
	char a[FB_FMT_LEN];
	void *buf = bk_io_buffer(t);
	sigset_t old;
	int r = -1;

	hold_signals(true, &old);
	if (buf) {
		fprintf(stderr, "flashbench: restoring %s of %s from %s\n",
			fmt_size(a, sizeof(a), p->total), p->device, p->file);
		r = copy_in(p, t, buf);
		if (r == 0)
			r = verify(p, t, buf);
	}
	free(buf);
	if (r == 0) {
		fprintf(stderr, "flashbench: restored %llu bytes, verified\n",
			(unsigned long long)p->total);
		if (!p->keep && unlink(p->file) == 0)
			fprintf(stderr, "flashbench: removed the backup %s\n", p->file);
	} else {
		fprintf(stderr, "flashbench: RESTORE FAILED: the original data is kept in %s; "
			"retry with: flashbench --restore=%s %s\n", p->file, p->file, p->device);
	}
	hold_signals(false, &old);
	return r == 0 ? FB_OK : FB_EDEV;
}
