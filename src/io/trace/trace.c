// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace reader: the inputs of a read_iolog spec, each a buffered gzread
 * stream (zlib reads plain files as they are), and the merge of their
 * records into one stream (by time, or one input after the other).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "trace_priv.h"

struct ib_trace {
	enum ib_trace_format fmt;
	bool by_time;
	unsigned int nsrc, cur;
	struct ib_trace_src **src;
	struct ib_trace_files files;
	bool t0_set;
	uint64_t t0;
	int err;		/* sticky: the first error, returned again */
	char errmsg[IB_DIAG_LEN];
};

static const char *const op_names[IB_TRACE_NR_OPS] = {
	"read", "write", "trim", "sync", "datasync", "add", "open", "close",
	"wait",
};

const char *ib_trace_op_name(enum ib_trace_op op)
{
	return (unsigned int)op < IB_TRACE_NR_OPS ? op_names[op] : "?";
}

static const char *unit(const struct ib_trace_src *s)
{
	return s->fmt == IB_TRACE_BLKTRACE ? "record" : "line";
}

/* zlib's message without the "<fd:N>: " it names a gzdopen'ed file by. */
static const char *gz_msg(const char *m)
{
	const char *p = strstr(m, ": ");

	return m[0] == '<' && p ? p + 2 : m;
}

int ib_trace_src_fill(struct ib_trace_src *s, struct ib_diag *d)
{
	const char *msg;
	int n, zerr;

	if (s->pos > 0) {
		memmove(s->buf, s->buf + s->pos, s->len - s->pos);
		s->len -= s->pos;
		s->pos = 0;
	}
	if (s->eof || s->len == sizeof(s->buf))
		return 0;
	n = gzread(s->gz, s->buf + s->len, (unsigned int)(sizeof(s->buf) - s->len));
	msg = gzerror(s->gz, &zerr);
	/* a cut gzip stream ends like a file, with Z_BUF_ERROR noted */
	if (n < 0 || (n == 0 && zerr != Z_OK)) {
		return ib_diag_set(d, zerr == Z_ERRNO ? errno : EIO,
				   "%s: %s %llu: gzip: %s", s->name, unit(s),
				   (unsigned long long)s->recno + 1,
				   zerr == Z_ERRNO ? strerror(errno) : gz_msg(msg));
	}
	if (n == 0)
		s->eof = true;
	s->len += (size_t)n;
	return 0;
}

ssize_t ib_trace_src_read(struct ib_trace_src *s, void *dst, size_t n,
			  struct ib_diag *d)
{
	size_t got = 0, k;
	int r;

	while (got < n) {
		if (s->pos == s->len) {
			r = ib_trace_src_fill(s, d);
			if (r < 0)
				return r;
			if (s->len == 0)
				break;
		}
		k = s->len - s->pos;
		if (k > n - got)
			k = n - got;
		if (dst)
			memcpy((char *)dst + got, s->buf + s->pos, k);
		s->pos += k;
		got += k;
	}
	return (ssize_t)got;
}

/* Append up to the next '\n' of the buffer to line; true when it ended. */
static int take_line(struct ib_trace_src *s, char *line, size_t cap,
		     size_t *n, struct ib_diag *d)
{
	const unsigned char *p = s->buf + s->pos;
	const unsigned char *nl = memchr(p, '\n', s->len - s->pos);
	size_t k = nl ? (size_t)(nl - p) : s->len - s->pos;

	if (memchr(p, '\0', k))
		return ib_diag_set(d, EINVAL, "%s: line %llu: binary data, not text",
				   s->name, (unsigned long long)s->recno + 1);
	if (*n + k >= cap)
		return ib_diag_set(d, EINVAL, "%s: line %llu: longer than %zu bytes",
				   s->name, (unsigned long long)s->recno + 1,
				   cap - 1);
	memcpy(line + *n, p, k);
	*n += k;
	s->pos += k + (nl != NULL);
	return nl != NULL;
}

