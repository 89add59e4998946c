/*
 * The simulated card as a target: glue between the target interface and
 * the model in sim_model.c. Times come from the model's virtual clock,
 * never from a real one. Data lives in an optional backing image
 * (image=PATH); without one, reads return a deterministic pattern and
 * writes only change the model's state. Opening never creates or grows
 * the image: a write test creates a missing one at its first write, once
 * every check has passed, and writes extend it as far as they reach
 * (what lies past its end reads as zeros).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fullio.h"
#include "sim/sim_model.h"
#include "sim/sim_queue.h"
#include "sim/sim_spec.h"
#include "sim/sim_zones.h"
#include "core/target.h"
#include "core/units.h"

#define SIM_SECTOR 512

struct sim_priv {
	struct sim_card card;
	struct sim_queue q;	/* queued requests (empty until qopen) */
	char desc[160];		/* qdescribe's text */
	struct sim_zones zones;
	int img;		/* backing image, -1 for none (or not created yet) */
	char create[PATH_MAX];	/* the image a write test creates at its first write */
	off_t size0;		/* a regular image's size at open (-1: none, or a device) */
};

static int create_image(struct sim_priv *sp);

static struct sim_priv *priv(struct target *t)
{
	return t->priv;
}

/* The checks a real device would make: aligned and inside the card. */
static int check_range(const struct target *t, size_t len, uint64_t off)
{
	if (off % SIM_SECTOR != 0 || len % SIM_SECTOR != 0)
		return -EINVAL;
	if (off > t->size || len > t->size - off)
		return -EINVAL;
	return 0;
}

/*
 * The data a card without an image returns: every 8-byte word is a hash
 * of its own offset, so a misplaced read shows, and the same offset
 * always reads the same.
 */
static void fill_pattern(unsigned char *buf, size_t len, uint64_t off)
{
	for (size_t i = 0; i < len; i += 8) {
		uint64_t z = off + i;

		z = (z ^ (z >> 33)) * 0xff51afd7ed558ccdULL;
		z = (z ^ (z >> 33)) * 0xc4ceb9fe1a85ec53ULL;
		z ^= z >> 33;
		memcpy(buf + i, &z, len - i < 8 ? len - i : 8);
	}
}

/* Read from the backing image; what lies past its end was never written. */
static int image_read(int fd, unsigned char *buf, size_t len, uint64_t off)
{
	ssize_t n = full_pread(fd, buf, len, off);

	if (n < 0)
		return (int)n;
	memset(buf + n, 0, len - (size_t)n);
	return 0;
}

/*
 * The image's bytes of [off, off + len) as a fake card keeps them: with
 * wrap, offset o lies at o % wrap of the image, so a request may come in
 * two or more pieces. rw reads or writes one piece; 0 or -errno.
 */
static int fake_map(const struct sim_params *p, unsigned char *buf, size_t len, uint64_t off,
		    int fd, bool wr)
{
	size_t done = 0;
	int r = 0;

	while (done < len && r == 0) {
		uint64_t at = p->wrap ? (off + done) % p->wrap : off + done;
		size_t piece = len - done;

		if (p->wrap && piece > p->wrap - at)
			piece = (size_t)(p->wrap - at);
		r = wr ? full_pwrite(fd, buf + done, piece, at) : image_read(fd, buf + done, piece, at);
		done += piece;
	}
	return r;
}

/* Into the image, as a fake card keeps it: writes from drop_from on are lost. */
static int image_write(struct sim_priv *sp, const void *buf, size_t len, uint64_t off)
{
	const struct sim_params *p = &sp->card.p;

	if (p->drop_from && off >= p->drop_from)
		return 0;
	if (p->drop_from && len > p->drop_from - off)
		len = (size_t)(p->drop_from - off);
	return fake_map(p, (unsigned char *)buf, len, off, sp->img, true);
}

