/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_JOBSEED_H
#define IOBENCH_JOBSEED_H

#include <stdint.h>
#include "iobench/rand.h"

struct ib_job;

/*
 * Seed of a job's random stream s (rand.h): ib_rand_stream_seed() from the
 * job's number, randrepeat and randseed options.
 */
uint32_t ib_rand_job_seed(const struct ib_job *job, enum ib_rand_stream s);

#endif
