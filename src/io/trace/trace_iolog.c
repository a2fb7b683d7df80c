// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio's text iolog, versions 2 and 3 (fio's HOWTO, "Trace file format"):
 *
 *   fio version 2 iolog                 fio version 3 iolog
 *   FILE add|open|close                 USEC FILE add|open|close
 *   FILE ACTION OFFSET LENGTH           USEC FILE ACTION OFFSET LENGTH
 *
 * ACTION is read, write, trim, sync, datasync, sync_file_range (replayed
 * as datasync), or (v2 only) wait, whose
 * OFFSET is a time in microseconds. v3's first field is the time since the
 * start of the run in microseconds (what fio 3.33 writes). Fields are
 * separated by blanks; blank lines and lines starting with '#' are
 * skipped. A file must be added before any other line names it.
 * Unlike fio, which logs a bad line and goes on, any bad line is an error.
 * The reader reports wait's number as it is (rec.wait_us): the HOWTO calls
 * it microseconds since the previous wait, while fio 3.33's replay sleeps
 * until that many milliseconds after the job started; the replaying I/O
 * source picks one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "trace_priv.h"

#define MAX_FIELDS 6

static const struct {
	const char *name;
	enum ib_trace_op op;
} actions[] = {
	{ "read", IB_TRACE_READ }, { "write", IB_TRACE_WRITE },
	{ "trim", IB_TRACE_TRIM }, { "sync", IB_TRACE_SYNC },
	{ "datasync", IB_TRACE_DATASYNC }, { "wait", IB_TRACE_WAIT },
	/* sync_file_range= logs it with neither range nor flags: replayed
	 * as a datasync (fio reports a bad action and drops it) */
	{ "sync_file_range", IB_TRACE_DATASYNC },
	{ "add", IB_TRACE_ADD }, { "open", IB_TRACE_OPEN },
	{ "close", IB_TRACE_CLOSE },
};

void ib_trace_files_free(struct ib_trace_files *fs)
{
	unsigned int i;

	for (i = 0; i < fs->nr; i++)
		free(fs->names[i]);
	free(fs->names);
	memset(fs, 0, sizeof(*fs));
}

static int files_find(struct ib_trace_files *fs, const char *name)
{
	unsigned int i;

	if (fs->hint < fs->nr && !strcmp(fs->names[fs->hint], name))
		return (int)fs->hint;
	for (i = 0; i < fs->nr; i++) {
		if (!strcmp(fs->names[i], name)) {
			fs->hint = i;
			return (int)i;
		}
	}
	return -1;
}

