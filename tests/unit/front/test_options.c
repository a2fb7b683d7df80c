// SPDX-License-Identifier: GPL-2.0-only
/* The option table: every type's parsing, aliases, errors, opts_text. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "iobench/engine.h"
#include "iobench/options.h"
#include "iobench/strtab.h"
#include "iobench/steadystate.h"

/* a job and the table its strings go to (job.h); *state is the job */
struct tjob {
	struct ib_job job;
	struct ib_strtab strs;
};

static int setup(void **state)
{
	struct tjob *t = calloc(1, sizeof(*t));
	struct ib_job *j = &t->job;

	if (!t)
		return -1;
	ib_job_defaults(j);
	j->strs = &t->strs;
	*state = j;
	return 0;
}

static int teardown(void **state)
{
	struct tjob *t = *state;

	ib_strtab_free(&t->strs);
	free(t);
	return 0;
}

static void set_ok(struct ib_job *j, const char *name, const char *v)
{
	struct ib_diag d = { { 0 } };
	int rc = ib_opt_set(j, name, v, &d);

	if (rc)
		fail_msg("%s=%s: %s", name, v, d.msg);
}

static void set_bad(struct ib_job *j, const char *name, const char *v, int err,
		    const char *msg)
{
	struct ib_diag d = { { 0 } };

	assert_int_equal(ib_opt_set(j, name, v, &d), -err);
	assert_string_equal(d.msg, msg);
}

static void test_find_aliases(void **state)
{
	(void)state;
	assert_string_equal(ib_opt_find("readwrite")->name, "rw");
	assert_string_equal(ib_opt_find("blocksize")->name, "bs");
	assert_string_equal(ib_opt_find("ba")->name, "blockalign");
	assert_string_equal(ib_opt_find("iodepth_batch")->name, "iodepth_batch_submit");
	assert_string_equal(ib_opt_find("iodepth_batch_complete")->name,
			    "iodepth_batch_complete_min");
	assert_string_equal(ib_opt_find("timeout")->name, "runtime");
	assert_string_equal(ib_opt_find("io_limit")->name, "io_size");
	assert_string_equal(ib_opt_find("wait_for_previous")->name, "stonewall");
	assert_string_equal(ib_opt_find("blocksize_range")->name, "bsrange");
	assert_string_equal(ib_opt_find("rand_repeatable")->name, "randrepeat");
	assert_string_equal(ib_opt_find("blocksize_unaligned")->name, "bs_unaligned");
	assert_string_equal(ib_opt_find("disable_bw")->name, "disable_bw_measurement");
	assert_null(ib_opt_find("iodeph"));
}

static void test_rw(void **state)
{
	struct ib_job *j = *state;

	set_ok(j, "rw", "randrw");
	assert_int_equal(j->rw, IB_RW_READ | IB_RW_WRITE | IB_RW_RAND);
	set_ok(j, "readwrite", "readwrite");
	assert_int_equal(j->rw, IB_RW_READ | IB_RW_WRITE);
	set_ok(j, "rw", "randwrite");
	assert_int_equal(j->rw, IB_RW_WRITE | IB_RW_RAND);
	set_ok(j, "rw", "write");
	assert_int_equal(j->rw, IB_RW_WRITE);
	set_ok(j, "rw", "read");
	assert_int_equal(j->rw, IB_RW_READ);
	set_ok(j, "rw", "randread");
	assert_int_equal(j->rw, IB_RW_READ | IB_RW_RAND);
	set_ok(j, "rw", "trim");
	assert_int_equal(j->rw, IB_RW_TRIM);
	set_ok(j, "rw", "randtrim");
	assert_int_equal(j->rw, IB_RW_TRIM | IB_RW_RAND);
	set_ok(j, "rw", "trimwrite");
	assert_int_equal(j->rw, IB_RW_TRIM | IB_RW_WRITE);
	set_ok(j, "rw", "randtrimwrite");
	assert_int_equal(j->rw, IB_RW_TRIM | IB_RW_WRITE | IB_RW_RAND);
	set_ok(j, "rw", "randread:8");
	assert_int_equal(j->rw_seq_nr, 8);
	assert_int_equal(j->rw_seq_add, 0);
	set_ok(j, "rw", "read:-8k");
	assert_int_equal(j->rw_seq_add, -8192);
	assert_int_equal(j->rw_seq_nr, 0);
	set_ok(j, "rw", "write:4k");
	assert_int_equal(j->rw_seq_add, 4096);
	assert_int_equal(j->rw, IB_RW_WRITE);
	set_bad(j, "rw", "randread:-8", EINVAL,
		"rw=randread:-8: the modifier of a random type is a count of I/Os");
	set_bad(j, "rw", "read:x", EINVAL, "rw=read:x: invalid offset modifier 'x'");
	set_ok(j, "rw", "randread");
	set_bad(j, "rw", "sideways", EINVAL,
		"rw: invalid value 'sideways' (valid: read, write, randread, randwrite, rw, randrw, trim, randtrim, trimwrite, randtrimwrite)");
	assert_int_equal(j->rw, IB_RW_READ | IB_RW_RAND);
}

static void test_rwmix(void **state)
{
	struct ib_job *j = *state;

	set_ok(j, "rwmixread", "70");
	assert_int_equal(j->rwmixread, 70);
	set_ok(j, "rwmixwrite", "30");
	assert_int_equal(j->rwmixread, 70);
	set_bad(j, "rwmixwrite", "20", EINVAL,
		"rwmixread=70 and rwmixwrite=20 do not add up to 100");
	set_bad(j, "rwmixread", "101", ERANGE, "rwmixread: 101 is out of range (0..100)");
	/* fio takes N% without a word and does only reads */
	set_bad(j, "rwmixread", "50%", EINVAL,
		"rwmixread: '50%' is a number without '%' (rwmixread=50); fio takes '50%' but does 100% reads");
	set_bad(j, "rwmixwrite", "30%", EINVAL,
		"rwmixwrite: '30%' is a number without '%' (rwmixwrite=30); fio takes '30%' but does 100% reads");
	assert_int_equal(j->rwmixread, 70);
	set_bad(j, "buffer_compress_percentage", "50%", EINVAL,
		"buffer_compress_percentage: '50%' is a number without '%' "
		"(buffer_compress_percentage=50); fio does not read '50%' as 50 either");
	set_bad(j, "iodepth", "16%", EINVAL,
		"iodepth: '16%' is a number without '%' (iodepth=16); fio does not read '16%' as 16 either");
}

