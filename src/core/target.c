/* Dispatch of target_open() to the kind of target the path names. */
#include <errno.h>
#include <string.h>

#include "core/target.h"

int target_open(const char *path, int flags, struct target **out, char *err, size_t errlen)
{
	*out = NULL;
	if (strncmp(path, "sim:", 4) == 0)
		return target_sim_open(path + 4, flags, out, err, errlen);
	return target_dev_open(path, flags, out, err, errlen);
}

void target_close(struct target *t)
{
	if (t)
		t->ops->close(t);
}

int target_data_fd(struct target *t)
{
	return t->ops->data_fd ? t->ops->data_fd(t) : t->fd;
}
