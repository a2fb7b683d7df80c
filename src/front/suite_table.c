// SPDX-License-Identifier: GPL-2.0-only
/*
 * The suites of `iobench suite` (suite.h): one table each. Adding a suite
 * is adding a table here; suite_jobs.c turns any of them into job text.
 *
 * cloud    the cloud providers' validation guides: 4 KiB random read,
 *          write and 75/25 at QD64 x 8 jobs, 1 MiB sequential at QD64,
 *          plus a QD1 4 KiB read for latency; read-only tests first.
 * desktop  CrystalDiskMark's defaults: SEQ1M Q8T1, SEQ1M Q1T1, RND4K
 *          Q32T1, RND4K Q1T1, reads then writes, 1 GiB, 5 s each, 5 s
 *          apart.
 * pts-*    SNIA PTS enterprise 2.0: the IOPS, throughput and latency test
 *          matrices, their outstanding I/O and tracking variables.
 */
#include <string.h>
#include "iobench/suite.h"

#define SEC 1000000ull
#define GIB (1ull << 30)

static const struct ib_suite_test cloud[] = {
	{ "lat-4k", "randread", 0, "4k", 1, 1, IB_SM_LAT, NULL, NULL },
	{ "randread-4k", "randread", 0, "4k", 64, 8, IB_SM_IOPS, NULL, NULL },
	{ "seqread-1m", "read", 0, "1m", 64, 1, IB_SM_BW, NULL, NULL },
	{ "randrw-4k", "randrw", 75, "4k", 64, 8, IB_SM_IOPS, NULL, NULL },
	{ "randwrite-4k", "randwrite", 0, "4k", 64, 8, IB_SM_IOPS, NULL, NULL },
	{ "seqwrite-1m", "write", 0, "1m", 64, 1, IB_SM_BW, NULL, NULL },
};

static const struct ib_suite_test desktop[] = {
	{ "seq1m-q8t1-read", "read", 0, "1m", 8, 1, IB_SM_BW, "SEQ1M Q8T1", "read" },
	{ "seq1m-q1t1-read", "read", 0, "1m", 1, 1, IB_SM_BW, "SEQ1M Q1T1", "read" },
	{ "rnd4k-q32t1-read", "randread", 0, "4k", 32, 1, IB_SM_IOPS, "RND4K Q32T1", "read" },
	{ "rnd4k-q1t1-read", "randread", 0, "4k", 1, 1, IB_SM_IOPS, "RND4K Q1T1", "read" },
	{ "seq1m-q8t1-write", "write", 0, "1m", 8, 1, IB_SM_BW, "SEQ1M Q8T1", "write" },
	{ "seq1m-q1t1-write", "write", 0, "1m", 1, 1, IB_SM_BW, "SEQ1M Q1T1", "write" },
	{ "rnd4k-q32t1-write", "randwrite", 0, "4k", 32, 1, IB_SM_IOPS, "RND4K Q32T1", "write" },
	{ "rnd4k-q1t1-write", "randwrite", 0, "4k", 1, 1, IB_SM_IOPS, "RND4K Q1T1", "write" },
};

/* PTS's orders: the R/W mixes outside, the block sizes inside. */
static const char *const pts_iops_bs[] = {
	"1024k", "128k", "64k", "32k", "16k", "8k", "4k", "512",
};
static const unsigned int pts_iops_mix[] = { 100, 95, 65, 50, 35, 5, 0 };
static const char *const pts_tp_bs[] = { "1024k", "128k" };
static const unsigned int pts_tp_mix[] = { 100, 0 };
static const char *const pts_lat_bs[] = { "8k", "4k", "512" };
static const unsigned int pts_lat_mix[] = { 100, 65, 0 };

#define N(a) (unsigned int)(sizeof(a) / sizeof((a)[0]))

const struct ib_suite ib_suites[] = {
	{ .name = "cloud", .kind = IB_SUITE_PLAIN,
	  .what = "a cloud volume as the providers' guides test it: QD1 latency, 4k random read/write/75-25 and 1M sequential, --expect verdicts",
	  .tests = cloud, .nr_tests = N(cloud),
	  .runtime_us = 60 * SEC, .ramp_us = 2 * SEC },
	{ .name = "desktop", .kind = IB_SUITE_PLAIN,
	  .what = "CrystalDiskMark's presets: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1, read and write",
	  .tests = desktop, .nr_tests = N(desktop), .size = GIB,
	  .runtime_us = 5 * SEC, .pause_us = 5 * SEC, .table = IB_SM_BW },
	{ .name = "pts-iops", .kind = IB_SUITE_PTS,
	  .what = "SNIA PTS IOPS test: random, 8 block sizes x 7 R/W mixes, T4Q32, rounds until the 4k write IOPS are steady",
	  .pattern = "rnd", .bs_list = pts_iops_bs, .nr_bs = N(pts_iops_bs),
	  .mix_list = pts_iops_mix, .nr_mix = N(pts_iops_mix),
	  .iodepth = 32, .numjobs = 4, .runtime_us = 60 * SEC,
	  .table = IB_SM_IOPS, .track = "rnd4k-r0w100", .track_metric = IB_SM_IOPS },
	{ .name = "pts-throughput", .kind = IB_SUITE_PTS,
	  .what = "SNIA PTS throughput test: sequential 1024k and 128k, read and write, T1Q32, rounds until the 1024k write bandwidth is steady",
	  .pattern = "seq", .bs_list = pts_tp_bs, .nr_bs = N(pts_tp_bs),
	  .mix_list = pts_tp_mix, .nr_mix = N(pts_tp_mix),
	  .iodepth = 32, .numjobs = 1, .runtime_us = 60 * SEC,
	  .table = IB_SM_BW, .track = "seq1024k-r0w100", .track_metric = IB_SM_BW },
	{ .name = "pts-latency", .kind = IB_SUITE_PTS,
	  .what = "SNIA PTS latency test: random 8k, 4k, 512 x 100/0, 65/35, 0/100, T1Q1, rounds until the 4k write mean latency is steady",
	  .pattern = "rnd", .bs_list = pts_lat_bs, .nr_bs = N(pts_lat_bs),
	  .mix_list = pts_lat_mix, .nr_mix = N(pts_lat_mix),
	  .iodepth = 1, .numjobs = 1, .runtime_us = 60 * SEC,
	  .table = IB_SM_LAT, .track = "rnd4k-r0w100", .track_metric = IB_SM_LAT },
};

const unsigned int ib_nr_suites = N(ib_suites);

const struct ib_suite *ib_suite_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ib_nr_suites; i++)
		if (!strcmp(ib_suites[i].name, name))
			return &ib_suites[i];
	return NULL;
}
