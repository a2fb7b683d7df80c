// SPDX-License-Identifier: GPL-2.0-only
/*
 * log_group: after a run, one bw/iops/lat log per group_reporting group
 * (grouplog.h), from the jobs' own logs. Averaged bw/iops logs
 * (log_avg_msec) are summed per window and direction; every other log is
 * merged, its lines ordered by time (ties: job, then line order).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "iobench/fdout.h"
#include "iobench/grouplog.h"
#include "iobench/log.h"
#include "iobench/safe_open.h"

struct gl_line {
	uint64_t t;
	unsigned int job, seq;
	const char *text;
	size_t len;
};

struct gl_src {
	char *buf;
	size_t len;
};

static const char *prefix_of(const struct ib_job *j, enum ib_log_kind k)
{
	if (k <= IB_LOG_LAT)
		return j->logs.lat;
	return k == IB_LOG_BW ? j->logs.bw : j->logs.iops;
}

static bool member(const struct ib_job *j, const struct ib_job *lead, enum ib_log_kind k)
{
	return j->logs.group && j->groupid == lead->groupid &&
	       !strcmp(prefix_of(j, k), prefix_of(lead, k));
}

static int read_all(const char *path, struct gl_src *s, struct ib_diag *d)
{
	struct stat sb;
	size_t got = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &sb))
		return ib_diag_set(d, errno, "log_group: %s: %s", path, strerror(errno));
	s->buf = malloc((size_t)sb.st_size + 1);
	while (s->buf && got < (size_t)sb.st_size &&
	       (n = read(fd, s->buf + got, (size_t)sb.st_size - got)) > 0)
		got += (size_t)n;
	close(fd);
	if (!s->buf)
		return ib_diag_set(d, ENOMEM, "log_group: %s: out of memory", path);
	s->len = got;
	s->buf[got] = '\0';
	return 0;
}

static int cmp_line(const void *pa, const void *pb)
{
	const struct gl_line *a = pa, *b = pb;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	if (a->job != b->job)
		return a->job < b->job ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The lines of every source, with their times; *nr lines. */
static struct gl_line *split(const struct gl_src *src, unsigned int nsrc, size_t *nr)
{
	struct gl_line *v = NULL, *nv;
	size_t n = 0, cap = 0;
	unsigned int i;

	for (i = 0; i < nsrc; i++) {
		const char *p = src[i].buf, *end = p + src[i].len, *eol;
		unsigned int seq = 0;

		for (; p < end; p = eol + 1) {
			eol = memchr(p, '\n', (size_t)(end - p));
			if (!eol)
				eol = end;
			if (n == cap) {
				cap = cap ? 2 * cap : 1024;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv) {
					free(v);
					return NULL;
				}
				v = nv;
			}
			v[n++] = (struct gl_line){ strtoull(p, NULL, 10), i, seq++, p,
						   (size_t)(eol - p) };
		}
	}
	*nr = n;
	return v ? v : calloc(1, sizeof(*v));
}

static int emit(int fd, const char *text, size_t len)
{
	int err = ib_write_all(fd, text, len);

	return err ? err : ib_write_all(fd, "\n", 1);
}

static int write_merged(int fd, const struct gl_src *src, unsigned int nsrc)
{
	size_t i, n = 0;
	struct gl_line *v = split(src, nsrc, &n);
	int err = 0;

	if (!v)
		return -ENOMEM;
	qsort(v, n, sizeof(*v), cmp_line);
	for (i = 0; i < n && !err; i++)
		err = emit(fd, v[i].text, v[i].len);
	free(v);
	return err;
}