static void test_rwmix_write_only(void **state)
{
	struct ib_job *j = *state;

	set_ok(j, "rwmixwrite", "25");
	assert_int_equal(j->rwmixread, 75);
	set_bad(j, "rwmixread", "50", EINVAL,
		"rwmixread=50 and rwmixwrite=25 do not add up to 100");
}

static void test_bs_lists(void **state)
{
	struct ib_job *j = *state;

	set_ok(j, "bs", "8k");
	assert_int_equal(j->bs.min[0], 8192);
	assert_int_equal(j->bs.min[1], 8192);
	assert_int_equal(j->bs.min[2], 8192);
	assert_int_equal(j->bs.max[1], 8192);
	set_ok(j, "bs", "4k,16k");
	assert_int_equal(j->bs.min[0], 4096);
	assert_int_equal(j->bs.min[1], 16384);
	assert_int_equal(j->bs.min[2], 16384); /* trim copies the last value */
	assert_int_equal(j->bs.max[2], 16384);
	set_ok(j, "blocksize", ",8k");
	assert_int_equal(j->bs.min[0], 4096); /* unchanged */
	assert_int_equal(j->bs.min[1], 8192);
	assert_int_equal(j->bs.min[2], 8192);
	set_ok(j, "bs", "1k,2k,3k");
	assert_int_equal(j->bs.min[2], 3072);
	set_bad(j, "bs", "1k,2k,3k,4k", EINVAL, "bs: too many values in '1k,2k,3k,4k' (read,write,trim)");
	set_bad(j, "bs", "4q", EINVAL, "bs: invalid size '4q'");
	set_bad(j, "bs", ",", EINVAL, "bs: invalid size list ','");
	/* fio drops what follows a size: iobench names the option meant */
	set_bad(j, "bs", "1g-5g", EINVAL,
		"bs: invalid size '1g-5g' (a range of sizes is bsrange=1g-5g)");
	set_bad(j, "bs", "4k/50:8k/50", EINVAL,
		"bs: invalid size '4k/50:8k/50' (sizes with percentages are bssplit=4k/50:8k/50)");
}

static void test_bsrange(void **state)
{
	struct ib_job *j = *state;

	set_ok(j, "bsrange", "1k-4k,2k-8k");
	assert_int_equal(j->bs.min[0], 1024);
	assert_int_equal(j->bs.max[0], 4096);
	assert_int_equal(j->bs.min[1], 2048);
	assert_int_equal(j->bs.max[1], 8192);
	assert_int_equal(j->bs.min[2], 2048);
	assert_int_equal(j->bs.max[2], 8192);
	set_ok(j, "blocksize_range", "512-64k");
	assert_int_equal(j->bs.min[1], 512);
	assert_int_equal(j->bs.max[1], 65536);
	set_bad(j, "bsrange", "8k-4k", EINVAL,
		"bsrange: invalid range '8k-4k' (minimum above maximum)");
	set_ok(j, "ba", "512");
	assert_int_equal(j->bs.align[0], 512);
	assert_int_equal(j->bs.align[2], 512);
	assert_int_equal(j->bs.min[0], 512);
}

/* filetype=: file and block are checked on the targets, char refused */
static void test_filetype(void **state)
{
	struct ib_job *j = *state;

	assert_int_equal(j->filetype, IB_FILETYPE_NONE);
	set_ok(j, "filetype", "block");
	assert_int_equal(j->filetype, IB_FILETYPE_BLOCK);
	set_ok(j, "filetype", "FILE");
	assert_int_equal(j->filetype, IB_FILETYPE_FILE);
	set_bad(j, "filetype", "char", ENOTSUP,
		"filetype=char: character devices are not supported by iobench (file or block)");
	set_bad(j, "filetype", "pipe", EINVAL,
		"filetype: invalid value 'pipe' (valid: none, file, block, char)");
}

static void test_sizes(void **state)
{
	struct ib_job *j = *state;

	set_ok(j, "size", "1g");
	assert_true(j->size == 1ull << 30);
	assert_int_equal(j->size_pct, 0);
	set_ok(j, "size", "50%");
	assert_int_equal(j->size, 0);
	assert_int_equal(j->size_pct, 50);
	set_ok(j, "offset", "25%");
	assert_int_equal(j->offset_pct, 25);
	set_ok(j, "offset", "(1+1)m");
	assert_int_equal(j->offset, 2097152);
	assert_int_equal(j->offset_pct, 0);
	set_ok(j, "filesize", "1m-2m");
	assert_int_equal(j->filesize_min, 1048576);
	assert_int_equal(j->filesize_max, 2097152);
	set_ok(j, "filesize", "64k");
	assert_int_equal(j->filesize_min, 65536);
	assert_int_equal(j->filesize_max, 65536);
	set_ok(j, "io_limit", "10m");
	assert_int_equal(j->io_size, 10485760);
	set_ok(j, "offset_increment", "1m");
	assert_int_equal(j->offset_increment, 1048576);
	/* fio's percentages of io_size and offset_increment */
	set_ok(j, "io_size", "25%");
	assert_int_equal(j->io_size, 0);
	assert_int_equal(j->io_size_pct, 25);
	set_ok(j, "io_size", "4k");
	assert_int_equal(j->io_size, 4096);
	assert_int_equal(j->io_size_pct, 0);
	set_bad(j, "io_size", "150%", ERANGE,
		"io_size: percentage '150%' is out of range (0..100%)");
	set_ok(j, "offset_increment", "10%");
	assert_int_equal(j->offset_increment, 0);
	assert_int_equal(j->offset_increment_pct, 10);
	set_ok(j, "lockmem", "1m");
	assert_int_equal(j->lockmem, 1048576);
	set_bad(j, "size", "12x", EINVAL, "size: invalid size '12x'");
}

