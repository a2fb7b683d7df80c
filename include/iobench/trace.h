/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_TRACE_H
#define IOBENCH_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include "iobench/diag.h"

/*
 * Trace readers for replay (read_iolog=): a stream of records out of fio's
 * text iolog (version 2 or 3) or of blktrace's binary records, one at a
 * time, in bounded memory (a read buffer per input file and the table of
 * file names; never the whole trace). Nothing here prints or sleeps: the
 * I/O source that replays a trace decides what to do with the times.
 *
 * Inputs, any of them gzip-compressed (detected by zlib from the magic):
 *   - one path, or "-" for standard input;
 *   - several paths separated by ':' (no escaping: a name with ':' cannot
 *     be given this way; "-" at most once; a replay job gives each clone
 *     one of them instead, replay.h). Version 3 iologs and blktrace files
 *     are merged by time (ties: the earlier path first); if any input is a version 2
 *     iolog (no times), the inputs are read one after the other, in order.
 *     iologs and blktrace files cannot be mixed.
 *   - blktrace's per-CPU files: a path NAME.blktrace.N, or NAME when only
 *     NAME.blktrace.0 exists, stands for NAME.blktrace.0, .1, ... (up to
 *     the first missing number), merged by time. A single file made by
 *     `blkparse -d` is read as it is.
 *
 * Every error is -errno with one line in the diag naming the input file
 * and the line (iolog) or record (blktrace, from 1) where it was found:
 *   "t.log: line 3: bad action 'wirte'"
 *   "d.blktrace.1: record 7: truncated (20 of 48 bytes)"
 */

enum ib_trace_op {
	IB_TRACE_READ,
	IB_TRACE_WRITE,
	IB_TRACE_TRIM,
	IB_TRACE_SYNC,		/* iolog sync; blktrace: a flush without data */
	IB_TRACE_DATASYNC,
	IB_TRACE_ADD,		/* iolog file management: no offset/len */
	IB_TRACE_OPEN,
	IB_TRACE_CLOSE,
	IB_TRACE_WAIT,		/* iolog v2 only: wait_us */
	IB_TRACE_NR_OPS
};

enum ib_trace_format {
	IB_TRACE_IOLOG2 = 2,
	IB_TRACE_IOLOG3 = 3,
	IB_TRACE_BLKTRACE = 4,
};

struct ib_trace_rec {
	enum ib_trace_op op;
	/* iolog: index of the file name in the reader's table, one table for
	 * all inputs, in the order the reader met the 'add' lines (with several
	 * v3 inputs it reads one record ahead in each); blktrace: 0 (see dev) */
	unsigned int file;
	const char *name;	/* iolog: that name (valid until close); blktrace: NULL */
	uint64_t offset;	/* bytes (blktrace: sector * 512) */
	uint64_t len;		/* bytes */
	/* Time since the start of the trace: v3 iolog (written in us), blktrace
	 * (ns since the first I/O of the merged trace); 0 for v2 iologs. */
	uint64_t ts_ns;
	/* IB_TRACE_WAIT: the number the line carries (HOWTO: us since the
	 * previous wait; fio 3.33 replays it as ms since the job's start) */
	uint64_t wait_us;
	uint32_t dev;		/* blktrace: the device, as the kernel encodes it */
	uint32_t pid;		/* blktrace: the process that queued the I/O */
	unsigned int input;	/* which input file (0..) it came from */
	uint64_t recno;		/* its line (iolog) or record (blktrace) number */
};

struct ib_trace;

/* Open spec (see above). Reads the first bytes of each input to tell the
 * format. On error nothing is left open. */
int ib_trace_open(struct ib_trace **t, const char *spec, struct ib_diag *d);
/* Open one already-open input (the reader takes fd and closes it); name
 * is what the diag lines call it. */
int ib_trace_open_fd(struct ib_trace **t, int fd, const char *name,
		     struct ib_diag *d);
/* The latest time a record may be due after the trace's start (2^50 ns,
 * 13 days): later is refused with ERANGE, naming the record. */
#define IB_TRACE_MAX_NS (1ull << 50)

/* The next record: 1 = *rec filled, 0 = end of the trace, -errno. After an
 * error the reader only returns that error again. */
int ib_trace_next(struct ib_trace *t, struct ib_trace_rec *rec,
		  struct ib_diag *d);
void ib_trace_close(struct ib_trace *t);

enum ib_trace_format ib_trace_format(const struct ib_trace *t);
/* Number of input files and the name of one (as the diag lines call it). */
unsigned int ib_trace_inputs(const struct ib_trace *t);
const char *ib_trace_input_name(const struct ib_trace *t, unsigned int i);

/* -EINVAL with "FILE: line N: OP at offset O length L ends beyond TARGET
 * (SIZE bytes)" when rec does not fit a target of size bytes, else 0. */
int ib_trace_check_extent(const struct ib_trace *t,
			  const struct ib_trace_rec *rec, const char *target,
			  uint64_t size, struct ib_diag *d);

const char *ib_trace_op_name(enum ib_trace_op op);

/*
 * merge_blktrace_file=OUT: read the blktrace inputs of spec (':'-separated,
 * each as ib_trace_open reads it) and write one blktrace file OUT with
 * every I/O of all of them, in time order. Input i's times (from its own
 * first I/O) are scaled by scalars[i] percent (merge_blktrace_scalars; 50 =
 * twice as fast) and it is played iters[i] times (merge_blktrace_iters),
 * each iteration starting where its previous one ended (its scaled span).
 * scalars/iters may be NULL (100 / 1 each); nscal/niter must then be 0,
 * else equal to the number of inputs. OUT is written to a temporary name
 * and renamed at the end: on any error there is no OUT. Returns the number
 * of records written, or -errno.
 */
int64_t ib_trace_merge_blktrace(const char *spec, const double *scalars,
				unsigned int nscal, const unsigned int *iters,
				unsigned int niter, const char *out,
				struct ib_diag *d);

/* The 48-byte blktrace record of an I/O (a queue event, little endian,
 * version 7), as the merge writes it: buf must hold IB_BLKTRACE_REC bytes. */
#define IB_BLKTRACE_REC 48
void ib_trace_blktrace_encode(const struct ib_trace_rec *rec, uint64_t time_ns,
			      uint32_t seq, uint8_t *buf);

#endif
