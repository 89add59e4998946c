/*
 * The simulated card's presets (sd, usb, fat, tlc, ssd, smr): named sets
 * of parameters a sim: spec starts from. Data apart from the parsing of
 * specs (sim_spec.c), which reads them through these two calls.
 */
#ifndef FB_SIM_PRESETS_H
#define FB_SIM_PRESETS_H

#include <stddef.h>

#include "sim/sim_model.h"

/* The parameters of a preset, or NULL for an unknown name. */
const struct sim_params *sim_preset(const char *name);

/*
 * The name of the i-th preset (0: the default) and, when what is not
 * NULL, its one-line description; NULL past the last.
 */
const char *sim_preset_at(size_t i, const char **what);

#endif