static void test_kb_base_applies(void **state)
{
	struct ib_job *j = *state;

	set_ok(j, "kb_base", "1000");
	assert_int_equal(j->kb_base, 1000);
	set_ok(j, "size", "1m");
	assert_int_equal(j->size, 1000000);
	set_ok(j, "size", "1MiB");
	assert_int_equal(j->size, 1048576);
	set_bad(j, "kb_base", "1023", EINVAL, "kb_base: invalid value '1023' (valid: 1024, 1000)");
}

static void test_times(void **state)
{
	struct ib_job *j = *state;

	set_ok(j, "runtime", "30");
	assert_int_equal(j->runtime_us, 30000000);
	set_ok(j, "timeout", "500ms");
	assert_int_equal(j->runtime_us, 500000);
	set_ok(j, "ramp_time", "2s");
	assert_int_equal(j->ramp_time_us, 2000000);
	set_ok(j, "startdelay", "1m");
	assert_int_equal(j->startdelay_us, 60000000);
	set_bad(j, "runtime", "5y", EINVAL, "runtime: invalid time '5y'");
}

static void test_bools_and_flags(void **state)
{
	static const char *const not01[][2] = {
		{ "direct", "7" }, { "sprandom", "2" }, { "buffered", "-1" },
	};
	struct ib_job *j = *state;

	set_ok(j, "time_based", "");
	assert_true(j->time_based);
	set_ok(j, "time_based", "0");
	assert_false(j->time_based);
	set_ok(j, "direct", "1");
	assert_true(j->direct);
	set_ok(j, "buffered", "1");
	assert_false(j->direct);
	set_ok(j, "buffered", "0");
	assert_true(j->direct);
	set_ok(j, "thread", "");
	assert_true(j->thread);
	set_ok(j, "group_reporting", "");
	assert_true(j->group_reporting);
	set_ok(j, "disable_bw", "1");
	assert_true(j->disable_bw);
	set_bad(j, "direct", "maybe", EINVAL,
		"direct: invalid boolean 'maybe' (use 1/0, true/false, yes/no, on/off)");
	/* fio's boolean options range 0..1 (direct=7: "max value out of
	 * range"); its set-style ones (time_based, thread, ...) take any
	 * integer, non-zero on */
	for (size_t i = 0; i < IB_ARRAY_SIZE(not01); i++) {
		char msg[128];

		snprintf(msg, sizeof(msg),
			 "%s: invalid boolean '%s' (use 1/0, true/false, yes/no, on/off)",
			 not01[i][0], not01[i][1]);
		set_bad(j, not01[i][0], not01[i][1], EINVAL, msg);
	}
	set_ok(j, "time_based", "2");
	assert_true(j->time_based);
	set_ok(j, "norandommap", "3");
	assert_true(j->norandommap);
	set_ok(j, "group_reporting", "0");
	assert_false(j->group_reporting);
	set_bad(j, "iodepth", "", EINVAL, "iodepth: needs a value");
	set_bad(j, "write_iolog", "", EINVAL, "write_iolog: needs a value");
	set_ok(j, "write_iops_log", "");
	assert_string_equal(j->logs.iops, IB_LOG_JOBNAME);
	assert_string_equal(ib_opts_text_get(j->opts_text, j->opts_len, "write_iops_log"), "");
}

static void test_numbers(void **state)
{
	struct ib_job *j = *state;

	set_ok(j, "iodepth", "32");
	assert_int_equal(j->iodepth, 32);
	set_ok(j, "iodepth_batch", "8");
	assert_int_equal(j->iodepth_batch_submit, 8);
	set_ok(j, "iodepth_batch_complete", "4");
	assert_int_equal(j->iodepth_batch_complete_min, 4);
	set_ok(j, "iodepth_batch_complete_max", "16");
	assert_int_equal(j->iodepth_batch_complete_max, 16);
	set_ok(j, "iodepth_low", "(32/2)");
	assert_int_equal(j->iodepth_low, 16);
	set_ok(j, "numjobs", "4");
	assert_int_equal(j->numjobs, 4);
	set_ok(j, "nonvectored", "-1");
	assert_int_equal(j->engine.nonvectored, -1);
	set_ok(j, "nonvectored", "1");
	assert_int_equal(j->engine.nonvectored, 1);
	set_ok(j, "sqthread_poll_cpu", "3");
	assert_int_equal(j->engine.sqthread_poll_cpu, 3);
	set_ok(j, "fsync", "16");
	assert_int_equal(j->fsync_every, 16);
	set_ok(j, "fdatasync", "8");
	assert_int_equal(j->fdatasync_every, 8);
	set_bad(j, "iodepth", "0", ERANGE, "iodepth: 0 is out of range (1..65536)");
	set_bad(j, "numjobs", "0", ERANGE, "numjobs: 0 is out of range (1..4096)");
	set_bad(j, "loops", "0", ERANGE, "loops: 0 is out of range (1..4294967295)");
	set_bad(j, "loops", "4294967296", ERANGE, "loops: 4294967296 is out of range (1..4294967295)");
	set_ok(j, "loops", "4294967295");
	assert_int_equal(j->loops, 4294967295u);
	set_bad(j, "nonvectored", "2", ERANGE, "nonvectored: 2 is out of range (-1..1)");
	set_bad(j, "iodepth", "lots", EINVAL, "iodepth: invalid number 'lots'");
	set_bad(j, "iodepth", "-1", EINVAL, "iodepth: invalid number '-1' (negative)");
}

static void test_randseed(void **state)
{
	struct ib_job *j = *state;

	assert_true(j->randrepeat);
	set_ok(j, "randseed", "1234");
	assert_int_equal(j->randseed, 1234);
	assert_true(j->randseed_set);
	assert_false(j->randrepeat);
	set_ok(j, "randseed", "18446744073709551615");
	assert_true(j->randseed == UINT64_MAX);
	set_bad(j, "randseed", "x", EINVAL, "randseed: invalid number 'x'");
}

