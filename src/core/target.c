/* The target interface's own code (target_open(), the list of kinds: target_open.c). */
#include "core/target.h"

void target_close(struct target *t)
{
	if (t)
		t->ops->close(t);
}

int target_data_fd(struct target *t)
{
	return t->ops->data_fd ? t->ops->data_fd(t) : t->fd;
}
