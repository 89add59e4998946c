/*
 * The survey's tests on the card's twin: see survey_twin.h. A child
 * process runs them, so that nothing of the card's run changes: its
 * output (the child's goes to /dev/null), its facts and fit input (the
 * child sends its own back through a pipe), its write guard and the
 * totals its budget counts.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/engine.h"
#include "core/fullio.h"
#include "core/regions.h"
#include "modules/align.h"
#include "modules/survey_chain.h"
#include "modules/survey_twin.h"
#include "modules/test.h"
#include "sim/sim_spec.h"
#include "verdicts/facts.h"

extern const struct fb_test test_find_open_au;

static struct fit_input *twin_in;

static void twin_tap(const char *test, const struct out_table *t, const union out_val *v)
{
	fit_input_row(twin_in, test, t, v);
}

/* The erase size of the searches: the card's, or (none given) the align verdict's. */
static bool twin_erase(struct fb_opts *a, const struct fb_opts *o)
{
	const struct va_verdict *v = vf_align_verdict();

	if (o->erasesize)
		return true;
	if (!v || v->erase_state != VA_FOUND)
		return false;
	a->erasesize = v->erase;
	a->erasesize_set = true;
	a->offset = ((16ull << 20) + a->erasesize - 1) / a->erasesize * a->erasesize;
	return true;
}

/* The page its own align verdict named (0: none). */
static uint64_t twin_page(void)
{
	const struct va_verdict *v = vf_align_verdict();

	return v && v->page_state == VA_FOUND ? v->page : 0;
}

/* The chain on the twin, in the child: the card's options, the card's page for the reads. */
static int twin_chain(const struct fb_opts *o, const char *spec, uint64_t page,
		      struct twin_result *r)
{
	struct fb_opts a = *o;
	uint64_t written, spent;
	struct region all;
	struct target *t;
	char err[256];

	if (target_sim_open(spec, TGT_WRITE, &t, err, sizeof(err)) != 0)
		return -1;
	all = (struct region){ .off = 0, .len = t->size };
	regions_disarm();
	regions_arm(&all, 1);
	vf_reset();
	fit_input_reset(&r->in);
	r->in.size = t->size;
	twin_in = &r->in;
	out_set_tap(twin_tap);
	eng_write_totals(&written, &spent);
	a.blocksize = survey_align_bs(o, t);
	out_test_begin("align");
	if (align_run(&a, t) == FB_OK && twin_erase(&a, o) &&
	    survey_reads(&a, t, page ? page : twin_page()) == FB_OK) {
		a.blocksize = o->blocksize;
		r->in.erase = a.erasesize;
		out_test_begin("find-open-au");
		if (test_find_open_au.run(&a, t) == FB_OK) {
			out_test_begin("survey");
			survey_searches(&a, t, written, spent);
		}
	}
	out_set_tap(NULL);
	r->in.offset = a.offset;
	r->facts = *vf_get();
	target_close(t);
	return 0;
}

static int twin_child(int fd, const struct fb_opts *o, const char *spec, uint64_t page)
{
	struct twin_result *r = calloc(1, sizeof(*r));
	int null = open("/dev/null", O_WRONLY);

	if (!r || null < 0)
		return 1;
	/* (the output layer's file, standard output and the progress line: all nowhere) */
	if (out_fileno() >= 0)
		dup2(null, out_fileno());
	dup2(null, STDOUT_FILENO);
	dup2(null, STDERR_FILENO);
	if (twin_chain(o, spec, page, r) != 0)
		return 1;
	return full_write(fd, r, sizeof(*r)) == 0 ? 0 : 1;
}

