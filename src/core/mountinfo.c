/* /proc/self/mountinfo: see mountinfo.h. */
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "core/mountinfo.h"

/* The line buffer of the one mountinfo read at a time. */
static char *line;
static size_t cap;

void unescape_octal(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

FILE *mountinfo_open(void)
{
	return fopen("/proc/self/mountinfo", "r");
}

/* "36 35 98:0 /root /mnt opts [optional...] - fstype source opts" */
static bool parse(char *l, struct mount_entry *m)
{
	char *tok[64], *save = NULL, *p;
	unsigned ma, mi, n = 0, dash = 0;

	for (p = strtok_r(l, " \n", &save); p && n < 64; p = strtok_r(NULL, " \n", &save)) {
		if (!dash && n > 5 && strcmp(p, "-") == 0)
			dash = n;
		tok[n++] = p;
	}
	if (n < 5 || !dash || dash + 2 >= n || sscanf(tok[2], "%u:%u", &ma, &mi) != 2)
		return false;
	unescape_octal(tok[4]);
	unescape_octal(tok[dash + 2]);
	m->dev = makedev(ma, mi);
	m->mp = tok[4];
	m->fstype = tok[dash + 1];
	m->source = tok[dash + 2];
	return true;
}

bool mountinfo_next(FILE *f, struct mount_entry *m)
{
	while (getline(&line, &cap, f) > 0)
		if (parse(line, m))
			return true;
	return false;
}

void mountinfo_close(FILE *f)
{
	fclose(f);
	free(line);
	line = NULL;
	cap = 0;
}
