// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio-compatible JSON and json+ (doc/fio-compat.md §2). Always one valid
 * document: nothing but the report is written to f.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "config.h"
#include "iobench/disk.h"
#include "iobench/env.h"
#include "iobench/env_out.h"
#include "iobench/json.h"
#include "report_common.h"

static const char *const ddir_key[IB_DDIR_RWT] = { "read", "write", "trim" };
static const char *const lat_key[IB_LAT_NR] = { "slat_ns", "clat_ns", "lat_ns" };
static const char *const lat_bucket[] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000",
};
static const char *const depth_keys[] = { "1", "2", "4", "8", "16", "32", ">=64" };
static const char *const batch_keys[] = { "0", "4", "8", "16", "32", "64", ">=64" };

/*
 * The options as given, "name" : "value". An option given without a value
 * (time_based, group_reporting): left out by fio 3.33, "" in 3.42.
 */
static void json_opts(struct ib_json *j, const char *key, const char *text, unsigned int len,
		      bool v342)
{
	const char *p = text, *end = text + len, *k;

	ib_json_obj_open(j, key);
	while (p < end && *p) {
		k = p;
		p += strlen(p) + 1;
		if (p >= end)
			break;
		if (v342)
			ib_json_str_empty(j, k, p);
		else
			ib_json_str(j, k, p);
		p += strlen(p) + 1;
	}
	ib_json_obj_close(j);
}

void ib_report_json_bins(struct ib_json *j, const struct ib_hist *h)
{
	char key[32];
	unsigned int i;

	ib_json_obj_open(j, "bins");
	for (i = 0; i < IB_HIST_NR; i++) {
		if (!h->count[i])
			continue;
		snprintf(key, sizeof(key), "%llu", (unsigned long long)ib_hist_value(i));
		ib_json_uint(j, key, h->count[i]);
	}
	ib_json_obj_close(j);
}

/* "percentile": the job's percentiles, their values in val */
static void json_pct(struct ib_json *j, const struct ib_res_job *job,
		     const uint64_t *val, unsigned int nr)
{
	unsigned int i;
	char pk[32];

	ib_json_obj_open(j, "percentile");
	for (i = 0; i < nr; i++) {
		snprintf(pk, sizeof(pk), "%f", job->percentiles[i]);
		ib_json_uint(j, pk, val[i]);
	}
	ib_json_obj_close(j);
}

static void json_lat(struct ib_json *j, const char *key, const struct ib_res_job *job,
		     const struct ib_lat_stat *s, const struct ib_hist *h, bool pct,
		     bool plus)
{
	uint64_t val[IB_MAX_PERCENTILES];
	unsigned int nr = pct ? ib_rep_percentiles(job, h, s->n, val) : 0;

	ib_json_obj_open(j, key);
	ib_json_uint(j, "min", s->n ? s->min : 0);
	ib_json_uint(j, "max", s->max);
	ib_json_float(j, "mean", s->mean);
	ib_json_float(j, "stddev", ib_lat_stat_stddev(s));
	ib_json_uint(j, "N", s->n);
	if (nr) {
		json_pct(j, job, val, nr);
		if (plus)
			ib_report_json_bins(j, h);
	}
	ib_json_obj_close(j);
}

/*
 * Every started I/O's lateness (start - due time): how many, and with
 * percentiles on their values (json+: bins), inside "late".
 */
static void json_late_dist(struct ib_json *j, const struct ib_res_job *job,
			   const struct ib_hist *h, bool plus)
{
	uint64_t val[IB_MAX_PERCENTILES], n = 0;
	unsigned int i, nr;

	for (i = 0; i < IB_HIST_NR; i++)
		n += h->count[i];
	ib_json_uint(j, "started", n);
	nr = n && job->nr_percentiles ? ib_rep_percentiles(job, h, n, val) : 0;
	if (!nr)
		return;
	json_pct(j, job, val, nr);
	if (plus)
		ib_report_json_bins(j, h);
}

