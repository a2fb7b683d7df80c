// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio-format per-I/O and averaged logs (see log.h).
 */
#include <errno.h>
#include <time.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iobench/safe_open.h"
#include "iobench/fdout.h"
#include "iobench/hist.h"
#include "iobench/log.h"
#include "procopts.h"

#define LOG_BUF_SIZE (256u * 1024)
#define LOG_LINE_MAX IB_LOG_LINE_MAX

static const char *const kind_name[IB_LOG_NR] = {
	"slat", "clat", "lat", "bw", "iops", "clat_hist",
};

/* ", " then v */
static char *put_col(char *p, uint64_t v)
{
	*p++ = ',';
	*p++ = ' ';
	return ib_put_u64(p, v);
}

/* ", 0x" and prio's 4 hex digits (fio 3.42's log_prio column) */
static char *put_prio_hex(char *p, unsigned int prio)
{
	static const char hex[] = "0123456789abcdef";
	int i;

	memcpy(p, ", 0x", 4);
	p += 4;
	for (i = 3; i >= 0; i--)
		*p++ = hex[(prio >> (4 * i)) & 0xf];
	return p;
}

size_t ib_log_line(char *buf, const struct ib_log_cols *c, uint64_t t_ms,
		   uint64_t value, unsigned int ddir, uint64_t bs, uint64_t offset,
		   unsigned int prio, uint64_t issue)
{
	char *p = ib_put_u64(buf, t_ms);

	p = put_col(p, value);
	p = put_col(p, ddir);
	p = put_col(p, bs);
	if (c->offset)
		p = put_col(p, offset);
	if (c->prio_hex)
		p = put_prio_hex(p, prio);
	else	/* 1: the realtime class (ioprio class 1) */
		p = put_col(p, (prio >> IB_IOPRIO_CLASS_SHIFT) == 1);
	if (c->issue)
		p = put_col(p, issue);
	*p++ = '\n';
	return (size_t)(p - buf);
}

size_t ib_log_format(char *buf, uint64_t t_ms, uint64_t value, unsigned int ddir,
		     uint64_t bs, bool with_offset, uint64_t offset)
{
	const struct ib_log_cols c = { .offset = with_offset };

	return ib_log_line(buf, &c, t_ms, value, ddir, bs, offset, 0, 0);
}

static void lf_flush(struct ib_log_file *lf)
{
	int err = ib_write_all(lf->fd, lf->buf, lf->len);

	if (err && !lf->err)
		lf->err = err;
	lf->len = 0;
}

static struct ib_log_cols cols_of(const struct ib_logs *l)
{
	return (struct ib_log_cols){ .offset = l->log_offset, .prio_hex = l->prio_hex,
				     .issue = l->issue_time };
}

/* One line of log k; an averaged line passes prio and issue 0 (fio). */
static void lf_line(struct ib_logs *l, enum ib_log_kind k, uint64_t t_ms,
		    uint64_t value, unsigned int ddir, uint64_t bs, uint64_t off,
		    unsigned int prio, uint64_t issue)
{
	struct ib_log_file *lf = &l->file[k];
	const struct ib_log_cols c = cols_of(l);

	if (lf->fd < 0)
		return;
	if (lf->len + LOG_LINE_MAX > LOG_BUF_SIZE)
		lf_flush(lf);
	lf->len += ib_log_line(lf->buf + lf->len, &c, lf->t0_ms + t_ms, value, ddir, bs,
			       off, prio, issue);
}

const char *ib_log_kind_name(enum ib_log_kind k)
{
	return kind_name[k];
}

void ib_log_path(char *buf, size_t size, const char *prefix, enum ib_log_kind k,
		 unsigned int number)
{
	if (number)
		snprintf(buf, size, "%s_%s.%u.log", prefix, kind_name[k], number);
	else
		snprintf(buf, size, "%s_%s.log", prefix, kind_name[k]);
}

