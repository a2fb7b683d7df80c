// SPDX-License-Identifier: GPL-2.0-only
/*
 * Normal report: the job header lines printed before the run, the
 * "Run status group" lines and the "Disk stats" lines (doc/fio-compat.md §1.1,
 * §1.9, §1.10).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "config.h"
#include "iobench/disk.h"
#include "iobench/num2str.h"
#include "report_common.h"

static const char *const group_label[IB_DDIR_RWT] = { "READ", "WRITE", "TRIM" };

static void print_job_header(FILE *f, const struct ib_res_job *j, const char *engine)
{
	bool pow2 = (j->kb_base & (j->kb_base - 1)) == 0;
	char b[6][32];
	unsigned int d;

	for (d = 0; d < IB_DDIR_RWT; d++) {
		ib_num2str(j->bs.min[d], 4, 1, pow2, "B", b[2 * d], sizeof(b[0]));
		ib_num2str(j->bs.max[d], 4, 1, pow2, "B", b[2 * d + 1], sizeof(b[0]));
	}
	fprintf(f, "%s: (g=%u): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, "
		"ioengine=%s, iodepth=%u\n", j->name, j->groupid, ib_rw_name(j->rw),
		b[0], b[1], b[2], b[3], b[4], b[5], engine, j->iodepth);
}

int ib_report_header(FILE *f, const struct ib_results *res)
{
	unsigned int i, thr = 0, proc = 0;

	for (i = 0; i < res->nr_jobs; i++) {
		const struct ib_res_job *j = &res->jobs[i];

		if (j->thread)
			thr++;
		else
			proc++;
		if (j->clone == 0) /* the engine the runner chose, if it did */
			print_job_header(f, j, res->stats && res->stats[i].ioengine[0] ?
					 res->stats[i].ioengine : j->ioengine);
		else if (j->clone == 1)
			fputs("...\n", f);
	}
	fprintf(f, "iobench-%s\n", IOBENCH_VERSION);
	if (thr && proc)
		fprintf(f, "Starting %u thread%s and %u process%s\n", thr,
			thr > 1 ? "s" : "", proc, proc > 1 ? "es" : "");
	else if (thr)
		fprintf(f, "Starting %u thread%s\n", thr, thr > 1 ? "s" : "");
	else
		fprintf(f, "Starting %u process%s\n", proc, proc != 1 ? "es" : "");
	return ferror(f) ? -EIO : 0;
}

/* One "   READ: bw=..." line: v = agg, min, max bw, io bytes; run = min, max ms */
static void group_line(FILE *f, const struct ib_res_job *j, const char *label,
		       const uint64_t *v, const uint64_t *run)
{
	unsigned int sig = j->significant_figures ? j->significant_figures : 4, k;
	bool pow2 = (j->kb_base & (j->kb_base - 1)) == 0;
	const char *unit = j->unit_base == 1 ? "bit/s" : "B/s";
	char s[8][32];

	for (k = 0; k < 4; k++) {
		ib_num2str(v[k], sig, 1, pow2, k == 3 ? "B" : unit, s[2 * k], sizeof(s[0]));
		ib_num2str(v[k], sig, 1, !pow2, k == 3 ? "B" : unit, s[2 * k + 1], sizeof(s[0]));
	}
	fprintf(f, "%7s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%llu-%llumsec\n",
		label, s[0], s[1], s[2], s[4], s[3], s[5], s[6], s[7],
		(unsigned long long)run[0], (unsigned long long)run[1]);
}

/*
 * unified_rw_reporting=both: the directions' lines summed (fio's rule: the
 * aggregates and bytes added, the extremes of the bandwidths and runtimes).
 */
static void group_mixed(FILE *f, const struct ib_rep_group *g)
{
	uint64_t v[4] = { 0, UINT64_MAX, 0, 0 }, run[2] = { UINT64_MAX, 0 };
	unsigned int d;

	for (d = 0; d < IB_DDIR_RWT; d++) {
		if (!g->max_run[d])
			continue;
		v[0] += g->agg_bw[d];
		v[1] = g->min_bw[d] < v[1] ? g->min_bw[d] : v[1];
		v[2] = g->max_bw[d] > v[2] ? g->max_bw[d] : v[2];
		v[3] += g->io_bytes[d];
		run[0] = g->min_run[d] < run[0] ? g->min_run[d] : run[0];
		run[1] = g->max_run[d] > run[1] ? g->max_run[d] : run[1];
	}
	group_line(f, g->job, "MIXED", v, run);
}

