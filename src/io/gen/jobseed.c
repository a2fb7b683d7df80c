// SPDX-License-Identifier: GPL-2.0-only
/* A job's random streams' seeds (jobseed.h); util/rand.c knows no job. */
#include "iobench/job.h"
#include "iobench/jobseed.h"

uint32_t ib_rand_job_seed(const struct ib_job *job, enum ib_rand_stream s)
{
	/* fio 3.35 on: randrepeat's offsets are seed number 6 of 0x89 too;
	 * fio 3.33's are 0xb1899bed times the job's number */
	if (s == IB_STREAM_OFFSET && job->randrepeat && !job->randseed_set &&
	    job->fio_ver != 333) /* enum ib_fio_version's IB_FIO_V333 */
		return ib_rand_fio_seed(6, job->number, 0x89);
	return ib_rand_stream_seed(s, job->number, job->randrepeat,
				   job->randseed_set, job->randseed);
}

uint32_t ib_rand_job_bs_seed(const struct ib_job *job, enum ib_ddir d)
{
	return ib_rand_fio_seed((unsigned int)d, job->number,
				job->randseed_set ? job->randseed : 0x89);
}