/*
 * A rate was set (only then, so fio's document is unchanged): colat_ns,
 * latency from each I/O's due time, with percentiles and json+ bins, and
 * "late": the I/Os started more than rate_late after their due time, and
 * the distribution of every I/O's lateness.
 */
static void json_colat(struct ib_json *j, const struct ib_res_job *job,
		       const struct ib_dir_stats *ds, bool plus)
{
	json_lat(j, "colat_ns", job, &ds->colat, &ds->colat_hist,
		 job->nr_percentiles != 0, plus);
	ib_json_obj_open(j, "late");
	ib_json_uint(j, "ios", ds->late_ios);
	ib_json_uint(j, "total_ns", ds->late_sum_ns);
	ib_json_uint(j, "max_ns", ds->late_max_ns);
	ib_json_uint(j, "backlog_max", ds->backlog_max);
	ib_json_uint(j, "unstarted", ds->unstarted);
	json_late_dist(j, job, &ds->late_hist, plus);
	ib_json_obj_close(j);
}

/* One direction's object named key; d picks the group aggregate (mixed: 0) */
static void json_ddir(struct ib_json *j, const struct ib_rep *r, const struct ib_rep_entry *e,
		      const char *key, const struct ib_dir_stats *ds, unsigned int d,
		      bool plus)
{
	const struct ib_lat_stat *bw = &ds->bw_samples, *io = &ds->iops_samples;
	uint64_t bwb = ib_rep_bw(ds);
	unsigned int k;

	ib_json_obj_open(j, key);
	ib_json_uint(j, "io_bytes", ds->io_bytes);
	ib_json_uint(j, "io_kbytes", ds->io_bytes >> 10);
	ib_json_uint(j, "bw_bytes", bwb);
	ib_json_uint(j, "bw", bwb / 1024);
	ib_json_float(j, "iops", ib_rep_iops(ds));
	ib_json_uint(j, "runtime", ib_rep_runtime_ms(ds));
	ib_json_uint(j, "total_ios", ib_rep_ios(ds));
	ib_json_uint(j, "short_ios", ds->short_ios);
	ib_json_uint(j, "drop_ios", ds->drop_ios);
	for (k = 0; k < IB_LAT_NR; k++)
		json_lat(j, lat_key[k], e->job, &ds->lat[k], &ds->hist[k],
			 ib_rep_pct_enabled(e->job, k), plus);
	if (e->st->paced)
		json_colat(j, e->job, ds, plus);
	ib_json_uint(j, "bw_min", bw->min);
	ib_json_uint(j, "bw_max", bw->max);
	ib_json_float(j, "bw_agg", ib_rep_bw_per(r, e, ds, d, false));
	ib_json_float(j, "bw_mean", bw->mean);
	ib_json_float(j, "bw_dev", ib_lat_stat_stddev(bw));
	ib_json_uint(j, "bw_samples", bw->n);
	ib_json_uint(j, "iops_min", io->min);
	ib_json_uint(j, "iops_max", io->max);
	ib_json_float(j, "iops_mean", io->mean);
	ib_json_float(j, "iops_stddev", ib_lat_stat_stddev(io));
	ib_json_uint(j, "iops_samples", io->n);
	ib_json_obj_close(j);
}

static void json_dist(struct ib_json *j, const char *key, const char *const *keys,
		      const uint64_t *cnt, unsigned int nr, uint64_t total, double floor)
{
	unsigned int i;
	double p;

	ib_json_obj_open(j, key);
	for (i = 0; i < nr; i++) {
		p = ib_rep_pct(cnt[i], total);
		if (cnt[i] && p < floor)
			p = floor;
		ib_json_float(j, keys[i], p);
	}
	ib_json_obj_close(j);
}

static void json_series(struct ib_json *j, const char *key, const uint64_t *v,
			uint32_t n)
{
	uint32_t i;

	ib_json_arr_open(j, key);
	for (i = 0; i < n; i++)
		ib_json_uint(j, NULL, v[i]);
	ib_json_arr_close(j);
}

