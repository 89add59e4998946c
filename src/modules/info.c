/*
 * --info: what the kernel knows about the device, one fact per line --
 * the geometry, the queue, discard, zones, the identity, a partition's
 * disk or a loop device's backing file, an MMC/SD card's registers; a
 * file's file system and direct-I/O alignment; the simulated card's
 * parameters. Each fact as the kernel gives it, or "unknown"; nothing
 * is measured, nothing written.
 */
#include <stdlib.h>
#include <string.h>

#include "core/devinfo.h"
#include "core/units.h"
#include "sim/sim_spec.h"
#include "modules/info.h"
#include "modules/test.h"

/* The simulated card: its size, sector and every parameter as sim: takes it. */
static void sim_facts(const struct target *t, struct devinfo *d)
{
	struct sim_spec *s = calloc(1, sizeof(*s));
	char err[256], all[2048], name[48], *item, *save = NULL;
	uint64_t v;

	if (!s || sim_spec_parse(t->path + 4, s, err, sizeof(err)) < 0) {
		free(s);
		return;
	}
	v = t->size;
	devinfo_add_num(d, "size_bytes", DI_BYTES, &v, "the simulated card");
	v = t->sector;
	devinfo_add_num(d, "logical_sector_bytes", DI_BYTES, &v, "the simulated card");
	v = 0;
	devinfo_add_num(d, "discard", DI_BOOL, &v, "the simulated card (the model has no discard)");
	v = s->p.erase;
	devinfo_add_num(d, "sim_erase_bytes", DI_BYTES, &v, "the simulated card's own erase=");
	devinfo_add_text(d, "sim_preset", s->preset, "sim:");
	sim_params_format(&s->p, all, sizeof(all));
	for (item = strtok_r(all, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');

		if (!eq)
			continue;
		*eq = '\0';
		if (strcmp(item, "stated-erase") == 0)
			continue;	/* a claim, not a parameter: below, only when made */
		snprintf(name, sizeof(name), "sim_%s", item);
		for (char *c = name; *c; c++)
			if (*c == '-')
				*c = '_';
		devinfo_add_text(d, name, eq + 1, "sim: parameter");
	}
	/* Only when the card states one, as a real card's SD status may (or not). */
	if (s->p.stated_erase) {
		v = s->p.stated_erase;
		devinfo_add_num(d, "sim_stated_erase_bytes", DI_BYTES, &v, "sim: stated-erase=");
	}
	if (s->image[0])
		devinfo_add_text(d, "sim_image", s->image, "sim: image=");
	free(s);
}

void info_collect(const struct target *t, struct devinfo *d)
{
	d->n = 0;
	if (t->sim)
		sim_facts(t, d);
	else
		devinfo_read(t, d);
}

bool info_stated_erase(const struct target *t, uint64_t *bytes, struct di_fact *from)
{
	struct devinfo *d = calloc(1, sizeof(*d));
	const struct di_fact *f;
	bool found;

	if (!d)
		return false;
	info_collect(t, d);
	found = devinfo_stated_erase(d, bytes, &f);
	if (found)
		*from = *f;
	free(d);
	return found;
}

/* "size_bytes                      4294967296 (4GiB)" */
static void info_text(char *line, size_t len, const union out_val *v)
{
	char sz[FB_FMT_LEN] = "";
	const char *end = NULL;
	uint64_t n = strtoull(v[1].s, (char **)&end, 10);
	size_t k = strlen(v[0].s);

	/* A size in bytes also in the units the other lines use. */
	if (k > 6 && strcmp(v[0].s + k - 6, "_bytes") == 0 && end && !*end && end != v[1].s &&
	    n >= 1024)
		fmt_size(sz, sizeof(sz), n);
	snprintf(line, len, "%-31s %s%s%s%s", v[0].s, v[1].s, sz[0] ? " (" : "", sz,
		 sz[0] ? ")" : "");
}

static const struct out_field info_fields[] = {
	{ "fact", OT_TEXT }, { "value", OT_TEXT }, { "source", OT_TEXT },
};

static const struct out_table info_table = { "info", info_fields, 3, info_text, NULL };

static int info_run(const struct fb_opts *o, struct target *t)
{
	struct devinfo *d = calloc(1, sizeof(*d));

	(void)o;
	if (!d)
		return FB_EDEV;
	info_collect(t, d);
	out_note("info: %s (%s)", t->path, t->ops->kind);
	for (size_t i = 0; i < d->n; i++)
		out_row(&info_table, (union out_val[]){ { .s = d->f[i].name }, { .s = d->f[i].text },
							{ .s = d->f[i].source } });
	free(d);
	return FB_OK;
}

const struct fb_test test_info = {
	.name = "info",
	.help = "what the kernel knows about DEVICE: geometry, queue,\n"
		"discard, zones, identity, an SD card's registers\n"
		"(reads no data)",
	.run = info_run,
	.tables = (const struct out_table *const[]){ &info_table, NULL },
};
