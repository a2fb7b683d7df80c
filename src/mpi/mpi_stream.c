// SPDX-License-Identifier: GPL-2.0-only
/*
 * --interval-json under iobench-mpi: each rank's helper writes its lines
 * (the plain stream, stream.h) into an unlinked file of its own; after the
 * run rank 0 takes them rank by rank (only one rank's lines in memory at a
 * time) and writes them to the one file, each line with "hostname" and
 * "rank" first, as the JSON report's client_stats entries name them. One
 * file on rank 0's host rather than one per rank: that is where the
 * report is, and a cluster's series are analysed together; the lines
 * carry what tells them apart.
 */
#include <errno.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iobench/json.h"
#include "mpi_priv.h"

#define CHUNK (1 << 20)	/* bytes per message */

/* This rank's lines, read whole from its file; *len 0 for none. */
static char *read_own(const struct ib_mpi_helper *h, uint64_t *len)
{
	int fd = h->ivl ? fileno(h->ivl) : -1;
	off_t end = fd >= 0 ? lseek(fd, 0, SEEK_END) : -1;
	char *buf;
	ssize_t n;
	uint64_t got = 0;

	*len = 0;
	if (end <= 0 || !(buf = malloc((size_t)end)))
		return NULL;
	while (got < (uint64_t)end) {
		n = pread(fd, buf + got, (size_t)end - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (uint64_t)n;
	}
	*len = got;
	return buf;
}

/* Rank r > 0 sends its lines: the length, then chunks. */
static void send_lines(const char *buf, uint64_t len)
{
	uint64_t off;
	int n;

	MPI_Send(&len, 1, MPI_UINT64_T, 0, 0, MPI_COMM_WORLD);
	for (off = 0; off < len; off += (uint64_t)n) {
		n = len - off > CHUNK ? CHUNK : (int)(len - off);
		MPI_Send(buf + off, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
	}
}

/* Rank 0 takes rank r's lines (NULL: none, or no memory: dropped). */
static char *recv_lines(int r, uint64_t *len)
{
	char *buf, *scratch = NULL;
	uint64_t off;
	int n;

	MPI_Recv(len, 1, MPI_UINT64_T, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	buf = *len ? malloc(*len) : NULL;
	if (*len && !buf && !(scratch = malloc(CHUNK)))
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (off = 0; off < *len; off += (uint64_t)n) {
		n = *len - off > CHUNK ? CHUNK : (int)(*len - off);
		MPI_Recv(buf ? buf + off : scratch, n, MPI_BYTE, r, 1, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	}
	free(scratch);
	if (!buf)
		*len = 0;
	return buf;
}

/* Every line of buf to f, "hostname" and "rank" first. */
static void write_lines(FILE *f, const char *host, int rank, const char *buf,
			uint64_t len)
{
	const char *p = buf, *end = buf + len, *nl;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break; /* a rank cut short: its last line whole or not at all */
		if (nl - p > 1 && *p == '{') {
			fputs("{\"hostname\":", f);
			ib_json_quote(f, host);
			fprintf(f, ",\"rank\":%d,", rank);
			fwrite(p + 1, 1, (size_t)(nl - p - 1), f);
			fputc('\n', f);
		}
		p = nl + 1;
	}
}

int ib_mpi_stream_gather(const struct ib_mpi_ctx *c, const struct ib_mpi_helper *h,
			 FILE *f)
{
	char host[IB_HOSTNAME_MAX];
	uint64_t len;
	char *buf;
	int r;

	if (c->rank != 0) {
		MPI_Send(c->host, (int)sizeof(c->host), MPI_CHAR, 0, 2, MPI_COMM_WORLD);
		buf = read_own(h, &len);
		send_lines(buf, len);
		free(buf);
		return 0;
	}
	for (r = 0; r < c->size; r++) {
		if (r)
			MPI_Recv(host, (int)sizeof(host), MPI_CHAR, r, 2, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		else
			memcpy(host, c->host, sizeof(host));
		host[sizeof(host) - 1] = '\0';
		buf = r ? recv_lines(r, &len) : read_own(h, &len);
		if (buf && f)
			write_lines(f, host, r, buf, len);
		free(buf);
	}
	return f && (fflush(f) || ferror(f)) ? -EIO : 0;
}
