/* The measuring engine: see engine.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "core/out.h"
#include "core/engine.h"
#include "core/progress.h"
#include "core/opts.h"
#include "core/regions.h"

static char last_error[4096 + 256];	/* the path is up to 4 KiB */
static uint64_t total_written, total_write_ns;

static void on_signal(int sig)
{
	fb_stop = sig;
}

void eng_stop_signals(sigset_t *set)
{
	static const int sigs[] = {
		SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
		SIGPROF, SIGIO, SIGXCPU, SIGXFSZ, SIGPWR, SIGSTKFLT,
	};

	sigemptyset(set);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(set, sigs[i]);
	for (int s = SIGRTMIN; s <= SIGRTMAX; s++)
		sigaddset(set, s);
}

void eng_signals(void)
{
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART needed: the request in flight completes, then we stop.
	 * A dropped terminal (HUP), Ctrl-\\ (QUIT), a stray kill -USR1 or an
	 * alarm must not skip the clean-up either: the readahead to restore,
	 * the data to put back. */
	eng_stop_signals(&set);
	for (int s = 1; s < NSIG; s++)
		if (sigismember(&set, s) == 1)
			sigaction(s, &sa, NULL);
	/* A closed pipe (| head) is an error on the output, not a death. */
	signal(SIGPIPE, SIG_IGN);
}

/*
 * A request reaches the device whole only if its buffer lets it: the
 * block layer cuts a request at every break in physical memory, and a
 * queue takes at most max_segments pieces (128 on a loop device and on
 * many MMC hosts). A 1 MiB buffer of scattered 4 KiB pages is 256 of
 * them, so every 1 MiB read went out as two 512 KiB requests (the
 * device's /sys/block/DEV/stat: 2048 for 1024 reads; fio's and dd's
 * buffers the same) -- --readahead's 1MiB row timed 512 KiB requests and
 * twice the work per byte. Buffers of ENG_HUGE_MIN and more on a real
 * device are therefore 2 MiB-aligned transparent huge pages where the
 * kernel has them: physically contiguous, one request per read (1024).
 * At most 2 MiB more memory; the simulated card has no block layer.
 */
#define ENG_HUGE (2u << 20)
#define ENG_HUGE_MIN (256u << 10)

void *eng_buffer(struct target *t, size_t len)
{
	size_t align = t->mem_align > 4096 ? t->mem_align : 4096;
	size_t alloc = (len + 7) & ~(size_t)7;
	uint64_t x = 0x9e3779b97f4a7c15ull;
	bool huge = !t->sim && len >= ENG_HUGE_MIN && align <= ENG_HUGE;
	uint64_t *p;
	void *buf;

	if (huge) {
		align = ENG_HUGE;
		alloc = (len + ENG_HUGE - 1) & ~(size_t)(ENG_HUGE - 1);
	}
	if (posix_memalign(&buf, align, alloc) != 0) {
		fprintf(stderr, "flashbench: cannot allocate a buffer of %zu bytes\n", len);
		return NULL;
	}
	/* Before the first touch, which decides the pages; refused (no THP in
	 * the kernel) it only costs the split requests. */
	if (huge)
		(void)madvise(buf, alloc, MADV_HUGEPAGE);
	/* A card that keeps no data: the pages stay untouched, out of the RSS. */
	if (t->data_discarded)
		return buf;
	/* xorshift64: incompressible, and the same bytes on every run. */
	p = buf;
	for (size_t i = 0; i < (len + 7) / 8; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = x;
	}
	return buf;
}

void eng_buffer_free(void *buf)
{
	free(buf);
}

/* "DEVICE: WHAT at offset O, length L: WHY" on stderr, kept for the JSON status. */
static void report_error(const struct target *t, const char *what, uint64_t off, uint64_t len,
			 const char *why)
{
	snprintf(last_error, sizeof(last_error), "%s: %s at offset %llu, length %llu: %s", t->path,
		 what, (unsigned long long)off, (unsigned long long)len, why);
	progress_clear();
	fprintf(stderr, "flashbench: %s\n", last_error);
}

void eng_device_error(const struct target *t, bool wr, uint64_t off, size_t len, const char *why)
{
	report_error(t, wr ? "write" : "read", off, len, why);
}

/* Does the write guard allow WHAT (a write, discard, zone reset) of [off, off + len)? */
static bool guard_allows(const char *what, uint64_t off, uint64_t len)
{
	if (regions_allowed(off, len))
		return true;
	/* A test wrote where run/run.c did not announce (or back up). */
	fprintf(stderr, "flashbench: internal error: %s outside the announced region at offset "
		"%llu, length %llu; nothing done there\n", what, (unsigned long long)off,
		(unsigned long long)len);
	return false;
}

bool eng_write_allowed(uint64_t off, size_t len)
{
	return guard_allows("write", off, len);
}

/* r < 0: say so, with the offset and length. */
static int io_failed(struct target *t, const char *what, uint64_t off, uint64_t len, int r)
{
	if (r >= 0)
		return FB_OK;
	report_error(t, what, off, len, strerror(-r));
	return FB_EDEV;
}