/* number 0: per_job_logs=0, no number in the name */
static int open_one(struct ib_logs *l, enum ib_log_kind k, const char *prefix,
		    unsigned int number, struct ib_diag *d)
{
	struct ib_log_file *lf = &l->file[k];
	char path[PATH_MAX + 32];

	ib_log_path(path, sizeof(path), prefix, k, number);
	lf->buf = malloc(LOG_BUF_SIZE);
	lf->path = strdup(path);
	if (!lf->buf || !lf->path)
		return ib_diag_set(d, ENOMEM, "%s: out of memory", path);
	lf->fd = ib_safety_open(path, O_WRONLY | O_CREAT | O_TRUNC, d);
	if (lf->fd == -ELOOP)
		return lf->fd;
	if (lf->fd < 0)
		return ib_diag_set(d, -lf->fd, "%s: %s", path, strerror(-lf->fd));
	return 0;
}

bool ib_logs_shared(const struct ib_job *a, const struct ib_job *b)
{
	const char *pa[] = { a->logs.lat, a->logs.bw, a->logs.iops,
			     a->logs.hist };
	const char *pb[] = { b->logs.lat, b->logs.bw, b->logs.iops,
			     b->logs.hist };
	unsigned int i;

	if (a->logs.per_job || b->logs.per_job)
		return false;
	for (i = 0; i < 4; i++)
		if (pa[i][0] && !strcmp(pa[i], pb[i]))
			return true;
	return false;
}

int ib_logs_open(struct ib_logs *l, const struct ib_job *job, struct ib_diag *d)
{
	unsigned int k, number = job->logs.per_job ? job->number : 0;
	int ret = 0;

	memset(l, 0, sizeof(*l));
	for (k = 0; k < IB_LOG_NR; k++)
		l->file[k].fd = -1;
	l->avg_ms = job->logs.avg_msec;
	l->log_offset = job->logs.offset;
	l->prio_hex = job->logs.prio;
	l->issue_time = job->logs.issue_time;
	l->prio = ib_proc_ioprio(job);
	l->max_value = job->logs.max_value;
	l->win_end_ms = l->avg_ms;
	for (k = IB_LOG_SLAT; k <= IB_LOG_LAT && job->logs.lat[0] && !ret; k++)
		ret = open_one(l, k, job->logs.lat, number, d);
	if (!ret && job->logs.bw[0])
		ret = open_one(l, IB_LOG_BW, job->logs.bw, number, d);
	if (!ret && job->logs.iops[0])
		ret = open_one(l, IB_LOG_IOPS, job->logs.iops, number, d);
	if (!ret && job->logs.hist[0]) {
		ret = open_one(l, IB_LOG_HIST, job->logs.hist, number, d);
		l->hist_ms = job->logs.hist_msec;
		l->hist_coarse = job->logs.hist_coarseness;
		l->hist = calloc((size_t)IB_DDIR_RWT * IB_LOG_HIST_BINS, sizeof(uint64_t));
		if (!ret && !l->hist)
			ret = ib_diag_set(d, ENOMEM, "no memory for the histogram log");
	}
	if (ret) {
		ib_logs_close(l, NULL);
		return ret;
	}
	if (job->logs.unix_epoch) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		for (k = 0; k < IB_LOG_NR; k++)
			l->file[k].t0_ms = (uint64_t)ts.tv_sec * 1000 +
					   (uint64_t)ts.tv_nsec / 1000000;
	}
	l->per_io = job->logs.lat[0] || (job->logs.hist[0] && l->hist_ms) ||
		    (!l->avg_ms && (job->logs.bw[0] || job->logs.iops[0]));
	return 0;
}