/* Read len bytes from the pipe (fewer: the child ended early). */
static size_t read_all(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, (char *)buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

int twin_survey(const struct fb_opts *o, const char *spec, uint64_t page, struct twin_result *r)
{
	int p[2], status = 0;
	pid_t pid;
	size_t got;

	fflush(NULL);	/* (the child's copy of what is buffered would be written twice) */
	if (pipe(p) != 0 || (pid = fork()) < 0) {
		fprintf(stderr, "flashbench: --survey: the twin: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		_exit(twin_child(p[1], o, spec, page));
	}
	close(p[1]);
	got = read_all(p[0], r, sizeof(*r));
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got != sizeof(*r) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "flashbench: --survey: the twin sim:%s did not run\n", spec);
		return -1;
	}
	return 0;
}

/* The first linear probe of nr erase blocks (NULL: none). */
static const struct oa_run *probe_run(const struct fit_input *in, unsigned nr)
{
	for (size_t i = 0; i < in->nprobe; i++)
		if (!in->probe[i].random && in->probe[i].nr == nr && in->probe[i].agg.n)
			return &in->probe[i].agg;
	return NULL;
}

/* What a write costs beyond one erase block's at the same size, summed over the slow probe. */
static double extra_cost(const struct fit_input *in, unsigned slow)
{
	const struct oa_run *s = probe_run(in, slow), *one = probe_run(in, 1);
	double sum = 0;

	for (size_t i = 0; s && one && i < s->n && i < one->n; i++)
		if (s->size[i] == one->size[i])
			sum += oa_write_ns(s, i) - oa_write_ns(one, i);
	return sum;
}

/* Move an integer key by what the twin missed (not below lo). */
static bool shift(struct fit_card *c, enum fit_key k, double card, double twin, double lo)
{
	double v;

	if (!c->known[k] || card == twin || card == 0 || twin == 0)
		return false;
	v = c->v[k] + card - twin;
	c->v[k] = v < lo ? lo : v;
	c->nalt[k] = 0;	/* (the others were beside the value it had) */
	return true;
}

/*
 * The copy rate the twins' copies told is trusted unless the twin's slow
 * probe collects this many times cheaper or dearer than the card's: then
 * the twins' history was not the card's (test_fit FB_FIT_SEED=3's card
 * seed=53190: the twin's lines of 16 erase blocks collected at half the
 * card's cost, copy-bw +119%).
 */
#define TWIN_COPY_APART 1.5

/* One round: the keys moved by what the twin of c missed; false when nothing moved. */
static bool refine_round(const struct fit_input *card, const struct vf_facts *cf,
			 const struct twin_result *tw, struct fit_card *c)
{
	const struct vf_facts *tf = &tw->facts;
	bool moved = false;
	double a, b;

	moved |= shift(c, FK_OPEN_AU, cf->oa[0].fast, tf->oa[0].fast, 1);
	/* (random-write slots make find-fat's erase blocks fast as a FAT area does:
	 * the FAT area moves only once the random bracket is the card's) */
	if (cf->oa_runs[1] && tf->oa_runs[1] && cf->oa[1].fast != tf->oa[1].fast)
		moved |= shift(c, FK_OPEN_AU_RANDOM, cf->oa[1].fast + 1, tf->oa[1].fast + 1, 0);
	else if (cf->fat && tf->fat && c->known[FK_FAT_AUS]) {
		a = cf->ff.state == FF_AREA ? cf->ff.area : 0;
		b = tf->ff.state == FF_AREA ? tf->ff.area : 0;
		moved |= shift(c, FK_FAT_AUS, a + 1, b + 1, 0);
		if (card->fat_cols && c->v[FK_FAT_AUS] > card->fat_cols)
			c->v[FK_FAT_AUS] = card->fat_cols;
	}
	/* (copy-bw from the twins' copies, refit_writes(), has its standard error: moved
	 * only where the twin's collections cost not the card's, TWIN_COPY_APART apart) */
	if (c->known[FK_COPY_BW] && cf->oa[0].slow && (a = extra_cost(card, cf->oa[0].slow)) > 0 &&
	    (b = extra_cost(&tw->in, cf->oa[0].slow)) > 0 &&
	    fabs(log(b / a)) > (c->se[FK_COPY_BW] ? log(TWIN_COPY_APART) : 0.02)) {
		c->v[FK_COPY_BW] *= b / a;
		c->se[FK_COPY_BW] = 0;
		moved = true;
	}
	return moved;
}

