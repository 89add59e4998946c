/* The list of facts a device's description is made of: see devinfo_list.h. */
#include <stdio.h>
#include <string.h>

#include "core/devinfo_list.h"

static struct di_fact *add(struct devinfo *d, const char *name, enum di_kind kind,
			   const char *source)
{
	struct di_fact *f;

	if (d->n >= DI_MAX_FACTS)
		return NULL;
	f = &d->f[d->n++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->kind = kind;
	f->source = source;
	snprintf(f->text, sizeof(f->text), "unknown");
	return f;
}

void devinfo_add_num(struct devinfo *d, const char *name, enum di_kind kind, const uint64_t *v,
		     const char *source)
{
	struct di_fact *f = add(d, name, kind, source);

	if (!f || !v)
		return;
	f->known = true;
	f->num = kind == DI_BOOL ? *v != 0 : *v;
	if (kind == DI_BOOL)
		snprintf(f->text, sizeof(f->text), "%s", f->num ? "yes" : "no");
	else
		snprintf(f->text, sizeof(f->text), "%llu", (unsigned long long)f->num);
}

void devinfo_add_text(struct devinfo *d, const char *name, const char *v, const char *source)
{
	struct di_fact *f = add(d, name, DI_TEXT, source);
	size_t n;

	if (!f || !v)
		return;
	f->known = true;
	/* A longer value (a backing file's path) is cut, as snprintf would, without its warning. */
	n = strnlen(v, sizeof(f->text) - 1);
	memcpy(f->text, v, n);
	f->text[n] = '\0';
}

const struct di_fact *devinfo_get(const struct devinfo *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->f[i].name, name) == 0)
			return &d->f[i];
	return NULL;
}
