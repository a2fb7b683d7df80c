// SPDX-License-Identifier: GPL-2.0-only
/* PLACEHOLDER until the stats branch lands: logs are not written. */
#include "iobench/log.h"

int ib_logs_open(struct ib_logs *l, const struct ib_job *job, struct ib_diag *d)
{
	(void)job; (void)d;
	l->enabled = false;
	return 0;
}

void ib_logs_lat(struct ib_logs *l, uint64_t t_ms, enum ib_ddir ddir, uint32_t bs,
		 uint64_t offset, uint64_t slat, uint64_t clat, uint64_t lat)
{
	(void)l; (void)t_ms; (void)ddir; (void)bs; (void)offset; (void)slat;
	(void)clat; (void)lat;
}

void ib_logs_close(struct ib_logs *l)
{
	(void)l;
}