static void test_strings(void **state)
{
	struct ib_job *j = *state;
	char longname[300];

	set_ok(j, "filename", "/dev/shm/a:/dev/shm/b\\:c");
	assert_string_equal(j->filename, "/dev/shm/a:/dev/shm/b\\:c");
	set_ok(j, "ioengine", "io_uring");
	assert_string_equal(j->ioengine, "io_uring");
	set_ok(j, "ioengine", "linuxaio"); /* fio's alias */
	assert_string_equal(j->ioengine, "libaio");
	set_ok(j, "description", "a test job");
	assert_string_equal(j->description, "a test job");
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	set_bad(j, "name", longname, ENAMETOOLONG,
		"name: value too long (299 characters, at most 255)");
}

/* fio's per-direction rate lists, the rate enums and think time. */
/* fio's steady state: the three options and their short names. */
static void test_steadystate_options(void **state)
{
	struct ib_job *j = *state;

	assert_int_equal(j->ss_mode, IB_SS_SLOPE | IB_SS_PCT);	/* iops_slope:0.01% */
	assert_true(j->ss_limit == 0.01);
	assert_int_equal(j->ss_dur_us, 0);
	set_ok(j, "ss", "bw:10%");
	assert_int_equal(j->ss_mode, IB_SS_BW | IB_SS_PCT);
	assert_true(j->ss_limit == 10.0);
	set_ok(j, "steadystate", "bw_slope:2M");
	assert_int_equal(j->ss_mode, IB_SS_BW | IB_SS_SLOPE);
	assert_true(j->ss_limit == 2097152.0);
	set_bad(j, "ss", "iops:2M", EINVAL, "steadystate=iops:2M: '2M' is not an IOPS value");
	set_ok(j, "ss_dur", "5");
	assert_int_equal(j->ss_dur_us, 5000000);
	set_ok(j, "steadystate_duration", "2m");
	assert_int_equal(j->ss_dur_us, 120000000);
	set_ok(j, "ss_ramp", "1500ms");
	assert_int_equal(j->ss_ramp_us, 1500000);
	set_ok(j, "steadystate_ramp_time", "3");
	assert_int_equal(j->ss_ramp_us, 3000000);
	assert_string_equal(ib_opt_find("ss")->name, "steadystate");
	assert_string_equal(ib_opt_find("ss_dur")->name, "steadystate_duration");
	assert_string_equal(ib_opt_find("ss_ramp")->name, "steadystate_ramp_time");
	set_bad(j, "ss", "iops", EINVAL,
		"steadystate=iops: a threshold is needed after the criterion (iops:5%)");
	set_bad(j, "ss", "clat:5%", EINVAL,
		"steadystate=clat:5%: the criterion is iops, iops_slope, bw, bw_slope, lat or lat_slope");
	set_ok(j, "ss", "lat:5%");
	assert_int_equal(j->ss_mode, IB_SS_LAT | IB_SS_PCT);
	set_ok(j, "ss", "lat_slope:2ms");	/* fio 3.42: us, the number kept */
	assert_int_equal(j->ss_mode, IB_SS_LAT | IB_SS_SLOPE);
	assert_true(j->ss_limit == 2000.0);
	assert_int_equal(j->ss_interval_us, 1000000);
	set_ok(j, "ss_interval", "30");
	assert_int_equal(j->ss_interval_us, 30000000);
	set_ok(j, "steadystate_check_interval", "2m");
	assert_int_equal(j->ss_interval_us, 120000000);
	assert_string_equal(ib_opt_find("ss_interval")->name, "steadystate_check_interval");
}

static void test_rate_options(void **state)
{
	struct ib_job *j = *state;

	set_ok(j, "rate_iops", "500");
	assert_int_equal(j->rate.iops[0], 500);
	assert_int_equal(j->rate.iops[1], 500);
	assert_int_equal(j->rate.iops[2], 500);
	set_ok(j, "rate_iops", "500,250");
	assert_int_equal(j->rate.iops[0], 500);
	assert_int_equal(j->rate.iops[1], 250);
	assert_int_equal(j->rate.iops[2], 250);
	set_ok(j, "rate_iops", ",300");
	assert_int_equal(j->rate.iops[0], 0);
	assert_int_equal(j->rate.iops[1], 300);
	set_ok(j, "rate", "1m,,2k");
	assert_int_equal(j->rate.bps[0], 1048576);
	assert_int_equal(j->rate.bps[1], 0);
	assert_int_equal(j->rate.bps[2], 2048);
	set_ok(j, "ratemin", "4k");
	assert_int_equal(j->rate.min_bps[1], 4096);
	set_ok(j, "rate_iops_min", "7");
	assert_int_equal(j->rate.min_iops[0], 7);
	set_bad(j, "rate_iops", "1,2,3,4", EINVAL,
		"rate_iops: too many values in '1,2,3,4' (read,write,trim)");
	set_bad(j, "rate_iops", "x", EINVAL, "rate_iops: invalid number 'x'");
	set_ok(j, "rate_process", "poisson");
	assert_int_equal(j->rate.process, 1);
	set_ok(j, "rate_mode", "closed");
	assert_int_equal(j->rate.mode, 1);
	set_ok(j, "rate_cycle", "250");
	assert_int_equal(j->rate.cycle_ms, 250);
	set_ok(j, "rate_late", "2ms");
	assert_int_equal(j->rate.late_us, 2000);
	set_ok(j, "rate_spin", "50");
	assert_int_equal(j->rate.spin_us, 50);
	set_ok(j, "thinktime", "5");
	assert_int_equal(j->rate.thinktime_us, 5);
	set_ok(j, "thinktime_iotime", "2");
	assert_int_equal(j->rate.thinktime_iotime_us, 2000000);
	assert_false(j->rate.thinktime_blocks_set);
	set_ok(j, "thinktime_blocks", "8");
	assert_int_equal(j->rate.thinktime_blocks, 8);
	assert_true(j->rate.thinktime_blocks_set);
	set_bad(j, "thinktime_blocks", "0", EINVAL, "thinktime_blocks: must be at least 1");
	set_ok(j, "thinktime_blocks_type", "issue");
	assert_int_equal(j->rate.thinktime_blocks_type, 1);
	set_ok(j, "latency_target", "2ms");
	assert_int_equal(j->rate.latency_target_us, 2000);
	set_ok(j, "latency_window", "250000");
	assert_int_equal(j->rate.latency_window_us, 250000);
	set_ok(j, "latency_percentile", "99.5");
	assert_true(j->rate.latency_percentile == 99.5);
	set_bad(j, "latency_percentile", "0", EINVAL,
		"latency_percentile: '0' is not a percentage in (0, 100]");
	set_bad(j, "latency_percentile", "101", EINVAL,
		"latency_percentile: '101' is not a percentage in (0, 100]");
	set_ok(j, "max_latency", "5ms");
	assert_int_equal(j->rate.max_latency_us[0], 5000);
	assert_int_equal(j->rate.max_latency_us[2], 5000);
	set_ok(j, "max_latency", "1s,20");
	assert_int_equal(j->rate.max_latency_us[0], 1000000);
	assert_int_equal(j->rate.max_latency_us[1], 20);
	assert_int_equal(j->rate.max_latency_us[2], 20);
}

