/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_TRACE_PRIV_H
#define IOBENCH_TRACE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <zlib.h>
#include "iobench/trace.h"

/* Longest iolog line (fio reads 4 KiB lines too) and read buffer size. */
#define IB_TRACE_LINE_MAX 4096
#define IB_TRACE_BUF 16384
/* The most distinct file names an iolog may name: bounds the table. */
#define IB_TRACE_MAX_FILES 4096

/* The file names of an iolog (shared by all its inputs). */
struct ib_trace_files {
	char **names;
	unsigned int nr, cap;
	unsigned int hint;	/* last index found: most lines name it again */
};

/* One input file: a gzread stream with its own buffer. */
struct ib_trace_src {
	char *name;
	gzFile gz;
	unsigned char buf[IB_TRACE_BUF];
	size_t pos, len;
	bool eof;
	enum ib_trace_format fmt;
	bool swap;		/* blktrace: big-endian records */
	uint64_t recno;		/* lines or records read so far */
	unsigned int index;
	bool have;		/* head holds the next record (merge by time) */
	bool done;		/* no more records */
	struct ib_trace_rec head;
};

/* Buffered input (trace.c). */
int ib_trace_src_fill(struct ib_trace_src *s, struct ib_diag *d);
/* Copy up to n bytes; returns how many (< n only at the end), or -errno. */
ssize_t ib_trace_src_read(struct ib_trace_src *s, void *dst, size_t n,
			  struct ib_diag *d);
/* One line without its '\n' into line (cap bytes): 1, 0 at the end,
 * -errno (-EINVAL for a line longer than cap - 1). Counts s->recno. */
int ib_trace_src_line(struct ib_trace_src *s, char *line, size_t cap,
		      struct ib_diag *d);

/* trace_iolog.c: the header line (0, or -errno) and the next record. */
int ib_trace_iolog_header(struct ib_trace_src *s, struct ib_diag *d);
int ib_trace_iolog_next(struct ib_trace_src *s, struct ib_trace_files *fs,
			struct ib_trace_rec *rec, struct ib_diag *d);
void ib_trace_files_free(struct ib_trace_files *fs);

/* trace_blktrace.c: does the buffer start with a blktrace record (and in
 * which byte order)? And the next I/O of a blktrace input (ts_ns is the
 * record's own time, not yet relative). */
bool ib_trace_blktrace_magic(const unsigned char *p, size_t n, bool *swap);
int ib_trace_blktrace_next(struct ib_trace_src *s, struct ib_trace_rec *rec,
			   struct ib_diag *d);

#endif
