// SPDX-License-Identifier: GPL-2.0-only
/* Hand-formatted output for the job process's logs (fdout.h). */
#include <errno.h>
#include <poll.h>
#include <unistd.h>
#include "iobench/fdout.h"

int ib_write_all(int fd, const char *buf, size_t len)
{
	size_t off = 0;
	ssize_t n;

	while (off < len) {
		n = write(fd, buf + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		off += (size_t)n;
	}
	return 0;
}

char *ib_put_u64(char *p, uint64_t v)
{
	char tmp[24];
	unsigned int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

int ib_stream_flush_err(FILE *f)
{
	struct pollfd p = { .fd = fileno(f), .events = POLLOUT };

	if (fflush(f))
		return -errno;
	if (!ferror(f))
		return 0;
	/* an earlier write failed and its errno is gone: a pipe says */
	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR) ? -EPIPE : -EIO;
}