/* fio's "steadystate" object (only when ss_dur was set). */
static void json_ss(struct ib_json *j, const struct ib_ss *ss)
{
	char buf[96];

	if (!ss->dur)
		return;
	ib_json_obj_open(j, "steadystate");
	ib_ss_format(ss, buf, sizeof(buf));
	ib_json_str(j, "ss", buf);
	ib_json_uint(j, "duration", ss->dur);
	ib_json_uint(j, "attained", ss->attained);
	/* fio prints the criterion at float precision */
	snprintf(buf, sizeof(buf), "%f%s", (double)(float)ss->criterion,
		 ss->mode & IB_SS_PCT ? "%" : "");
	ib_json_str(j, "criterion", buf);
	ib_json_float(j, "max_deviation", ss->deviation);
	ib_json_float(j, "slope", ss->slope);
	ib_json_obj_open(j, "data");
	ib_json_uint(j, "bw_mean", ib_ss_bw_mean(ss));
	ib_json_uint(j, "iops_mean", ib_ss_iops_mean(ss));
	if (ss->mode & IB_SS_LAT) {	/* fio 3.42's latency criteria */
		ib_json_uint(j, "lat_mean", ib_ss_lat_mean(ss));
		json_series(j, "lat_ns", ss->lat, ss->len);
	}
	json_series(j, "iops", ss->iops, ss->len);
	json_series(j, "bw", ss->bw, ss->len);
	ib_json_obj_close(j);
	ib_json_obj_close(j);
}

static void json_tail(struct ib_json *j, const struct ib_rep_entry *e, bool v342)
{
	const struct ib_job_stats *s = e->st;
	uint64_t rt = s->job_runtime_ms, total = ib_rep_total_ios(s);

	ib_json_uint(j, "job_runtime", rt);
	ib_json_float(j, "usr_cpu", rt ? (double)s->usr_us / 10.0 / (double)rt : 0.0);
	ib_json_float(j, "sys_cpu", rt ? (double)s->sys_us / 10.0 / (double)rt : 0.0);
	ib_json_uint(j, "ctx", s->ctx);
	ib_json_uint(j, "majf", s->majf);
	ib_json_uint(j, "minf", s->minf);
	json_dist(j, "iodepth_level", depth_keys, s->depth, IB_DEPTH_NR, total, 0.1);
	json_dist(j, "iodepth_submit", batch_keys, s->submit, IB_DEPTH_NR,
		  s->total_submit_calls, 0.1);
	json_dist(j, "iodepth_complete", batch_keys, s->complete, IB_DEPTH_NR,
		  s->total_complete_calls, 0.1);
	json_dist(j, "latency_ns", lat_bucket, s->lat_n, IB_LAT_N_NR, total, 0.01);
	json_dist(j, "latency_us", lat_bucket, s->lat_u, IB_LAT_U_NR, total, 0.01);
	json_dist(j, "latency_ms", lat_bucket, s->lat_m, IB_LAT_M_NR, total, 0.01);
	ib_json_uint(j, "latency_depth", s->lat_target_ns ? s->lat_depth : e->job->iodepth);
	ib_json_uint(j, "latency_target", s->lat_target_ns);
	if (v342)
		ib_json_uint(j, "latency_target_ns", s->lat_target_ns);
	ib_json_float(j, "latency_percentile", s->lat_target_ns ? s->lat_percentile : 100.0);
	ib_json_uint(j, "latency_window", s->lat_target_ns ? s->lat_window_us : 0);
	if (v342)
		ib_json_uint(j, "latency_window_us", s->lat_target_ns ? s->lat_window_us : 0);
	if (e->job->continue_on_error) {
		ib_json_uint(j, "total_err", s->total_err);
		ib_json_int(j, "first_error", s->first_error);
	}
	ib_json_str(j, "desc", e->job->description);
	json_ss(j, &s->ss);
}

/*
 * iobench's own: the engine and O_DIRECT mode the job really ran with, as
 * the runner recorded them (none recorded, as in a report read back from
 * fio's JSON: no object, so the document stays fio's).
 */
