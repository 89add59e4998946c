/*
 * The list of target kinds: target_open() hands the path to the kind it
 * names. Apart from target.c, so that the kinds (target_dev.c, and the
 * simulated card's target_sim.c, the one name from the sim layer that
 * core knows) use the interface without the interface using them.
 */
#include <string.h>

#include "core/target.h"

int target_open(const char *path, int flags, struct target **out, char *err, size_t errlen)
{
	*out = NULL;
	if (strncmp(path, "sim:", 4) == 0)
		return target_sim_open(path + 4, flags, out, err, errlen);
	return target_dev_open(path, flags, out, err, errlen);
}