int ib_trace_src_line(struct ib_trace_src *s, char *line, size_t cap,
		      struct ib_diag *d)
{
	size_t n = 0;
	int r;

	for (;;) {
		if (s->pos == s->len) {
			r = ib_trace_src_fill(s, d);
			if (r < 0)
				return r;
			if (s->len == 0) {
				if (n == 0)
					return 0;
				break;	/* a last line without '\n' */
			}
		}
		r = take_line(s, line, cap, &n, d);
		if (r < 0)
			return r;
		if (r)
			break;
	}
	line[n] = '\0';
	s->recno++;
	return 1;
}

static void src_free(struct ib_trace_src *s)
{
	if (!s)
		return;
	if (s->gz)
		gzclose(s->gz);
	free(s->name);
	free(s);
}

/* Tell the format from the first bytes (and read an iolog's header). An
 * empty per-CPU file is a CPU that queued no I/O. */
static int src_detect(struct ib_trace_src *s, bool percpu, struct ib_diag *d)
{
	int r = ib_trace_src_fill(s, d);

	if (r < 0)
		return r;
	if (s->len == 0 && percpu) {
		s->fmt = IB_TRACE_BLKTRACE;
		s->done = true;
		return 0;
	}
	if (s->len == 0)
		return ib_diag_set(d, EINVAL, "%s: empty file, not a trace",
				   s->name);
	if (ib_trace_blktrace_magic(s->buf, s->len, &s->swap)) {
		s->fmt = IB_TRACE_BLKTRACE;
		return 0;
	}
	return ib_trace_iolog_header(s, d);
}

/* Take fd (closed on error) as input number t->nsrc. */
static int add_src(struct ib_trace *t, int fd, const char *name, bool percpu,
		   struct ib_diag *d)
{
	struct ib_trace_src *s = calloc(1, sizeof(*s)), **v;
	int r = -ENOMEM;

	v = realloc(t->src, (t->nsrc + 1) * sizeof(*v));
	if (v)
		t->src = v;
	if (!s || !v || !(s->name = strdup(name)) ||
	    !(s->gz = gzdopen(fd, "rb"))) {
		close(fd);
		src_free(s);
		return ib_diag_set(d, ENOMEM, "%s: out of memory", name);
	}
	s->index = t->nsrc;
	r = src_detect(s, percpu, d);
	if (r < 0) {
		src_free(s);
		return r;
	}
	t->src[t->nsrc++] = s;
	return 0;
}

static int add_path(struct ib_trace *t, const char *path, bool percpu,
		    struct ib_diag *d)
{
	int fd;

	if (!strcmp(path, "-"))
		fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
	else
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ib_diag_set(d, errno, "%s: %s", path, strerror(errno));
	return add_src(t, fd, path, percpu, d);
}

/* NAME.blktrace.0 (given so, or as NAME) and its siblings .1, .2, ... */
static int add_percpu(struct ib_trace *t, const char *base, struct ib_diag *d)
{
	char name[4096];
	unsigned int cpu;
	int r;

	for (cpu = 0;; cpu++) {
		if ((size_t)snprintf(name, sizeof(name), "%s.blktrace.%u", base,
				     cpu) >= sizeof(name))
			return ib_diag_set(d, ENAMETOOLONG, "%s: name too long",
					   base);
		if (cpu > 0 && access(name, F_OK) != 0)
			return 0;
		r = add_path(t, name, true, d);
		if (r < 0)
			return r;
	}
}

static int add_one(struct ib_trace *t, const char *path, struct ib_diag *d)
{
	static const char sfx[] = ".blktrace.0";
	size_t n = strlen(path), k = sizeof(sfx) - 1;
	char base[4096];

	if (n > k && n - k < sizeof(base) && !strcmp(path + n - k, sfx)) {
		memcpy(base, path, n - k);
		base[n - k] = '\0';
		return add_percpu(t, base, d);
	}
	if (strcmp(path, "-") && access(path, F_OK) != 0 &&
	    n + k < sizeof(base)) {
		snprintf(base, sizeof(base), "%s%s", path, sfx);
		if (access(base, F_OK) == 0)
			return add_percpu(t, path, d);
	}
	return add_path(t, path, false, d);
}