static void json_effective(struct ib_json *j, const struct ib_rep_entry *e)
{
	const struct ib_job_stats *s = e->st;

	if (!s->ioengine[0])
		return;
	ib_json_obj_open(j, "effective options");
	ib_json_str(j, "ioengine", s->ioengine);
	ib_json_uint(j, "direct", s->direct);
	ib_json_uint(j, "direct_requested", e->job->direct);
	ib_json_str(j, "ioengine_fallback", s->ioengine_fallback);
	ib_json_str(j, "direct_fallback", s->direct_fallback);
	if (s->clocksource[0])
		ib_json_str(j, "clocksource", s->clocksource);
	if (s->engine_setup[0])	/* what no option asked for */
		ib_json_str(j, "engine_setup", s->engine_setup);
	if (s->noatime_files)	/* fio: devices only */
		ib_json_uint(j, "noatime_files", s->noatime_files);
	if (s->read_buffers_apart)	/* fio: writes the data read */
		ib_json_uint(j, "read_buffers_apart", 1);
	if (s->batch_adaptive) {	/* loop_batch.c: each probe's winner */
		ib_json_uint(j, "batch_probes_won_batched", s->batch_won[0]);
		ib_json_uint(j, "batch_probes_won_per_io", s->batch_won[1]);
		ib_json_uint(j, "batch_probes_won_spin", s->batch_spin_won[1]);
		ib_json_uint(j, "batch_probes_won_no_spin", s->batch_spin_won[0]);
	}
	ib_json_obj_close(j);
}

/*
 * iobench's own, for read_iolog= jobs only: how far behind the trace's
 * schedule the replay ran (replay.h). Separate from the rest on purpose.
 */
static void json_replay(struct ib_json *j, const struct ib_replay_stats *rs)
{
	if (!rs->on)
		return;
	ib_json_obj_open(j, "replay");
	ib_json_uint(j, "ios", rs->ios);
	ib_json_uint(j, "late_ios", rs->late_ios);
	ib_json_uint(j, "late_threshold_ns", IB_REPLAY_LATE_NS);
	ib_json_uint(j, "late_max_ns", rs->late_max_ns);
	ib_json_uint(j, "late_total_ns", rs->late_total_ns);
	ib_json_uint(j, "late_mean_ns", rs->ios ? rs->late_total_ns / rs->ios : 0);
	ib_json_obj_close(j);
}

/*
 * read, write, trim, sync; with unified_rw_reporting=mixed only "mixed"
 * (the folded stats, no sync object: fio's); with both, "mixed" after sync.
 */
static void json_dirs(struct ib_json *j, const struct ib_rep *r,
		      const struct ib_rep_entry *e, bool plus)
{
	const struct ib_job_stats *s = e->st;
	unsigned int d;

	if (e->job->unified_rw_rep == IB_UNIFIED_MIXED) {
		json_ddir(j, r, e, "mixed", &s->dir[IB_DDIR_READ], IB_DDIR_READ, plus);
		return;
	}
	for (d = 0; d < IB_DDIR_RWT; d++)
		json_ddir(j, r, e, ddir_key[d], &s->dir[d], d, plus);
	ib_json_obj_open(j, "sync");
	ib_json_uint(j, "total_ios", s->sync_ios);
	json_lat(j, "lat_ns", e->job, &s->sync_lat, &s->sync_hist,
		 !e->job->gtod_reduce && e->job->nr_percentiles, plus);
	ib_json_obj_close(j);
	if (e->mixed)
		json_ddir(j, r, e, "mixed", e->mixed, IB_DDIR_READ, plus);
}

