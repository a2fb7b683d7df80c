/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_FUZZ_TRACE_INPUT_H
#define IOBENCH_FUZZ_TRACE_INPUT_H
/*
 * Shared by the trace fuzz targets: the input as a file (a memfd, so no
 * name lands anywhere) and every record of a reader, each checked against
 * a 1 MiB target as replay would.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include "iobench/trace.h"

#define FUZZ_MAX_INPUT 65536

static int fuzz_memfd(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-trace", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (write(fd, data, size) != (ssize_t)size ||
	    lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Drain t (closed here); every record must fit the documented ranges. */
static void fuzz_drain(struct ib_trace *t)
{
	struct ib_diag d = { { 0 } };
	struct ib_trace_rec rec;
	int r;

	while ((r = ib_trace_next(t, &rec, &d)) > 0) {
		if ((unsigned int)rec.op >= IB_TRACE_NR_OPS)
			__builtin_trap();
		if (rec.input >= ib_trace_inputs(t))
			__builtin_trap();
		ib_trace_check_extent(t, &rec, "target", 1 << 20, &d);
	}
	if (r < 0 && (!d.msg[0] || r != ib_trace_next(t, &rec, &d)))
		__builtin_trap();	/* an error has its line, and sticks */
	ib_trace_close(t);
}

/* The input through the fd reader and, twice over, the spec reader (two
 * inputs merged: by time, or one after the other). */
static void fuzz_trace_fd(int fd)
{
	struct ib_diag d = { { 0 } };
	struct ib_trace *t;
	char spec[64];

	snprintf(spec, sizeof(spec), "/proc/self/fd/%d:/proc/self/fd/%d", fd, fd);
	if (!ib_trace_open(&t, spec, &d))
		fuzz_drain(t);
	if (!ib_trace_open_fd(&t, fd, "fuzz", &d))
		fuzz_drain(t);
}

#endif