/* How far the twin's find-fat table lies from the card's: the mean |log| of the rates' ratios. */
static double fat_distance(const struct fit_input *card, const struct fit_input *twin)
{
	double sum = 0;
	size_t n = 0;

	for (size_t i = 0; i < card->nfat && i < twin->nfat; i++)
		for (size_t k = 0; k < card->fat_cols && k < FIT_FAT_COLS; k++)
			if (card->fat_rate[i][k] > 0 && twin->fat_rate[i][k] > 0) {
				sum += fabs(log(twin->fat_rate[i][k] / card->fat_rate[i][k]));
				n++;
			}
	return n ? sum / (double)n : INFINITY;
}

/*
 * How far the twin's open-AU probes lie from the card's: the mean |log|
 * of the ratios of their lines' rates, each probe against the twin's
 * first of the same N and order (a probe the twin did not run counts as
 * far as a rate twice or half the card's).
 */
static double probe_distance(const struct fit_input *card, const struct fit_input *twin)
{
	double sum = 0;
	size_t n = 0;

	for (size_t i = 0; i < card->nprobe; i++) {
		const struct oa_run *a = &card->probe[i].agg, *b = NULL;

		for (size_t k = 0; k < twin->nprobe && !b; k++)
			if (twin->probe[k].nr == card->probe[i].nr &&
			    twin->probe[k].random == card->probe[i].random)
				b = &twin->probe[k].agg;
		for (size_t l = 0; l < a->n; l++, n++) {
			if (b && l < b->n && a->rate[l] > 0 && b->rate[l] > 0)
				sum += fabs(log(b->rate[l] / a->rate[l]));
			else
				sum += log(2);
		}
	}
	return n ? sum / (double)n : 0;
}

/* The keys a FAT area's count moves (the probes' erase blocks in it take no slot). */
static const enum fit_key open_keys[] = { FK_FAT_AUS, FK_OPEN_AU, FK_OPEN_AU_RANDOM, FK_LOG_AUS,
					  FK_RANDOM_EVICT };

/* The slot counts the twin's rounds move (refine_round), and the least each may be. */
static const enum fit_key slot_keys[] = { FK_OPEN_AU, FK_OPEN_AU_RANDOM };
static const double slot_least[] = { 1, 0 };

/*
 * c with the fat-aus count fat (at most cap of the search's erase blocks in it):
 * the open keys as the fit reads them with it, the slot counts moved by as much
 * as the twin's rounds moved c's from the fit's at c's own count. (The fit reads
 * a slot count from a probe's cost by a rule the card's history can cross:
 * fakecard sd4m's random probe of 3 pays a merge of a slot the probe before
 * held, read as collecting, so open-au-random 2; the rounds' twin made it 3,
 * and the FAT counts tried after the rounds undid that, each twin missing the
 * random bracket as the first.)
 */
static void with_fat(const struct fit_input *card, const struct vf_facts *cf, unsigned fat,
		     unsigned cap, const struct fit_card *c, struct fit_card *t)
{
	struct fit_card f, g;

	fit_card_fat(card, cf, fat, cap, &f);
	if (c->known[FK_FAT_AUS])
		fit_card_fat(card, cf, (unsigned)c->v[FK_FAT_AUS], c->fat_cap, &g);
	else
		fit_card(card, cf, &g);
	*t = *c;
	t->fat_cap = cap;
	for (size_t i = 0; i < sizeof(open_keys) / sizeof(open_keys[0]); i++) {
		enum fit_key k = open_keys[i];

		t->known[k] = f.known[k];
		t->v[k] = f.v[k];
		t->why[k] = f.why[k];
		t->nalt[k] = 0;
	}
	for (size_t i = 0; i < sizeof(slot_keys) / sizeof(slot_keys[0]); i++) {
		enum fit_key k = slot_keys[i];

		if (t->known[k] && c->known[k] && g.known[k])
			t->v[k] = fmax(slot_least[i], f.v[k] + c->v[k] - g.v[k]);
	}
}

