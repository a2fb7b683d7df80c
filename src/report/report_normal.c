// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio's "normal" human report (doc/fio-compat.md §1.4-§1.6): one block per job
 * or group_reporting group. Run status lines and disks: report_group.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "iobench/disk.h"
#include "iobench/ioerr.h"
#include "iobench/num2str.h"
#include "report_common.h"

static const char *const ddir_label[IB_DDIR_RWT] = { "read", "write", "trim" };
static const char *const lat_label[IB_LAT_NR] = { "slat", "clat", " lat" };
static const char *const pct_label[IB_LAT_NR] = { "slat", "clat", "lat" };
static const char *const lat_bucket[] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000",
};

/* Unit for a latency stats line: divisor and name (§1.4). */
static uint64_t lat_unit(uint64_t min, uint64_t max, double dev, const char **name)
{
	if (min > 2000000 && max > 99999999 && dev > 1e6) {
		*name = "msec";
		return 1000000;
	}
	if (min > 2000 && max > 99999 && dev > 1000) {
		*name = "usec";
		return 1000;
	}
	*name = "nsec";
	return 1;
}

/* BW as "Y (Yalt)" honouring kb_base and unit_base. */
static void fmt_rate(const struct ib_res_job *j, uint64_t v, const char *unit,
		     char *a, char *b, size_t len)
{
	unsigned int sig = j->significant_figures ? j->significant_figures : 4;
	bool pow2 = (j->kb_base & (j->kb_base - 1)) == 0;

	ib_num2str(v, sig, 1, pow2, unit, a, len);
	ib_num2str(v, sig, 1, !pow2, unit, b, len);
}

static const char *bw_unit(const struct ib_res_job *j)
{
	return j->unit_base == 1 ? "bit/s" : "B/s";
}

void ib_report_lat_line(FILE *f, const char *label, const struct ib_lat_stat *s)
{
	double dev = ib_lat_stat_stddev(s);
	const char *uname;
	uint64_t div = lat_unit(s->min, s->max, dev, &uname);
	char mn[32], mx[32];

	ib_num2str(s->min / div, 6, 1, false, "", mn, sizeof(mn));
	ib_num2str(s->max / div, 6, 1, false, "", mx, sizeof(mx));
	fprintf(f, "    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n",
		label, uname, mn, mx, s->mean / (double)div, dev / (double)div);
}

