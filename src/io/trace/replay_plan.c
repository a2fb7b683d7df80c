// SPDX-License-Identifier: GPL-2.0-only
/*
 * The parent's pass over a trace before a replay job runs (replay.h):
 * merge_blktrace_file, then every record checked and the job made to
 * describe the trace (targets, directions, lengths, extent).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>
#include "iobench/replay.h"

struct target {
	char path[PATH_MAX];
	bool is_bdev;
	uint64_t size;		/* block device: its size; else 0 */
};

struct plan {
	const struct ib_job *job;
	bool readonly;
	struct ib_trace *t;
	struct ib_replay_map map;
	struct target *tg;	/* map.nr of them */
	unsigned int rw;	/* IB_RW_READ / WRITE / TRIM */
	uint64_t minlen[IB_DDIR_RWT], maxlen[IB_DDIR_RWT];
	uint64_t offsets[IB_DDIR_RWT];	/* OR of the offsets: their alignment */
	uint64_t max_end;
	uint64_t ios;
};

static const char *unit(const struct plan *p)
{
	return ib_trace_format(p->t) == IB_TRACE_BLKTRACE ? "record" : "line";
}

/* Is write_iolog= one of the traces (it would be emptied before read)? */
static bool writes_trace(const struct ib_job *job)
{
	char name[PATH_MAX];
	const char *p = job->replay.iolog;
	struct stat a, b;
	size_t n;

	if (!job->logs.iolog[0] || stat(job->logs.iolog, &a) < 0)
		return false;
	for (;; p += n + 1) {
		n = strcspn(p, ":");
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (stat(name, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return true;
		if (!p[n])
			return false;
	}
}

static int check_options(const struct ib_job *job, struct ib_diag *d)
{
	if (writes_trace(job))
		return ib_diag_set(d, EINVAL, "write_iolog=%s: is the trace read_iolog= replays",
				   job->logs.iolog);
	if (job->replay.align & (job->replay.align - 1))
		return ib_diag_set(d, EINVAL, "replay_align: %llu is not a power of 2",
				   (unsigned long long)job->replay.align);
	if ((job->replay.merge_nr_scalars || job->replay.merge_nr_iters) &&
	    !job->replay.merge_file[0])
		return ib_diag_set(d, EINVAL,
				   "merge_blktrace_scalars/iters: only with merge_blktrace_file=");
	if (ib_replay_names_stdin(job->replay.iolog) && job->numjobs > 1)
		return ib_diag_set(d, EINVAL,
				   "read_iolog: standard input ('-') is read by one job, not numjobs=%u",
				   job->numjobs);
	return 0;
}

bool ib_replay_names_stdin(const char *spec)
{
	size_t n;

	for (;;) {
		n = strcspn(spec, ":");
		if (n == 1 && spec[0] == '-')
			return true;
		if (!spec[n])
			return false;
		spec += n + 1;
	}
}

int ib_replay_per_clone(struct ib_job *job)
{
	const char *p = job->replay.iolog;
	unsigned int n = 1, k;
	int len;

	if (job->replay.merge_file[0] || !strchr(p, ':'))
		return 0;
	for (; *p; p++)
		n += *p == ':';
	p = job->replay.iolog;
	for (k = job->clone % n; k; k--)
		p += strcspn(p, ":") + 1;
	len = (int)strcspn(p, ":");
	if (ib_job_set_str(job, &job->replay.iolog, "%.*s", len, p))
		return -ENOMEM;
	return 1;
}

/*
 * Standard input is read twice (here, then by the job): copy it into a
 * memory file that becomes fd 0, so each pass reads it from the start.
 */
static int stdin_to_memfd(struct ib_diag *d)
{
	char buf[65536];
	ssize_t n;
	int fd = memfd_create("iobench-read_iolog", 0);

	if (fd < 0)
		return ib_diag_set(d, errno, "read_iolog=-: memfd_create: %s",
				   strerror(errno));
	while ((n = read(STDIN_FILENO, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)n) != n)
			break;
	if (n != 0 || dup2(fd, STDIN_FILENO) < 0) {
		int err = errno ? errno : EIO;

		close(fd);
		return ib_diag_set(d, err, "read_iolog=-: reading standard input: %s",
				   strerror(err));
	}
	close(fd);
	lseek(STDIN_FILENO, 0, SEEK_SET);
	return 0;
}

static int merge(struct ib_job *job, struct ib_diag *d)
{
	int64_t n = ib_trace_merge_blktrace(job->replay.iolog,
					    job->replay.merge_scalars,
					    job->replay.merge_nr_scalars,
					    job->replay.merge_iters,
					    job->replay.merge_nr_iters,
					    job->replay.merge_file, d);

	if (n < 0)
		return (int)n;
	job->replay.iolog = job->replay.merge_file;
	return 0;
}

/* /dev/NAME of a blktrace device number (the kernel's MAJ << 20 | MIN). */
static int dev_path(const struct plan *p, const struct ib_trace_rec *rec,
		    char *path, size_t len, struct ib_diag *d)
{
	char name[128], line[256];
	bool found = false;
	FILE *f;

	snprintf(name, sizeof(name), "/sys/dev/block/%u:%u/uevent",
		 rec->dev >> 20, rec->dev & 0xfffff);
	f = fopen(name, "re");
	while (f && !found && fgets(line, sizeof(line), f))
		if (!strncmp(line, "DEVNAME=", 8)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(path, len, "/dev/%s", line + 8);
			found = true;
		}
	if (f)
		fclose(f);
	if (!found)
		return ib_diag_set(d, ENODEV,
				   "%s: record %llu: no device %u:%u here (replay_redirect= names the target)",
				   ib_trace_input_name(p->t, rec->input),
				   (unsigned long long)rec->recno, rec->dev >> 20,
				   rec->dev & 0xfffff);
	return 0;
}

/* A target met for the first time: its path, and a block device's size. */
static int add_target(struct plan *p, const struct ib_trace_rec *rec,
		      struct ib_diag *d)
{
	struct target *tg = &p->tg[p->map.nr - 1];
	struct stat st;
	int fd, ret = 0;

	if (p->map.redirect)
		snprintf(tg->path, sizeof(tg->path), "%s", p->job->replay.redirect);
	else if (p->map.blktrace)
		ret = dev_path(p, rec, tg->path, sizeof(tg->path), d);
	else
		snprintf(tg->path, sizeof(tg->path), "%s", rec->name);
	if (ret || stat(tg->path, &st) < 0 || !S_ISBLK(st.st_mode))
		return ret; /* a missing file is created by the layout */
	tg->is_bdev = true;
	fd = open(tg->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &tg->size) < 0)
		ret = ib_diag_set(d, errno, "%s: cannot read its size: %s",
				  tg->path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return ret;
}

/* One I/O of the trace: refusals, then what the job must describe. */
static int take_io(struct plan *p, const struct ib_trace_rec *rec,
		   const struct ib_io_desc *io, struct ib_diag *d)
{
	static const unsigned int bit[IB_DDIR_RWT] = {
		IB_RW_READ, IB_RW_WRITE, IB_RW_TRIM
	};
	const struct target *tg = &p->tg[io->file_idx];
	int k = (int)io->ddir;
	uint64_t end = io->offset + io->len;

	if (io->ddir == IB_DDIR_SYNC)
		return 0; /* no data: neither a direction nor an extent */
	if (p->readonly && k != IB_DDIR_READ)
		return ib_diag_set(d, EPERM,
				   "%s: %s %llu: a %s, refused by --readonly (replay_skip=%s leaves %ss out)",
				   ib_trace_input_name(p->t, rec->input), unit(p),
				   (unsigned long long)rec->recno,
				   k == IB_DDIR_TRIM ? "trim" : "write",
				   k == IB_DDIR_TRIM ? "trim" : "write",
				   k == IB_DDIR_TRIM ? "trim" : "write");
	if ((tg->is_bdev && (io->offset > tg->size || io->len > tg->size - io->offset)) ||
	    io->offset > INT64_MAX || io->len > INT64_MAX - io->offset) {
		struct ib_trace_rec r = *rec;

		r.offset = io->offset; /* as replayed (replay_scale/align) */
		if (!tg->is_bdev) /* a file: the largest offset the kernel takes */
			return ib_trace_check_extent(p->t, &r, "the largest file offset",
						     INT64_MAX, d);
		return ib_trace_check_extent(p->t, &r, tg->path, tg->size, d);
	}
	p->rw |= bit[k];
	if (!p->minlen[k] || io->len < p->minlen[k])
		p->minlen[k] = io->len;
	if (io->len > p->maxlen[k])
		p->maxlen[k] = io->len;
	p->offsets[k] |= io->offset;
	if (end > p->max_end)
		p->max_end = end;
	p->ios++;
	return 0;
}

static int scan(struct plan *p, struct ib_diag *d)
{
	struct ib_trace_rec rec;
	struct ib_io_desc io;
	bool is_new;
	int ret;

	while ((ret = ib_trace_next(p->t, &rec, d)) > 0) {
		ret = ib_replay_map(&p->map, p->t, &rec, &io, &is_new, d);
		if (ret > 0 && is_new) {
			ret = add_target(p, &rec, d);
			ret = ret ? ret : 1;
		}
		if (ret > 0)
			ret = take_io(p, &rec, &io, d);
		if (ret < 0)
			return ret;
	}
	if (!ret && !p->ios)
		return ib_diag_set(d, EINVAL, "%s: no read, write or trim to replay",
				   ib_trace_input_name(p->t, 0));
	return ret;
}

/*
 * An absolute form of path for comparing names of files that may not
 * exist yet: its directory resolved, its last component kept.
 */
static void abs_name(const char *path, char *out, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path + (slash == path)), path);
	if (!realpath(dir, real))
		snprintf(real, sizeof(real), "%s", dir);
	if (snprintf(out, len, "%s/%s", strcmp(real, "/") ? real : "",
		     slash ? slash + 1 : path) >= (int)len)
		snprintf(out, len, "%s", path); /* too long to resolve */
}

