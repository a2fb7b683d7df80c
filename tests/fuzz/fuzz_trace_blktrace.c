// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the input as blktrace records (any bytes) through the
 * trace reader, alone and as two inputs merged by time, then through the
 * merge_blktrace function (scaled 50%, twice) into a file in the working
 * directory, removed again.
 */
#include <stdlib.h>
#include "trace_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_merge(int fd)
{
	static const double scal[2] = { 50, 100 };
	static const unsigned int iters[2] = { 2, 1 };
	struct ib_diag d = { { 0 } };
	char spec[64], out[] = "fuzz-merge-XXXXXX";
	int ofd = mkstemp(out);

	if (ofd < 0)
		return;
	close(ofd);
	snprintf(spec, sizeof(spec), "/proc/self/fd/%d:/proc/self/fd/%d", fd, fd);
	ib_trace_merge_blktrace(spec, scal, 2, iters, 2, out, &d);
	unlink(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	fd = fuzz_memfd(data, size);
	if (fd < 0)
		return 0;
	fuzz_merge(fd);
	fuzz_trace_fd(fd);
	return 0;
}
