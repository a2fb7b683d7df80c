// SPDX-License-Identifier: GPL-2.0-only
/*
 * write_iolog=FILE (iolog.h): lines formatted into a buffer by hand and
 * written with write(2) when it fills, as log.c does; no stdio on the
 * per-I/O path. The first write error is kept and reported at close.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iobench/safe_open.h"
#include "iobench/clock.h"
#include "iobench/fdout.h"
#include "iobench/iolog.h"

#define IOLOG_BUF (1u << 20)
#define IOLOG_LINE_MAX (PATH_MAX + 96)	/* time, path, action, two numbers */

static const char *const action[IB_IOLOG_SFR + 1] = {
	"read", "write", "trim", "sync", "datasync", "sync_file_range"
};

bool ib_iolog_path(const struct ib_job *job, char *buf, size_t len)
{
	int n;

	if (job->numjobs > 1)
		n = snprintf(buf, len, "%s.%u", job->logs.iolog, job->clone);
	else
		n = snprintf(buf, len, "%s", job->logs.iolog);
	return n >= 0 && (size_t)n < len;
}

static void flush_buf(struct ib_iolog *l)
{
	int err = ib_write_all(l->fd, l->buf, l->len);

	if (err && !l->err)
		l->err = err;
	l->len = 0;
}

static char *put_str(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

/*
 * "PATH WORD\n" or, with nums, "PATH WORD A B\n"; in a v3 log each line
 * starts with the microseconds since the open at now_ns ("USEC PATH ...").
 */
static void put_line(struct ib_iolog *l, uint64_t now_ns, const char *path,
		     const char *word, bool nums, uint64_t a, uint64_t b)
{
	char *p;

	if (l->len + IOLOG_LINE_MAX > IOLOG_BUF)
		flush_buf(l);
	p = l->buf + l->len;
	if (l->version >= 3) {
		p = ib_put_u64(p, now_ns > l->start_ns ? (now_ns - l->start_ns) / 1000 : 0);
		*p++ = ' ';
	}
	p = put_str(p, path);
	*p++ = ' ';
	p = put_str(p, word);
	if (nums) {
		*p++ = ' ';
		p = ib_put_u64(p, a);
		*p++ = ' ';
		p = ib_put_u64(p, b);
	}
	*p++ = '\n';
	l->len = (size_t)(p - l->buf);
}

static int open_log(struct ib_iolog *l, const struct ib_job *job, struct ib_diag *d)
{
	if (!ib_iolog_path(job, l->path, sizeof(l->path)))
		return ib_diag_set(d, ENAMETOOLONG, "write_iolog: name too long: %s",
				   job->logs.iolog);
	l->buf = malloc(IOLOG_BUF);
	if (!l->buf)
		return ib_diag_set(d, ENOMEM, "write_iolog: %s: out of memory", l->path);
	l->fd = ib_safety_open(l->path, O_WRONLY | O_CREAT | O_TRUNC, d);
	if (l->fd < 0) {
		free(l->buf);
		l->buf = NULL;
		if (l->fd == -ELOOP)
			return l->fd;
		return ib_diag_set(d, -l->fd, "write_iolog: cannot create %s: %s",
				   l->path, strerror(-l->fd));
	}
	return 0;
}

int ib_iolog_open(struct ib_iolog *l, const struct ib_job *job,
		  const struct ib_files *fs, struct ib_diag *d)
{
	unsigned int i;
	int ret;

	l->fd = -1;
	l->buf = NULL;
	l->len = 0;
	l->err = 0;
	if (!job->logs.iolog[0])
		return 0;
	ret = open_log(l, job, d);
	if (ret)
		return ret;
	l->version = job->logs.iolog_version == 2 ? 2 : 3;
	l->start_ns = ib_now_ns();
	l->len = (size_t)snprintf(l->buf, IOLOG_BUF, "fio version %u iolog\n", l->version);
	for (i = 0; i < fs->nr; i++)
		put_line(l, l->start_ns, fs->f[i].path, "add", false, 0, 0);
	l->limited = job->openfiles && job->openfiles < fs->nr;
	for (i = 0; i < fs->nr; i++)
		if (!l->limited || fs->f[i].fd >= 0)
			put_line(l, l->start_ns, fs->f[i].path, "open", false, 0, 0);
	return 0;
}

void ib_iolog_file(struct ib_iolog *l, const struct ib_file *f,
		   const char *what, uint64_t now_ns)
{
	if (l && l->buf)
		put_line(l, now_ns, f->path, what, false, 0, 0);
}

void ib_iolog_io(struct ib_iolog *l, const struct ib_file *f, unsigned int ddir,
		 uint64_t offset, uint64_t len, uint64_t now_ns)
{
	if (!l->buf)
		return;
	put_line(l, now_ns, f->path, action[ddir], true, offset, len);
}

int ib_iolog_close(struct ib_iolog *l, const struct ib_files *fs, struct ib_diag *d)
{
	struct ib_out_id id;
	uint64_t now;
	unsigned int i;
	int err;

	if (!l->buf)
		return 0;
	now = ib_now_ns();
	for (i = 0; i < fs->nr; i++)
		if (!l->limited || fs->f[i].fd >= 0)
			put_line(l, now, fs->f[i].path, "close", false, 0, 0);
	flush_buf(l);
	ib_safety_fd_id(l->fd, &id);
	if (close(l->fd) && !l->err)
		l->err = -errno;
	err = l->err;
	free(l->buf);
	l->buf = NULL;
	l->fd = -1;
	if (!err)
		return 0;
	/* cut short (ENOSPC, EIO): removed, as a latency log or a report */
	return ib_diag_set(d, -err, "write_iolog: %s: %s%s", l->path, strerror(-err),
			   ib_safety_remove_output(l->path, &id) ?
			   " (removed, incomplete)" : "");
}
