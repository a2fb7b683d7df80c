/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_MPIPLAN_H
#define IOBENCH_MPIPLAN_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/diag.h"
#include "iobench/plan.h"

/*
 * The plan of one MPI rank (iobench-mpi, src/mpi/). Every rank parses the
 * same arguments; these two functions need no MPI and are unit-tested.
 */

/*
 * FNV-1a 64 over what every rank must agree on before any I/O: the job
 * count, every job as bytes (jobs hold no pointers, job.h) and the
 * [global] options text. Two ranks with different options, or job files
 * that differ between hosts, hash differently.
 */
uint64_t ib_mpi_plan_hash(const struct ib_plan *run);

/*
 * Give this rank its own files, as fio's client mode does: in filename=,
 * directory=, write_iolog= and the write_*_log= prefixes, "$clientuid" (fio's name) and "$rank" become the rank
 * number and "$hostname" the host's name; a job without filename= (fio's
 * generated names JOB.CLONE.FILE) gets the names HOST.RANK.JOB.CLONE.FILE,
 * as fio's unique_filename prefixes them with the client. Rewrites
 * run->jobs in place. Returns 0, or -ENAMETOOLONG (d names the job).
 */
int ib_mpi_plan_for_rank(struct ib_plan *run, int rank, const char *host,
			 struct ib_diag *d);

/*
 * Which rank runs what. By default every rank runs every job (N ranks x
 * numjobs processes). With `split` (iobench-mpi --mpi-split) the run's jobs,
 * numjobs clones included, are dealt out: job i runs on rank i % size.
 * ib_mpi_local_max: the most jobs one rank runs. ib_mpi_job_index: the
 * plan index of rank's j-th job, or -1 if it has fewer.
 */
unsigned int ib_mpi_local_max(bool split, int size, unsigned int nr_jobs);
long ib_mpi_job_index(bool split, int rank, int size, unsigned int nr_jobs,
		      unsigned int j);
/*
 * Keep only rank's jobs of jobs[0..nr) (in place, in order) and return how
 * many. A job that starts a new group in what is left waits for the one
 * before it (stonewall), so groups still run one after another.
 */
unsigned int ib_mpi_plan_split(struct ib_job *jobs, unsigned int nr, int rank,
			       int size);

#endif