/* The index of name, added if new: >= 0, or -ENOMEM / -E2BIG. */
static int files_add(struct ib_trace_files *fs, const char *name)
{
	int i = files_find(fs, name);
	char **v;

	if (i >= 0)
		return i;
	if (fs->nr == IB_TRACE_MAX_FILES)
		return -E2BIG;
	if (fs->nr == fs->cap) {
		v = realloc(fs->names, (fs->cap ? fs->cap * 2 : 8) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		fs->names = v;
		fs->cap = fs->cap ? fs->cap * 2 : 8;
	}
	fs->names[fs->nr] = strdup(name);
	if (!fs->names[fs->nr])
		return -ENOMEM;
	fs->hint = fs->nr;
	return (int)fs->nr++;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Split line in place into at most max fields; returns how many (max + 1
 * means there were more). */
static unsigned int split(char *line, char **f, unsigned int max)
{
	unsigned int n = 0;
	char *p = line;

	for (;;) {
		while (is_blank(*p))
			p++;
		if (!*p)
			return n;
		if (n == max)
			return max + 1;
		f[n++] = p;
		while (*p && !is_blank(*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
}

static int bad(const struct ib_trace_src *s, const char *what,
	       const char *tok, struct ib_diag *d)
{
	return ib_diag_set(d, EINVAL, "%s: line %llu: %s '%s'", s->name,
			   (unsigned long long)s->recno, what, tok);
}

/* A decimal u64: digits only, no sign, no overflow. */
static bool parse_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || x > (UINT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return true;
}

int ib_trace_iolog_header(struct ib_trace_src *s, struct ib_diag *d)
{
	char line[IB_TRACE_LINE_MAX];
	int r = ib_trace_src_line(s, line, sizeof(line), d);
	size_t n;

	if (r == -EINVAL)	/* binary or too long: not an iolog */
		r = 0;
	if (r < 0)
		return r;
	n = r > 0 ? strlen(line) : 0;
	while (n > 0 && is_blank(line[n - 1]))
		line[--n] = '\0';
	if (r > 0 && (!strcmp(line, "fio version 2 iolog") ||
		      !strcmp(line, "fio version 3 iolog"))) {
		s->fmt = line[12] == '2' ? IB_TRACE_IOLOG2 : IB_TRACE_IOLOG3;
		return 0;
	}
	return ib_diag_set(d, EINVAL,
			   "%s: line 1: not a trace (neither blktrace records nor a 'fio version 2 iolog' or 'fio version 3 iolog' header)",
			   s->name);
}

static int find_action(const struct ib_trace_src *s, const char *tok,
		       enum ib_trace_op *op, struct ib_diag *d)
{
	unsigned int i;

	for (i = 0; i < IB_ARRAY_SIZE(actions); i++) {
		if (!strcmp(tok, actions[i].name)) {
			*op = actions[i].op;
			if (*op == IB_TRACE_WAIT && s->fmt == IB_TRACE_IOLOG3)
				return bad(s, "version 3 has no action", tok, d);
			return 0;
		}
	}
	return bad(s, "bad action", tok, d);
}

/* The fields after the time: FILE ACTION [OFFSET LENGTH]. */
static int parse_fields(struct ib_trace_src *s, char **f, unsigned int n,
			struct ib_trace_rec *rec, struct ib_diag *d)
{
	bool file_op;
	int r;

	if (n > 4)
		return bad(s, "trailing text", f[4], d);
	if (n < 2)
		return bad(s, "missing action after", f[0], d);
	r = find_action(s, f[1], &rec->op, d);
	if (r < 0)
		return r;
	file_op = rec->op >= IB_TRACE_ADD && rec->op <= IB_TRACE_CLOSE;
	if (file_op && n != 2)
		return bad(s, "no offset and length after", f[1], d);
	if (!file_op && n != 4)
		return bad(s, "missing offset and length after", f[1], d);
	if (!file_op && !parse_u64(f[2], &rec->offset))
		return bad(s, "bad offset", f[2], d);
	if (!file_op && !parse_u64(f[3], &rec->len))
		return bad(s, "bad length", f[3], d);
	return 0;
}

/* Attach the file (added now for 'add'); waits name none. */
static int resolve_file(struct ib_trace_src *s, struct ib_trace_files *fs,
			const char *name, struct ib_trace_rec *rec,
			struct ib_diag *d)
{
	int i;

	if (rec->op == IB_TRACE_WAIT) {
		rec->wait_us = rec->offset;
		rec->offset = rec->len = 0;
		return 0;
	}
	i = rec->op == IB_TRACE_ADD ? files_add(fs, name) : files_find(fs, name);
	if (i == -E2BIG)
		return ib_diag_set(d, E2BIG, "%s: line %llu: more than %u files",
				   s->name, (unsigned long long)s->recno,
				   IB_TRACE_MAX_FILES);
	if (i == -ENOMEM)
		return ib_diag_set(d, ENOMEM, "%s: out of memory", s->name);
	if (i < 0)
		return bad(s, "file not added before", name, d);
	rec->file = (unsigned int)i;
	rec->name = fs->names[i];
	return 0;
}

static int parse_line(struct ib_trace_src *s, struct ib_trace_files *fs,
		      char *line, struct ib_trace_rec *rec, struct ib_diag *d)
{
	char *f[MAX_FIELDS];
	unsigned int n = split(line, f, MAX_FIELDS), skip = 0;
	uint64_t us = 0;
	int r;

	memset(rec, 0, sizeof(*rec));
	rec->recno = s->recno;
	if (s->fmt == IB_TRACE_IOLOG3) {
		if (!parse_u64(f[0], &us) || us > UINT64_MAX / 1000)
			return bad(s, "bad timestamp", f[0], d);
		rec->ts_ns = us * 1000;
		if (n < 2)
			return bad(s, "missing file name after", f[0], d);
		skip = 1;
	}
	r = parse_fields(s, f + skip, n - skip, rec, d);
	return r < 0 ? r : resolve_file(s, fs, f[skip], rec, d);
}

int ib_trace_iolog_next(struct ib_trace_src *s, struct ib_trace_files *fs,
			struct ib_trace_rec *rec, struct ib_diag *d)
{
	char line[IB_TRACE_LINE_MAX];
	const char *p;
	int r;

	for (;;) {
		r = ib_trace_src_line(s, line, sizeof(line), d);
		if (r <= 0)
			return r;
		for (p = line; is_blank(*p); p++)
			;
		if (*p && *p != '#')
			break;
	}
	r = parse_line(s, fs, line, rec, d);
	return r < 0 ? r : 1;
}
