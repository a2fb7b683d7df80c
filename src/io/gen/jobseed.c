// SPDX-License-Identifier: GPL-2.0-only
/* A job's random streams' seeds (jobseed.h); util/rand.c knows no job. */
#include "iobench/job.h"
#include "iobench/jobseed.h"

uint32_t ib_rand_job_seed(const struct ib_job *job, enum ib_rand_stream s)
{
	return ib_rand_stream_seed(s, job->number, job->randrepeat,
				   job->randseed_set, job->randseed);
}

uint32_t ib_rand_job_bs_seed(const struct ib_job *job, enum ib_ddir d)
{
	return ib_rand_fio_seed((unsigned int)d, job->number,
				job->randseed_set ? job->randseed : 0x89);
}
