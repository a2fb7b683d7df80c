// SPDX-License-Identifier: GPL-2.0-only
/* PLACEHOLDER until the stats branch lands: no disks found. */
#include <string.h>
#include "iobench/disk.h"

int ib_disk_setup(struct ib_disk_set *set, const char *const *paths, unsigned int n,
		  struct ib_diag *d)
{
	(void)paths; (void)n; (void)d;
	memset(set, 0, sizeof(*set));
	return 0;
}

void ib_disk_start(struct ib_disk_set *set)
{
	(void)set;
}

void ib_disk_stop(struct ib_disk_set *set)
{
	(void)set;
}
