/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_REPORT_COMMON_H
#define IOBENCH_REPORT_COMMON_H

/* Private helpers shared by report_normal.c, report_json.c, report_terse.c */

#include <stdint.h>
#include "iobench/report.h"

/* One printed block: a job, or a group_reporting group merged into one. */
struct ib_rep_entry {
	const struct ib_job_stats *st;	/* the job's own, or `merged` */
	struct ib_job_stats *merged;	/* owned, only for 2+ jobs */
	const struct ib_res_job *job;	/* first job: name, pid, units */
	const struct ib_res_job *last_job;	/* last job: JSON "job options" (fio quirk) */
	unsigned int nr_jobs;
	/*
	 * unified_rw_reporting (job->unified_rw_rep): with mixed, st's
	 * directions are folded into dir[0] (a `merged` copy) and the reports
	 * label it "mixed"; with both, `mixed` (owned) is that fold, shown
	 * after the directions.
	 */
	struct ib_dir_stats *mixed;
};

/* Run status group aggregate (doc/fio-compat.md §1.9). */
struct ib_rep_group {
	unsigned int groupid;
	const struct ib_res_job *job;	/* first job of the group: units */
	uint64_t io_bytes[IB_DDIR_RWT];
	uint64_t agg_bw[IB_DDIR_RWT];	/* B/s */
	uint64_t min_bw[IB_DDIR_RWT], max_bw[IB_DDIR_RWT];
	uint64_t min_run[IB_DDIR_RWT], max_run[IB_DDIR_RWT];	/* ms */
	unsigned int unified;	/* its entries' unified_rw_rep, or'ed (fio's rule) */
};

struct ib_rep {
	struct ib_rep_entry *ent;
	unsigned int nr_ent;
	struct ib_rep_group *grp;
	unsigned int nr_grp;
	enum ib_fio_version fio_version;	/* the results' report format */
};

int ib_rep_build(struct ib_rep *r, const struct ib_results *res);
void ib_rep_free(struct ib_rep *r);
const struct ib_rep_group *ib_rep_group(const struct ib_rep *r, unsigned int groupid);

/* Per-direction runtime in ms (µs rounded up). */
static inline uint64_t ib_rep_runtime_ms(const struct ib_dir_stats *d)
{
	return (d->runtime_us + 999) / 1000;
}

static inline uint64_t ib_rep_bw(const struct ib_dir_stats *d)
{
	uint64_t ms = ib_rep_runtime_ms(d);

	return ms ? d->io_bytes * 1000 / ms : 0;
}

/*
 * A direction's I/O count as fio reports it (total_ios, IOPS, issued
 * rwts): the I/Os issued, failed ones included; the completed ones when
 * the count was reset (ramp end) after they were issued.
 */
static inline uint64_t ib_rep_ios(const struct ib_dir_stats *d)
{
	return d->issued > d->total_ios ? d->issued : d->total_ios;
}

static inline double ib_rep_iops(const struct ib_dir_stats *d)
{
	uint64_t ms = ib_rep_runtime_ms(d);

	return ms ? (double)ib_rep_ios(d) * 1000.0 / (double)ms : 0.0;
}

/*
 * bw_agg / "per=": ds's sample mean (KiB/s) as % of the group aggregate of
 * direction ddir (the mixed stats use the read aggregate, as fio). fio's
 * two roundings: the normal text and JSON divide the mean truncated to an
 * int by the aggregate in KiB/s as a double; terse (terse) divides the
 * mean by the aggregate's whole KiB/s.
 */
double ib_rep_bw_per(const struct ib_rep *r, const struct ib_rep_entry *e,
		     const struct ib_dir_stats *ds, unsigned int ddir, bool terse);
/*
 * The error a report shows (err=, JSON "error", terse's error field), by
 * fio's rule: the error that stopped the job, if one did; else, with
 * continue_on_error set, the first error it counted (0: none). *where
 * gets that error's text ("" if none was recorded).
 */
int ib_rep_error(const struct ib_rep_entry *e, const char **where);
/* Denominator for lat/depth percentages: issued (else completed) I/Os. */
uint64_t ib_rep_total_ios(const struct ib_job_stats *s);
/* Percentile values of one histogram; 0 if none (n == 0 or disabled). */
unsigned int ib_rep_percentiles(const struct ib_res_job *job, const struct ib_hist *h,
				uint64_t n, uint64_t *out);
/* Is that latency type's percentile list enabled for this job? */
bool ib_rep_pct_enabled(const struct ib_res_job *job, enum ib_lat_kind k);
/* Format "%.{prec}f" style percentage of v/total, 0 if total == 0. */
double ib_rep_pct(uint64_t v, uint64_t total);



/* Pieces of the normal report (report_normal.c, report_group.c) */
void ib_report_lat_line(FILE *f, const char *label, const struct ib_lat_stat *s);
void ib_report_pct_block(FILE *f, const char *label, const struct ib_res_job *job,
			 const struct ib_hist *h, uint64_t n);
void ib_report_entry(FILE *f, const struct ib_rep *r, const struct ib_rep_entry *e);
void ib_report_group(FILE *f, const struct ib_rep_group *g);
/* fio 3.42's aggr sectors of a device with slaves: the slaves' mean */
void ib_disk_aggr_sectors(const struct ib_disk_util *u, uint64_t out[2]);
void ib_report_disks(FILE *f, const struct ib_res_disk *du, unsigned int nr,
		     enum ib_fio_version v);

/*
 * iobench's own (report_checks.c): nothing unless res carries evidence
 * (res->evidence) or, for the environment, res->env and res->show_env.
 */
struct ib_json;
/* json+ "bins": {"VALUE_NS" : count, ...} for every non-empty bucket of h. */
void ib_report_json_bins(struct ib_json *j, const struct ib_hist *h);
void ib_report_checks_text(FILE *f, const struct ib_results *res, const struct ib_rep_entry *e);
void ib_report_checks_json(struct ib_json *j, const struct ib_results *res,
			   const struct ib_rep_entry *e);
void ib_report_env_text(FILE *f, const struct ib_results *res);
/*
 * Several hosts (report_hosts.c). A view: host h's jobs and disks (no
 * copy, res must outlive it). All hosts: every job, groupid order, named
 * "All clients" with group_reporting set, stats copied (owned: free with
 * ib_results_free). The normal report in fio's client-mode layout.
 */
void ib_rep_host_view(const struct ib_results *in, unsigned int h,
		      struct ib_results *out);
int ib_rep_all_hosts(const struct ib_results *in, struct ib_results *out);
int ib_report_normal_hosts(FILE *f, const struct ib_results *res);
#endif
