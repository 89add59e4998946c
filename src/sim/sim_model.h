/*
 * The simulated flash card: a pure model, no I/O and no printing. Every
 * operation returns the virtual time it took, in nanoseconds, and moves
 * the card's own clock (now_ns) forward by that much. Nothing here reads
 * a real clock, so the same parameters and the same requests always give
 * the same times; that is what lets the tests of the measuring modules
 * assert patterns with known ground truth.
 *
 * Units: sizes and offsets in bytes, times in ns, bandwidths in bytes/s.
 * "xfer(n, bw)" below is n * 1e9 / bw ns, rounded to the nearest ns.
 *
 * READS (no state besides the clock; sim_read_cost() is the exact cost)
 *   The card serves a request as ceil(len / read_chunk) internal reads:
 *   piece i covers [off + i*read_chunk, min(off + (i+1)*read_chunk, end)).
 *   Each piece costs read_lat, plus page_cross if a page boundary lies
 *   strictly inside it, plus erase_cross (on top) if an erase-block
 *   boundary lies strictly inside it. The whole request adds
 *   xfer(len, read_bw). A boundary "strictly inside" [a, b) is a
 *   multiple B of the page (erase) size with a < B < b.
 *
 *   So flashbench's align test (blocks of bs <= page bytes around a
 *   boundary B) sees diff = page_cross + erase_cross when B is a multiple
 *   of the erase size, page_cross when B is a multiple of the page only,
 *   and 0 otherwise.
 *
 *   Readahead plateau: let A = read_lat + page_cross and T =
 *   xfer(read_chunk, read_bw). For sequential, aligned requests of S
 *   bytes (page < S, read_chunk a multiple of the page that divides the
 *   erase size):
 *     S <= read_chunk:     rate(S) = S / (A + xfer(S, read_bw))
 *     S = k * read_chunk:  rate(S) = P = read_chunk / (A + T)  (exactly
 *                          flat: the plateau)
 *   The smallest S whose rate is within a fraction X of P is
 *     S_X = (1 - X) * read_chunk * A / (A + X * T),
 *   and among power-of-two sizes that is read_chunk itself whenever
 *   X < A / (2A + T). Every preset keeps A / (2A + T) above 0.15, so a
 *   readahead sweep finds its plateau at read_chunk for X <= 15%.
 *
 * WRITES (state: the open allocation units, the cache, the counters)
 *   The card is divided into allocation units (AUs) of erase bytes (the
 *   last may be shorter). Up to open_au AUs are open at once, each with a
 *   write pointer wp, a count of bytes written since it was opened, and a
 *   random-mode flag. Every request costs write_lat once, and then:
 *   1. If cache > 0 and the whole request fits in the free cache, it only
 *      adds xfer(len, cache_bw), fills the cache by len and does not touch
 *      the AUs (the card folds it in later, in the background). Idle time
 *      (sim_idle) frees cache_recover bytes per second; busy time does not.
 *   1a. If cache_flush > 0 and the request does not fit in the free cache
 *      (but in the whole cache), the card first makes room, as a drive-
 *      managed SMR disk cleans its media cache: it folds cache_flush
 *      bytes (at least what the request lacks, at most what the cache
 *      holds) into their AUs at xfer(folded, copy_bw) -- one long stall
 *      -- and then takes the request into the cache as in rule 1. It
 *      counts one fold. With cache_flush 0 the request goes on to the
 *      AUs (rules 2-6) and the cache stays full until idle time.
 *   Otherwise each piece of the request that lies in one AU is handled by
 *   the first rule that applies:
 *   2. AUs below fat_aus (the FAT-optimised area) take any write at page
 *      cost and use no open-AU slot: xfer(pages touched * page, write_bw).
 *   3. An AU that is not open is opened with wp at the write offset. If
 *      all slots are busy, the least recently used AU is closed first.
 *   4. An AU in random mode takes any write at page cost.
 *   5. At or after wp (forward, gaps allowed): xfer(len, write_bw); wp
 *      moves to the end of the write. Skipped gaps are copied at close.
 *      If wp reaches the end of the AU, it is closed at once.
 *   6. Before wp (backward): the AU enters random mode, at page cost, if
 *      fewer than min(open_au_random, open_au) AUs are in random mode.
 *      Otherwise the AU is closed (a garbage collection) and reopened
 *      with wp at the end of this write, whose data costs
 *      xfer(len, write_bw). With random_evict, instead, the AU in random
 *      mode written least recently is merged (a GC of the whole AU) and
 *      stays open, in order and full, and this AU takes its random slot:
 *      an out-of-order stream pays one GC when it starts, not one a write
 *      (a log-block card's victim; fakecard's random-victim=stay).
 *   Closing an AU copies the data that was not written since it was
 *   opened -- the whole AU if it was in random mode, else AU length -
 *   bytes written -- and erases the old block: xfer(copy, copy_bw) +
 *   erase_ns. It counts one erase, and one garbage collection if it
 *   copied anything. A GC thus costs about the same whatever the request
 *   size, so once GCs dominate the rate halves with the block size.
 *
 * THREE REGIMES AND SMALL WRITES (all off by default):
 *   - log_aus, log_merge: the card writes the log_aus AUs written last
 *     (LRU, FAT area excluded) at full speed; a request whose first byte
 *     lies in any other AU costs log_merge more and takes the place of the
 *     least recent one (a merge of the card's log, far cheaper than a GC).
 *     So N <= log_aus interleaved AUs are fast, log_aus < N <= open_au pay
 *     log_merge on every write, and N > open_au pay a GC as well.
 *   - subpage_ns: a write whose start or end is not on a page boundary
 *     costs that much more (a read-modify-write of the page): rates drop
 *     only below the page size.
 *   - cmd_ns: every request, read or write, costs that much more (the
 *     command's overhead on the bus), whatever its size.
 *   - small_buffer, small_merge: a write of at most small_buffer bytes
 *     goes to a buffer of its own: it opens no AU and pays no GC, only
 *     small_merge when it lies in another AU than the buffered write
 *     before it (cards that write their smallest blocks at a moderate
 *     cost even where every larger write collects).
 *
 * JITTER: with jitter > 0 every time is multiplied by a factor uniform in
 *   [1 - jitter/100, 1 + jitter/100]; with probability outliers it is
 *   multiplied by SIM_OUTLIER_FACTOR. Both come from a splitmix64 stream
 *   seeded with seed, drawn once per request only when enabled.
 *
 * THE NOISE OF REAL TABLES (all 0 by default; calibrated against the
 *   published runs in tests/fixtures/realruns, see sim_spec.c's "noisy"):
 *   a read taken as the fastest of several tries hides per-request jitter,
 *   so what makes real align tables noisy is tied to places and times:
 *   - read_var: each erase block reads read_var percent faster or slower
 *     (a fixed factor per block from the seed: u uniform in [-1, 1],
 *     read_lat * (1 + u * read_var / 100); a piece in two blocks takes
 *     the slower one's). Plain reads vary from row to row.
 *   - cross_var: the extra cost of crossing a page (erase) boundary B is
 *     multiplied by (1 + u * cross_var / 100), u fixed per boundary B: a
 *     level of the table scatters the more, the higher it is.
 *   - post_slow: a piece that starts at a page boundary costs post_slow
 *     percent more read_lat (reads just after a boundary steadily slower
 *     than those before it, as in realruns 016).
 *   - stalls: with this probability per request a stall starts: the next
 *     SIM_STALL_LEN requests cost stall_ns more each (the card or the host
 *     busy elsewhere for a while: it outlasts the tries of one read, so a
 *     row spikes or dips).
 *   The first three are part of sim_read_cost() (deterministic functions
 *   of the offset and the seed); stalls are drawn like jitter.
 *
 * PARALLELISM: the card has `channels` lanes, each free from some point
 *   of the virtual clock on. sim_queue_start() takes a request at the
 *   card's current time now_ns: it costs what it would cost alone (its
 *   state changes, such as an AU's write pointer, happen in the order the
 *   requests are started), goes to the lane that is free first, starts
 *   when that lane is free (or now, if it already is) and keeps the lane
 *   busy for its cost; the clock does not move (the host is not blocked).
 *   sim_queue_wait() moves the clock forward to a completion, as a host
 *   waiting for it. So up to `channels` requests overlap, more wait in
 *   line: at depth d the card completes min(d, channels) requests per
 *   request time, and latency from submission to completion grows with
 *   d beyond the channels. With channels = 1 requests run one after the
 *   other. sim_batch() starts several requests at once and waits for the
 *   last: it takes as long as its busiest lane.
 */
