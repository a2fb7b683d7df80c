// SPDX-License-Identifier: GPL-2.0-only
/*
 * The live view under MPI (liveview.h): the hosts' table drawn exactly
 * (a row per host, the total of their rates), redrawn in place, erased;
 * a host line copied only when stable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/liveview.h"

static void host(struct ib_live_host *h, const char *name, int rank, uint64_t r,
		 uint64_t w)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->host, sizeof(h->host), "%s", name);
	h->rank = rank;
	h->iops[0] = r;
	h->iops[1] = w;
	h->bw[0] = r * 4096;
	h->bw[1] = w * 4096;
	h->p99[0] = 310;
	h->p99[1] = r ? 12345 : 0;
	h->running = 2;
	h->jobs = 2;
	h->done_pct = 50;
	h->state = 'R';
}

static void table(void **state)
{
	struct ib_live_host h[2];
	unsigned int drawn = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	host(&h[0], "alpha", 0, 2000, 1000);
	host(&h[1], "a-very-long-hostname", 1, 0, 500);
	h[1].running = 0;
	h[1].errors = 3;
	ib_liveview_hosts(f, h, 2, 65, &drawn);
	assert_int_equal(drawn, 5);
	ib_liveview_hosts(f, h, 2, 66, &drawn);
	ib_liveview_hosts_erase(f, &drawn);
	assert_int_equal(drawn, 0);
	fclose(f);
	assert_non_null(strstr(text,
		"\033[2Kiobench-mpi: 01m:05s elapsed, 1 of 2 hosts running\n"));
	assert_non_null(strstr(text,
		"\033[2Kalpha:0           R    2000  8000KiB/s     310ns    1000  4000KiB/s    12.3us   50%    0\n"));
	assert_non_null(strstr(text,
		"\033[2Ka-very-long-:1    R       0     0KiB/s     310ns     500  2000KiB/s         -   50%    3\n"));
	assert_non_null(strstr(text,
		"\033[2Ktotal                  2000  8000KiB/s         -    1500  6000KiB/s         -          3\n"));
	/* the second table over the first: up 5 lines; then erased */
	assert_non_null(strstr(text, "\r\033[5A\033[2Kiobench-mpi: 01m:06s"));
	assert_non_null(strstr(text, "\r\033[5A\033[2K\n\033[2K\n\033[2K\n\033[2K\n\033[2K\n\033[5A"));
	free(text);
}

static void read_stable(void **state)
{
	struct ib_live_host src, dst;

	(void)state;
	host(&src, "h", 3, 100, 0);
	src.seq = 4;
	assert_true(ib_live_host_read(&src, &dst));
	assert_int_equal(dst.seq, 4);
	assert_int_equal(dst.iops[0], 100);
	assert_int_equal(dst.rank, 3);
	src.seq = 5;	/* being written */
	assert_false(ib_live_host_read(&src, &dst));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table),
		cmocka_unit_test(read_stable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
