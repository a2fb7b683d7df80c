// SPDX-License-Identifier: GPL-2.0-only
/* I/O error policy: ignore_error's parser, error types, non-fatal lists. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "iobench/ioerr.h"

static void parse_ok(const char *v, struct ib_err_list l[IB_ERR_TYPE_NR])
{
	struct ib_diag d = { { 0 } };

	assert_int_equal(ib_ignore_error_parse(v, l, &d), 0);
	assert_string_equal(d.msg, "");
}

static void parse_bad(const char *v, int err, const char *msg)
{
	struct ib_err_list l[IB_ERR_TYPE_NR];
	struct ib_diag d = { { 0 } };

	assert_int_equal(ib_ignore_error_parse(v, l, &d), -err);
	assert_string_equal(d.msg, msg);
}

static void assert_list(const struct ib_err_list *l, unsigned int nr, ...)
{
	va_list ap;
	unsigned int i;

	assert_int_equal(l->nr, nr);
	va_start(ap, nr);
	for (i = 0; i < nr; i++)
		assert_int_equal(l->err[i], va_arg(ap, int));
	va_end(ap);
}

/* fio's man page example: EAGAIN for reads, ENOSPC and 122 for writes. */
static void test_parse_lists(void **state)
{
	struct ib_err_list l[IB_ERR_TYPE_NR];

	(void)state;
	parse_ok("EAGAIN,ENOSPC:122", l);
	assert_list(&l[IB_ERR_READ], 1, EAGAIN);
	assert_list(&l[IB_ERR_WRITE], 2, ENOSPC, 122);
	assert_list(&l[IB_ERR_VERIFY], 0);

	parse_ok(",ENOSPC", l);
	assert_list(&l[IB_ERR_READ], 0);
	assert_list(&l[IB_ERR_WRITE], 1, ENOSPC);

	parse_ok("EIO:ENXIO,,EILSEQ", l);
	assert_list(&l[IB_ERR_READ], 2, EIO, ENXIO);
	assert_list(&l[IB_ERR_WRITE], 0);
	assert_list(&l[IB_ERR_VERIFY], 1, EILSEQ);

	/* empty entries and lists are skipped, duplicates kept once */
	parse_ok(":EIO:,,", l);
	assert_list(&l[IB_ERR_READ], 1, EIO);
	assert_list(&l[IB_ERR_WRITE], 0);
	assert_list(&l[IB_ERR_VERIFY], 0);
	parse_ok(",ENOSPC:28:ENOSPC", l);
	assert_list(&l[IB_ERR_WRITE], 1, ENOSPC);
	parse_ok(" EIO : 5 , ENOSPC ", l);
	assert_list(&l[IB_ERR_READ], 1, EIO);
	assert_list(&l[IB_ERR_WRITE], 1, ENOSPC);
	/* ':' alone, as fio: a read list with nothing in it */
	parse_ok(":ENOSPC", l);
	assert_list(&l[IB_ERR_READ], 1, ENOSPC);
	assert_list(&l[IB_ERR_WRITE], 0);
}

static void test_parse_names(void **state)
{
	(void)state;
	assert_int_equal(ib_errno_parse("EPERM"), EPERM);
	assert_int_equal(ib_errno_parse("ERANGE"), ERANGE);
	/* names past fio's table (EPERM..ERANGE) too */
	assert_int_equal(ib_errno_parse("EDQUOT"), EDQUOT);
	assert_int_equal(ib_errno_parse("EILSEQ"), EILSEQ);
	assert_int_equal(ib_errno_parse("EOPNOTSUPP"), EOPNOTSUPP);
	assert_int_equal(ib_errno_parse("ENOTSUP"), EOPNOTSUPP);
	assert_int_equal(ib_errno_parse("EWOULDBLOCK"), EAGAIN);
	assert_int_equal(ib_errno_parse("EDEADLOCK"), EDEADLK);
	assert_int_equal(ib_errno_parse("EHWPOISON"), EHWPOISON);
	assert_int_equal(ib_errno_parse("28"), ENOSPC);
	assert_int_equal(ib_errno_parse("1"), 1);
	assert_int_equal(ib_errno_parse("4095"), 4095);
	assert_int_equal(ib_errno_parse("enospc"), -EINVAL);
	assert_int_equal(ib_errno_parse("EFOO"), -EINVAL);
	assert_int_equal(ib_errno_parse("E"), -EINVAL);
	assert_int_equal(ib_errno_parse("0"), -EINVAL);
	assert_int_equal(ib_errno_parse("4096"), -EINVAL);
	assert_int_equal(ib_errno_parse("-5"), -EINVAL);
	assert_int_equal(ib_errno_parse("+5"), -EINVAL);
	assert_int_equal(ib_errno_parse("28x"), -EINVAL);
	assert_int_equal(ib_errno_parse("0x1c"), -EINVAL);
	assert_int_equal(ib_errno_parse("99999999999999999999"), -EINVAL);
}