#ifndef FB_SIM_MODEL_H
#define FB_SIM_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_MAX_OPEN_AU		256
#define SIM_MAX_CHANNELS	64
#define SIM_MAX_FAIL		16
#define SIM_OUTLIER_FACTOR	10
#define SIM_STALL_LEN		32

/* Which requests a fail point breaks. */
#define SIM_FAIL_READ	0x1
#define SIM_FAIL_WRITE	0x2

struct sim_fail {
	uint64_t off;		/* a request covering this byte returns -EIO */
	unsigned mode;		/* SIM_FAIL_READ and/or SIM_FAIL_WRITE */
};

struct sim_params {
	uint64_t size;		/* bytes */
	uint64_t erase;		/* erase block (AU) size, a multiple of page */
	uint64_t page;
	/* reads */
	uint64_t read_lat;	/* ns per internal read of up to read_chunk */
	uint64_t read_bw;	/* bytes/s */
	uint64_t read_chunk;	/* bytes */
	uint64_t page_cross;	/* ns, per piece crossing a page boundary */
	uint64_t erase_cross;	/* ns, extra per piece crossing an erase boundary */
	/* writes */
	uint64_t write_lat;	/* ns per request */
	uint64_t write_bw;	/* bytes/s */
	uint64_t copy_bw;	/* bytes/s, internal copy during GC */
	uint64_t erase_ns;	/* erasing one block */
	unsigned open_au;	/* 1..SIM_MAX_OPEN_AU */
	unsigned open_au_random;
	unsigned fat_aus;
	unsigned channels;	/* 1..SIM_MAX_CHANNELS */
	uint64_t cache;		/* bytes, 0 = none */
	uint64_t cache_bw;	/* bytes/s */
	uint64_t cache_recover;	/* bytes per second of idle time */
	uint64_t cache_flush;	/* bytes folded at once when the cache is full (0: none) */
	/* three regimes and small writes (all 0, off, by default) */
	unsigned log_aus;	/* AUs written at full speed; more pay log_merge (0: off) */
	uint64_t log_merge;	/* ns, a write to an AU outside the log_aus last written */
	uint64_t subpage_ns;	/* ns, a write that covers part of a page */
	uint64_t cmd_ns;	/* ns, every request: the command's own overhead */
	uint64_t small_buffer;	/* bytes: writes this small go to a buffer of their own (0: off) */
	uint64_t small_merge;	/* ns, a buffered write to another AU than the one before */
	unsigned random_evict;	/* 1: full random slots give up the least recent one (rule 6) */
	/* data (target_sim.c; no effect on the times): a fake card */
	uint64_t wrap;		/* it keeps wrap bytes: offset o lands on o % wrap (0: all) */
	uint64_t drop_from;	/* writes at or past this offset are lost (0: none) */
	/* zones (sim_zones.h): every erase block a zone, the first conv_zones conventional */
	unsigned zoned;		/* 0: not zoned, 1: host-managed */
	unsigned conv_zones;
	/* noise */
	uint64_t seed;
	double jitter;		/* percent, 0..100 */
	double outliers;	/* probability, 0..1 */
	double read_var;	/* percent, 0..100: per erase block */
	double cross_var;	/* percent, 0..100: per boundary */
	double post_slow;	/* percent, 0..100: reads starting at a page boundary */
	double stalls;		/* probability per request, 0..1 */
	uint64_t stall_ns;	/* extra per request during a stall */
	/* what the card says of itself (--info, the -a verdict); no effect on timing */
	uint64_t stated_erase;	/* the erase block (AU) it states, bytes; 0 = none */
	/* injected errors */
	unsigned nfail;
	struct sim_fail fail[SIM_MAX_FAIL];
};