/* Do a and b name one file (the same inode, or the same absolute name)? */
static bool same_file(const char *a, const char *b)
{
	char x[PATH_MAX], y[PATH_MAX];
	struct stat sa, sb;

	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	abs_name(a, x, sizeof(x));
	abs_name(b, y, sizeof(y));
	return !strcmp(x, y);
}

/*
 * filename= beside read_iolog= (fio ignores it: the I/O goes to the
 * trace's targets, or to replay_redirect=): accepted when each of its
 * names is one of those targets, refused when one is not.
 */
static bool is_target(const struct ib_job *job, const struct plan *p,
		      const char *name)
{
	char path[PATH_MAX];
	unsigned int i;

	if (!job->directory[0] || name[0] == '/' ||
	    snprintf(path, sizeof(path), "%s/%s", job->directory, name) >= (int)sizeof(path))
		snprintf(path, sizeof(path), "%s", name);
	for (i = 0; i < p->map.nr; i++)
		if (same_file(path, p->tg[i].path))
			return true;
	return false;
}

static int check_filename(const struct ib_job *job, const struct plan *p,
			  struct ib_diag *d)
{
	char name[PATH_MAX];
	const char *c = job->filename;
	size_t n = 0;

	for (;; c++) {
		if (*c == '\\' && c[1] == ':') {
			c++;
		} else if (*c == ':' || !*c) {
			name[n] = '\0';
			if (n && !is_target(job, p, name))
				return ib_diag_set(d, EINVAL,
						   "filename=%s: not %s%s (fio would ignore filename= and replay to %s)",
						   name, p->map.redirect ? "replay_redirect=" :
						   "a file of the trace read_iolog=",
						   p->map.redirect ? job->replay.redirect :
						   job->replay.iolog, p->tg[0].path);
			n = 0;
			if (!*c)
				return 0;
			continue;
		}
		if (n + 1 < sizeof(name))
			name[n++] = *c;
	}
}

