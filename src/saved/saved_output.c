/*
 * Reading saved output line by line: see saved_output.h. A line is
 * unwrapped (quoting, list markers, table columns), taken apart on
 * whitespace, and used only when every token belongs to a record, or
 * when it is a command line or a line of this tool's own.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "saved/saved_command.h"
#include "saved/saved_output.h"
#include "saved/saved_readahead.h"

struct scan {
	so_record_fn *fn;
	void *ctx;
	size_t calls;
	double *rates;		/* room for one rate per token */
};

/*
 * A value of the record that no device gives (saved_values.h): its
 * description in note, else false. A row with one is skipped, never
 * judged: "1e+300M/s" would name a FAT area a 1e+299 times slower.
 */
static bool implausible(const struct so_line *l, char *note, size_t len)
{
	const char *why = NULL;
	double v = 0;

	if (l->kind == SO_RATE || l->kind == SO_RA_ROW) {
		for (size_t i = 0; i < l->nrates && !why; i++)
			if (!isnan(l->rates[i]))	/* NaN: a run not measured ("-") */
				why = so_implausible_rate(v = l->rates[i]);
		if (!why && l->slowest)
			why = so_implausible_rate(v = l->slowest);
		if (why)
			snprintf(note, len, "a rate of %.3g B/s, which no device gives (%s)", v, why);
	} else if (l->kind == SO_ALIGN) {
		const double t[4] = { l->pre, l->on, l->post, l->diff };

		for (int i = 0; i < 4 && !why; i++)
			why = so_implausible_time(v = t[i]);
		if (why)
			snprintf(note, len, "a time of %.3g ns, which no device gives (%s)", v, why);
	}
	return why != NULL;
}

static void emit(struct scan *sc, const struct so_line *l)
{
	struct so_line skip;

	memset(&skip, 0, sizeof(skip));
	if (implausible(l, skip.note, sizeof(skip.note))) {
		skip.kind = SO_SKIP;
		l = &skip;
	}
	sc->fn(sc->ctx, l);
	sc->calls++;
}

static void emit_kind(struct scan *sc, enum so_kind kind)
{
	struct so_line l;

	memset(&l, 0, sizeof(l));
	l.kind = kind;
	emit(sc, &l);
}

/*
 * Split on blanks into tok[] (room for a token per two bytes); "$[4 * 1024]"
 * and "$((4 * 1024))" stay one token. Returns the count.
 */
static size_t split(char *s, char **tok)
{
	size_t n = 0;
	int depth = 0;
	char *w = s;

	/* Drop the blanks inside brackets, in one pass. */
	for (char *p = s; *p; p++) {
		if (*p == '[' || *p == '(')
			depth++;
		else if ((*p == ']' || *p == ')') && depth > 0)
			depth--;
		else if (depth > 0 && isspace((unsigned char)*p))
			continue;
		*w++ = *p;
	}
	*w = '\0';
	for (char *save, *p = strtok_r(s, " \t\r\n\v\f", &save); p;
	     p = strtok_r(NULL, " \t\r\n\v\f", &save))
		tok[n++] = p;
	return n;
}

/* Drop mail quoting, list markers ("- ", "* ", "• ") and the "=====" of
 * script headers; "|" table columns become blanks. */
static char *unwrap(char *s)
{
	size_t n;

	for (char *p = s; *p; p++)
		if (*p == '|')
			*p = ' ';
	for (;;) {
		while (*s == '>' || *s == '=' || isspace((unsigned char)*s))
			s++;
		if ((s[0] == '-' || s[0] == '*' || s[0] == '+') && isspace((unsigned char)s[1]))
			s += 2;
		else if (strncmp(s, "\xe2\x80\xa2", 3) == 0)
			s += 3;
		else
			break;
	}
	n = strlen(s);
	while (n > 0 && (s[n - 1] == '=' || isspace((unsigned char)s[n - 1])))
		s[--n] = '\0';
	return s;
}

/* Nothing but table borders and fences: "|---|---|", "+----+", "```". */
static bool decoration(const char *s)
{
	return s[strspn(s, "-=+:`~*#_ \t")] == '\0';
}

/* A size that rate rows print: with its unit ("512B", "4MiB"). */
static bool row_size(const char *t, uint64_t *size)
{
	size_t n = strlen(t);

	return n > 1 && t[n - 1] == 'B' && so_parse_size(t, size) == 0;
}

