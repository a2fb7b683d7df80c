// SPDX-License-Identifier: GPL-2.0-only
/*
 * The live view under MPI (liveview.h): rank 0 draws a line per host (the
 * sum of its rows of its last interval, its p99 over all its I/Os) and the
 * total of the hosts, in place, as the one-host table is drawn.
 */
#include <stdio.h>
#include "iobench/liveview.h"
#include "iobench/num2str.h"

static void cells(FILE *f, const uint64_t iops[2], const uint64_t bw[2],
		  const uint64_t p99[2])
{
	char a[32], b[32], c[32];
	unsigned int d;

	for (d = 0; d < 2; d++) {
		ib_num2str(iops[d], 4, 1, false, "", a, sizeof(a));
		ib_num2str(bw[d] / 1024, 4, 1024, true, "B/s", b, sizeof(b));
		ib_liveview_lat(c, sizeof(c), p99 ? p99[d] : 0);
		fprintf(f, " %7s %10s %9s", a, b, c);
	}
}

static void heading(FILE *tty, const struct ib_live_host *h, unsigned int n,
		    uint64_t elapsed_s)
{
	unsigned int i, running = 0;

	for (i = 0; i < n; i++)
		running += h[i].running > 0;
	fprintf(tty, "\033[2Kiobench-mpi: %02llum:%02llus elapsed, %u of %u hosts running\n",
		(unsigned long long)(elapsed_s / 60), (unsigned long long)(elapsed_s % 60),
		running, n);
	fprintf(tty, "\033[2K%-16s %2s %7s %10s %9s %7s %10s %9s %5s %4s\n", "host",
		"st", "r IOPS", "r BW", "r p99", "w IOPS", "w BW", "w p99", "done", "err");
}

#define MAX_HOSTS 32

void ib_liveview_hosts(FILE *tty, const struct ib_live_host *h, unsigned int n,
		       uint64_t elapsed_s, unsigned int *drawn)
{
	uint64_t iops[2] = { 0, 0 }, bw[2] = { 0, 0 }, errors = 0;
	char name[24];
	unsigned int i, d, shown = n < MAX_HOSTS ? n : MAX_HOSTS;

	if (*drawn)
		fprintf(tty, "\r\033[%uA", *drawn);
	heading(tty, h, n, elapsed_s);
	for (i = 0; i < n; i++) {
		for (d = 0; d < 2; d++) {
			iops[d] += h[i].iops[d];
			bw[d] += h[i].bw[d];
		}
		errors += h[i].errors;
		if (i >= shown)
			continue;
		snprintf(name, sizeof(name), "%.12s:%d", h[i].host, h[i].rank);
		fprintf(tty, "\033[2K%-16s %2c", name, h[i].state ? h[i].state : 'P');
		cells(tty, h[i].iops, h[i].bw, h[i].p99);
		fprintf(tty, " %4u%% %4llu\n", h[i].done_pct, (unsigned long long)h[i].errors);
	}
	if (n > shown)
		fprintf(tty, "\033[2K(%u more)\n", n - shown);
	fprintf(tty, "\033[2K%-16s %2s", "total", "");
	cells(tty, iops, bw, NULL);
	fprintf(tty, " %5s %4llu\n", "", (unsigned long long)errors);
	*drawn = 3 + shown + (n > shown);
	fflush(tty);
}

void ib_liveview_hosts_erase(FILE *tty, unsigned int *drawn)
{
	unsigned int i;

	if (!*drawn)
		return;
	fprintf(tty, "\r\033[%uA", *drawn);
	for (i = 0; i < *drawn; i++)
		fputs("\033[2K\n", tty);
	fprintf(tty, "\033[%uA", *drawn);
	*drawn = 0;
	fflush(tty);
}