/* filename= the targets, ':' escaped as file.c reads it. */
static int set_filenames(struct ib_job *job, const struct plan *p,
			 struct ib_diag *d)
{
	char out[IB_PATHS_MAX];
	size_t n = 0, cap = sizeof(out);
	unsigned int i;
	const char *c;

	for (i = 0; i < p->map.nr; i++) {
		if (i && n + 1 < cap)
			out[n++] = ':';
		for (c = p->tg[i].path; *c && n + 2 < cap; c++) {
			if (*c == ':')
				out[n++] = '\\';
			out[n++] = *c;
		}
		if (*c || n + 2 >= cap) {
			job->filename = "";
			return ib_diag_set(d, ENAMETOOLONG,
					   "read_iolog: the trace's file names do not fit in %zu bytes",
					   cap);
		}
	}
	out[n] = '\0';
	if (ib_job_set_str(job, &job->filename, "%s", out))
		return ib_diag_set(d, ENOMEM, "read_iolog: no memory");
	return 0;
}

static int apply(struct ib_job *job, const struct plan *p, struct ib_diag *d)
{
	bool any_bdev = false;
	unsigned int i;
	int k;

	for (i = 0; i < p->map.nr; i++)
		any_bdev |= p->tg[i].is_bdev;
	job->rw = p->rw;
	for (k = 0; k < IB_DDIR_RWT; k++) {
		if (!p->maxlen[k])
			continue;
		job->bs.min[k] = p->minlen[k];
		job->bs.max[k] = p->maxlen[k];
		/* the offsets' alignment, so O_DIRECT is checked against it
		 * (a default direct=1 runs buffered when it does not fit) */
		job->bs.align[k] = p->offsets[k] & (~p->offsets[k] + 1);
	}
	if (!job->size && !job->size_pct && !any_bdev)
		job->size = p->max_end * p->map.nr;
	if (job->filename[0] && check_filename(job, p, d))
		return -EINVAL;
	return set_filenames(job, p, d);
}