/* What a request does besides taking time: checks, fail points, zones, data. 0 or -errno. */
static int sim_access(struct target *t, void *buf, size_t len, uint64_t off, bool write)
{
	struct sim_priv *sp = priv(t);
	int r = check_range(t, len, off);

	if (r < 0)
		return r;
	if (write && !t->writable)
		return -EBADF;
	if (sim_fails(&sp->card, off, len, write))
		return -EIO;
	if (write) {
		if (sp->img < 0 && sp->create[0] && (r = create_image(sp)) < 0)
			return r;
		/* A zone refuses a write off its write pointer: nothing is written. */
		if ((r = sim_zones_write(&sp->zones, off, len)) < 0)
			return r;
		return sp->img >= 0 ? image_write(sp, buf, len, off) : 0;
	}
	if (sp->img >= 0)
		r = fake_map(&sp->card.p, buf, len, off, sp->img, false);
	else if (sp->create[0])
		memset(buf, 0, len);	/* an image to be created: all zeros */
	else if (!t->data_unseen)	/* ~1 us per 4 KiB: only when looked at */
		fill_pattern(buf, len, off);
	if (r == 0)
		sim_zones_mask(&sp->zones, buf, off, len);
	return r;
}

static int sim_read_op(struct target *t, void *buf, size_t len, uint64_t off, uint64_t *ns)
{
	int r = sim_access(t, buf, len, off, false);

	if (r < 0)
		return r;
	*ns = sim_read(&priv(t)->card, off, len);
	return 0;
}

static int sim_write_op(struct target *t, const void *buf, size_t len, uint64_t off, uint64_t *ns)
{
	int r = sim_access(t, (void *)buf, len, off, true);

	if (r < 0)
		return r;
	*ns = sim_write(&priv(t)->card, off, len);
	return 0;
}

/* Queued requests: any engine kind; the card's channels serve them (sim_queue.h). */
static int sim_qopen(struct target *t, enum qio_kind kind, unsigned depth, void *buf, size_t len,
		     char *err, size_t errlen)
{
	struct sim_priv *sp = priv(t);
	int r;

	(void)kind, (void)buf, (void)len;
	sim_queue_free(&sp->q);
	r = sim_queue_init(&sp->q, depth);
	if (r < 0)
		snprintf(err, errlen, "sim: queue depth %u: %s", depth, strerror(-r));
	return r;
}

static int sim_qsubmit(struct target *t, bool write, void *buf, size_t len, uint64_t off,
		       uint64_t tag)
{
	struct sim_priv *sp = priv(t);

	if (len == 0 || len > QIO_MAX_LEN)
		return -EINVAL;
	if (sp->q.n >= sp->q.depth)
		return -EBUSY;
	return sim_queue_submit(&sp->card, &sp->q, write, off, (uint32_t)len, tag,
				sim_access(t, buf, len, off, write));
}

static int sim_qreap(struct target *t, unsigned min, struct qio_done *done, unsigned max)
{
	struct sim_priv *sp = priv(t);

	return (int)sim_queue_reap(&sp->card, &sp->q, min, done, max);
}

static void sim_qclose(struct target *t)
{
	sim_queue_free(&priv(t)->q);
}

static const char *sim_qdescribe(struct target *t)
{
	struct sim_priv *sp = priv(t);

	snprintf(sp->desc, sizeof(sp->desc), "simulated card, depth %u: queued requests served "
		 "on its virtual clock over %u channel%s (no I/O engine)", sp->q.depth,
		 sp->card.p.channels, sp->card.p.channels == 1 ? "" : "s");
	return sp->desc;
}

static uint64_t sim_now(struct target *t)
{
	return priv(t)->card.now_ns;
}

/* The model's AUs start afresh; the image's blocks are freed and read as zeros. */
static int sim_discard_op(struct target *t, uint64_t off, uint64_t len)
{
	struct sim_priv *sp = priv(t);
	int r = check_range(t, len, off);

	if (r < 0)
		return r;
	if (!t->writable)
		return -EBADF;
	if (sp->img >= 0 && fallocate(sp->img, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				      (off_t)off, (off_t)len) < 0)
		return -errno;
	sim_discard(&sp->card, off, len);
	return 0;
}

static int sim_report_zones_op(struct target *t, uint64_t off, struct target_zone *z,
			       size_t max, size_t *n)
{
	*n = sim_zones_report(&priv(t)->zones, off, z, max);
	return 0;
}

static int sim_reset_zones_op(struct target *t, uint64_t off, uint64_t len)
{
	struct sim_priv *sp = priv(t);
	int r = sim_zones_reset(&sp->zones, off, len);

	/* The data goes with the write pointer. */
	if (r == 0 && sp->img >= 0 && !sp->card.p.wrap &&
	    fallocate(sp->img, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off,
		      (off_t)len) < 0 && errno != EOPNOTSUPP)
		return -errno;
	return r;
}