/* All inputs one kind; v3 and blktrace merge by time, v2 does not. */
static int settle_format(struct ib_trace *t, struct ib_diag *d)
{
	unsigned int i, blk = 0, v2 = 0;

	for (i = 0; i < t->nsrc; i++) {
		blk += t->src[i]->fmt == IB_TRACE_BLKTRACE;
		v2 += t->src[i]->fmt == IB_TRACE_IOLOG2;
	}
	if (blk && blk != t->nsrc)
		return ib_diag_set(d, EINVAL,
				   "%s: a blktrace file and an iolog cannot be read together",
				   t->src[0]->name);
	t->fmt = blk ? IB_TRACE_BLKTRACE : v2 ? IB_TRACE_IOLOG2 : IB_TRACE_IOLOG3;
	t->by_time = t->fmt != IB_TRACE_IOLOG2;
	return 0;
}

/* Is "-" one of the ':'-separated names of spec more than once? */
static bool stdin_twice(const char *spec)
{
	unsigned int n = 0;
	const char *p;

	for (p = spec; *p; p++)
		n += *p == '-' && (p == spec || p[-1] == ':') &&
		     (p[1] == ':' || !p[1]);
	return n > 1;
}

static int open_spec(struct ib_trace *t, const char *spec, struct ib_diag *d)
{
	char *copy, *p, *save = NULL;
	int r = 0;

	if (stdin_twice(spec))
		return ib_diag_set(d, EINVAL, "-: standard input named twice");
	copy = strdup(spec);
	if (!copy)
		return ib_diag_set(d, ENOMEM, "out of memory");
	for (p = strtok_r(copy, ":", &save); p && !r;
	     p = strtok_r(NULL, ":", &save))
		r = add_one(t, p, d);
	free(copy);
	if (!r && t->nsrc == 0)
		r = ib_diag_set(d, EINVAL, "read_iolog: no file named in '%s'", spec);
	return r ? r : settle_format(t, d);
}

int ib_trace_open(struct ib_trace **tp, const char *spec, struct ib_diag *d)
{
	struct ib_trace *t = calloc(1, sizeof(*t));
	int r;

	*tp = NULL;
	if (!t)
		return ib_diag_set(d, ENOMEM, "out of memory");
	r = open_spec(t, spec, d);
	if (r < 0) {
		ib_trace_close(t);
		return r;
	}
	*tp = t;
	return 0;
}

int ib_trace_open_fd(struct ib_trace **tp, int fd, const char *name,
		     struct ib_diag *d)
{
	struct ib_trace *t = calloc(1, sizeof(*t));
	int r;

	*tp = NULL;
	if (!t) {
		close(fd);
		return ib_diag_set(d, ENOMEM, "out of memory");
	}
	r = add_src(t, fd, name, false, d);
	if (!r)
		r = settle_format(t, d);
	if (r < 0) {
		ib_trace_close(t);
		return r;
	}
	*tp = t;
	return 0;
}

void ib_trace_close(struct ib_trace *t)
{
	unsigned int i;

	if (!t)
		return;
	for (i = 0; i < t->nsrc; i++)
		src_free(t->src[i]);
	free(t->src);
	ib_trace_files_free(&t->files);
	free(t);
}

static int src_next(struct ib_trace *t, struct ib_trace_src *s,
		    struct ib_trace_rec *rec, struct ib_diag *d)
{
	int r;

	if (s->done)
		return 0;
	if (s->fmt == IB_TRACE_BLKTRACE)
		r = ib_trace_blktrace_next(s, rec, d);
	else
		r = ib_trace_iolog_next(s, &t->files, rec, d);
	if (r == 0)
		s->done = true;
	if (r > 0)
		rec->input = s->index;
	return r;
}

