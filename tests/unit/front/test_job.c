// SPDX-License-Identifier: GPL-2.0-only
/*
 * job.c, validate.c, plan.c: defaults, fio's fix-ups, validation messages,
 * numjobs expansion and ib_plan_build (the one way any front end makes a plan).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/job_setup.h"
#include "config.h"
#include "iobench/jobfile.h"
#include "iobench/options.h"
#include "iobench/strtab.h"
#include "iobench/plan.h"

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
	j->name = "x";
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

static void set(struct ib_job *j, const char *name, const char *v)
{
	struct ib_diag d = { { 0 } };

	if (ib_opt_set(j, name, v, &d))
		fail_msg("%s=%s: %s", name, v, d.msg);
}

static void valid(struct ib_job *j)
{
	struct ib_diag d = { { 0 } };

	ib_job_fixup(j);
	if (ib_job_validate(j, false, &d))
		fail_msg("unexpected: %s", d.msg);
}

static void invalid(struct ib_job *j, bool readonly, int err, const char *msg)
{
	struct ib_diag d = { { 0 } };

	ib_job_fixup(j);
	assert_int_equal(ib_job_validate(j, readonly, &d), -err);
	assert_string_equal(d.msg, msg);
}

static void test_defaults(void **state)
{
	struct ib_job *j = *state;

	assert_int_equal(j->rw, IB_RW_READ);
	assert_int_equal(j->rwmixread, 50);
	assert_int_equal(j->bs.min[IB_DDIR_READ], 4096);
	assert_int_equal(j->iodepth, 1);
	assert_int_equal(j->numjobs, 1);
	assert_int_equal(j->loops, 1);
	assert_string_equal(j->ioengine, "io_uring");
	assert_true(j->direct);
	assert_int_equal(j->defaults, IB_DEFAULTS_IOBENCH);
	assert_false(j->ioengine_given);
	assert_false(j->direct_given);
	assert_true(j->randrepeat);
	assert_int_equal(j->kb_base, 1024);
	assert_int_equal(j->nr_percentiles, 17);
	valid(j);
}

/* defaults=fio: fio's buffered psync, for whatever the job does not set */
static void test_defaults_fio(void **state)
{
	struct ib_job *j = *state;

	set(j, "defaults", "fio");
	assert_string_equal(j->ioengine, "psync");
	assert_false(j->direct);
	assert_false(j->ioengine_given);
	assert_false(j->direct_given);
	set(j, "defaults", "iobench");
	assert_string_equal(j->ioengine, "io_uring");
	assert_true(j->direct);
	/* given options stay, before or after defaults= */
	set(j, "direct", "1");
	set(j, "defaults", "fio");
	assert_true(j->direct);
	assert_true(j->direct_given);
	assert_string_equal(j->ioengine, "psync");
	set(j, "ioengine", "libaio");
	set(j, "defaults", "iobench");
	assert_string_equal(j->ioengine, "libaio");
	assert_true(j->ioengine_given);
	set(j, "buffered", "1");
	assert_false(j->direct);
	set(j, "defaults", "iobench");
	assert_false(j->direct);
	valid(j);
}

/*
 * bs not a multiple of 512 is refused with a given direct=1 only: with the
 * default one, the runner runs the job buffered.
 */
static void test_default_direct_bs(void **state)
{
	struct ib_job *j = *state;

	set(j, "bs", "1000");
	valid(j);
	assert_true(j->direct);
	set(j, "direct", "1");
	invalid(j, false, EINVAL, "bs: 1000 is not a multiple of 512, required by direct=1");
}

static void test_fixup_depths(void **state)
{
	struct ib_job *j = *state;

	set(j, "iodepth", "16");
	set(j, "iodepth_batch_submit", "0");
	set(j, "iodepth_batch_complete_min", "4");
	set(j, "iodepth_low", "0");
	valid(j);
	assert_int_equal(j->iodepth_batch_submit, 16);
	assert_int_equal(j->iodepth_batch_complete_max, 16);	/* iobench's */
	assert_int_equal(j->iodepth_low, 16);
}

/* j back to the defaults, its string table kept */
static void fresh(struct ib_job *j)
{
	struct ib_strtab *strs = j->strs;

	ib_job_defaults(j);
	j->strs = strs;
}