/* "t, value, ddir, ...": window t / avg_ms, summed per direction. */
static int write_summed(int fd, const struct gl_src *src, unsigned int nsrc,
			const struct ib_job *lead)
{
	uint64_t avg = lead->logs.avg_msec, *sum = NULL, nw = 0, w;
	size_t i, n = 0;
	struct gl_line *v = split(src, nsrc, &n);
	const struct ib_log_cols cols = { .offset = lead->logs.offset,
		.prio_hex = lead->logs.prio, .issue = lead->logs.issue_time };
	char buf[IB_LOG_LINE_MAX], *p;
	int err = 0;
	unsigned int d;

	for (i = 0; v && i < n; i++)
		nw = v[i].t / avg + 1 > nw ? v[i].t / avg + 1 : nw;
	sum = v ? calloc(nw * IB_DDIR_RWT + 1, sizeof(*sum) * 2) : NULL;
	for (i = 0; sum && i < n; i++) {
		const char *comma = memchr(v[i].text, ',', v[i].len);
		uint64_t val = comma ? strtoull(comma + 1, &p, 10) : 0;

		d = comma ? (unsigned int)strtoul(p + 1, NULL, 10) : IB_DDIR_RWT;
		w = v[i].t / avg;
		if (d < IB_DDIR_RWT) {
			sum[2 * (w * IB_DDIR_RWT + d)] += val;
			sum[2 * (w * IB_DDIR_RWT + d) + 1] = 1;
		}
	}
	for (w = 0; sum && w < nw && !err; w++)
		for (d = 0; d < IB_DDIR_RWT && !err; d++)
			if (sum[2 * (w * IB_DDIR_RWT + d) + 1])
				err = ib_write_all(fd, buf, ib_log_line(buf, &cols, w * avg,
					sum[2 * (w * IB_DDIR_RWT + d)], d, 0, 0, 0, 0));
	err = sum ? err : -ENOMEM;
	free(sum);
	free(v);
	return err;
}

static int read_members(const struct ib_plan *run, unsigned int lead, enum ib_log_kind k,
			struct gl_src *src, unsigned int *nsrc, struct ib_diag *d)
{
	char path[PATH_MAX + 32];
	unsigned int i;
	int ret = 0;

	*nsrc = 0;
	for (i = lead; i < run->nr_jobs && !ret; i++) {
		const struct ib_job *j = &run->jobs[i];

		if (!member(j, &run->jobs[lead], k))
			continue;
		ib_log_path(path, sizeof(path), prefix_of(j, k), k,
			    j->logs.per_job ? j->number : 0);
		ret = read_all(path, &src[(*nsrc)++], d);
	}
	return ret;
}

static int group_log(const struct ib_plan *run, unsigned int lead, enum ib_log_kind k,
		     struct ib_diag *d)
{
	const struct ib_job *lj = &run->jobs[lead];
	struct gl_src *src = calloc(run->nr_jobs, sizeof(*src));
	char path[PATH_MAX + 48];
	unsigned int nsrc = 0, i;
	int fd, ret;

	if (!src)
		return ib_diag_set(d, ENOMEM, "log_group: out of memory");
	ret = read_members(run, lead, k, src, &nsrc, d);
	snprintf(path, sizeof(path), "%s_%s.group%u.log", prefix_of(lj, k),
		 ib_log_kind_name(k), lj->groupid);
	fd = ret ? -1 : ib_safety_open(path, O_WRONLY | O_CREAT | O_TRUNC, d);
	if (!ret && fd < 0)
		ret = fd == -ELOOP ? fd : ib_diag_set(d, -fd, "%s: %s", path, strerror(-fd));
	if (fd >= 0) {
		ret = (k == IB_LOG_BW || k == IB_LOG_IOPS) && lj->logs.avg_msec ?
		      write_summed(fd, src, nsrc, lj) : write_merged(fd, src, nsrc);
		if (close(fd) && !ret)
			ret = -errno;
		if (ret)
			ret = ib_diag_set(d, -ret, "%s: %s", path, strerror(-ret));
	}
	for (i = 0; i < run->nr_jobs; i++)
		free(src[i].buf);
	free(src);
	return ret;
}

/* The first job of its group with log_group and this kind's prefix? */
static bool leads(const struct ib_plan *run, unsigned int i, enum ib_log_kind k)
{
	unsigned int e;

	if (!run->jobs[i].logs.group || !prefix_of(&run->jobs[i], k)[0])
		return false;
	for (e = 0; e < i; e++)
		if (member(&run->jobs[e], &run->jobs[i], k))
			return false;
	return true;
}

int ib_grouplogs_write(const struct ib_plan *run, struct ib_diag *d)
{
	unsigned int i, k;
	int ret = 0;

	for (i = 0; i < run->nr_jobs && !ret; i++)
		for (k = IB_LOG_SLAT; k <= IB_LOG_IOPS && !ret; k++)
			if (leads(run, i, (enum ib_log_kind)k))
				ret = group_log(run, i, (enum ib_log_kind)k, d);
	return ret;
}
