// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every rank's results to rank 0, as bytes: the slots are pointer-free
 * (stats.h), so MPI_Gather moves them whole, and rank 0 merges them with
 * the same ib_stats_merge as group_reporting: counts and bytes summed,
 * histograms summed bucket by bucket. Gathering the slots (rather than
 * only reducing the bins) is what the per-host lines need; the "All
 * clients" sums are then made once, by the report (report_hosts.c).
 */
#include <errno.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include "iobench/mpiplan.h"
#include "mpi_priv.h"

/*
 * Local slot j of every rank into res->own_stats[r * nj + j] (nj: the
 * most jobs a rank runs): a datatype of one slot's bytes whose extent is
 * nj slots puts rank r's at r * nj. A rank with fewer jobs sends a slot
 * of zeros, dropped by fill().
 */
static void gather_slots(const struct ib_mpi_ctx *c, const struct ib_mpi_helper *h,
			 unsigned int nj, struct ib_results *res)
{
	MPI_Datatype slot, strided;
	unsigned int j;

	MPI_Type_contiguous((int)sizeof(struct ib_job_stats), MPI_BYTE, &slot);
	MPI_Type_create_resized(slot, 0,
				(MPI_Aint)nj * (MPI_Aint)sizeof(struct ib_job_stats),
				&strided);
	MPI_Type_commit(&strided);
	for (j = 0; j < nj; j++)
		MPI_Gather(&h->stats[j], (int)sizeof(struct ib_job_stats), MPI_BYTE,
			   c->rank == 0 ? &res->own_stats[j] : NULL, 1, strided, 0,
			   MPI_COMM_WORLD);
	MPI_Type_free(&strided);
	MPI_Type_free(&slot);
}

static int64_t epoch_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

static void fill_host(const struct ib_mpi_ctx *c, const struct ib_mpi_outcome *o,
		      const int64_t *offset, const int64_t *rtt, unsigned int r,
		      struct ib_res_host *x)
{
	memcpy(x->name, o->host, sizeof(x->name));
	x->rank = (int)r;
	x->clock_offset_ns = offset[r];
	x->clock_rtt_ns = rtt[r];
	x->start_ns = o->start_ns ? o->start_ns - offset[r] : 0;
	(void)c;
}

/*
 * Rank 0: hosts, the jobs each rank ran with their slots (moved down over
 * the holes of ranks with fewer jobs and of stats=0 jobs: k <= r * nj + j,
 * so in order), disks.
 */
static void fill(const struct ib_mpi_ctx *c, const struct ib_plan *run,
		 const struct ib_mpi_outcome *outs, const int64_t *offset,
		 const int64_t *rtt, struct ib_results *res)
{
	unsigned int nj = ib_mpi_local_max(c->split, c->size, run->nr_jobs);
	unsigned int k = 0, d = 0, r, j;
	long g;

	for (r = 0; r < (unsigned int)c->size; r++) {
		fill_host(c, &outs[r], offset, rtt, r, &res->hosts[r]);
		for (j = 0; j < nj; j++) {
			g = ib_mpi_job_index(c->split, (int)r, c->size, run->nr_jobs, j);
			if (g < 0 || !run->jobs[g].stats)
				continue; /* stats=0: in no report */
			ib_res_job_from(&res->jobs[k], &run->jobs[g]);
			res->jobs[k].host = r;
			if (k != r * nj + j)
				res->own_stats[k] = res->own_stats[r * nj + j];
			k++;
		}
		for (j = 0; j < outs[r].nr_disks && j < IB_MPI_DISKS_MAX; j++) {
			res->disks[d].host = r;
			res->disks[d++].util = outs[r].disks[j];
		}
	}
	res->nr_jobs = k;
	res->timestamp_ms = epoch_ms();
	res->terse_version = run->terse_version ? run->terse_version : 3;
	res->fio_version = run->fio_version ? run->fio_version : IB_FIO_VERSION_DEFAULT;
	res->global_opts_len = run->global_opts_len;
	memcpy(res->global_opts_text, run->global_opts_text, sizeof(res->global_opts_text));
}

static unsigned int count_disks(const struct ib_mpi_outcome *outs, int size)
{
	unsigned int n = 0;
	int r;

	for (r = 0; r < size; r++)
		n += outs[r].nr_disks < IB_MPI_DISKS_MAX ? outs[r].nr_disks : IB_MPI_DISKS_MAX;
	return n;
}

int ib_mpi_gather(const struct ib_mpi_ctx *c, const struct ib_plan *run,
		  const struct ib_mpi_helper *h, const int64_t *offset,
		  const int64_t *rtt, struct ib_results *res,
		  struct ib_mpi_outcome **outs)
{
	struct ib_mpi_outcome mine = *h->out;
	unsigned int nj = ib_mpi_local_max(c->split, c->size, run->nr_jobs);
	unsigned int size = (unsigned int)c->size;

	/* the helper may have died before it wrote these */
	memcpy(mine.host, c->host, sizeof(mine.host));
	mine.rank = c->rank;
	*outs = NULL;
	if (c->rank == 0) {
		*outs = calloc(size, sizeof(**outs));
		if (!*outs)
			MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Gather(&mine, (int)sizeof(mine), MPI_BYTE, *outs, (int)sizeof(mine),
		   MPI_BYTE, 0, MPI_COMM_WORLD);
	if (c->rank == 0 &&
	    ib_results_alloc(res, size, size * nj, count_disks(*outs, c->size)) < 0)
		MPI_Abort(MPI_COMM_WORLD, 1); /* the others wait in the gather */
	gather_slots(c, h, nj, res);
	if (c->rank == 0)
		fill(c, run, *outs, offset, rtt, res);
	return 0;
}

struct ib_mpi_head *ib_mpi_gather_headers(const struct ib_mpi_ctx *c,
					  const struct ib_mpi_helper *h)
{
	struct ib_mpi_head mine, *all = NULL;

	memcpy(mine.host, c->host, sizeof(mine.host));
	memcpy(mine.text, h->out->header, sizeof(mine.text));
	if (c->rank == 0 && !(all = calloc((size_t)c->size, sizeof(*all))))
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Gather(&mine, (int)sizeof(mine), MPI_BYTE, all, (int)sizeof(mine),
		   MPI_BYTE, 0, MPI_COMM_WORLD);
	return all;
}