/*
 * Not given, the batch options are iobench's (up to iodepth), or fio's
 * with defaults=fio; given, as given (0: complete_min, fio's); complete_min
 * above iodepth takes complete_max along, no error; auto: the default again.
 */
static void test_fixup_batch_defaults(void **state)
{
	static const struct {
		const char *opts[8];	/* name, value, ... */
		unsigned int submit, complete_min, complete_max;
	} cases[] = {
		{ { "iodepth", "16" }, 16, 1, 16 },
		{ { "iodepth", "16", "defaults", "fio" }, 1, 1, 1 },
		{ { "iodepth", "16", "iodepth_batch_submit", "1",
		    "iodepth_batch_complete_min", "2",
		    "iodepth_batch_complete_max", "0" }, 1, 2, 2 },
		{ { "iodepth", "4", "iodepth_batch_complete_min", "8" }, 4, 8, 8 },
		{ { "iodepth", "16", "iodepth_batch_submit", "2",
		    "iodepth_batch_submit", "auto" }, 16, 1, 16 },
		{ { "iodepth", "16", "iodepth_batch_complete_max", "3",
		    "iodepth_batch_complete_max", "auto" }, 16, 1, 16 },
	};
	struct ib_job *j = *state;
	unsigned int i, k;

	for (i = 0; i < IB_ARRAY_SIZE(cases); i++) {
		fresh(j);
		for (k = 0; k < 8 && cases[i].opts[k]; k += 2)
			set(j, cases[i].opts[k], cases[i].opts[k + 1]);
		valid(j);
		assert_int_equal(j->iodepth_batch_submit, cases[i].submit);
		assert_int_equal(j->iodepth_batch_complete_min, cases[i].complete_min);
		assert_int_equal(j->iodepth_batch_complete_max, cases[i].complete_max);
	}
}

static void test_fixup_depths_clamped(void **state)
{
	struct ib_job *j = *state;

	set(j, "iodepth", "8");
	set(j, "iodepth_batch", "64");
	set(j, "iodepth_low", "9");
	valid(j);
	assert_int_equal(j->iodepth_batch_submit, 8);
	assert_int_equal(j->iodepth_low, 8);
	assert_int_equal(j->iodepth_batch_complete_min, 1);
	assert_int_equal(j->iodepth_batch_complete_max, 8);
}

static void test_fixup_blockalign(void **state)
{
	struct ib_job *j = *state;

	set(j, "bs", "8k,16k");
	valid(j);
	assert_int_equal(j->bs.align[IB_DDIR_READ], 8192);
	assert_int_equal(j->bs.align[IB_DDIR_WRITE], 16384);
	assert_int_equal(j->bs.align[IB_DDIR_TRIM], 16384);
}

static void test_fixup_gtod_reduce(void **state)
{
	struct ib_job *j = *state;

	set(j, "gtod_reduce", "1");
	valid(j);
	assert_true(j->disable_lat);
	assert_true(j->disable_clat);
	assert_true(j->disable_slat);
	assert_false(j->disable_bw);
	assert_false(j->clat_percentiles);
	assert_false(j->lat_percentiles);
	assert_false(j->slat_percentiles);
}

static void test_fixup_log_names(void **state)
{
	struct ib_job *j = *state;

	set(j, "write_bw_log", "");
	set(j, "write_lat_log", "lat");
	valid(j);
	assert_string_equal(j->logs.bw, "x");
	assert_string_equal(j->logs.lat, "lat");
	assert_string_equal(j->logs.iops, "");
}

static void test_complete_max_below_min(void **state)
{
	struct ib_job *j = *state;

	set(j, "iodepth", "16");
	set(j, "iodepth_batch_complete_min", "8");
	set(j, "iodepth_batch_complete_max", "4");
	invalid(j, false, EINVAL,
		"iodepth_batch_complete_max: 4 is less than iodepth_batch_complete_min 8");
}

static void test_bs_checks(void **state)
{
	struct ib_job *j = *state;

	set(j, "bs", "1000");
	valid(j); /* buffered: any size */
	set(j, "direct", "1");
	invalid(j, false, EINVAL, "bs: 1000 is not a multiple of 512, required by direct=1");
	set(j, "bs", "4k");
	set(j, "buffered", "0");
	valid(j);
	set(j, "bs", "0");
	invalid(j, false, EINVAL, "bs: block size must not be 0");
}