static bool align_record(char **tok, size_t n, size_t *i, struct so_line *l)
{
	char **t = tok + *i;

	if (*i + 10 > n || strcmp(t[2], "pre") != 0 || strcmp(t[4], "on") != 0 ||
	    strcmp(t[6], "post") != 0 || strcmp(t[8], "diff") != 0 ||
	    so_parse_size(t[1], &l->boundary) < 0)
		return false;
	{
		char *times[4] = { t[3], t[5], t[7], t[9] };

		if (so_align_times(times, l) < 0)
			return false;
		l->step = so_rel_step(t[9]);
	}
	l->kind = SO_ALIGN;
	*i += 10;
	return true;
}

/* SIZE RATE [RATE...] or SIZE RATE slowest RATE. */
static bool rate_record(struct scan *sc, char **tok, size_t n, size_t *i, struct so_line *l)
{
	size_t j = *i + 1, k = 0;
	double r;

	if (!row_size(tok[*i], &l->size))
		return false;
	while (j < n && k < SO_MAX_RATES && so_parse_rate(tok[j], &r) == 0) {
		sc->rates[k++] = r;
		l->step = fmax(l->step, so_rel_step(tok[j]));
		j++;
	}
	if (k == 0)
		return false;
	if (k == 1 && j + 1 < n && strcmp(tok[j], "slowest") == 0 &&
	    so_parse_rate(tok[j + 1], &l->slowest) == 0)
		j += 2;
	l->kind = SO_RATE;
	l->rates = sc->rates;
	l->nrates = k;
	l->rate = sc->rates[0];
	*i = j;
	return true;
}

/* Every token in records? With emit, hand them on (a second pass). */
static bool rows(struct scan *sc, char **tok, size_t n, bool send)
{
	size_t i = 0;

	while (i < n) {
		struct so_line l;

		memset(&l, 0, sizeof(l));
		if (!(strcmp(tok[i], "align") == 0 ? align_record(tok, n, &i, &l)
						   : rate_record(sc, tok, n, &i, &l)))
			return false;
		if (send)
			emit(sc, &l);
	}
	return n > 0;
}

/* Where a row starts: "align B pre ..." or "SIZE RATE". */
static bool row_start(char **tok, size_t n, size_t i)
{
	uint64_t size;
	double r;

	if (strcmp(tok[i], "align") == 0)
		return i + 1 < n && so_parse_size(tok[i + 1], &size) == 0;
	return i + 1 < n && row_size(tok[i], &size) && so_parse_rate(tok[i + 1], &r) == 0;
}

/* A shell's word for a job it ended: the run above was stopped by hand. */
static bool shell_end(const char *t)
{
	static const char *const words[] = { "Terminated", "Killed", "Interrupt", "Hangup",
					     "Aborted", "Stopped" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strncmp(t, words[i], strlen(words[i])) == 0)
			return true;
	return false;
}

/* "Terminated (was running ...)": the run above ended by hand. */
static void emit_shell_end(struct scan *sc, const char *word)
{
	struct so_line l;

	memset(&l, 0, sizeof(l));
	l.kind = SO_INTERRUPT;
	snprintf(l.note, sizeof(l.note), "%.40s", word);
	emit(sc, &l);
}

/* The records of tok[*i..end), as far as they go; false when none. */
static bool records(struct scan *sc, char **tok, size_t end, size_t *i, bool send)
{
	size_t from = *i;

	while (*i < end) {
		struct so_line l;
		size_t at = *i;

		memset(&l, 0, sizeof(l));
		if (!(strcmp(tok[at], "align") == 0 ? align_record(tok, end, i, &l)
						    : rate_record(sc, tok, end, i, &l)))
			break;
		if (send)
			emit(sc, &l);
	}
	return *i > from;
}

/*
 * A line as mail archives keep a terminal session: each run's prompt and
 * command and then its rows, run together ("@15:21:05 # ./flashbench
 * --open-au ... 4MiB 6.9M/s 2MiB 5.14M/s ... @17:58:45 # ./flashbench
 * ..."), perhaps ended by the shell's "Terminated (...)". The words
 * between a run's last row and the next command are its prompt. True
 * when some command on the line has rows after it.
 */
