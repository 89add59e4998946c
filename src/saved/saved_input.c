/* The input of --analyze and --compare: see saved_input.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "saved/saved_input.h"
#include "core/hot.h"
#include "core/opts.h"

static int refuse(const char *path, const char *why, char *err, size_t len)
{
	snprintf(err, len, "--analyze: cannot read '%s': %s", path, why);
	return FB_EUSAGE;
}

int ai_open(struct ai_input **out, const char *path, char *err, size_t len)
{
	struct ai_input *in;
	struct stat st;
	bool std = strcmp(path, "-") == 0;
	FILE *f = std ? stdin : fopen(path, "r");

	if (!f)
		return refuse(path, strerror(errno), err, len);
	if (fstat(fileno(f), &st) == 0 && (S_ISDIR(st.st_mode) || S_ISBLK(st.st_mode))) {
		if (!std)
			fclose(f);
		return refuse(path, S_ISDIR(st.st_mode) ? strerror(EISDIR)
				    : "a block device, not saved output", err, len);
	}
	in = calloc(1, sizeof(*in));
	if (!in) {
		if (!std)
			fclose(f);
		return refuse(path, strerror(ENOMEM), err, len);
	}
	in->f = f;
	in->path = path;
	*out = in;
	return FB_OK;
}

/* Read up to the line end; keep SO_MAX_LINE bytes. 0: EOF before any byte. */
static int read_line(struct ai_input *in)
{
	size_t n = 0;
	unsigned long long run = 0;
	int c;

	in->cut = in->nul = false;
	while ((c = getc_unlocked(in->f)) != EOF && c != '\n') {
		in->nul = in->nul || c == '\0';
		if (n < SO_MAX_LINE)
			in->buf[n++] = (char)c;
		else
			in->cut = true;
		if (++run > AI_MAX_RUN) {
			snprintf(in->stop, sizeof(in->stop), "more than %lluMiB without a line end",
				 AI_MAX_RUN >> 20);
			return -1;
		}
	}
	if (c == EOF && ferror(in->f)) {
		in->err = errno ? errno : EIO;
		return -1;
	}
	if (c == EOF && run == 0)
		return 0;
	in->unterminated = c == EOF;
	if (n > 0 && in->buf[n - 1] == '\r')
		n--;
	in->buf[n] = '\0';
	/* A byte-order mark that an editor put before the first line. */
	if (in->line == 0 && n >= 3 && memcmp(in->buf, "\xef\xbb\xbf", 3) == 0)
		memmove(in->buf, in->buf + 3, n - 2);
	return 1;
}

void ai_json(struct ai_input *in, const struct ai_json_source *src)
{
	int c;

	/* Saved text output never starts with '{': a JSON document does
	 * (after a byte-order mark an editor may have put before it). */
	c = getc(in->f);
	if (c == 0xef) {
		if ((c = getc(in->f)) == 0xbb && (c = getc(in->f)) == 0xbf)
			c = getc(in->f);
		else if (c != EOF)
			c = ungetc(c, in->f) == EOF ? EOF : 0xef;	/* no mark: a line to skip */
	}
	while (c == ' ' || c == '\n' || c == '\t' || c == '\r')
		c = getc(in->f);
	if (c != EOF)
		ungetc(c, in->f);
	if (c != '{' || !src)
		return;
	in->json = src->open(in->f);
	in->src = in->json ? src : NULL;
}

/*
 * After a JSON document: the end of the input, or another document (a
 * shell loop's output: read on, each a run of its own), or anything else,
 * which stops the reading with its place named.
 */
static int next_document(struct ai_input *in)
{
	int c;

	while ((c = getc(in->f)) == ' ' || c == '\n' || c == '\t' || c == '\r')
		;
	if (c == EOF)
		return ferror(in->f) ? (in->err = errno ? errno : EIO, -1) : 0;
	if (c != '{') {
		snprintf(in->stop, sizeof(in->stop), "more after JSON document %u ends, from "
			 "'%c': neither another document nor the end", in->documents + 1,
			 c >= ' ' && c < 127 ? c : '?');
		return -1;
	}
	ungetc(c, in->f);
	in->src->close(in->json);
	in->json = in->src->open(in->f);
	in->documents++;
	if (!in->json) {
		snprintf(in->stop, sizeof(in->stop), "%s", strerror(ENOMEM));
		return -1;
	}
	return 1;
}

int ai_next(struct ai_input *in)
{
	int r;

	while ((r = in->json ? in->src->next(in->json, in->buf, sizeof(in->buf), in->stop,
					     sizeof(in->stop))
			     : read_line(in)) == 0 && in->json)
		if ((r = next_document(in)) <= 0)
			break;

	/* A signal (a read from a pipe returns with EINTR): stop, not a read error. */
	if (fb_stop) {
		in->interrupted = fb_stop;
		in->err = 0;
		in->stop[0] = '\0';
		return -1;
	}
	if (r != 0)
		in->line++;
	if (r == 1 && in->nul && ++in->nul_lines >= AI_MAX_NUL_LINES) {
		snprintf(in->stop, sizeof(in->stop), "%d lines with NUL bytes", AI_MAX_NUL_LINES);
		return -1;
	}
	return r;
}

void ai_close(struct ai_input *in)
{
	if (!in)
		return;
	if (in->json)
		in->src->close(in->json);
	if (in->f != stdin)
		fclose(in->f);
	free(in);
}