void ib_report_group(FILE *f, const struct ib_rep_group *g)
{
	unsigned int d;

	fprintf(f, "\nRun status group %u (all jobs):\n", g->groupid);
	for (d = 0; d < IB_DDIR_RWT; d++) {
		uint64_t v[4] = { g->agg_bw[d], g->min_bw[d], g->max_bw[d], g->io_bytes[d] };
		uint64_t run[2] = { g->min_run[d], g->max_run[d] };

		if (!g->io_bytes[d])
			continue;
		group_line(f, g->job, g->unified == IB_UNIFIED_MIXED ? "MIXED" :
			   group_label[d], v, run);
	}
	if (g->unified == IB_UNIFIED_BOTH)
		group_mixed(f, g);
}

/* sectors: fio 3.42's "sectors=R/W" after ios= (NULL: 3.33's line) */
static void print_stat(FILE *f, const char *indent, const char *name, const uint64_t *ios,
		       const uint64_t *sectors, const uint64_t *merges, const uint64_t *ticks,
		       uint64_t in_queue, double util)
{
	fprintf(f, "%s%s: ios=%llu/%llu, ", indent, name, (unsigned long long)ios[0],
		(unsigned long long)ios[1]);
	if (sectors)
		fprintf(f, "sectors=%llu/%llu, ", (unsigned long long)sectors[0],
			(unsigned long long)sectors[1]);
	fprintf(f, "merge=%llu/%llu, ticks=%llu/%llu, in_queue=%llu, util=%3.2f%%",
		(unsigned long long)merges[0], (unsigned long long)merges[1],
		(unsigned long long)ticks[0], (unsigned long long)ticks[1],
		(unsigned long long)in_queue, util);
}

/* The aggr* fields of a device with slaves (3.42 adds "aggsectors=", so spelt) */
static void print_aggr(FILE *f, const struct ib_disk_util *u, bool v342)
{
	uint64_t sec[2];

	fprintf(f, ", aggrios=%llu/%llu, ", (unsigned long long)u->aggr_ios[0],
		(unsigned long long)u->aggr_ios[1]);
	if (v342) {
		ib_disk_aggr_sectors(u, sec);
		fprintf(f, "aggsectors=%llu/%llu, ", (unsigned long long)sec[0],
			(unsigned long long)sec[1]);
	}
	fprintf(f, "aggrmerge=%llu/%llu, aggrticks=%llu/%llu, aggrin_queue=%llu, aggrutil=%3.2f%%",
		(unsigned long long)u->aggr_merges[0], (unsigned long long)u->aggr_merges[1],
		(unsigned long long)u->aggr_ticks[0], (unsigned long long)u->aggr_ticks[1],
		(unsigned long long)u->aggr_in_queue, u->aggr_util);
}

/* A device with slaves gets 2 more spaces, its aggr* fields, then the slaves */
static void print_disk(FILE *f, const struct ib_disk_util *u, bool v342)
{
	unsigned int s;

	print_stat(f, u->nr_slaves ? "    " : "  ", u->name, u->ios, v342 ? u->sectors : NULL,
		   u->merges, u->ticks, u->in_queue, u->util);
	if (u->nr_slaves)
		print_aggr(f, u, v342);
	fputc('\n', f);
	for (s = 0; s < u->nr_slaves && s < IB_DISK_SLAVES_MAX; s++) {
		const struct ib_disk_slave_util *sl = &u->slave[s];

		print_stat(f, "  ", sl->name, sl->ios, v342 ? sl->sectors : NULL, sl->merges,
			   sl->ticks, sl->in_queue, sl->util);
		fputc('\n', f);
	}
}

void ib_report_disks(FILE *f, const struct ib_res_disk *du, unsigned int nr,
		     enum ib_fio_version v)
{
	unsigned int i;

	if (!nr)
		return;
	fputs("\nDisk stats (read/write):\n", f);
	for (i = 0; i < nr; i++)
		print_disk(f, &du[i].util, v >= IB_FIO_V342);
}