struct sim_au {
	uint64_t au;		/* AU number */
	uint64_t wp;		/* write pointer, relative to the AU start */
	uint64_t written;	/* bytes written since it was opened */
	uint64_t stamp;		/* last use, for LRU */
	bool random;
};

struct sim_counters {
	uint64_t reads, writes;			/* requests */
	uint64_t bytes_read, bytes_written;
	uint64_t bytes_copied;			/* by garbage collection */
	uint64_t gcs, erases;
	uint64_t cached;			/* bytes that went to the cache */
	uint64_t discarded;			/* bytes discarded (sim_discard) */
	uint64_t folds, folded;			/* cache folds (rule 1a) and their bytes */
	uint64_t merges;			/* writes that paid log_merge */
};

struct sim_card {
	struct sim_params p;
	uint64_t now_ns;	/* the virtual clock */
	uint64_t rng;		/* splitmix64 state */
	unsigned stall_left;	/* requests left in the current stall */
	uint64_t tick;		/* LRU clock */
	uint64_t cache_used;
	unsigned nopen, nrandom;
	unsigned nlog;				/* AUs in the log (log_aus) */
	uint64_t small_au;			/* the AU of the last buffered small write + 1 (0: none) */
	uint64_t log_au[SIM_MAX_OPEN_AU], log_stamp[SIM_MAX_OPEN_AU];
	uint64_t lane_free[SIM_MAX_CHANNELS];	/* virtual time each lane is free from */
	struct sim_au open[SIM_MAX_OPEN_AU];
	struct sim_counters n;
};

