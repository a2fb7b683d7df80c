/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_JOBSEED_H
#define IOBENCH_JOBSEED_H

#include <stdint.h>
#include "iobench/job.h"
#include "iobench/rand.h"

/*
 * Seed of a job's random stream s (rand.h): ib_rand_stream_seed() from the
 * job's number, randrepeat and randseed options.
 */
uint32_t ib_rand_job_seed(const struct ib_job *job, enum ib_rand_stream s);

/*
 * Seed of file_service_type's choices (random, zipf, ...): iobench's own,
 * fio 3.33's offset seed mixed, the same whatever --fio-version.
 */
uint32_t ib_rand_job_file_seed(const struct ib_job *job);

/*
 * Seed of the block sizes of direction d (bsrange, bssplit): fio's
 * (ib_rand_fio_seed(), index d) from randseed= or its default, so that a
 * job draws fio 3.33's sizes.
 */
uint32_t ib_rand_job_bs_seed(const struct ib_job *job, enum ib_ddir d);

#endif