static void test_bs_unused_direction_ignored(void **state)
{
	struct ib_job *j = *state;

	set(j, "direct", "1");
	set(j, "bs", "4k,1000");
	valid(j); /* rw=read: the write size does not matter */
	set(j, "rw", "randrw");
	invalid(j, false, EINVAL, "bs: 1000 is not a multiple of 512, required by direct=1");
}

static void test_bsrange_direct(void **state)
{
	struct ib_job *j = *state;

	set(j, "direct", "1");
	set(j, "bsrange", "512-1500");
	invalid(j, false, EINVAL, "bs: 1500 is not a multiple of 512, required by direct=1");
}

static void test_bs_min_above_max(void **state)
{
	struct ib_job *j = *state;

	j->bs.min[IB_DDIR_READ] = 8192;
	j->bs.max[IB_DDIR_READ] = 4096;
	invalid(j, false, EINVAL, "bsrange: minimum 8192 is larger than maximum 4096");
}

static void test_size_below_bs(void **state)
{
	struct ib_job *j = *state;

	set(j, "bs", "8k");
	set(j, "size", "4k");
	invalid(j, false, EINVAL, "size: 4096 is smaller than the block size 8192");
	set(j, "size", "50%");
	valid(j);
}

static void test_engines(void **state)
{
	struct ib_job *j = *state;

	set(j, "ioengine", "foo");
	invalid(j, false, EINVAL, "ioengine: unknown engine 'foo'");
	set(j, "ioengine", "null");
	valid(j);
	set(j, "ioengine", "solarisaio");
	invalid(j, false, ENOTSUP, "ioengine=solarisaio: fio engine not supported by iobench");
}

static void test_engine_options(void **state)
{
	struct ib_job *j = *state;

	set(j, "hipri", "1");
	valid(j); /* iobench's default engine, io_uring, takes it */
	set(j, "defaults", "fio");
	invalid(j, false, EINVAL, "hipri: only valid with ioengine=io_uring or pvsync2");
	set(j, "ioengine", "pvsync2");
	valid(j);
	set(j, "nowait", "");
	valid(j);
	set(j, "ioengine", "psync");
	set(j, "hipri", "0");
	/* given explicitly, even =0, for an engine without it */
	invalid(j, false, EINVAL, "hipri: only valid with ioengine=io_uring or pvsync2");
}

static void test_engine_option_nowait(void **state)
{
	struct ib_job *j = *state;

	set(j, "ioengine", "psync"); /* fio's default */
	set(j, "nowait", "1");
	invalid(j, false, EINVAL, "nowait: only valid with ioengine=io_uring, pvsync2 or libaio");
	set(j, "ioengine", "libaio");
#if HAVE_LIBAIO
	valid(j);
#else
	invalid(j, false, ENOTSUP,
		"ioengine=libaio: not built into this iobench (libaio was not found at build time)");
#endif
}

static void test_engine_option_inherited(void **state)
{
	struct ib_job *j = *state;

	/* inherited from a global section: not in opts_text, but not default */
	set(j, "defaults", "fio");
	j->engine.sqthread_poll = true;
	invalid(j, false, EINVAL, "sqthread_poll: only valid with ioengine=io_uring");
	j->engine.sqthread_poll = false;
	j->engine.userspace_reap = true;
	invalid(j, false, EINVAL, "userspace_reap: only valid with ioengine=libaio");
}

/* io_uring's own check (io_uring_opts.c), run only for io_uring jobs. */
static void test_engine_validate_hook(void **state)
{
	struct ib_job *j = *state;

	set(j, "ioengine", "psync");
	set(j, "fixedbufs", "1");
	set(j, "iodepth", "16385");
	invalid(j, false, EINVAL, "fixedbufs: only valid with ioengine=io_uring");
	set(j, "ioengine", "io_uring");
#if HAVE_LIBURING
	invalid(j, false, EINVAL,
		"fixedbufs: iodepth=16385 needs 16385 registered buffers, io_uring allows 16384");
	set(j, "iodepth", "16384");
	valid(j);
	set(j, "fixedbufs", "0");
	set(j, "iodepth", "65536");
	valid(j);
#else
	invalid(j, false, ENOTSUP,
		"ioengine=io_uring: not built into this iobench (liburing was not found at build time)");
#endif
}