static void test_enums(void **state)
{
	struct ib_job *j = *state;

	set_ok(j, "continue_on_error", "io");
	assert_int_equal(j->continue_on_error, IB_COE_IO);
	set_ok(j, "continue_on_error", "1");
	assert_int_equal(j->continue_on_error, IB_COE_ALL);
	set_ok(j, "continue_on_error", "none");
	assert_int_equal(j->continue_on_error, 0);
	set_ok(j, "continue_on_error", "verify");
	assert_int_equal(j->continue_on_error, IB_COE_VERIFY);
	set_ok(j, "unit_base", "1");
	assert_int_equal(j->unit_base, 1);
	set_ok(j, "unit_base", "0");
	assert_int_equal(j->unit_base, 8);
	set_bad(j, "continue_on_error", "some", EINVAL,
		"continue_on_error: invalid value 'some' (valid: none, read, write, io, verify, all)");
	set_ok(j, "sync", "1");
	assert_int_equal(j->sync_io, IB_SYNC_IO_SYNC);
	set_ok(j, "sync", "dsync");
	assert_int_equal(j->sync_io, IB_SYNC_IO_DSYNC);
	set_ok(j, "sync", "0");
	assert_int_equal(j->sync_io, IB_SYNC_IO_NONE);
	set_bad(j, "sync", "fsync", EINVAL,
		"sync: invalid value 'fsync' (valid: none, sync, dsync)");
}

/*
 * ignore_error: each list given replaces its type's non-fatal errors and
 * turns continue_on_error on for that type (fio 3.33: ignore_error=,ENOSPC
 * alone goes on after ENOSPC on writes); a later continue_on_error= sets
 * the bits anew, as in fio.
 */
static void test_ignore_error(void **state)
{
	struct ib_job *j = *state;

	set_ok(j, "ignore_error", ",ENOSPC:122");
	assert_int_equal(j->continue_on_error, IB_COE_WRITE);
	assert_int_equal(j->ignore_error[IB_ERR_WRITE].nr, 2);
	assert_int_equal(j->ignore_error[IB_ERR_WRITE].err[0], ENOSPC);
	assert_int_equal(j->ignore_error[IB_ERR_WRITE].err[1], 122);
	assert_int_equal(j->ignore_error[IB_ERR_READ].nr, 0);
	assert_string_equal(ib_opts_text_get(j->opts_text, j->opts_len,
					     "ignore_error"), ",ENOSPC:122");
	set_ok(j, "continue_on_error", "read");
	assert_int_equal(j->continue_on_error, IB_COE_READ);
	set_ok(j, "ignore_error", "EAGAIN,,EILSEQ");
	assert_int_equal(j->continue_on_error, IB_COE_READ | IB_COE_VERIFY);
	assert_int_equal(j->ignore_error[IB_ERR_READ].err[0], EAGAIN);
	assert_int_equal(j->ignore_error[IB_ERR_WRITE].nr, 0); /* replaced */
	set_ok(j, "continue_on_error", "none");
	assert_int_equal(j->continue_on_error, 0);
	set_bad(j, "ignore_error", ",EFOO", EINVAL,
		"ignore_error: unknown error 'EFOO' in the write list (an errno name such as ENOSPC, or a number 1-4095)");
	set_bad(j, "ignore_error", "1,2,3,4", EINVAL,
		"ignore_error: '1,2,3,4': at most 3 lists (read,write,verify)");
	set_bad(j, "ignore_error", "", EINVAL, "ignore_error: needs a value");
	/* a refused value changes nothing */
	assert_int_equal(j->ignore_error[IB_ERR_READ].err[0], EAGAIN);
	assert_int_equal(j->continue_on_error, 0);
}

static void test_percentiles(void **state)
{
	struct ib_job *j = *state;

	set_ok(j, "percentile_list", "99.99:50:99.9:99");
	assert_int_equal(j->nr_percentiles, 4);
	assert_true(j->percentiles[0] == 50.0);
	assert_true(j->percentiles[1] == 99.0);
	assert_true(j->percentiles[2] == 99.9);
	assert_true(j->percentiles[3] == 99.99);
	assert_int_equal(j->percentile_precision, 2);
	set_ok(j, "percentile_list", "50:90");
	assert_int_equal(j->percentile_precision, 0);
	set_ok(j, "percentile_list", "99.999");
	assert_int_equal(j->percentile_precision, 3);
	assert_int_equal(j->nr_percentiles, 1);
	set_bad(j, "percentile_list", "1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21",
		EINVAL, "percentile_list: more than 20 percentiles in "
			"'1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21'");
	set_bad(j, "percentile_list", "50:101", EINVAL,
		"percentile_list: invalid percentile list '50:101' (e.g. 99:99.9:99.99, each 0..100)");
	set_bad(j, "percentile_list", "50::99", EINVAL,
		"percentile_list: invalid percentile list '50::99' (e.g. 99:99.9:99.99, each 0..100)");
}