/* The spec's twins that reached the card's verdicts, and how far their find-fat tables lay. */
#define TWIN_FAT_CANDS (4 * (FIT_FAT_COLS + 1))
struct fat_cands {
	size_t n;
	struct fit_card c[TWIN_FAT_CANDS];
	double d[TWIN_FAT_CANDS];
};

/*
 * The best candidate in *c, and the values of the open keys the others
 * within TWIN_FAT_TIE of its table have: the survey cannot tell those
 * apart, so each such key is uncertain (fit_card.h), its others named.
 */
#define TWIN_FAT_TIE 0.01
static void keep_best(const struct fat_cands *k, const struct vf_facts *cf, struct fit_card *c)
{
	size_t best = 0;
	double dbest;
	/* (among those as close, the FAT area the card's find-fat verdict read:
	 * where it cannot show one, an area the probes never touched is as
	 * close as none) */
	double read = cf->fat && cf->ff.state == FF_AREA ? (double)cf->ff.area
		      : cf->fat && cf->ff.state == FF_NONE ? 0 : -1;

	for (size_t i = 1; i < k->n; i++)
		if (k->d[i] < k->d[best])
			best = i;
	dbest = k->d[best];
	for (size_t i = 0; i < k->n && k->c[best].v[FK_FAT_AUS] != read; i++)
		if (k->d[i] - dbest < TWIN_FAT_TIE && k->c[i].v[FK_FAT_AUS] == read)
			best = i;
	*c = k->c[best];
	for (size_t i = 0; i < k->n; i++) {
		if (k->d[i] - dbest >= TWIN_FAT_TIE)
			continue;
		for (size_t m = 0; m < sizeof(open_keys) / sizeof(open_keys[0]); m++) {
			enum fit_key key = open_keys[m];
			double v = k->c[i].v[key];
			bool seen = !c->known[key] || !k->c[i].known[key] || v == c->v[key];

			for (unsigned a = 0; a < c->nalt[key] && !seen; a++)
				seen = c->alt[key][a] == v;
			if (!seen && c->nalt[key] < FIT_ALTS)
				c->alt[key][c->nalt[key]++] = v;
		}
	}
}

/*
 * fat-aus by the twin: find-fat's erase blocks that take random writes
 * fast are a FAT area or random-write slots the searches before left
 * free, and only the history of those searches tells which; nor does a
 * formula tell which of the open-AU search's erase blocks it took lie
 * in the FAT area (it picks them by what the probes before left). So
 * every count of find-fat's erase blocks is tried, with each count of
 * the search's erase blocks in it: the one whose twin reaches the card's
 * verdicts with the closest find-fat table wins, and others as close
 * make the keys they differ in uncertain (keep_best). whole: the fit of
 * each count as it stands (the first pass, before the writes' keys are
 * refitted); else only the keys the count moves (open_keys), on c's rates.
 */
static void choose_fat(const struct fb_opts *o, uint64_t page, const struct fit_input *card,
		       const struct vf_facts *cf, bool whole, struct fit_card *c,
		       struct twin_result *tw)
{
	struct fat_cands *k = calloc(1, sizeof(*k));
	struct twin_judgement j;
	struct fit_card t;
	char spec[1024];