static void test_readonly(void **state)
{
	struct ib_job *j = *state;

	valid(j);
	set(j, "rw", "randwrite");
	invalid(j, true, EPERM, "job 'x': rw=randwrite writes, refused by --readonly");
	set(j, "rw", "rw");
	invalid(j, true, EPERM, "job 'x': rw=rw writes, refused by --readonly");
}

static void test_misc(void **state)
{
	struct ib_job *j = *state;

	/* time_based without a runtime: fio runs the job size-based */
	set(j, "time_based", "");
	valid(j);
	assert_false(j->time_based);
	assert_true(j->time_based_dropped);
	set(j, "time_based", "1");
	j->time_based_dropped = false;
	set(j, "runtime", "1");
	valid(j);
	assert_true(j->time_based);
	assert_false(j->time_based_dropped);
	j->numjobs = 0;
	invalid(j, false, EINVAL, "numjobs: must be at least 1");
	j->numjobs = 1;
	j->loops = 0;
	invalid(j, false, EINVAL, "loops: must be at least 1");
	j->loops = 1;
	j->iodepth = 0;
	invalid(j, false, EINVAL, "iodepth: must be at least 1");
	j->iodepth = 1;
	j->rwmixread = 101;
	invalid(j, false, EINVAL, "rwmixread: 101 is out of range (0..100)");
}

static void test_expand(void **state)
{
	struct ib_job *j = *state;
	struct ib_diag d = { { 0 } };
	struct ib_plan r;
	unsigned int i;

	ib_plan_init(&r);
	set(j, "numjobs", "3");
	set(j, "stonewall", "");
	valid(j);
	assert_int_equal(ib_plan_add_job(&r, j, &d), 0); /* first: no new group */
	j->name = "y";
	j->numjobs = 2;
	j->stonewall = false;
	assert_int_equal(ib_plan_add_job(&r, j, &d), 0); /* same group */
	j->name = "z";
	j->new_group = true;
	assert_int_equal(ib_plan_add_job(&r, j, &d), 0); /* new group */
	j->new_group = false;
	j->stonewall = true;
	j->numjobs = 1;
	j->name = "w";
	assert_int_equal(ib_plan_add_job(&r, j, &d), 0); /* new group */
	assert_int_equal(r.nr_jobs, 8);
	for (i = 0; i < r.nr_jobs; i++)
		assert_int_equal(r.jobs[i].number, i + 1);
	assert_string_equal(r.jobs[0].name, "x");
	assert_string_equal(r.jobs[2].name, "x");
	assert_string_equal(r.jobs[3].name, "y");
	assert_int_equal(r.jobs[0].clone, 0);
	assert_int_equal(r.jobs[2].clone, 2);
	assert_int_equal(r.jobs[4].clone, 1);
	assert_int_equal(r.jobs[0].groupid, 0);
	assert_int_equal(r.jobs[4].groupid, 0);
	assert_int_equal(r.jobs[5].groupid, 1);
	assert_int_equal(r.jobs[6].groupid, 1);
	assert_int_equal(r.jobs[7].groupid, 2);
	/* only the first clone keeps stonewall/new_group */
	assert_true(r.jobs[0].stonewall);
	assert_false(r.jobs[1].stonewall);
	assert_true(r.jobs[5].new_group);
	assert_false(r.jobs[6].new_group);
	ib_plan_free(&r);
	assert_null(r.jobs);
	assert_int_equal(r.nr_jobs, 0);
}

static void test_expand_limit(void **state)
{
	struct ib_job *j = *state;
	struct ib_diag d = { { 0 } };
	struct ib_plan r;
	unsigned int i;

	ib_plan_init(&r);
	j->numjobs = 4096;
	assert_int_equal(ib_plan_add_job(&r, j, &d), 0);
	j->numjobs = 1;
	assert_int_equal(ib_plan_add_job(&r, j, &d), -E2BIG);
	assert_string_equal(d.msg, "job 'x': more than 4096 jobs in total");
	for (i = 0; i < r.nr_jobs; i++)
		if (r.jobs[i].number != i + 1)
			fail_msg("number %u at %u", r.jobs[i].number, i);
	ib_plan_free(&r);
}

