/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_FDOUT_H
#define IOBENCH_FDOUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Hand-formatted output for the logs written from the job process (log.c,
 * iolog.c): no stdio on the per-I/O path, lines built in a buffer and
 * written with write(2) when it fills.
 */

/* Write all of buf (retrying short writes and EINTR): 0 or -errno. */
int ib_write_all(int fd, const char *buf, size_t len);
/*
 * Flush f: 0, or -errno of the write that failed (now or earlier: a pipe
 * whose reader is gone is -EPIPE, an earlier error of unknown cause -EIO).
 */
int ib_stream_flush_err(FILE *f);
/* v in decimal at p; returns the end. At most 20 characters. */
char *ib_put_u64(char *p, uint64_t v);

#endif
