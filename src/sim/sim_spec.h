/*
 * The text after "sim:" in a device name: `PRESET`, `key=value,...` or
 * `PRESET,key=value,...` (an empty spec is the default preset, sd).
 * Keys and presets are listed by sim_list_presets() (--list-sims) and
 * in sim_spec.c.
 */
#ifndef FB_SIM_SPEC_H
#define FB_SIM_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sim/sim_model.h"
#include "sim/sim_presets.h"	/* sim_preset(): what a spec starts from */

#define SIM_NAME_LEN 16

struct sim_spec {
	char preset[SIM_NAME_LEN];	/* the preset it started from */
	struct sim_params p;
	char image[4096];		/* backing file, "" for none */
};

/*
 * Parse spec into out. Returns 0, or -1 with a one-line message in err
 * that names the key and the value ("sim: unknown key 'foo'").
 */
int sim_spec_parse(const char *spec, struct sim_spec *out, char *err, size_t errlen);

/*
 * The file a device name writes to when it is a simulated card with an
 * image= (into buf); false for anything else, or a spec that does not parse.
 */
bool sim_device_image(const char *device, char *buf, size_t len);

/* Every preset with its description and all its parameters. */
void sim_list_presets(FILE *f);

/*
 * The parameters as a spec string that parses back to the same values
 * ("size=4GiB,erase=4MiB,..."; fail points and image are not included).
 */
char *sim_params_format(const struct sim_params *p, char *buf, size_t len);

#endif
