// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/clock.h"
#include "iobench/iolog.h"

#define IOLOG_BUF (1u << 20)

static const char *const action[IB_DDIR_NR] = { "read", "write", "trim", "sync" };

/* A v3 line's time field ("" in v2): microseconds since the open. */
static void line_start(const struct ib_iolog *l, uint64_t now_ns)
{
	if (l->version >= 3)
		fprintf(l->f, "%llu ", (unsigned long long)(now_ns > l->start_ns ?
				(now_ns - l->start_ns) / 1000 : 0));
}

bool ib_iolog_path(const struct ib_job *job, char *buf, size_t len)
{
	int n;

	if (job->numjobs > 1)
		n = snprintf(buf, len, "%s.%u", job->write_iolog, job->clone);
	else
		n = snprintf(buf, len, "%s", job->write_iolog);
	return n >= 0 && (size_t)n < len;
}

int ib_iolog_open(struct ib_iolog *l, const struct ib_job *job,
		  const struct ib_files *fs, struct ib_diag *d)
{
	char path[PATH_MAX + 16];
	unsigned int i;

	l->f = NULL;
	l->buf = NULL;
	if (!job->write_iolog[0])
		return 0;
	if (!ib_iolog_path(job, path, sizeof(path)))
		return ib_diag_set(d, ENAMETOOLONG, "write_iolog: name too long: %s",
				   job->write_iolog);
	l->f = fopen(path, "w");
	if (!l->f)
		return ib_diag_set(d, errno, "write_iolog: cannot create %s: %s",
				   path, strerror(errno));
	l->buf = malloc(IOLOG_BUF);
	if (l->buf)
		setvbuf(l->f, l->buf, _IOFBF, IOLOG_BUF);
	l->version = job->write_iolog_version == 2 ? 2 : 3;
	l->start_ns = ib_now_ns();
	fprintf(l->f, "fio version %u iolog\n", l->version);
	for (i = 0; i < fs->nr; i++) {
		line_start(l, l->start_ns);
		fprintf(l->f, "%s add\n", fs->f[i].path);
	}
	for (i = 0; i < fs->nr; i++) {
		line_start(l, l->start_ns);
		fprintf(l->f, "%s open\n", fs->f[i].path);
	}
	return 0;
}

void ib_iolog_io(struct ib_iolog *l, const struct ib_file *f, unsigned int ddir,
		 uint64_t offset, uint64_t len, uint64_t now_ns)
{
	if (!l->f)
		return;
	line_start(l, now_ns);
	fprintf(l->f, "%s %s %llu %llu\n", f->path, action[ddir],
		(unsigned long long)offset, (unsigned long long)len);
}

void ib_iolog_close(struct ib_iolog *l, const struct ib_files *fs)
{
	unsigned int i;

	if (!l->f)
		return;
	for (i = 0; i < fs->nr; i++) {
		line_start(l, ib_now_ns());
		fprintf(l->f, "%s close\n", fs->f[i].path);
	}
	fclose(l->f);
	free(l->buf);
	l->f = NULL;
	l->buf = NULL;
}