static void test_parse_errors(void **state)
{
	char big[200];
	unsigned int i;

	(void)state;
	parse_bad(",EFOO", EINVAL,
		  "unknown error 'EFOO' in the write list (an errno name such as ENOSPC, or a number 1-4095)");
	parse_bad("EIO:enospc", EINVAL,
		  "unknown error 'enospc' in the read list (an errno name such as ENOSPC, or a number 1-4095)");
	parse_bad(",,28x", EINVAL,
		  "unknown error '28x' in the verify list (an errno name such as ENOSPC, or a number 1-4095)");
	parse_bad(",0", EINVAL,
		  "unknown error '0' in the write list (an errno name such as ENOSPC, or a number 1-4095)");
	parse_bad("EIO,EIO,EIO,EIO", EINVAL,
		  "'EIO,EIO,EIO,EIO': at most 3 lists (read,write,verify)");
	parse_bad(",,,", EINVAL, "',,,': at most 3 lists (read,write,verify)");
	parse_bad("EAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", EINVAL,
		  "unknown error 'EAAAAAAAAAAAAAAAAAAAAAAAAAAA...' in the read list (an errno name such as ENOSPC, or a number 1-4095)");
	/* 33 distinct errors in one list */
	big[0] = ',';
	big[1] = '\0';
	for (i = 1; i <= IB_ERR_LIST_MAX + 1; i++)
		snprintf(big + strlen(big), sizeof(big) - strlen(big), "%s%u",
			 i > 1 ? ":" : "", i);
	parse_bad(big, E2BIG, "more than 32 errors for write");
}

static void test_types(void **state)
{
	(void)state;
	assert_int_equal(ib_err_type_of(IB_DDIR_READ, EIO), IB_ERR_READ);
	assert_int_equal(ib_err_type_of(IB_DDIR_WRITE, EIO), IB_ERR_WRITE);
	assert_int_equal(ib_err_type_of(IB_DDIR_SYNC, EIO), IB_ERR_WRITE);
	assert_int_equal(ib_err_type_of(IB_DDIR_TRIM, ENOSPC), IB_ERR_WRITE);
	assert_int_equal(ib_err_type_of(IB_DDIR_READ, EILSEQ), IB_ERR_VERIFY);
	assert_int_equal(ib_err_type_of(IB_DDIR_WRITE, EILSEQ), IB_ERR_VERIFY);
}

/* (goes on, counted) for err in ddir, completed inline or reaped */
static void decide(const struct ib_job *j, enum ib_ddir ddir, int err,
		   bool inline_done, bool go_on, bool count)
{
	bool c = !count;

	assert_int_equal(ib_err_decide(j, ddir, err, inline_done, &c), go_on);
	assert_int_equal(c, count);
}

static void test_decide(void **state)
{
	struct ib_err_list lists[IB_ERR_TYPE_NR] = { { 0, { 0 } } };
	struct ib_job j;
	struct ib_diag d = { { 0 } };

	(void)state;
	memset(&j, 0, sizeof(j));
	j.ignore_error = ib_job_no_ignore_error;
	/* continue_on_error=none: everything stops the job, uncounted */
	decide(&j, IB_DDIR_READ, EIO, true, false, false);
	decide(&j, IB_DDIR_WRITE, ENOSPC, true, false, false);
	j.continue_on_error = IB_COE_WRITE;
	decide(&j, IB_DDIR_WRITE, EIO, false, true, true);
	decide(&j, IB_DDIR_SYNC, EIO, true, true, true);
	/* fatal, covered: counted when inline (psync, fsync), not when reaped */
	decide(&j, IB_DDIR_WRITE, ENOSPC, true, false, true);
	decide(&j, IB_DDIR_WRITE, ENOSPC, false, false, false);
	decide(&j, IB_DDIR_SYNC, ENOSPC, true, false, true);
	/* not covered: reads, and EILSEQ (a verify error) */
	decide(&j, IB_DDIR_READ, EIO, true, false, false);
	decide(&j, IB_DDIR_WRITE, EILSEQ, true, false, false);
	j.continue_on_error = IB_COE_VERIFY;
	decide(&j, IB_DDIR_READ, EILSEQ, false, true, true);
	/* a given list replaces the default for its type only */
	assert_int_equal(ib_ignore_error_parse("ENODATA,ENOSPC", lists, &d), 0);
	j.ignore_error = lists;
	j.continue_on_error = IB_COE_ALL;
	decide(&j, IB_DDIR_WRITE, ENOSPC, false, true, true);
	decide(&j, IB_DDIR_WRITE, EIO, false, false, false);
	decide(&j, IB_DDIR_WRITE, EIO, true, false, true);
	decide(&j, IB_DDIR_READ, ENODATA, false, true, true);
	decide(&j, IB_DDIR_READ, EIO, false, false, false);
	decide(&j, IB_DDIR_WRITE, EILSEQ, false, true, true);
}

static void test_listed(void **state)
{
	struct ib_err_list l = { 0 };

	(void)state;
	assert_true(ib_err_listed(&l, EIO));
	assert_true(ib_err_listed(&l, EILSEQ));
	assert_false(ib_err_listed(&l, ENOSPC));
	l.nr = 1;
	l.err[0] = ENOSPC;
	assert_true(ib_err_listed(&l, ENOSPC));
	assert_false(ib_err_listed(&l, EIO));
}

static void test_names(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(ib_errno_name(EIO), "EIO");
	assert_string_equal(ib_errno_name(ENOSPC), "ENOSPC");
	assert_null(ib_errno_name(0));
	assert_null(ib_errno_name(4000));
	assert_string_equal(ib_strerror_named(EIO, buf, sizeof(buf)),
			    "Input/output error (EIO)");
	assert_string_equal(ib_strerror_named(ENOSPC, buf, sizeof(buf)),
			    "No space left on device (ENOSPC)");
	assert_string_equal(ib_strerror_named(4000, buf, sizeof(buf)),
			    "Unknown error 4000");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_lists),
		cmocka_unit_test(test_parse_names),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_listed),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