static bool session(struct scan *sc, char **tok, size_t n, bool send)
{
	size_t c = 0, any = 0;

	while (c < n && !so_command_at(tok, n, c))
		c++;
	while (c < n) {
		size_t r = c + 1, next, e;
		struct so_line l;

		while (r < n && !row_start(tok, n, r) && !(r > c + 1 && so_command_at(tok, n, r)))
			r++;
		memset(&l, 0, sizeof(l));
		if (send && so_command(tok + c, r - c, &l))
			emit(sc, &l);
		e = r;
		if (r < n && !so_command_at(tok, n, r) && records(sc, tok, n, &e, send))
			any++;
		for (next = e; next < n && !so_command_at(tok, n, next); next++)
			;
		if (next == n && e < n && shell_end(tok[e]) && send)
			emit_shell_end(sc, tok[e]);
		c = next;
	}
	return any > 0;
}

/* One piece of a line (a "^C" cuts a line in two). */
static void piece(struct scan *sc, char *s, bool quiet_blank)
{
	char **tok;
	size_t n, room;
	struct so_line l;
	bool mark;

	/* A readahead table's "==>" (seed 001), which unwrap() would eat as quoting. */
	s += strspn(s, "> \t");
	mark = strncmp(s, "==>", 3) == 0;
	s = unwrap(s + (mark ? 3 : 0));
	if (*s == '\0' || decoration(s)) {
		if (!quiet_blank)
			emit_kind(sc, SO_BLANK);
		return;
	}
	memset(&l, 0, sizeof(l));
	if (strncmp(s, "interrupted by signal", 21) == 0) {
		l.kind = SO_INTERRUPT;
		l.is_flashbench = true;	/* this tool's own line: a live run stopped */
		emit(sc, &l);
		return;
	}
	if (strncmp(s, "stopped:", 8) == 0) {
		l.kind = SO_STOPPED;
		snprintf(l.note, sizeof(l.note), "%s", s + 8 + strspn(s + 8, " \t"));
		emit(sc, &l);
		return;
	}
	room = strlen(s) / 2 + 2;
	tok = malloc(room * (sizeof(*tok) + sizeof(double)));
	if (!tok) {
		emit_kind(sc, SO_SKIP);
		return;
	}
	sc->rates = (double *)(tok + room);
	if (so_readahead_csv(s, sc->rates, room, &l)) {
		emit(sc, &l);
		free(tok);
		return;
	}
	n = split(s, tok);
	if (!mark && rows(sc, tok, n, false))
		rows(sc, tok, n, true);
	else if (so_readahead(tok, n, mark, sc->rates, &l) || so_readahead_ours(tok, n, &l))
		emit(sc, &l);
	else if (session(sc, tok, n, false))
		session(sc, tok, n, true);
	else if (n && shell_end(tok[0]) && (n == 1 || tok[1][0] == '('))
		emit_shell_end(sc, tok[0]);
	else if (so_command(tok, n, &l))
		emit(sc, &l);
	else
		emit_kind(sc, SO_SKIP);
	free(tok);
}

size_t so_scan(const char *line, so_record_fn *fn, void *ctx)
{
	struct scan sc = { .fn = fn, .ctx = ctx };
	size_t len = strnlen(line, SO_MAX_LINE);
	char *buf = malloc(len + 1), *p;
	bool interrupted = false;

	if (!buf) {
		emit_kind(&sc, SO_SKIP);
		return sc.calls;
	}
	memcpy(buf, line, len);
	buf[len] = '\0';
	/*
	 * "^C" where the terminal echoed it, at the start of a line or after
	 * the last row printed: the run above it was interrupted. Elsewhere
	 * (prose) it is text.
	 */
	for (p = buf + strspn(buf, "> \t"); strncmp(p, "^C", 2) == 0; p += 2 + strspn(p + 2, " \t"))
		interrupted = true;
	if (interrupted)
		emit_kind(&sc, SO_INTERRUPT);
	len = strlen(p);
	while (len > 0 && isspace((unsigned char)p[len - 1]))
		len--;
	if (len >= 2 && strncmp(p + len - 2, "^C", 2) == 0) {
		p[len - 2] = '\0';
		piece(&sc, p, true);
		emit_kind(&sc, SO_INTERRUPT);
	} else {
		piece(&sc, p, interrupted);
	}
	free(buf);
	return sc.calls;
}

struct first {
	struct so_line l;
	bool have;
};

static void keep_first(void *ctx, const struct so_line *l)
{
	struct first *f = ctx;

	if (!f->have) {
		f->l = *l;
		f->l.rates = NULL;
		f->have = true;
	}
}

void so_classify(const char *line, struct so_line *out)
{
	struct first f = { .have = false };

	so_scan(line, keep_first, &f);
	*out = f.l;
}
