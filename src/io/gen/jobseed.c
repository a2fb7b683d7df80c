// SPDX-License-Identifier: GPL-2.0-only
/* A job's random streams' seeds (jobseed.h); util/rand.c knows no job. */
#include "iobench/job.h"
#include "iobench/jobseed.h"

/*
 * The offsets' seed: fio's seed number 6 of randseed= (fio 3.42; 3.33
 * ignored it unless randrepeat=0), and with randrepeat of 0x89 (fio 3.35
 * on) or, as fio 3.33 (v333), 0xb1899bed times the job's number
 * (ib_rand_stream_seed()).
 */
static uint32_t offset_seed(const struct ib_job *job, bool v333)
{
	if (job->randseed_set || (job->randrepeat && !v333))
		return ib_rand_fio_seed(6, job->number,
					job->randseed_set ? job->randseed : 0x89);
	return ib_rand_stream_seed(IB_STREAM_OFFSET, job->number, job->randrepeat,
				   false, 0);
}

uint32_t ib_rand_job_seed(const struct ib_job *job, enum ib_rand_stream s)
{
	if (s == IB_STREAM_OFFSET) /* fio_ver: enum ib_fio_version's 333 */
		return offset_seed(job, job->fio_ver == 333);
	return ib_rand_stream_seed(s, job->number, job->randrepeat,
				   job->randseed_set, job->randseed);
}

uint32_t ib_rand_job_file_seed(const struct ib_job *job)
{
	return offset_seed(job, true) ^ 0x5a17f11eu;
}

uint32_t ib_rand_job_bs_seed(const struct ib_job *job, enum ib_ddir d)
{
	return ib_rand_fio_seed((unsigned int)d, job->number,
				job->randseed_set ? job->randseed : 0x89);
}