static void json_job(struct ib_json *j, const struct ib_results *res,
		     const struct ib_rep *r, const struct ib_rep_entry *e, bool plus,
		     const struct ib_res_host *host)
{
	const struct ib_job_stats *s = e->st;
	const struct ib_res_job *lj = e->last_job;
	const char *where;

	ib_json_obj_open(j, NULL);
	ib_json_str(j, "jobname", e->job->name);
	ib_json_uint(j, "groupid", e->job->groupid);
	if (res->fio_version >= IB_FIO_V342)
		ib_json_int(j, "job_start", (long long)s->job_start_ms);
	ib_json_int(j, "error", ib_rep_error(e, &where));
	ib_json_uint(j, "eta", 0);
	ib_json_uint(j, "elapsed", s->elapsed_s);
	json_opts(j, "job options", lj->opts_text,
		  lj->opts_len ? lj->opts_len : (unsigned int)sizeof(lj->opts_text),
		  res->fio_version >= IB_FIO_V342);
	json_effective(j, e);
	json_replay(j, &s->replay);
	ib_report_checks_json(j, res, e);
	json_dirs(j, r, e, plus);
	json_tail(j, e, res->fio_version >= IB_FIO_V342);
	if (host) { /* client mode: which host ran it (fio: hostname) */
		ib_json_str(j, "hostname", host->name);
		ib_json_int(j, "rank", host->rank);
	}
	ib_json_obj_close(j);
}

static void json_disk_stat(struct ib_json *j, const char *name, const uint64_t *ios,
			   const uint64_t *sectors, const uint64_t *merges,
			   const uint64_t *ticks, uint64_t in_queue, double util)
{
	ib_json_str(j, "name", name);
	ib_json_uint(j, "read_ios", ios[0]);
	ib_json_uint(j, "write_ios", ios[1]);
	if (sectors) {	/* fio 3.42 */
		ib_json_uint(j, "read_sectors", sectors[0]);
		ib_json_uint(j, "write_sectors", sectors[1]);
	}
	ib_json_uint(j, "read_merges", merges[0]);
	ib_json_uint(j, "write_merges", merges[1]);
	ib_json_uint(j, "read_ticks", ticks[0]);
	ib_json_uint(j, "write_ticks", ticks[1]);
	ib_json_uint(j, "in_queue", in_queue);
	ib_json_float(j, "util", util);
}

static void json_disk_host(struct ib_json *j, const struct ib_res_host *host)
{
	if (!host)
		return;
	ib_json_str(j, "hostname", host->name);
	ib_json_int(j, "rank", host->rank);
}

/*
 * The device, then (as fio) each of its slaves as an entry of its own;
 * with several hosts, each entry names its host.
 */
/* fio 3.42: the slaves' mean sectors, as its aggr_*_ios */
static void json_aggr_sectors(struct ib_json *j, const struct ib_disk_util *u)
{
	uint64_t sec[2];

	ib_disk_aggr_sectors(u, sec);
	ib_json_uint(j, "aggr_read_sectors", sec[0]);
	ib_json_uint(j, "aggr_write_sectors", sec[1]);
}

static void json_disk(struct ib_json *j, const struct ib_disk_util *u,
		      const struct ib_res_host *host, bool v342)
{
	unsigned int s;

	ib_json_obj_open(j, NULL);
	json_disk_host(j, host);
	json_disk_stat(j, u->name, u->ios, v342 ? u->sectors : NULL, u->merges, u->ticks,
		       u->in_queue, u->util);
	if (u->nr_slaves) {
		ib_json_uint(j, "aggr_read_ios", u->aggr_ios[0]);
		ib_json_uint(j, "aggr_write_ios", u->aggr_ios[1]);
		if (v342)
			json_aggr_sectors(j, u);
		ib_json_uint(j, "aggr_read_merges", u->aggr_merges[0]);
		ib_json_uint(j, "aggr_write_merge", u->aggr_merges[1]); /* sic, as fio */
		ib_json_uint(j, "aggr_read_ticks", u->aggr_ticks[0]);
		ib_json_uint(j, "aggr_write_ticks", u->aggr_ticks[1]);
		ib_json_uint(j, "aggr_in_queue", u->aggr_in_queue);
		ib_json_float(j, "aggr_util", u->aggr_util);
	}
	ib_json_obj_close(j);
	for (s = 0; s < u->nr_slaves && s < IB_DISK_SLAVES_MAX; s++) {
		const struct ib_disk_slave_util *sl = &u->slave[s];

		ib_json_obj_open(j, NULL);
		json_disk_host(j, host);
		json_disk_stat(j, sl->name, sl->ios, v342 ? sl->sectors : NULL, sl->merges,
			       sl->ticks, sl->in_queue, sl->util);
		ib_json_obj_close(j);
	}
}