/* A jobset as a front end would describe it: [global] iodepth=8, a, b, c. */
static void three_sections(struct ib_jobset *s)
{
	static const char *const names[] = { "a", "b", "c" };
	struct ib_diag d = { { 0 } };
	struct ib_section *sec;
	unsigned int i;

	ib_jobset_init(s);
	sec = ib_jobset_open(s, "global", true, 0, &d);
	assert_non_null(sec);
	assert_int_equal(ib_jobset_set(s, sec, "iodepth", "8", IB_OPT_CTX_FILE, &d), 0);
	for (i = 0; i < 3; i++) {
		sec = ib_jobset_open(s, names[i], false, 0, &d);
		assert_non_null(sec);
		assert_int_equal(ib_jobset_set(s, sec, "numjobs", "2", IB_OPT_CTX_FILE, &d), 0);
	}
}

static void test_build(void **state)
{
	struct ib_diag d = { { 0 } };
	struct ib_jobset s;
	struct ib_plan r;

	(void)state;
	three_sections(&s);
	ib_plan_init(&r);
	strcpy(r.sections[r.nr_sections++], "c");
	strcpy(r.sections[r.nr_sections++], "a");
	assert_int_equal(ib_plan_build(&r, &s, &d), 0);
	/* a and c, in section order, two clones each, fixed up */
	assert_int_equal(r.nr_jobs, 4);
	assert_string_equal(r.jobs[0].name, "a");
	assert_string_equal(r.jobs[1].name, "a");
	assert_string_equal(r.jobs[2].name, "c");
	assert_int_equal(r.jobs[3].clone, 1);
	assert_int_equal(r.jobs[3].number, 4);
	assert_int_equal(r.jobs[2].iodepth, 8);
	assert_int_equal(r.jobs[2].iodepth_batch_submit, 8);	/* iobench's */
	assert_int_equal(r.jobs[2].iodepth_low, 8);
	assert_int_equal(r.jobs[2].bs.align[IB_DDIR_READ], 4096);
	assert_string_equal(ib_opts_text_get(r.global_opts_text, r.global_opts_len,
					     "iodepth"), "8");
	ib_plan_free(&r);
	ib_jobset_free(&s);
}

static void test_build_errors(void **state)
{
	struct ib_diag d = { { 0 } };
	struct ib_jobset s;
	struct ib_plan r;

	(void)state;
	three_sections(&s);
	ib_plan_init(&r);
	strcpy(r.sections[r.nr_sections++], "d");
	assert_int_equal(ib_plan_build(&r, &s, &d), -ENOENT);
	assert_string_equal(d.msg, "--section: no job section named 'd'");
	assert_int_equal(r.nr_jobs, 0);
	ib_plan_free(&r);
	ib_plan_init(&r);
	r.readonly = true;
	assert_int_equal(ib_jobset_set(&s, &s.secs[2], "rw", "write", IB_OPT_CTX_FILE, &d), 0);
	assert_int_equal(ib_plan_build(&r, &s, &d), -EPERM);
	assert_string_equal(d.msg, "job 'b': rw=write writes, refused by --readonly");
	assert_int_equal(r.nr_jobs, 2); /* a's clones, freed with the run */
	ib_plan_free(&r);
	ib_jobset_free(&s);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_defaults), T(test_fixup_depths), T(test_fixup_depths_clamped),
		T(test_fixup_batch_defaults),
		T(test_fixup_blockalign), T(test_fixup_gtod_reduce),
		T(test_fixup_log_names), T(test_complete_max_below_min), T(test_bs_checks),
		T(test_bs_unused_direction_ignored), T(test_bsrange_direct),
		T(test_bs_min_above_max), T(test_size_below_bs), T(test_engines),
		T(test_defaults_fio), T(test_default_direct_bs),
		T(test_engine_options), T(test_engine_option_nowait),
		T(test_engine_option_inherited), T(test_engine_validate_hook),
		T(test_readonly), T(test_misc),
		T(test_expand), T(test_expand_limit), T(test_build),
		T(test_build_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