static void sim_idle_op(struct target *t, uint64_t ns)
{
	sim_idle(&priv(t)->card, ns);
}

static void sim_stats_op(struct target *t, FILE *f)
{
	const struct sim_card *c = &priv(t)->card;
	char r[FB_FMT_LEN], w[FB_FMT_LEN], cp[FB_FMT_LEN], tm[FB_FMT_LEN];

	fprintf(f, "sim: read %s, wrote %s, %llu garbage collections, %llu erases\n",
		fmt_size(r, sizeof(r), c->n.bytes_read),
		fmt_size(w, sizeof(w), c->n.bytes_written),
		(unsigned long long)c->n.gcs, (unsigned long long)c->n.erases);
	fprintf(f, "sim: copied %s in garbage collections, %s through the write cache, "
		"%s discarded, %u AUs open, virtual time %s\n",
		fmt_size(cp, sizeof(cp), c->n.bytes_copied),
		fmt_size(r, sizeof(r), c->n.cached), fmt_size(w, sizeof(w), c->n.discarded), c->nopen,
		fmt_time(tm, sizeof(tm), (double)c->now_ns));
	if (c->p.cache_flush)
		fprintf(f, "sim: %llu cache folds of %s in all\n", (unsigned long long)c->n.folds,
			fmt_size(r, sizeof(r), c->n.folded));
	if (priv(t)->zones.zone)
		fprintf(f, "sim: %llu zone resets\n", (unsigned long long)priv(t)->zones.resets);
}

/* Only zeros in [from, to) of fd? Holes are skipped, not read. */
static bool zeros_only(int fd, off_t from, off_t to)
{
	static const unsigned char zero[65536];
	unsigned char buf[65536];

	while (from < to) {
		off_t data = lseek(fd, from, SEEK_DATA), hole;

		if (data < 0)
			return errno == ENXIO;	/* a hole to the end */
		if (data >= to)
			return true;
		hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0 || hole > to)
			hole = to;
		for (off_t at = data; at < hole;) {
			size_t n = hole - at < (off_t)sizeof(buf) ? (size_t)(hole - at) : sizeof(buf);

			if (full_pread(fd, buf, n, at) != (ssize_t)n || memcmp(buf, zero, n) != 0)
				return false;
			at += (off_t)n;
		}
		from = hole;
	}
	return true;
}

/*
 * An image that grew past its size at open and holds only zeros there
 * is cut back to that size: the card reads zeros past the image's end
 * either way, and the file is as the user left it. That is what
 * --preserve leaves: the restore writes back the zeros the card read
 * where a test wrote past the end (a 1,000,001-byte image stayed at
 * 30,408,704 bytes).
 */
static void trim_image(const struct sim_priv *sp)
{
	struct stat st;

	if (sp->size0 >= 0 && fstat(sp->img, &st) == 0 && st.st_size > sp->size0 &&
	    zeros_only(sp->img, sp->size0, st.st_size) && ftruncate(sp->img, sp->size0) < 0)
		fprintf(stderr, "flashbench: sim: cannot put the image back to its %lld bytes: %s\n",
			(long long)sp->size0, strerror(errno));
}

/* The image, when it exists: what safety.c checks as opened. */
static int sim_data_fd(struct target *t)
{
	return priv(t)->img;
}

static void sim_close_op(struct target *t)
{
	struct sim_priv *sp = priv(t);

	if (sp->img >= 0) {
		if (t->writable)
			trim_image(sp);
		close(sp->img);
	}
	sim_queue_free(&sp->q);
	sim_card_free(&sp->card);
	sim_zones_free(&sp->zones);
	free(sp);
	free(t);
}

static const struct target_ops sim_ops = {
	.kind = "simulated card",
	.read = sim_read_op,
	.write = sim_write_op,
	.discard = sim_discard_op,
	.discard_how = "the model (and the image's blocks freed)",
	.idle = sim_idle_op,
	.stats = sim_stats_op,
	.close = sim_close_op,
	.data_fd = sim_data_fd,
	.qopen = sim_qopen,
	.qsubmit = sim_qsubmit,
	.qreap = sim_qreap,
	.qclose = sim_qclose,
	.qdescribe = sim_qdescribe,
	.now = sim_now,
};