/* One request of a batch; ns is filled in with its own service time. */
struct sim_req {
	uint64_t off, len;
	bool write;
	uint64_t ns;
};

/* Start a fresh card (nothing open, cache empty, clock at 0). */
void sim_card_init(struct sim_card *c, const struct sim_params *p);
void sim_card_free(struct sim_card *c);

/* Exact cost of a read without jitter and stalls (pure: no state involved). */
uint64_t sim_read_cost(const struct sim_params *p, uint64_t off, uint64_t len);

/*
 * Serve one request; returns its virtual time and advances the clock.
 * The caller checks the range (off + len <= size) and the fail points.
 */
uint64_t sim_read(struct sim_card *c, uint64_t off, uint64_t len);
uint64_t sim_write(struct sim_card *c, uint64_t off, uint64_t len);

/*
 * Start one request at now_ns on the lane free first (see PARALLELISM);
 * its cost is stored in *cost (may be NULL). Returns the virtual time it
 * completes. The caller checks the range and the fail points.
 */
uint64_t sim_queue_start(struct sim_card *c, uint64_t off, uint64_t len, bool write, uint64_t *cost);
/* The host waits until virtual time t (nothing happens if it is past). */
void sim_queue_wait(struct sim_card *c, uint64_t t);

/* Serve n requests as one batch over the card's channels (see above):
 * each r[k].ns is its own cost; returns the time until the last is done. */
uint64_t sim_batch(struct sim_card *c, struct sim_req *r, size_t n);

/*
 * Discard [off, off + len): every AU wholly inside it starts afresh, as
 * a card's controller may erase it at leisure: an open one is closed
 * without a copy or a garbage collection (its data is gone), so the next
 * write opens it anew. AUs only partly inside keep their state.
 */
void sim_discard(struct sim_card *c, uint64_t off, uint64_t len);

/* Let ns of idle time pass: the clock moves, the cache drains. */
void sim_idle(struct sim_card *c, uint64_t ns);

/* True when [off, off + len) covers a fail point for this direction. */
bool sim_fails(const struct sim_card *c, uint64_t off, uint64_t len, bool write);

/* n * 1e9 / bw, rounded: the time to move n bytes at bw bytes/s. */
uint64_t sim_xfer_ns(uint64_t n, uint64_t bw);

#endif