static void json_top(struct ib_json *j, const struct ib_results *res)
{
	time_t t = (time_t)(res->timestamp_ms / 1000);
	char tbuf[64] = "";
	struct tm tm;

	if (localtime_r(&t, &tm))
		strftime(tbuf, sizeof(tbuf), "%a %b %e %H:%M:%S %Y", &tm);
	ib_json_str(j, "fio version", ib_fio_version_str(res->fio_version));
	ib_json_str(j, "iobench version", "iobench-" IOBENCH_VERSION);
	ib_json_int(j, "timestamp", (long long)t);
	ib_json_int(j, "timestamp_ms", (long long)res->timestamp_ms);
	ib_json_str(j, "time", tbuf);
	if (res->global_opts_len && res->global_opts_text[0])
		json_opts(j, "global options", res->global_opts_text,
			  res->global_opts_len, res->fio_version >= IB_FIO_V342);
}

/* Per host: name, rank and the clock alignment (several hosts only). */
static void json_hosts(struct ib_json *j, const struct ib_results *res)
{
	unsigned int h;

	ib_json_arr_open(j, "hosts");
	for (h = 0; h < res->nr_hosts; h++) {
		const struct ib_res_host *x = &res->hosts[h];

		ib_json_obj_open(j, NULL);
		ib_json_str(j, "hostname", x->name);
		ib_json_int(j, "rank", x->rank);
		ib_json_int(j, "clock_offset_ns", (long long)x->clock_offset_ns);
		ib_json_int(j, "clock_rtt_ns", (long long)x->clock_rtt_ns);
		ib_json_int(j, "start_ns", (long long)x->start_ns);
		ib_json_obj_close(j);
	}
	ib_json_arr_close(j);
}

/* fio's client mode: the "All clients" entries after every host's jobs. */
static int json_all_hosts(struct ib_json *j, const struct ib_results *res,
			  bool plus)
{
	struct ib_results all;
	struct ib_rep r;
	unsigned int i;
	int ret = ib_rep_all_hosts(res, &all);

	if (ret)
		return ret;
	ret = ib_rep_build(&r, &all);
	if (!ret) {
		for (i = 0; i < r.nr_ent; i++)
			json_job(j, &all, &r, &r.ent[i], plus, &all.hosts[0]);
		ib_rep_free(&r);
	}
	ib_results_free(&all);
	return ret;
}

static int report_json(FILE *f, const struct ib_results *res, bool plus)
{
	bool hosts = res->nr_hosts > 1;
	struct ib_json j;
	struct ib_rep r;
	unsigned int i;
	int ret = ib_rep_build(&r, res);

	if (ret)
		return ret;
	ib_json_begin(&j, f);
	json_top(&j, res);
	ib_json_arr_open(&j, hosts ? "client_stats" : "jobs");
	for (i = 0; i < r.nr_ent; i++)
		json_job(&j, res, &r, &r.ent[i], plus,
			 hosts ? &res->hosts[r.ent[i].job->host] : NULL);
	if (hosts)
		ret = json_all_hosts(&j, res, plus);
	ib_json_arr_close(&j);
	if (hosts)
		json_hosts(&j, res);
	if (res->nr_disks) {
		ib_json_arr_open(&j, "disk_util");
		for (i = 0; i < res->nr_disks; i++)
			json_disk(&j, &res->disks[i].util,
				  hosts ? &res->hosts[res->disks[i].host] : NULL,
				  res->fio_version >= IB_FIO_V342);
		ib_json_arr_close(&j);
	}
	if (res->env)
		ib_env_json(&j, res->env);
	ib_json_end(&j);
	ib_rep_free(&r);
	return ret ? ret : (ferror(f) ? -EIO : 0);
}

int ib_report_json(FILE *f, const struct ib_results *res)
{
	return report_json(f, res, false);
}

int ib_report_json_plus(FILE *f, const struct ib_results *res)
{
	return report_json(f, res, true);
}