/* The input whose next record is the earliest (ties: the first input). */
static int next_by_time(struct ib_trace *t, struct ib_trace_rec *rec,
			struct ib_diag *d)
{
	struct ib_trace_src *s, *best = NULL;
	unsigned int i;
	int r;

	for (i = 0; i < t->nsrc; i++) {
		s = t->src[i];
		if (!s->have) {
			r = src_next(t, s, &s->head, d);
			if (r < 0)
				return r;
			s->have = r > 0;
		}
		if (s->have && (!best || s->head.ts_ns < best->head.ts_ns))
			best = s;
	}
	if (!best)
		return 0;
	*rec = best->head;
	best->have = false;
	return 1;
}

static int next_in_order(struct ib_trace *t, struct ib_trace_rec *rec,
			 struct ib_diag *d)
{
	int r;

	for (; t->cur < t->nsrc; t->cur++) {
		r = src_next(t, t->src[t->cur], rec, d);
		if (r != 0)
			return r;
	}
	return 0;
}

/*
 * A record due more than IB_TRACE_MAX_NS after the trace's start: a replay
 * would wait that long (a corrupt or hostile time), refused by its record.
 */
static int time_too_far(struct ib_trace *t, const struct ib_trace_rec *rec,
			struct ib_diag *d)
{
	const struct ib_trace_src *s = t->src[rec->input];

	t->err = -ERANGE;
	snprintf(t->errmsg, sizeof(t->errmsg),
		 "%s: %s %llu: time %llu ns after the trace's start is beyond %llu ns (13 days)",
		 s->name, unit(s), (unsigned long long)rec->recno,
		 (unsigned long long)rec->ts_ns, (unsigned long long)IB_TRACE_MAX_NS);
	if (d)
		memcpy(d->msg, t->errmsg, sizeof(d->msg));
	return t->err;
}

int ib_trace_next(struct ib_trace *t, struct ib_trace_rec *rec,
		  struct ib_diag *d)
{
	int r;

	if (t->err) {
		if (d)
			memcpy(d->msg, t->errmsg, sizeof(d->msg));
		return t->err;
	}
	r = t->by_time ? next_by_time(t, rec, d) : next_in_order(t, rec, d);
	if (r < 0) {
		t->err = r;
		snprintf(t->errmsg, sizeof(t->errmsg), "%s", d ? d->msg : "");
		return r;
	}
	if (r > 0 && t->fmt == IB_TRACE_BLKTRACE) {
		if (!t->t0_set) {
			t->t0 = rec->ts_ns;
			t->t0_set = true;
		}
		rec->ts_ns = rec->ts_ns >= t->t0 ? rec->ts_ns - t->t0 : 0;
	}
	if (r > 0 && rec->ts_ns > IB_TRACE_MAX_NS && rec->input < t->nsrc)
		r = time_too_far(t, rec, d);
	return r;
}

enum ib_trace_format ib_trace_format(const struct ib_trace *t)
{
	return t->fmt;
}

unsigned int ib_trace_inputs(const struct ib_trace *t)
{
	return t->nsrc;
}

const char *ib_trace_input_name(const struct ib_trace *t, unsigned int i)
{
	return i < t->nsrc ? t->src[i]->name : NULL;
}

int ib_trace_check_extent(const struct ib_trace *t,
			  const struct ib_trace_rec *rec, const char *target,
			  uint64_t size, struct ib_diag *d)
{
	const struct ib_trace_src *s;

	if (rec->op > IB_TRACE_TRIM || rec->input >= t->nsrc)
		return 0;
	if (rec->offset <= size && rec->len <= size - rec->offset)
		return 0;
	s = t->src[rec->input];
	return ib_diag_set(d, EINVAL,
			   "%s: %s %llu: %s at offset %llu length %llu ends beyond %s (%llu bytes)",
			   s->name, unit(s), (unsigned long long)rec->recno,
			   ib_trace_op_name(rec->op),
			   (unsigned long long)rec->offset,
			   (unsigned long long)rec->len, target,
			   (unsigned long long)size);
}
