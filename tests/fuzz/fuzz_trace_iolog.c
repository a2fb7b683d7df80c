// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the input as a fio iolog (v2 or v3; any bytes) through
 * the trace reader. An input starting with 'z' is gzip-compressed first
 * (the rest of it), so the gzread path is fuzzed too.
 */
#include <string.h>
#include <zlib.h>
#include "trace_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int gzip_memfd(const uint8_t *data, size_t size)
{
	int fd = fuzz_memfd(NULL, 0), wfd;
	gzFile gz;

	if (fd < 0)
		return -1;
	wfd = dup(fd);
	gz = wfd >= 0 ? gzdopen(wfd, "wb1") : NULL;
	if (!gz) {
		if (wfd >= 0)
			close(wfd);
		close(fd);
		return -1;
	}
	if (size)
		gzwrite(gz, data, (unsigned int)size);
	gzclose(gz);
	lseek(fd, 0, SEEK_SET);
	return fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (size > 0 && data[0] == 'z')
		fd = gzip_memfd(data + 1, size - 1);
	else
		fd = fuzz_memfd(data, size);
	if (fd >= 0)
		fuzz_trace_fd(fd);
	return 0;
}