static const struct target_ops sim_zoned_ops = {
	.kind = "simulated card",
	.read = sim_read_op,
	.write = sim_write_op,
	.idle = sim_idle_op,
	.report_zones = sim_report_zones_op,
	.reset_zones = sim_reset_zones_op,
	.stats = sim_stats_op,
	.close = sim_close_op,
	.data_fd = sim_data_fd,
};

/*
 * The missing image, at the first write: created (never over one that
 * appeared in the meantime) and locked against other runs at once, as
 * safety.c locks an image that exists (see runlock.h).
 */
static int create_image(struct sim_priv *sp)
{
	struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int fd = open(sp->create, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	if (fcntl(fd, F_OFD_SETLK, &l) < 0 && (errno == EAGAIN || errno == EACCES)) {
		close(fd);
		return -EBUSY;
	}
	sp->img = fd;
	sp->create[0] = '\0';
	return 0;
}

/*
 * Open the backing image as it is. A missing one is created by the first
 * write of a write test (*fd stays -1), never by a read test, for which it
 * is a typo. Anything but a regular file or block device is refused:
 * a FIFO would hang the run.
 */
static int open_image(const char *path, int flags, int *fd, char *err, size_t errlen)
{
	struct stat st;
	int e;

	/* O_EXCL: a block device as image is claimed as a device under test is
	 * (target_dev.c); on a regular file it means nothing without O_CREAT. */
	*fd = open(path, (flags & TGT_WRITE ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NONBLOCK |
		   (flags & TGT_EXCL ? O_EXCL : 0));
	if (*fd < 0 && errno == ENOENT && (flags & TGT_WRITE))
		return 0;
	/* a directory opened for writing: bad usage, as it is for a read test */
	if (*fd < 0 && errno == EISDIR) {
		snprintf(err, errlen, "sim: image '%s': not a regular file or block device", path);
		return -EINVAL;
	}
	if (*fd >= 0 && fstat(*fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
		snprintf(err, errlen, "sim: image '%s': not a regular file or block device", path);
		close(*fd);
		*fd = -1;
		return -EINVAL;
	}
	if (*fd >= 0 && fcntl(*fd, F_SETFL, fcntl(*fd, F_GETFL) & ~O_NONBLOCK) == 0)
		return 0;
	e = errno;
	snprintf(err, errlen, "sim: image '%s': %s%s", path, strerror(e),
		 e == EBUSY ? " (mounted or held by another user)" : "");
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
	return -e;
}

int target_sim_open(const char *spec, int flags, struct target **out, char *err, size_t errlen)
{
	struct sim_spec s;
	struct target *t;
	struct sim_priv *sp;
	int fd = -1, r;

	*out = NULL;
	if (sim_spec_parse(spec, &s, err, errlen) < 0)
		return -EINVAL;
	if (s.image[0] && (r = open_image(s.image, flags, &fd, err, errlen)) < 0)
		return r;
	t = calloc(1, sizeof(*t));
	sp = calloc(1, sizeof(*sp));
	if (!t || !sp || sim_zones_init(&sp->zones, &s.p) < 0) {
		free(t);
		free(sp);
		if (fd >= 0)
			close(fd);
		snprintf(err, errlen, "sim: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	sim_card_init(&sp->card, &s.p);
	sp->img = fd;
	sp->size0 = -1;
	if (fd >= 0) {
		struct stat st;

		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
			sp->size0 = st.st_size;
	}
	if (s.image[0] && fd < 0)
		snprintf(sp->create, sizeof(sp->create), "%s", s.image);
	t->ops = s.p.zoned ? &sim_zoned_ops : &sim_ops;
	t->zone_size = s.p.zoned ? s.p.erase : 0;
	snprintf(t->path, sizeof(t->path), "sim:%s", spec ? spec : "");
	t->fd = -1;
	t->size = s.p.size;
	t->sector = SIM_SECTOR;
	t->mem_align = SIM_SECTOR;
	t->sim = true;
	t->writable = (flags & TGT_WRITE) != 0;
	t->data_discarded = !s.image[0];
	t->priv = sp;
	*out = t;
	return 0;
}