/* A windowed line with both values (log_window_value=both): "t, avg, max, ..." */
static void lf_line_both(struct ib_logs *l, enum ib_log_kind k, uint64_t t_ms,
			 uint64_t avg, uint64_t max, unsigned int ddir)
{
	struct ib_log_file *lf = &l->file[k];
	const struct ib_log_cols c = cols_of(l);
	char line[LOG_LINE_MAX], *tail;
	size_t n, head;

	if (lf->fd < 0)
		return;
	if (lf->len + 2 * LOG_LINE_MAX > LOG_BUF_SIZE)
		lf_flush(lf);
	n = ib_log_line(line, &c, lf->t0_ms + t_ms, avg, ddir, 0, 0, 0, 0);
	tail = strchr(strchr(line, ',') + 1, ',');	/* after the mean */
	head = (size_t)(tail - line);
	memcpy(lf->buf + lf->len, line, head);
	lf->len += head;
	memcpy(lf->buf + lf->len, ", ", 2);
	lf->len += 2;
	lf->len += (size_t)(ib_put_u64(lf->buf + lf->len, max) - (lf->buf + lf->len));
	memcpy(lf->buf + lf->len, tail, n - head);
	lf->len += n - head;
}

/* Write the averages of the window that ends at t_ms and clear it. */
static void flush_window(struct ib_logs *l, uint64_t t_ms)
{
	unsigned int k, d;

	for (k = 0; k < 3; k++)
		for (d = 0; d < IB_DDIR_RWT; d++) {
			if (!l->cnt[k][d])
				continue;
			if (l->max_value == 2)
				lf_line_both(l, k, t_ms, l->sum[k][d] / l->cnt[k][d],
					     l->max[k][d], d);
			else
				lf_line(l, k, t_ms,
				l->max_value ? l->max[k][d] : l->sum[k][d] / l->cnt[k][d],
				d, 0, 0, 0, 0);
			l->sum[k][d] = 0;
			l->cnt[k][d] = 0;
			l->max[k][d] = 0;
		}
}

static void avg_add(struct ib_logs *l, uint64_t t_ms, unsigned int ddir,
		    const uint64_t v[3])
{
	unsigned int k;

	if (t_ms >= l->win_end_ms) {
		flush_window(l, l->win_end_ms);
		while (l->win_end_ms <= t_ms)
			l->win_end_ms += l->avg_ms;
	}
	for (k = 0; k < 3; k++) {
		if (v[k] == UINT64_MAX || l->file[k].fd < 0)
			continue;
		l->sum[k][ddir] += v[k];
		l->cnt[k][ddir]++;
		if (v[k] > l->max[k][ddir])
			l->max[k][ddir] = v[k];
	}
}

/* One histogram row of direction d, then its counts start again. */
static void hist_row(struct ib_logs *l, unsigned int d, uint64_t t_ms)
{
	struct ib_log_file *lf = &l->file[IB_LOG_HIST];
	uint64_t *bins = l->hist + (size_t)d * IB_LOG_HIST_BINS;
	char *p;
	unsigned int i;

	if (lf->len + LOG_LINE_MAX > LOG_BUF_SIZE)
		lf_flush(lf);
	p = lf->buf + lf->len;
	p = ib_put_u64(p, lf->t0_ms + t_ms);
	p = ib_put_u64(memcpy(p, ", ", 2) + 2, d);
	p = ib_put_u64(memcpy(p, ", ", 2) + 2, l->hist_bs[d]);
	for (i = 0; i < IB_LOG_HIST_BINS; i += 1u << l->hist_coarse) {
		uint64_t sum = 0;
		unsigned int k;

		if ((size_t)(p - lf->buf) + 32 > LOG_BUF_SIZE) {
			lf->len = (size_t)(p - lf->buf);
			lf_flush(lf);
			p = lf->buf;
		}
		for (k = i; k < i + (1u << l->hist_coarse); k++) {
			sum += bins[k];
			bins[k] = 0;
		}
		p = ib_put_u64(memcpy(p, ", ", 2) + 2, sum);
	}
	*p++ = '\n';
	lf->len = (size_t)(p - lf->buf);
	l->hist_last_ms[d] = t_ms;
}

static void hist_add(struct ib_logs *l, uint64_t t_ms, unsigned int d,
		     uint32_t bs, uint64_t clat)
{
	unsigned int idx = ib_hist_index(clat);

	if (idx >= IB_LOG_HIST_BINS)
		idx = IB_LOG_HIST_BINS - 1;
	l->hist[(size_t)d * IB_LOG_HIST_BINS + idx]++;
	l->hist_bs[d] = bs;
	if (t_ms - l->hist_last_ms[d] >= l->hist_ms)
		hist_row(l, d, t_ms);
}