/* One pass over spec; with describe, the job is made to describe it. */
static int read_trace(struct ib_job *job, bool readonly, const char *spec,
		      bool describe, struct ib_diag *d)
{
	struct plan p = { .job = job, .readonly = readonly };
	int ret = ib_trace_open(&p.t, spec, d);

	if (ret)
		return ret;
	ib_replay_map_init(&p.map, job, ib_trace_format(p.t));
	p.tg = calloc(IB_REPLAY_MAX_TARGETS, sizeof(*p.tg));
	ret = p.tg ? scan(&p, d) : ib_diag_set(d, ENOMEM, "out of memory");
	if (!ret && describe)
		ret = apply(job, &p, d);
	ib_trace_close(p.t);
	free(p.tg);
	if (ib_replay_names_stdin(spec))
		lseek(STDIN_FILENO, 0, SEEK_SET);
	return ret;
}

int ib_replay_plan(struct ib_job *job, bool readonly, struct ib_diag *d)
{
	int ret;

	if (!job->replay.iolog[0])
		return 0;
	ret = check_options(job, d);
	if (!ret && ib_replay_names_stdin(job->replay.iolog))
		ret = stdin_to_memfd(d);
	if (ret || !job->replay.merge_file[0])
		return ret ? ret : read_trace(job, readonly, job->replay.iolog, true, d);
	/* --readonly: a trace with writes is refused before the merge writes */
	if (readonly)
		ret = read_trace(job, readonly, job->replay.iolog, false, d);
	if (!ret)
		ret = merge(job, d);
	return ret ? ret : read_trace(job, readonly, job->replay.iolog, true, d);
}