static unsigned int num_digits(uint64_t v)
{
	unsigned int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

void ib_report_pct_block(FILE *f, const char *label, const struct ib_res_job *job,
			 const struct ib_hist *h, uint64_t n)
{
	uint64_t val[IB_MAX_PERCENTILES], div = 1;
	unsigned int nr = ib_rep_percentiles(job, h, n, val), i, width, per_row;
	unsigned int prec = job->percentile_precision;
	const char *uname = "nsec";

	if (!nr)
		return;
	if (val[0] > 2000000 && val[nr - 1] > 99999999) {
		uname = "msec";
		div = 1000000;
	} else if (val[0] > 2000 && val[nr - 1] > 99999) {
		uname = "usec";
		div = 1000;
	}
	for (i = 0; i < nr; i++) /* round up once per division by 1000 */
		val[i] = div == 1 ? val[i] : div == 1000 ? (val[i] + 999) / 1000 :
			 ((val[i] + 999) / 1000 + 999) / 1000;
	width = num_digits(val[nr - 1]);
	if (width < 5)
		width = 5;
	per_row = 73 / (prec + 10 + width);
	if (!per_row)
		per_row = 1;
	fprintf(f, "    %s percentiles (%s):\n", label, uname);
	for (i = 0; i < nr; i++) {
		if (i % per_row == 0)
			fputs("     |", f);
		fprintf(f, " %*.*fth=[%*llu]%s", (int)prec + 3, (int)prec,
			job->percentiles[i], (int)width, (unsigned long long)val[i],
			i == nr - 1 ? "\n" : (i % per_row == per_row - 1) ? ",\n" : ",");
	}
}

static void print_bw_iops(FILE *f, const struct ib_rep *r, const struct ib_rep_entry *e,
			  const struct ib_dir_stats *ds, unsigned int d)
{
	const struct ib_lat_stat *bw = &ds->bw_samples;
	const struct ib_lat_stat *io = &ds->iops_samples;
	unsigned int kb = e->job->kb_base ? e->job->kb_base : 1024;
	bool pow2 = (kb & (kb - 1)) == 0;
	double mean, dev;
	uint64_t mn, mx;
	const char *lbl = pow2 ? "KiB" : "kB";

	if (bw->n) {
		mean = bw->mean;
		dev = ib_lat_stat_stddev(bw);
		mn = bw->min;
		mx = bw->max;
		if (mean > (double)kb * kb) { /* fio says MiB even for kb_base=1000 */
			lbl = "MiB";
			mean /= kb;
			dev /= kb;
			mn /= kb;
			mx /= kb;
		}
		fprintf(f, "   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, "
			"stdev=%5.02f, samples=%llu\n", lbl, (unsigned long long)mn,
			(unsigned long long)mx, ib_rep_bw_per(r, e, ds, d, false), mean, dev,
			(unsigned long long)bw->n);
	}
	if (io->n)
		fprintf(f, "   iops        : min=%5llu, max=%5llu, avg=%5.02f, "
			"stdev=%5.02f, samples=%llu\n", (unsigned long long)io->min,
			(unsigned long long)io->max, io->mean, ib_lat_stat_stddev(io),
			(unsigned long long)io->n);
}

/*
 * A rate was set: the fourth latency block, from each I/O's due time (the
 * intended start; no coordinated omission), and how many started late.
 * Never printed for a job without a rate, so fio's layout is unchanged.
 */
static void print_colat(FILE *f, const struct ib_res_job *j,
			const struct ib_dir_stats *ds)
{
	if (!ds->colat.n)
		return;
	ib_report_lat_line(f, "co-free lat", &ds->colat);
	ib_report_pct_block(f, "co-free lat", j, &ds->colat_hist, ds->colat.n);
	fprintf(f, "    late starts: %llu (%.2f%%), avg=%.1fus, max=%.1fus, max backlog=%llu, never started=%llu\n",
		(unsigned long long)ds->late_ios,
		100.0 * (double)ds->late_ios / (double)ds->colat.n,
		ds->late_ios ? (double)ds->late_sum_ns / (double)ds->late_ios / 1000.0 : 0.0,
		(double)ds->late_max_ns / 1000.0,
		(unsigned long long)ds->backlog_max,
		(unsigned long long)ds->unstarted);
}

/*
 * The "  read: IOPS=..." line. The mixed section of unified_rw_reporting=both
 * (both_mixed): fio 3.33 prints it without significant figures, every
 * number 0 but the runtime; fio 3.42 prints its numbers, the bandwidth
 * without a unit ("240Mi (251M)"). "; 0 zone resets" ends 3.33's write
 * line; 3.42 prints it only for zoned jobs (iobench has none).
 */
static void print_ddir_line(FILE *f, const struct ib_rep *r, const struct ib_rep_entry *e,
			    const struct ib_dir_stats *ds, unsigned int d, bool both_mixed)
{
	const struct ib_res_job *j = e->job;
	unsigned int sig = j->significant_figures ? j->significant_figures : 4;
	char iops[32], bw[32], bwalt[32], io[32], ioalt[32];
	uint64_t ms = ib_rep_runtime_ms(ds);
	bool mixed = both_mixed || j->unified_rw_rep == IB_UNIFIED_MIXED;
	bool v333 = r->fio_version == IB_FIO_V333;

	if (both_mixed && v333) {
		fprintf(f, "  mixed: IOPS=0, BW=0 (0)(0B/%llumsec)\n", (unsigned long long)ms);
		return;
	}
	ib_num2str(ms ? ib_rep_ios(ds) * 1000 / ms : 0, sig, 1, false, "", iops, sizeof(iops));
	fmt_rate(j, ib_rep_bw(ds), both_mixed ? "" : bw_unit(j), bw, bwalt, sizeof(bw));
	fmt_rate(j, ds->io_bytes, "B", io, ioalt, sizeof(io));
	fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)%s\n",
		mixed ? "mixed" : ddir_label[d], iops, bw, bwalt, io, (unsigned long long)ms,
		v333 && d == IB_DDIR_WRITE ? "; 0 zone resets" : "");
}

/* One direction's block; d picks the group aggregate for "per=" (mixed: 0). */
static void print_ddir(FILE *f, const struct ib_rep *r, const struct ib_rep_entry *e,
		       const struct ib_dir_stats *ds, unsigned int d, bool both_mixed)
{
	const struct ib_res_job *j = e->job;
	unsigned int k;

	print_ddir_line(f, r, e, ds, d, both_mixed);
	for (k = 0; k < IB_LAT_NR; k++)
		if (ds->lat[k].n)
			ib_report_lat_line(f, lat_label[k], &ds->lat[k]);
	for (k = 0; k < IB_LAT_NR; k++)
		if (ib_rep_pct_enabled(j, k))
			ib_report_pct_block(f, pct_label[k], j, &ds->hist[k], ds->lat[k].n);
	if (e->st->paced)
		print_colat(f, j, ds);
	print_bw_iops(f, r, e, ds, d);
}