static void test_unknown_and_unsupported(void **state)
{
	struct ib_job *j = *state;
	struct ib_diag d = { { 0 } };

	set_bad(j, "iodeph", "4", EINVAL, "unknown option 'iodeph' (did you mean --iodepth?)");
	set_bad(j, "blocksiz", "4k", EINVAL, "unknown option 'blocksiz' (did you mean --blocksize?)");
	set_bad(j, "xyzzy", "1", EINVAL, "unknown option 'xyzzy'");
	set_bad(j, "write_barrier", "1", ENOTSUP, "--write_barrier: fio option not supported by iobench");
	set_bad(j, "verify_async_cpus", "0-1", ENOTSUP,
		"verify_async_cpus: not supported by iobench (blocks are checked in the job's own process: there are no verify threads to pin)");
	set_bad(j, "flow", "1", ENOTSUP, "--flow: fio option not supported by iobench");
	set_bad(j, "cgroup", "x", ENOTSUP, "--cgroup: fio option not supported by iobench");
	assert_int_equal(ib_opt_set_ctx(j, "write_barrier", "1", IB_OPT_CTX_FILE, &d), -ENOTSUP);
	assert_string_equal(d.msg, "write_barrier: fio option not supported by iobench");
	assert_int_equal(ib_opt_set_ctx(j, "iodeph", "1", IB_OPT_CTX_FILE, &d), -EINVAL);
	assert_string_equal(d.msg, "unknown option 'iodeph' (did you mean iodepth?)");
	/* every fio name is refused by name, never "unknown option" */
	set_bad(j, "cgroup_weight", "10", ENOTSUP,
		"--cgroup_weight: fio option not supported by iobench");
	set_bad(j, "flow_id", "5", ENOTSUP, "--flow_id: fio option not supported by iobench");
	set_bad(j, "log_entries", "1024", ENOTSUP,
		"--log_entries: fio option not supported by iobench");
	set_bad(j, "lockfile", "exclusive", ENOTSUP,
		"--lockfile: fio option not supported by iobench");
	/* an engine's option names the fio engines that own it */
	set_bad(j, "rbdname", "img", ENOTSUP,
		"--rbdname: option of fio's rbd engine, not supported by iobench");
	set_bad(j, "hostname", "h", ENOTSUP,
		"--hostname: option of fio's libhdfs, net, netsplice and rdma engines, not supported by iobench");
	set_bad(j, "cmdprio_percentage", "10", ENOTSUP,
		"--cmdprio_percentage: option of fio's io_uring, io_uring_cmd and libaio engines, not supported by iobench");
	/* fio 3.34-3.42's names, and those fio itself now fails to parse */
	set_bad(j, "fdp", "1", ENOTSUP,
		"--fdp: option of fio's io_uring_cmd and xnvme engines, not supported by iobench");
	set_bad(j, "recover_zbd_write_error", "1", ENOTSUP,
		"--recover_zbd_write_error: fio option not supported by iobench");
	set_bad(j, "percentage_sequential", "20", ENOTSUP,
		"--percentage_sequential: a deprecated fio option, which fio refuses too "
		"(percentage_random sets the mix)");
	assert_int_equal(ib_opt_set_ctx(j, "rwmixcycle", "5", IB_OPT_CTX_FILE, &d), -ENOTSUP);
	assert_string_equal(d.msg, "rwmixcycle: a deprecated fio option, which fio refuses too");
	assert_true(ib_opt_unsupported("rwmixcycle"));
	assert_int_equal(ib_opt_set_ctx(j, "window_size", "1m", IB_OPT_CTX_FILE, &d), -ENOTSUP);
	assert_string_equal(d.msg, "window_size: option of fio's net and netsplice engines, not supported by iobench");
	assert_true(ib_opt_unsupported("nfs_url"));
	assert_false(ib_opt_unsupported("iodepth"));
	assert_false(ib_opt_unsupported("xyzzy"));
	assert_int_equal(ib_opt_refuse("bs", true, &d), 0);
	assert_int_equal(ib_opt_refuse("xyzzy", true, &d), 0);
}

/* cpus_allowed, cpumask, numa_cpu_nodes, nice, prio, prioclass. */
static void test_proc_opts(void **state)
{
	struct ib_job *j = *state;
	struct ib_diag d = { { 0 } };

	assert_int_equal(ib_opt_set(j, "cpus_allowed", "0-2,5,64", &d), 0);
	assert_true(j->proc.cpus_set);
	assert_int_equal(j->proc.cpus[0], 0x27);
	assert_int_equal(j->proc.cpus[1], 1);
	assert_int_equal(ib_opt_set(j, "cpumask", "0x6", &d), 0);
	assert_int_equal(j->proc.cpus[0], 6);
	assert_int_equal(j->proc.cpus[1], 0);
	set_bad(j, "cpus_allowed", "3-1", EINVAL, "cpus_allowed: invalid list '3-1' (e.g. 0-3,6)");
	set_bad(j, "cpus_allowed", "1,", EINVAL, "cpus_allowed: invalid list '1,' (e.g. 0-3,6)");
	set_bad(j, "cpus_allowed", "0-1024", ERANGE, "cpus_allowed: 1024 is out of range (0..1023)");
	set_bad(j, "cpumask", "0", EINVAL, "cpumask: no CPU in mask '0'");
	assert_int_equal(ib_opt_set(j, "cpus_allowed_policy", "split", &d), 0);
	assert_int_equal(j->proc.cpus_policy, IB_CPUS_SPLIT);
	assert_int_equal(ib_opt_set(j, "numa_cpu_nodes", "0,2-3", &d), 0);
	assert_int_equal(j->proc.numa_nodes, 0xd);
	set_bad(j, "numa_cpu_nodes", "64", ERANGE, "numa_cpu_nodes: 64 is out of range (0..63)");
	assert_int_equal(ib_opt_set(j, "nice", "-5", &d), 0);
	assert_int_equal(j->proc.nice, -5);
	set_bad(j, "nice", "20", ERANGE, "nice: 20 is out of range (-20..19)");
	assert_false(j->proc.ioprio_given);
	assert_int_equal(ib_opt_set(j, "prio", "6", &d), 0);
	assert_true(j->proc.ioprio_given);
	assert_int_equal(j->proc.ioprio, 6);
	assert_int_equal(j->proc.ioprio_class, 0);
	assert_int_equal(ib_opt_set(j, "prioclass", "3", &d), 0);
	assert_int_equal(j->proc.ioprio_class, 3);
	set_bad(j, "prio", "8", ERANGE, "prio: 8 is out of range (0..7)");
	set_bad(j, "prioclass", "4", ERANGE, "prioclass: 4 is out of range (0..3)");
}

