// SPDX-License-Identifier: GPL-2.0-only
/*
 * The engine a job runs with (iomode.h): a given engine as it is, fio's
 * default under defaults=fio, and iobench's default chain, which skips an
 * engine that does not take an engine option the job sets. (Kernels that
 * refuse io_uring: tests/integration/test_defaults.py, under seccomp.)
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
#include "src/run/iomode.h"
#include "iobench/options.h"
#include "iobench/strtab.h"

static struct ib_strtab strs;	/* the jobs' strings (job.h) */

static struct ib_diag diag;

/* The engine's name, or the error message. */
static const char *engine(struct ib_job *j, char *why, int *err)
{
	struct ib_iomode_cache c = { .nr = 0 };
	const struct ib_engine_ops *e;

	diag.msg[0] = '\0';
	e = ib_iomode_engine(j, &c, why, 256, err, &diag);
	return e ? e->name : diag.msg;
}

static void set(struct ib_job *j, const char *k, const char *v)
{
	struct ib_diag d = { { 0 } };

	if (ib_opt_set(j, k, v, &d))
		fail_msg("%s=%s: %s", k, v, d.msg);
}

static void test_given_and_fio(void **state)
{
	struct ib_job *j = malloc(sizeof(*j));
	char why[256];
	int err;

	(void)state;
	assert_non_null(j);
	ib_job_defaults(j);
	j->strs = &strs;
	set(j, "ioengine", "psync");
	assert_string_equal(engine(j, why, &err), "psync");
	assert_string_equal(why, "");
	assert_int_equal(err, 0);
	ib_job_defaults(j);
	j->strs = &strs;
	set(j, "defaults", "fio");
	assert_string_equal(engine(j, why, &err), "psync");
	ib_job_defaults(j);
	j->strs = &strs;
	set(j, "ioengine", "null");
	assert_string_equal(engine(j, why, &err), "null");
	free(j);
}

static void test_default_chain(void **state)
{
	struct ib_job *j = malloc(sizeof(*j));
	char why[256];
	int err;

	(void)state;
	assert_non_null(j);
	ib_job_defaults(j);
	j->strs = &strs;
#if HAVE_LIBURING
	assert_string_equal(engine(j, why, &err), "io_uring");
	assert_string_equal(why, "");
#endif
#if HAVE_LIBAIO
	/* only libaio takes userspace_reap (validation refuses it before) */
	j->engine.userspace_reap = true;
	assert_string_equal(engine(j, why, &err), "libaio");
	assert_string_equal(why, "io_uring does not take userspace_reap");
	j->engine.userspace_reap = false;
#endif
#if HAVE_LIBURING && HAVE_LIBAIO
	/* options no engine of the chain takes together: none can run it */
	j->engine.registerfiles = true;
	j->engine.userspace_reap = true;
	j->name = "x";
	assert_string_equal(engine(j, why, &err),
			    "job 'x': no I/O engine can run it here: "
			    "io_uring does not take userspace_reap; "
			    "libaio does not take registerfiles; "
			    "psync does not take registerfiles");
	assert_int_equal(err, -ENOTSUP);
#endif
	free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_given_and_fio),
		cmocka_unit_test(test_default_chain),
	};

	int ret = cmocka_run_group_tests(tests, NULL, NULL);

	ib_strtab_free(&strs);
	return ret;
}