	/* (none seen where none could show, find-fat's erase blocks all in random-write
	 * slots: no count is told, the tables of any are alike) */
	if (!k || !cf->fat || !card->nfat || (cf->ff.state != FF_AREA && cf->ff.state != FF_NONE) ||
	    (cf->ff.state == FF_NONE && cf->oa_runs[1] && cf->oa[1].fast + 1 >= card->fat_cols)) {
		free(k);
		return;
	}
	/* (the sim's own rule first: the other wins only when its rows lie closer) */
	for (unsigned ev = 0; ev < 2; ev++) {
		for (unsigned fat = 0; fat <= card->fat_cols && fat <= FIT_FAT_COLS; fat++) {
			unsigned most;

			fit_card_fat(card, cf, fat, ~0u, &t);
			most = fit_in_fat(card, &t, cf->oa[0].fast);
			for (unsigned cap = 0; cap <= most && k->n < TWIN_FAT_CANDS; cap++) {
				if (whole)
					fit_card_fat(card, cf, fat, cap, &t);
				else
					with_fat(card, cf, fat, cap, c, &t);
				/* (no random-write slot: the rule has nothing to evict) */
				if (ev && !(t.known[FK_OPEN_AU_RANDOM] && t.v[FK_OPEN_AU_RANDOM] > 0))
					continue;
				t.v[FK_RANDOM_EVICT] = ev;
				t.known[FK_RANDOM_EVICT] = true;
				if (twin_survey(o, fit_card_spec(&t, spec, sizeof(spec)), page, tw) != 0)
					goto out;
				twin_judge(card, cf, tw, &j);
				if (!j.same)
					continue;
				k->c[k->n] = t;
				k->d[k->n++] = fat_distance(card, &tw->in);
			}
		}
	}
	if (k->n)
		keep_best(k, cf, c);
out:
	free(k);
}

/*
 * write-lat, write-bw, erase-time and copy-bw again (fit_card_twins),
 * from three twins of c without jitter: the second's erases
 * TWIN_ERASE_STEP times the first's, the third's copies TWIN_COPY_STEP
 * times slower. What each line of the card's probes paid (which erased,
 * which copied how much) only the search's history tells, and the twins
 * have the same. The keys the twins ran with are the spec's as sim:
 * parsed them (printed to three digits, not c's).
 */
#define TWIN_ERASE_STEP 2.0
#define TWIN_COPY_STEP 1.5
static void put(struct fit_card *c, enum fit_key k, double v)
{
	c->known[k] = true;
	c->v[k] = v;
}

static bool refit_writes(const struct fb_opts *o, uint64_t page, const struct fit_input *card,
			 const struct vf_facts *cf, struct fit_card *c, struct twin_result *tw)
{
	struct fit_card ran = *c;
	struct sim_spec *s = calloc(1, sizeof(*s));
	struct twin_result *more = calloc(2, sizeof(*more));
	struct fit_twins t = { .in = { &tw->in, more ? &more[0].in : NULL,
				      more ? &more[1].in : NULL } };
	char spec[1024], err[128];
	bool ok = false;

	ran.known[FK_JITTER] = true;
	ran.v[FK_JITTER] = 0;
	/* (the sim's own rule: where the rules differ, the lines of random probes
	 * above their slots would tell the copies of the other's merges) */
	ran.v[FK_RANDOM_EVICT] = 0;
	fit_card_spec(&ran, spec, sizeof(spec));
	if (s && more && sim_spec_parse(spec, s, err, sizeof(err)) == 0 &&
	    twin_survey(o, spec, page, tw) == 0) {
		t.lat = (double)s->p.write_lat;
		t.bw = (double)s->p.write_bw;
		t.erase[0] = (double)s->p.erase_ns;
		t.erase[1] = TWIN_ERASE_STEP * t.erase[0];
		t.copy[0] = (double)s->p.copy_bw;
		t.copy[1] = t.copy[0] / TWIN_COPY_STEP;
		t.subpage = (double)s->p.subpage_ns;
		t.merge = (double)s->p.small_merge;
		put(&ran, FK_ERASE_TIME, t.erase[1]);
		ok = twin_survey(o, fit_card_spec(&ran, spec, sizeof(spec)), page, &more[0]) == 0;
		put(&ran, FK_ERASE_TIME, t.erase[0]);
		put(&ran, FK_COPY_BW, t.copy[1]);
		ok = ok && twin_survey(o, fit_card_spec(&ran, spec, sizeof(spec)), page, &more[1]) == 0 &&
		     fit_card_twins(card, cf, &t, c);
	}
	free(s);
	free(more);
	return ok;
}