/* fio's aliases and the deprecated options fio still accepts. */
static void test_aliases_deprecated(void **state)
{
	struct ib_job *j = *state;
	struct ib_diag d = { { 0 } };

	assert_int_equal(ib_opt_set(j, "nr_files", "3", &d), 0);
	assert_int_equal(j->nrfiles, 3);
	assert_int_equal(ib_opt_set(j, "threads", "1", &d), 0);
	assert_true(j->thread);
	assert_int_equal(ib_opt_set(j, "fileoffset", "8k", &d), 0);
	assert_int_equal(j->offset, 8192);
	assert_int_equal(ib_opt_set(j, "verifysort", "1", &d), 0);
	assert_int_equal(ib_opt_set(j, "verifysort_nr", "1024", &d), 0);
	assert_int_equal(ib_opt_set(j, "flow_watermark", "2", &d), 0);
	set_bad(j, "verifysort", "maybe", EINVAL,
		"verifysort: invalid boolean 'maybe' (use 1/0, true/false, yes/no, on/off)");
	/* a deprecated boolean takes any integer (fio ignores its value) */
	assert_int_equal(ib_opt_set(j, "verifysort", "2", &d), 0);
	assert_int_equal(ib_opt_set(j, "direct", "0", &d), 0);
	assert_false(j->direct);
	/* size=N%% reads as N% */
	assert_int_equal(ib_opt_set(j, "size", "100%%", &d), 0);
	assert_int_equal(j->size_pct, 100);
}