/* One "  lat (unit)   : a=x%, ..." table, 5 entries per line, >0 only. */
static void print_lat_table(FILE *f, const char *unit, const uint64_t *cnt,
			    unsigned int nr, uint64_t total)
{
	unsigned int i, on_line = 0;
	double p;

	for (i = 0; i < nr; i++) {
		if (!cnt[i])
			continue;
		p = ib_rep_pct(cnt[i], total);
		if (p < 0.01)
			p = 0.01;
		if (on_line == 0)
			fprintf(f, "  lat (%s)   : ", unit);
		else
			fputs(", ", f);
		fprintf(f, "%s=%3.2f%%", lat_bucket[i], p);
		if (++on_line == 5) {
			fputc('\n', f);
			on_line = 0;
		}
	}
	if (on_line)
		fputc('\n', f);
}

static void print_depths(FILE *f, const char *label, const char *const *keys,
			 const uint64_t *cnt, uint64_t total)
{
	unsigned int i;
	double p;

	fputs(label, f);
	for (i = 0; i < IB_DEPTH_NR; i++) {
		p = ib_rep_pct(cnt[i], total);
		if (cnt[i] && p < 0.1)
			p = 0.1;
		fprintf(f, "%s=%3.1f%%%s", keys[i], p, i == IB_DEPTH_NR - 1 ? "\n" : ", ");
	}
}

static const char *const depth_keys[] = { "1", "2", "4", "8", "16", "32", ">=64" };
static const char *const batch_keys[] = { "0", "4", "8", "16", "32", "64", ">=64" };

/* fio's steady-state line: the window's means and the criterion. */
static void print_ss(FILE *f, const struct ib_ss *ss)
{
	uint64_t kib = ib_ss_bw_mean(ss) / 1024;
	char bw[32], bw_alt[32], iops[32], lat[48] = "";

	if (!ss->dur)
		return;
	ib_num2str(kib, 4, 1024, true, "B/s", bw, sizeof(bw));
	ib_num2str(kib, 4, 1024, false, "B/s", bw_alt, sizeof(bw_alt));
	ib_num2str(ib_ss_iops_mean(ss), 4, 1, false, "", iops, sizeof(iops));
	if (ss->mode & IB_SS_LAT) {	/* fio 3.42: always in nsec */
		memcpy(lat, ", lat=", 7);
		ib_num2str(ib_ss_lat_mean(ss), 4, 1, false, "", lat + 6, sizeof(lat) - 12);
		strcat(lat, "nsec");
	}
	fprintf(f, "  steadystate  : attained=%s, bw=%s (%s), iops=%s%s, %s%s=%.3f%s\n",
		ss->attained ? "yes" : "no", bw, bw_alt, iops, lat,
		ss->mode & IB_SS_LAT ? "lat" : ss->mode & IB_SS_BW ? "bw" : "iops",
		ss->mode & IB_SS_SLOPE ? " slope" : " mean dev", ss->criterion,
		ss->mode & IB_SS_PCT ? "%" : "");
}

/* fio 3.42's scaled time: ns up to 1999, then us, ms, s, two decimals */
static void fmt_ns(char *buf, size_t len, uint64_t ns)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	double v = (double)ns;
	unsigned int u = 0;

	for (uint64_t lim = 2000; u < 3 && ns >= lim; lim *= 1000)
		u++;
	for (unsigned int i = 0; i < u; i++)
		v /= 1000.0;
	snprintf(buf, len, "%.2f%s", v, unit[u]);
}

/*
 * "latency   : target=..." (latency_target=; without it 0 and the job's
 * iodepth). fio 3.33 prints the target in ns and the window in us as
 * integers; 3.42 scales both with a unit (fmt_ns).
 */
static void print_latency_target(FILE *f, const struct ib_rep_entry *e, bool v333)
{
	const struct ib_job_stats *s = e->st;
	uint64_t target = s->lat_target_ns, window_us = target ? s->lat_window_us : 0;
	char t[32], w[32];

	if (v333) {
		snprintf(t, sizeof(t), "%llu", (unsigned long long)target);
		snprintf(w, sizeof(w), "%llu", (unsigned long long)window_us);
	} else {
		fmt_ns(t, sizeof(t), target);
		fmt_ns(w, sizeof(w), window_us * 1000);
	}
	fprintf(f, "     latency   : target=%s, window=%s, percentile=%.2f%%, depth=%u\n",
		t, w, target ? s->lat_percentile : 100.0,
		target ? s->lat_depth : e->job->iodepth);
}