/*
 * The issue time of an I/O that completed at t_ns: its completion less
 * clat, or its start (completion less lat) plus slat; 0 when unknown.
 */
static uint64_t issue_ns(uint64_t t_ns, uint64_t slat, uint64_t clat, uint64_t lat)
{
	if (clat != UINT64_MAX)
		return clat <= t_ns ? t_ns - clat : 0;
	if (lat != UINT64_MAX && slat != UINT64_MAX && lat <= t_ns)
		return t_ns - lat + slat;
	return 0;
}

void ib_logs_lat(struct ib_logs *l, uint64_t t_ns, enum ib_ddir ddir, uint32_t bs,
		 uint64_t offset, uint64_t slat, uint64_t clat, uint64_t lat)
{
	const uint64_t v[3] = { slat, clat, lat };
	uint64_t t_ms = t_ns / 1000000, issue = 0;
	unsigned int k;

	if (l->hist_ms && l->file[IB_LOG_HIST].fd >= 0 && clat != UINT64_MAX)
		hist_add(l, t_ms, ddir, bs, clat);

	if (l->avg_ms) {
		avg_add(l, t_ms, ddir, v);
		return;
	}
	if (l->issue_time)
		issue = issue_ns(t_ns, slat, clat, lat);
	for (k = 0; k < 3; k++)	/* fio: the issue time in slat and clat only */
		if (v[k] != UINT64_MAX)
			lf_line(l, k, t_ms, v[k], ddir, bs, offset, l->prio,
				k == IB_LOG_LAT ? 0 : issue);
	if (clat != UINT64_MAX && clat)
		lf_line(l, IB_LOG_BW, t_ms, (uint64_t)bs * 1000000 / clat, ddir, bs,
			offset, l->prio, 0);
	lf_line(l, IB_LOG_IOPS, t_ms, 1, ddir, bs, offset, l->prio, 0);
}

void ib_logs_sample(struct ib_logs *l, enum ib_log_kind kind, uint64_t t_ms,
		    enum ib_ddir ddir, uint64_t value)
{
	if (!l->avg_ms)
		return;
	lf_line(l, kind, t_ms, value, ddir, 0, 0, 0, 0);
}

void ib_logs_flush_avg(struct ib_logs *l, uint64_t t_ms)
{
	unsigned int d, i;

	if (l->avg_ms)
		flush_window(l, t_ms);
	for (d = 0; l->hist_ms && l->hist && d < IB_DDIR_RWT; d++) {
		const uint64_t *bins = l->hist + (size_t)d * IB_LOG_HIST_BINS;

		for (i = 0; i < IB_LOG_HIST_BINS && !bins[i]; i++)
			;
		if (i < IB_LOG_HIST_BINS && l->file[IB_LOG_HIST].fd >= 0)
			hist_row(l, d, t_ms);
	}
}

int ib_logs_close(struct ib_logs *l, struct ib_diag *d)
{
	unsigned int k;
	int err = 0;

	for (k = 0; k < IB_LOG_NR; k++) {
		struct ib_log_file *lf = &l->file[k];

		if (lf->fd >= 0) {
			struct ib_out_id id;

			lf_flush(lf);
			ib_safety_fd_id(lf->fd, &id);
			if (close(lf->fd) && !lf->err)
				lf->err = -errno;
			/* never left looking complete, as a report (run_main.c) */
			if (lf->err && !err)
				err = ib_diag_set(d, lf->err, "%s log %s: %s%s", kind_name[k],
						  lf->path ? lf->path : "", strerror(-lf->err),
						  lf->path && ib_safety_remove_output(lf->path, &id) ?
						  " (removed, incomplete)" : "");
			else if (lf->err && lf->path)
				ib_safety_remove_output(lf->path, &id);
		}
		free(lf->buf);
		free(lf->path);
		lf->buf = NULL;
		lf->path = NULL;
		lf->fd = -1;
	}
	free(l->hist);
	l->hist = NULL;
	return err;
}