static void test_suggest(void **state)
{
	static const char *const extra[] = { "output-format", NULL };
	char buf[200];

	(void)state;
	assert_int_equal(ib_opt_suggest("rwmixred", NULL, true, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "--rwmixread");
	assert_int_equal(ib_opt_suggest("output-fromat", extra, true, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "--output-format");
	assert_int_equal(ib_opt_suggest("disable_xlat", NULL, false, buf, sizeof(buf)), 3);
	assert_string_equal(buf, "disable_lat, disable_clat or disable_slat");
	assert_int_equal(ib_opt_suggest("qqqqqqq", NULL, true, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

static void test_opts_text(void **state)
{
	struct ib_job *j = *state;
	const char *p;

	set_ok(j, "readwrite", "randrw");
	set_ok(j, "bs", "4k");
	set_ok(j, "time_based", "");
	set_ok(j, "rw", "randread");
	/* canonical names, in parse order, a repeated option moves to the end */
	p = j->opts_text;
	assert_string_equal(p, "bs");
	p += 3;
	assert_string_equal(p, "4k");
	p += 3;
	assert_string_equal(p, "time_based");
	p += 11;
	assert_string_equal(p, "");
	p += 1;
	assert_string_equal(p, "rw");
	p += 3;
	assert_string_equal(p, "randread");
	p += 9;
	assert_int_equal(p - j->opts_text, j->opts_len);
	assert_int_equal(*p, '\0');
	assert_string_equal(ib_opts_text_get(j->opts_text, j->opts_len, "bs"), "4k");
	assert_null(ib_opts_text_get(j->opts_text, j->opts_len, "size"));
	/* failed sets record nothing */
	set_bad(j, "size", "x", EINVAL, "size: invalid size 'x'");
	assert_null(ib_opts_text_get(j->opts_text, j->opts_len, "size"));
}

static void test_opts_text_full(void **state)
{
	char text[16] = { 0 };
	unsigned int len = 0;

	(void)state;
	assert_int_equal(ib_opts_text_put(text, &len, sizeof(text), "bs", "4k"), 0);
	assert_int_equal(len, 6);
	assert_int_equal(ib_opts_text_put(text, &len, sizeof(text), "size", "1m"), 0);
	assert_int_equal(len, 14);
	assert_int_equal(ib_opts_text_put(text, &len, sizeof(text), "rw", "x"), -ENOSPC);
	assert_int_equal(ib_opts_text_put(text, &len, sizeof(text), "bs", "8"), 0);
	assert_int_equal(len, 13);
	assert_string_equal(text, "size");
	assert_string_equal(ib_opts_text_get(text, len, "bs"), "8");
}

static void test_table_sane(void **state)
{
	const struct ib_opt *o, *p;
	unsigned int i, k, engine_rows = 0;

	(void)state;
	for (i = 0; (o = ib_opt_get(i)); i++) {
		assert_non_null(o->help);
		assert_true(o->cat < IB_CAT_NR);
		assert_ptr_equal(ib_opt_find(o->name), o);
		assert_false(ib_opt_unsupported(o->name));
		if (o->type == IB_OPT_STR)
			assert_true(o->size > 1);
		/* each name once, generic or an engine's */
		for (k = 0; k < i; k++)
			if (!strcmp(ib_opt_get(k)->name, o->name))
				fail_msg("%s listed twice", o->name);
		/* engine options are exactly the rows some engine owns */
		assert_int_equal(o->cat == IB_CAT_ENGOPT,
				 ib_engine_opt_owners(o->name, NULL, 0) > 0);
		engine_rows += o->cat == IB_CAT_ENGOPT;
		/* the generic rows come first */
		p = ib_opt_get(i + 1);
		if (o->cat == IB_CAT_ENGOPT && p)
			assert_int_equal(p->cat, IB_CAT_ENGOPT);
	}
	assert_int_equal(i, 224); /* 152 + 24 data/random/log rows + serialize_overlap
				   * + unified_rw_reporting + 5 verify rows
				   * + unlink_each_loop + dedupe_working_set_percentage
				   * + 4 steadystate + force_async
				   * + exec_prerun + exec_postrun + iomem + wait_for
				   * + end_syncfs + thinkcycles + log_group
				   * + job_start_clock_id + comm + priohint + uncached
				   * + libaio_vectored + atomic + filetype + sprandom
				   * + spr_num_regions + spr_op + spr_cs
				   * + ramp_size + log_prio + log_issue_time
				   * + verify_pattern_interval
				   * + zonemode, zonesize, zonerange, zoneskip
				   * + sync_file_range + unique_filename + fill_device
				   * + opendir + numa_mem_policy + io_submit_mode
				   * + stats + softrandommap */
	assert_int_equal(engine_rows, 12);
	assert_null(ib_opt_get(i + 1));
}

static void owners_are(const char *opt, const char *want)
{
	const char *names[8];
	unsigned int n = ib_engine_opt_owners(opt, names, 8), i;
	char got[128] = "";

	for (i = 0; i < n; i++) {
		strcat(got, i ? "," : "");
		strcat(got, names[i]);
	}
	assert_string_equal(got, want);
}

/*
 * The engines' own rows: found by the parser, shared rows identical, each
 * option owned by the right engines, built or not.
 */
static void test_engine_rows(void **state)
{
	const struct ib_engine_opts *const *set;
	const struct ib_opt *o, *f;
	const char *one;

	(void)state;
	owners_are("hipri", "io_uring,pvsync2");
	owners_are("nowait", "io_uring,pvsync2,libaio");
	owners_are("fixedbufs", "io_uring");
	owners_are("atomic", "io_uring,pvsync2,libaio");
	owners_are("userspace_reap", "libaio");
	owners_are("bs", "");
	assert_int_equal(ib_engine_opt_owners("nowait", &one, 1), 3);
	assert_string_equal(one, "io_uring");
	assert_true(ib_engine_has_option("pvsync2", "hipri"));
	assert_true(ib_engine_has_option("io_uring", "sqthread_poll_cpu"));
	assert_true(ib_engine_has_option("libaio", "nowait"));
	assert_false(ib_engine_has_option("libaio", "hipri"));
	assert_false(ib_engine_has_option("psync", "hipri"));
	assert_false(ib_engine_has_option("io_urin", "hipri"));
	assert_ptr_equal(ib_opt_find("HIPRI"), ib_engine_opt_find("hipri"));
	assert_null(ib_engine_opt_find("bs"));
	for (set = ib_engine_opts_list(); *set; set++) {
		/* an engine of this binary, or one it was built without */
		assert_true(ib_engine_find((*set)->engine) ||
			    (ib_engine_known_unbuilt((*set)->engine) && (*set)->library));
		assert_ptr_equal(ib_engine_opts_find((*set)->engine), *set);
		for (o = (*set)->rows; o->name; o++) {
			f = ib_opt_find(o->name);
			assert_int_equal(o->cat, IB_CAT_ENGOPT);
			assert_true(ib_engine_has_option((*set)->engine, o->name));
			/* the row the parser uses is the same in every engine */
			assert_int_equal(f->type, o->type);
			assert_int_equal(f->off, o->off);
			assert_int_equal(f->size, o->size);
			assert_int_equal(f->min, o->min);
			assert_int_equal(f->max, o->max);
			assert_string_equal(f->help, o->help);
		}
	}
	assert_null(ib_engine_opts_find("psync"));
	assert_null(ib_engine_opts_find("null"));
}

/* Do a and b hold the same values: strings and tables by content (job.h)? */
static bool same_job(const struct ib_job *a, const struct ib_job *b)
{
	struct ib_job x = *a, y = *b;
	unsigned int i;

	for (i = 0; i < IB_JOB_NR_STRS; i++) {
		if (strcmp(*ib_job_str_at(&x, i), *ib_job_str_at(&y, i)))
			return false;
		*ib_job_str_at(&x, i) = *ib_job_str_at(&y, i) = NULL;
	}
	for (i = 0; i < IB_JOB_NR_TABS; i++) {
		if (memcmp(*ib_job_tab_at(&x, i), *ib_job_tab_at(&y, i), ib_job_tabs[i].size))
			return false;
		*ib_job_tab_at(&x, i) = *ib_job_tab_at(&y, i) = NULL;
	}
	return !memcmp(&x, &y, sizeof(x));
}

/* Every default the help shows is what ib_job_defaults() really sets. */
static void test_defaults_match_help(void **state)
{
	struct ib_job *def = *state, *j = malloc(sizeof(*j));
	const struct ib_opt *o;
	unsigned int i;

	assert_non_null(j);
	for (i = 0; (o = ib_opt_get(i)); i++) {
		if (!o->def)
			continue;
		ib_job_defaults(j);
		j->strs = def->strs;
		set_ok(j, o->name, o->def);
		j->opts_text = def->opts_text;
		j->opts_len = 0;
		/* given, even as the default's value, is not a default (job.h) */
		j->ioengine_given = j->direct_given = false;
		j->rate.thinktime_blocks_set = false;
		j->norandommap_given = j->scramble_given = false;
		if (j->rand_gen == IB_RANDGEN_TAUS)	/* given as the default */
			j->rand_gen = IB_RANDGEN_AUTO;
		if (!same_job(j, def))
			fail_msg("%s: default '%s' is not the real default", o->name, o->def);
	}
	free(j);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_find_aliases), T(test_rw), T(test_rwmix),
		T(test_rwmix_write_only), T(test_bs_lists), T(test_bsrange),
		T(test_filetype), T(test_sizes), T(test_kb_base_applies), T(test_times),
		T(test_bools_and_flags), T(test_numbers), T(test_randseed),
		T(test_strings), T(test_steadystate_options), T(test_rate_options), T(test_enums), T(test_ignore_error),
		T(test_percentiles), T(test_unknown_and_unsupported),
		T(test_aliases_deprecated), T(test_proc_opts), T(test_suggest), T(test_opts_text),
		T(test_opts_text_full), T(test_table_sane),
		T(test_engine_rows), T(test_defaults_match_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
