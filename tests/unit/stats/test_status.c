// SPDX-License-Identifier: GPL-2.0-only
/*
 * A status report's read of a running job (status.h): the job's copy once
 * it answered the report's request, the numbers in place while the job
 * waits (idle odd), and neither otherwise: a job that has not answered and
 * is not waiting may be changing them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/status.h"

struct fix {
	struct ib_status_slot slot;
	struct ib_job_stats live, out;
};

static struct fix *fix_new(void)
{
	struct fix *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->live.dir[IB_DDIR_READ].total_ios = 7;
	return f;
}

/* Answered: the copy and its time, whatever the job does meanwhile. */
static void test_answered(void **state)
{
	struct fix *f = fix_new();
	uint64_t t = 0;

	(void)state;
	ib_status_ask(&f->slot, 1);
	assert_false(ib_status_answered(&f->slot, 1));
	ib_status_look(&f->slot, &f->live);
	assert_true(ib_status_answered(&f->slot, 1));
	f->live.dir[IB_DDIR_READ].total_ios = 9;	/* it goes on */
	ib_status_look(&f->slot, &f->live);		/* answered: no copy */
	assert_true(ib_status_read(&f->slot, 1, &f->live, &f->out, &t));
	assert_int_equal(f->out.dir[IB_DDIR_READ].total_ios, 7);
	assert_int_equal(t, f->slot.t_ns);
	assert_true(t > 0);
	free(f);
}

/* Waiting (idle odd): read in place, now; not waiting, not answered: no. */
static void test_idle(void **state)
{
	struct fix *f = fix_new();
	uint64_t t = 5;

	(void)state;
	ib_status_ask(&f->slot, 1);
	assert_false(ib_status_read(&f->slot, 1, &f->live, &f->out, &t));
	ib_status_idle(&f->slot);			/* the wait starts */
	assert_true(ib_status_is_idle(&f->slot));
	assert_true(ib_status_read(&f->slot, 1, &f->live, &f->out, &t));
	assert_int_equal(f->out.dir[IB_DDIR_READ].total_ios, 7);
	assert_int_equal(t, 5);				/* the caller's now */
	ib_status_idle(&f->slot);			/* it is over */
	assert_false(ib_status_is_idle(&f->slot));
	assert_false(ib_status_read(&f->slot, 1, &f->live, &f->out, &t));
	assert_int_equal(f->slot.idle, 2);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_answered),
		cmocka_unit_test(test_idle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
