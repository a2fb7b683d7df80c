// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio 3.42's sprandom (sprandom.h) and ramp_size: their fix-ups and the
 * checks that need the job alone (the plan's, which need the file's size,
 * are made when the job starts: iogen_spr.c).
 */
#include <errno.h>
#include <string.h>
#include "iobench/job.h"
#include "iobench/job_setup.h"
#include "iobench/randdist.h"

/* sprandom sets random_generator=lfsr and norandommap=1 when not given. */
void ib_job_fixup_sprandom(struct ib_job *j)
{
	if (!j->sprandom)
		return;
	if (j->rand_gen == IB_RANDGEN_AUTO)
		j->rand_gen = IB_RANDGEN_LFSR;
	if (!j->norandommap_given)
		j->norandommap = true;
}

static int check_spr_rw(const struct ib_job *j, struct ib_diag *d)
{
	if (!(j->rw & IB_RW_RAND) || !(j->rw & IB_RW_WRITE))
		return ib_diag_set(d, EINVAL,
				   "sprandom: needs random writes (rw=randwrite or randrw), not rw=%s",
				   ib_rw_name(j->rw));
	if (j->rw & IB_RW_TRIM)
		return ib_diag_set(d, ENOTSUP,
				   "sprandom with rw=%s: not supported by iobench (randwrite or randrw)",
				   ib_rw_name(j->rw));
	return 0;
}

int ib_job_check_sprandom(const struct ib_job *j, struct ib_diag *d)
{
	uint64_t bs = j->bs.min[IB_DDIR_WRITE];
	int rc;

	if (!j->sprandom)
		return 0;
	rc = check_spr_rw(j, d);
	if (rc)
		return rc;
	if (j->rand_gen != IB_RANDGEN_LFSR)
		return ib_diag_set(d, EINVAL, "sprandom: needs random_generator=lfsr");
	if (!j->norandommap)
		return ib_diag_set(d, EINVAL, "sprandom: needs norandommap=1");
	if (!ib_job_one_file(j))
		return ib_diag_set(d, EINVAL, "sprandom: only one file per job");
	if (j->bssplit[IB_DDIR_WRITE].nr || j->bs.max[IB_DDIR_WRITE] != bs)
		return ib_diag_set(d, ENOTSUP,
				   "sprandom: one write block size (bsrange or bssplit: not supported by iobench)");
	if (bs & (bs - 1))
		return ib_diag_set(d, EINVAL,
				   "sprandom: the write block size (%llu) must be a power of 2",
				   (unsigned long long)bs);
	if (j->rand_dist != IB_DIST_RANDOM)
		return ib_diag_set(d, EINVAL,
				   "sprandom: picks every write's offset itself, not with random_distribution");
	return 0;
}

/* ramp_size: not with ramp_time (fio 3.42 rejects the job). */
int ib_job_check_ramp(const struct ib_job *j, struct ib_diag *d)
{
	if (!j->ramp_size)
		return 0;
	if (j->ramp_time_us)
		return ib_diag_set(d, EINVAL,
				   "ramp_size: not together with ramp_time (one or the other)");
	return 0;
}
