// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-I/O accounting (hot path) and the group_reporting merge.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "iobench/stats.h"

void ib_lat_stat_merge(struct ib_lat_stat *dst, const struct ib_lat_stat *src)
{
	double n1, n2, delta;

	if (src->n == 0)
		return;
	if (dst->n == 0) {
		*dst = *src;
		return;
	}
	/* Chan et al.: combine two (n, mean, M2) triples exactly */
	n1 = (double)dst->n;
	n2 = (double)src->n;
	delta = src->mean - dst->mean;
	dst->mean += delta * n2 / (n1 + n2);
	dst->m2 += src->m2 + delta * delta * n1 * n2 / (n1 + n2);
	dst->n += src->n;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

double ib_lat_stat_stddev(const struct ib_lat_stat *s)
{
	if (s->n < 2)
		return 0.0;
	return sqrt(s->m2 / (double)(s->n - 1));
}

/* fio's bw/iops group merge: every field is added (doc/fio-compat.md §1.7). */
static void sample_stat_sum(struct ib_lat_stat *dst, const struct ib_lat_stat *src)
{
	dst->n += src->n;
	dst->min += src->min;
	dst->max += src->max;
	dst->mean += src->mean;
	dst->m2 += src->m2;
}

/* Index of the fio "lat" table slot: 2 4 10 20 50 100 250 500 750 1000 */
static inline unsigned int lat_slot(uint64_t v)
{
	if (v < 50) {
		if (v < 4)
			return v < 2 ? 0 : 1;
		return v < 10 ? 2 : v < 20 ? 3 : 4;
	}
	if (v < 250)
		return v < 100 ? 5 : 6;
	return v < 500 ? 7 : v < 750 ? 8 : 9;
}

static inline void mark_lat(struct ib_job_stats *s, uint64_t clat, uint64_t c)
{
	if (clat < 1000)
		s->lat_n[lat_slot(clat)] += c;
	else if (clat < 1000000)
		s->lat_u[lat_slot(clat / 1000)] += c;
	else if (clat < 1000000000)
		s->lat_m[lat_slot(clat / 1000000)] += c;
	else
		s->lat_m[clat < 2000000000ull ? 10 : 11] += c;
}

/* c latencies v of kind k: the Welford accumulator, the histogram if kept. */
static inline void add_lat(struct ib_dir_stats *d, unsigned int keep,
			   enum ib_lat_kind k, uint64_t v, uint64_t c)
{
	ib_lat_stat_add_n(&d->lat[k], v, c);
	if (keep & IB_KEEP_HIST(k))
		ib_hist_add_n(&d->hist[k], v, c);
}

unsigned int ib_stats_keep(const struct ib_job *job)
{
	unsigned int keep = 0;

	if (!job->disable_slat)
		keep |= IB_KEEP_LAT(IB_LAT_SLAT);
	if (!job->disable_slat && job->slat_percentiles)
		keep |= IB_KEEP_HIST(IB_LAT_SLAT);
	if (!job->disable_clat)
		keep |= IB_KEEP_LAT(IB_LAT_CLAT) | IB_KEEP_HIST(IB_LAT_CLAT);
	if (!job->disable_lat)
		keep |= IB_KEEP_LAT(IB_LAT_TLAT);
	if (!job->disable_lat && (job->lat_percentiles || job->disable_clat))
		keep |= IB_KEEP_HIST(IB_LAT_TLAT);
	return keep;
}

/*
 * ib_stats_add_ios() on the direction's stats d. Out of line so that d is
 * a register: inlined, gcc recomputes s + ddir * sizeof(*d) at each use.
 */
static __attribute__((noinline)) void
add_ios(struct ib_job_stats *s, struct ib_dir_stats *d, unsigned int keep,
	uint64_t bytes, uint64_t slat, uint64_t clat, uint64_t lat, uint64_t c)
{
	d->io_bytes += bytes * c;
	d->total_ios += c;
	if (slat != UINT64_MAX && (keep & IB_KEEP_LAT(IB_LAT_SLAT)))
		add_lat(d, keep, IB_LAT_SLAT, slat, c);
	if (clat != UINT64_MAX && (keep & IB_KEEP_LAT(IB_LAT_CLAT))) {
		add_lat(d, keep, IB_LAT_CLAT, clat, c);
		mark_lat(s, clat, c);
	}
	if (lat != UINT64_MAX && (keep & IB_KEEP_LAT(IB_LAT_TLAT)))
		add_lat(d, keep, IB_LAT_TLAT, lat, c);
}

void ib_stats_add_ios(struct ib_job_stats *s, unsigned int keep,
		      enum ib_ddir ddir, uint64_t bytes, uint64_t slat,
		      uint64_t clat, uint64_t lat, uint64_t count)
{
	add_ios(s, &s->dir[ddir], keep, bytes, slat, clat, lat, count);
}

void ib_stats_add_io(struct ib_job_stats *s, unsigned int keep,
		     enum ib_ddir ddir, uint64_t bytes, uint64_t slat,
		     uint64_t clat, uint64_t lat)
{
	add_ios(s, &s->dir[ddir], keep, bytes, slat, clat, lat, 1);
}

void ib_stats_add_sync(struct ib_job_stats *s, uint64_t lat_ns)
{
	s->sync_ios++;
	if (lat_ns == UINT64_MAX)
		return;
	ib_lat_stat_add(&s->sync_lat, lat_ns);
	ib_hist_add(&s->sync_hist, lat_ns);
}

/* The measured section is the fields between live and elapsed_s (stats.h). */
void ib_stats_reset(struct ib_job_stats *s)
{
	size_t from = offsetof(struct ib_job_stats, dir);

	memset((char *)s + from, 0, offsetof(struct ib_job_stats, elapsed_s) - from);
}

void ib_stats_drop_lat(struct ib_job_stats *s)
{
	int d;

	for (d = 0; d < IB_DDIR_RWT; d++) {
		memset(s->dir[d].lat, 0, sizeof(s->dir[d].lat));
		memset(s->dir[d].hist, 0, sizeof(s->dir[d].hist));
	}
	memset(s->lat_n, 0, sizeof(s->lat_n));
	memset(s->lat_u, 0, sizeof(s->lat_u));
	memset(s->lat_m, 0, sizeof(s->lat_m));
}

unsigned int ib_depth_bucket(unsigned int depth)
{
	unsigned int msb;

	if (depth <= 1)
		return 0;
	msb = 31u - (unsigned int)__builtin_clz(depth);
	return msb < IB_DEPTH_NR - 1 ? msb : IB_DEPTH_NR - 1;
}

unsigned int ib_batch_bucket(unsigned int n)
{
	unsigned int clog;

	if (n == 0)
		return 0;
	if (n <= 4)
		return 1;
	clog = 32u - (unsigned int)__builtin_clz(n - 1); /* ceil(log2 n) */
	return clog - 1 < IB_DEPTH_NR - 1 ? clog - 1 : IB_DEPTH_NR - 1;
}

void ib_stats_merge_dir(struct ib_dir_stats *dst, const struct ib_dir_stats *src)
{
	unsigned int k;

	dst->io_bytes += src->io_bytes;
	dst->total_ios += src->total_ios;
	dst->issued += src->issued;
	dst->short_ios += src->short_ios;
	dst->drop_ios += src->drop_ios;
	if (src->runtime_us > dst->runtime_us)
		dst->runtime_us = src->runtime_us;
	/*
	 * A histogram is only read where its samples' count says it has any:
	 * each is 19 KiB, 16 a job, in shared memory whose untouched pages a
	 * read allocates (numjobs=4088 --thread: 1.2 GiB faulted in, seconds,
	 * at the report). hist[k] and lat[k] take the same values (add_lat).
	 */
	for (k = 0; k < IB_LAT_NR; k++) {
		ib_lat_stat_merge(&dst->lat[k], &src->lat[k]);
		if (src->lat[k].n)
			ib_hist_merge(&dst->hist[k], &src->hist[k]);
	}
	sample_stat_sum(&dst->bw_samples, &src->bw_samples);
	sample_stat_sum(&dst->iops_samples, &src->iops_samples);
	ib_lat_stat_merge(&dst->colat, &src->colat);
	if (src->colat.n)
		ib_hist_merge(&dst->colat_hist, &src->colat_hist);
	dst->late_ios += src->late_ios;
	dst->late_sum_ns += src->late_sum_ns;
	if (src->late_max_ns > dst->late_max_ns)
		dst->late_max_ns = src->late_max_ns;
	dst->backlog_max += src->backlog_max; /* jobs fall behind side by side */
	dst->unstarted += src->unstarted;
	/* lateness: one sample per I/O a paced job started */
	if (src->issued || src->total_ios || src->colat.n)
		ib_hist_merge(&dst->late_hist, &src->late_hist);
}

static void add_arr(uint64_t *dst, const uint64_t *src, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		dst[i] += src[i];
}

static void merge_outcome(struct ib_job_stats *dst, const struct ib_job_stats *src)
{
	if (!dst->error && src->error) {
		dst->error = src->error;
		memcpy(dst->error_where, src->error_where, sizeof(dst->error_where));
	}
	if (!dst->first_error && src->first_error) {
		dst->first_error = src->first_error;
		memcpy(dst->first_error_where, src->first_error_where,
		       sizeof(dst->first_error_where));
	}
	dst->total_err += src->total_err;
	if (!dst->pid) {
		dst->pid = src->pid;
		dst->start_time = src->start_time;
		dst->job_start_ms = src->job_start_ms;
	}
	if (!dst->exit_signal)
		dst->exit_signal = src->exit_signal;
	if (!dst->ioengine[0]) { /* a group shows its first job's I/O mode */
		memcpy(dst->ioengine, src->ioengine, sizeof(dst->ioengine));
		dst->direct_requested = src->direct_requested;
		dst->direct = src->direct;
		memcpy(dst->ioengine_fallback, src->ioengine_fallback,
		       sizeof(dst->ioengine_fallback));
		memcpy(dst->direct_fallback, src->direct_fallback,
		       sizeof(dst->direct_fallback));
	}
	if (!dst->lat_target_ns && src->lat_target_ns) {
		dst->lat_target_ns = src->lat_target_ns;
		dst->lat_window_us = src->lat_window_us;
		dst->lat_percentile = src->lat_percentile;
		dst->lat_depth = src->lat_depth;
	}
	if (src->elapsed_s > dst->elapsed_s)
		dst->elapsed_s = src->elapsed_s;
}

/* group_reporting: a group's replay timing is its jobs' together. */
static void merge_replay(struct ib_replay_stats *dst,
			 const struct ib_replay_stats *src)
{
	dst->on = dst->on || src->on;
	dst->ios += src->ios;
	dst->late_ios += src->late_ios;
	dst->late_total_ns += src->late_total_ns;
	if (src->late_max_ns > dst->late_max_ns)
		dst->late_max_ns = src->late_max_ns;
}

void ib_stats_merge(struct ib_job_stats *dst, const struct ib_job_stats *src)
{
	unsigned int d;

	for (d = 0; d < IB_DDIR_RWT; d++)
		ib_stats_merge_dir(&dst->dir[d], &src->dir[d]);
	ib_lat_stat_merge(&dst->sync_lat, &src->sync_lat);
	if (src->sync_lat.n)
		ib_hist_merge(&dst->sync_hist, &src->sync_hist);
	dst->sync_ios += src->sync_ios;
	add_arr(dst->lat_n, src->lat_n, IB_LAT_N_NR);
	add_arr(dst->lat_u, src->lat_u, IB_LAT_U_NR);
	add_arr(dst->lat_m, src->lat_m, IB_LAT_M_NR);
	add_arr(dst->depth, src->depth, IB_DEPTH_NR);
	add_arr(dst->submit, src->submit, IB_DEPTH_NR);
	add_arr(dst->complete, src->complete, IB_DEPTH_NR);
	dst->total_submit_calls += src->total_submit_calls;
	dst->total_complete_calls += src->total_complete_calls;
	dst->usr_us += src->usr_us;
	dst->sys_us += src->sys_us;
	dst->ctx += src->ctx;
	dst->majf += src->majf;
	dst->minf += src->minf;
	dst->job_runtime_ms += src->job_runtime_ms;
	dst->finished = dst->finished || src->finished;
	dst->paced = dst->paced || src->paced;
	merge_outcome(dst, src);
	merge_replay(&dst->replay, &src->replay);
	if (!dst->ss.dur) /* group_reporting: the first job's (fio: the group's) */
		dst->ss = src->ss;
}