static int eng_io(struct target *t, void *buf, size_t len, uint64_t off, uint64_t *ns, bool wr)
{
	int r;

	/* The stop flag and the output's error share a cache line (core/hot.h). */
	if (fb_hot.stop | fb_hot.out_error)
		return fb_hot.stop ? FB_EINTR : FB_EDEV;	/* the output layer said why */
	if (wr && !eng_write_allowed(off, len))
		return FB_EDEV;
	if (wr) {
		r = target_write(t, buf, len, off, ns);
	} else {
		t->data_unseen = true;	/* the tests time reads, never look at them */
		r = target_read(t, buf, len, off, ns);
		t->data_unseen = false;
	}
	if (r < 0)
		return io_failed(t, wr ? "write" : "read", off, len, r);
	if (wr) {
		total_written += len;
		total_write_ns += *ns;
	}
	if (fb_hot.progress)
		progress_tick();
	return FB_OK;
}

int eng_discard(struct target *t, uint64_t off, uint64_t len)
{
	if (fb_stop)
		return FB_EINTR;
	if (!guard_allows("discard", off, len))
		return FB_EDEV;
	return io_failed(t, "discard", off, len, t->ops->discard ? t->ops->discard(t, off, len)
								  : -EOPNOTSUPP);
}

void eng_write_totals(uint64_t *bytes, uint64_t *ns)
{
	*bytes = total_written;
	*ns = total_write_ns;
}

int eng_read(struct target *t, void *buf, size_t len, uint64_t off, uint64_t *ns)
{
	return eng_io(t, buf, len, off, ns, false);
}

int eng_write(struct target *t, const void *buf, size_t len, uint64_t off, uint64_t *ns)
{
	return eng_io(t, (void *)buf, len, off, ns, true);
}

size_t eng_write_buffer_len(uint64_t len)
{
	return (size_t)(len < ENG_MAX_REQUEST ? len : ENG_MAX_REQUEST);
}

int eng_write_long(struct target *t, const void *buf, uint64_t len, uint64_t off, uint64_t *ns)
{
	uint64_t done = 0, piece_ns;
	int r = FB_OK;

	*ns = 0;
	while (done < len && r == FB_OK) {
		size_t piece = eng_write_buffer_len(len - done);

		r = eng_write(t, buf, piece, off + done, &piece_ns);
		*ns += piece_ns;
		done += piece;
	}
	return r;
}

int eng_report_zones(struct target *t, uint64_t off, struct target_zone *z, size_t max,
		     size_t *n)
{
	int r;

	*n = 0;
	if (!t->ops->report_zones)
		return io_failed(t, "zone report", off, 0, -EOPNOTSUPP);
	r = t->ops->report_zones(t, off, z, max, n);
	return r < 0 ? io_failed(t, "zone report", off, 0, r) : FB_OK;
}

int eng_reset_zones(struct target *t, uint64_t off, uint64_t len)
{
	int r;

	if (fb_stop)
		return FB_EINTR;
	if (!guard_allows("zone reset", off, len))
		return FB_EDEV;
	if (!t->ops->reset_zones)
		return io_failed(t, "zone reset", off, len, -EOPNOTSUPP);
	r = t->ops->reset_zones(t, off, len);
	return r < 0 ? io_failed(t, "zone reset", off, len, r) : FB_OK;
}

int eng_read_min(struct target *t, void *buf, size_t len, uint64_t off,
		 unsigned count, uint64_t *min_ns)
{
	uint64_t best = UINT64_MAX, ns;
	int r;

	for (unsigned i = 0; i < (count ? count : 1); i++) {
		r = eng_read(t, buf, len, off, &ns);
		if (r != FB_OK)
			return r;
		if (ns < best)
			best = ns;
	}
	*min_ns = best;
	return FB_OK;
}

int eng_check_end(struct target *t, const char *test, uint64_t end)
{
	if (end <= t->size)
		return FB_OK;
	fprintf(stderr, "flashbench: %s would access up to byte %llu, but %s has only %llu bytes\n",
		test, (unsigned long long)end, t->path, (unsigned long long)t->size);
	return FB_EUSAGE;
}

/* Feedback taps (Galois form) of maximal-length LFSRs, by width. */
static const uint64_t lfsr_taps[] = {
	[2] = 0x3, [3] = 0x6, [4] = 0xc, [5] = 0x14, [6] = 0x30, [7] = 0x60,
	[8] = 0xb8, [9] = 0x110, [10] = 0x240, [11] = 0x500, [12] = 0x829,
	[13] = 0x100d, [14] = 0x2015, [15] = 0x6000, [16] = 0xd008,
	[17] = 0x12000, [18] = 0x20400, [19] = 0x40023, [20] = 0x90000,
	[21] = 0x140000, [22] = 0x300000, [23] = 0x420000, [24] = 0xe10000,
	[25] = 0x1200000, [26] = 0x2000023, [27] = 0x4000013, [28] = 0x9000000,
	[29] = 0x14000000, [30] = 0x20000029, [31] = 0x48000000, [32] = 0x80200003,
};

void lfsr_init(struct lfsr *l, uint64_t n)
{
	unsigned w = 2;

	while (w < 32 && (1ull << w) - 1 < n)
		w++;
	l->n = n;
	l->state = 1;
	l->taps = lfsr_taps[w];
	l->mask = (1ull << w) - 1;
}

/* Next index in 0..n-1; the sequence repeats after n calls. */
uint64_t lfsr_next(struct lfsr *l)
{
	uint64_t v;

	do {
		v = l->state;
		l->state = (l->state & 1) ? (l->state >> 1) ^ l->taps : l->state >> 1;
	} while (v - 1 >= l->n);
	return v - 1;
}

const char *eng_last_error(void)
{
	return last_error[0] ? last_error : NULL;
}