static void print_tail(FILE *f, const struct ib_rep_entry *e, bool v333)
{
	const struct ib_job_stats *s = e->st;
	const struct ib_res_job *j = e->job;
	uint64_t rt = s->job_runtime_ms, total = ib_rep_total_ios(s);

	fprintf(f, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%llu, majf=%llu, minf=%llu\n",
		rt ? (double)s->usr_us / 10.0 / (double)rt : 0.0,
		rt ? (double)s->sys_us / 10.0 / (double)rt : 0.0,
		(unsigned long long)s->ctx, (unsigned long long)s->majf,
		(unsigned long long)s->minf);
	print_depths(f, "  IO depths    : ", depth_keys, s->depth, total);
	print_depths(f, "     submit    : ", batch_keys, s->submit, s->total_submit_calls);
	print_depths(f, "     complete  : ", batch_keys, s->complete, s->total_complete_calls);
	fprintf(f, "     issued rwts: total=%llu,%llu,%llu,%llu short=%llu,%llu,%llu,0 "
		"dropped=%llu,%llu,%llu,0\n",
		(unsigned long long)s->dir[0].issued, (unsigned long long)s->dir[1].issued,
		(unsigned long long)s->dir[2].issued, (unsigned long long)s->sync_ios,
		(unsigned long long)s->dir[0].short_ios, (unsigned long long)s->dir[1].short_ios,
		(unsigned long long)s->dir[2].short_ios, (unsigned long long)s->dir[0].drop_ios,
		(unsigned long long)s->dir[1].drop_ios, (unsigned long long)s->dir[2].drop_ios);
	if (j->continue_on_error)
		fprintf(f, "     errors    : total=%llu, first_error=%d/<%s>\n",
			(unsigned long long)s->total_err, s->first_error,
			strerror(s->first_error));
	print_latency_target(f, e, v333);
	print_ss(f, &s->ss);
}

static void print_head(FILE *f, const struct ib_rep_entry *e)
{
	const struct ib_job_stats *s = e->st;
	char tbuf[64] = "\n", named[128];
	time_t t = (time_t)s->start_time;
	const char *where;
	int err = ib_rep_error(e, &where);
	struct tm tm;

	if (localtime_r(&t, &tm))
		strftime(tbuf, sizeof(tbuf), "%a %b %e %H:%M:%S %Y\n", &tm);
	fprintf(f, "%s: (groupid=%u, jobs=%u): err=%2d", e->job->name, e->job->groupid,
		e->nr_jobs, err);
	if (err)
		fprintf(f, " (%s)", where[0] ? where :
			ib_strerror_named(err, named, sizeof(named)));
	fprintf(f, ": pid=%d: %s", s->pid, tbuf);
	if (e->job->description[0])
		fprintf(f, "  Description  : [%s]\n", e->job->description);
}

void ib_report_entry(FILE *f, const struct ib_rep *r, const struct ib_rep_entry *e)
{
	const struct ib_job_stats *s = e->st;
	uint64_t total = ib_rep_total_ios(s);
	unsigned int d;

	print_head(f, e);
	for (d = 0; d < IB_DDIR_RWT; d++)
		if (s->dir[d].io_bytes)
			print_ddir(f, r, e, &s->dir[d], d, false);
	if (e->mixed && ib_rep_runtime_ms(e->mixed)) /* fio: shown if it ran */
		print_ddir(f, r, e, e->mixed, IB_DDIR_READ, true);
	print_lat_table(f, "nsec", s->lat_n, IB_LAT_N_NR, total);
	print_lat_table(f, "usec", s->lat_u, IB_LAT_U_NR, total);
	print_lat_table(f, "msec", s->lat_m, IB_LAT_M_NR, total);
	if (s->sync_lat.n) {
		fputs(r->fio_version == IB_FIO_V333 ? "  fsync/fdatasync/sync_file_range:\n" :
		      "  fsync/fdatasync/sync_file_range/syncfs:\n", f);
		ib_report_lat_line(f, "sync", &s->sync_lat);
		if (!e->job->gtod_reduce)
			ib_report_pct_block(f, "sync", e->job, &s->sync_hist, s->sync_lat.n);
	}
	print_tail(f, e, r->fio_version == IB_FIO_V333);
}

int ib_report_normal(FILE *f, const struct ib_results *res)
{
	struct ib_rep r;
	unsigned int i;
	int ret;

	if (res->nr_hosts > 1)
		return ib_report_normal_hosts(f, res);
	ret = ib_rep_build(&r, res);
	if (ret)
		return ret;
	fputc('\n', f);
	for (i = 0; i < r.nr_ent; i++) {
		ib_report_entry(f, &r, &r.ent[i]);
		ib_report_checks_text(f, res, &r.ent[i]);
	}
	for (i = 0; i < r.nr_grp; i++)
		ib_report_group(f, &r.grp[i]);
	ib_report_disks(f, res->disks, res->nr_disks, res->fio_version);
	ib_report_env_text(f, res);
	ib_rep_free(&r);
	return ferror(f) ? -EIO : 0;
}