static unsigned misses(const struct twin_judgement *j)
{
	return !j->erase_same + !j->page_same + !j->lin_same + !j->rnd_same + !j->fat_same;
}

/* How far the twin's rows lie from the card's: its find-fat table and its open-AU probes. */
static double rows_distance(const struct fit_input *card, const struct fit_input *twin)
{
	double d = fat_distance(card, twin);

	return (isfinite(d) ? d : 0) + probe_distance(card, twin);
}

/* The spec kept: the fewest verdicts missed, then the rows closest to the card's;
 * in_last: the twin's run last holds is its (no other twin ran since). */
struct kept {
	struct fit_card c;
	unsigned misses;
	double d;
	bool in_last;
};

/* Run c's twin and keep c when it does better than k (false: the twin did not run). */
static bool try_spec(const struct fb_opts *o, uint64_t page, const struct fit_input *card,
		     const struct vf_facts *cf, const struct fit_card *c, struct twin_result *tw,
		     struct kept *k)
{
	struct twin_judgement j;
	char spec[1024];
	double d;

	if (twin_survey(o, fit_card_spec(c, spec, sizeof(spec)), page, tw) != 0)
		return false;
	twin_judge(card, cf, tw, &j);
	d = rows_distance(card, &tw->in);
	k->in_last = misses(&j) < k->misses || (misses(&j) == k->misses && d < k->d);
	if (k->in_last) {
		k->c = *c;
		k->misses = misses(&j);
		k->d = d;
	}
	return true;
}

int twin_refine(const struct fb_opts *o, uint64_t page, const struct fit_input *card,
		const struct vf_facts *cf, struct fit_card *c, struct twin_result *last)
{
	struct kept *k = calloc(1, sizeof(*k));
	char spec[1024];
	bool ran = false;

	if (!k)
		return -1;
	k->misses = ~0u;
	k->d = INFINITY;
	/* (the twins' find-fat tests as many erase blocks as the card's did; a
	 * saved survey edited to thousands: as many as the fit reads) */
	survey_fat_nr_fix(card->fat_cols < FIT_FAT_COLS ? card->fat_cols : FIT_FAT_COLS);
	choose_fat(o, page, card, cf, true, c, last);
	/* (again on the refitted rates: the brackets of a count's twin depend on them) */
	if (refit_writes(o, page, card, cf, c, last))
		choose_fat(o, page, card, cf, false, c, last);
	for (int round = 0; round < TWIN_ROUNDS; round++) {
		if (!try_spec(o, page, card, cf, c, last, k))
			break;
		ran = true;
		if (round + 1 == TWIN_ROUNDS || !refine_round(card, cf, last, c))
			break;
	}
	/* (the rounds moved the rates, copy-bw by the collections' costs: when the kept spec
	 * still misses a verdict, the FAT area's counts once more on its rates) */
	if (ran && k->misses) {
		*c = k->c;
		choose_fat(o, page, card, cf, false, c, last);
		k->in_last = false;	/* (last holds choose_fat's last count's run) */
		if (memcmp(&k->c, c, sizeof(*c)) != 0)
			try_spec(o, page, card, cf, c, last, k);
	}
	/* the kept spec's own run, for the fidelity line (not another's: the twin line and
	 * its judgement are the printed card's) */
	if (ran) {
		*c = k->c;
		if (!k->in_last)
			ran = twin_survey(o, fit_card_spec(c, spec, sizeof(spec)), page, last) == 0;
	}
	survey_fat_nr_fix(0);
	free(k);
	return ran ? 0 : -1;
}
