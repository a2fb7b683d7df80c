// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run-level command-line options on their own (cli_opts.c): the table
 * lookup, each flag's field, the values' fields, --version and --help's
 * stops, and each setter's error text naming the option and the value.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "config.h"
#include "iobench/cli.h"
#include "iobench/help.h"
#include "src/cmd/cli_priv.h"

struct cfix {
	struct cli_state st;
	struct ib_plan run;
	char out[256];
	struct ib_diag d;
};

static struct cfix *cfix_new(void)
{
	struct cfix *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	ib_plan_init(&f->run);
	f->st.run = &f->run;
	f->st.out = fmemopen(f->out, sizeof(f->out), "w");
	assert_non_null(f->st.out);
	return f;
}

static void cfix_free(struct cfix *f)
{
	fclose(f->st.out);
	ib_plan_free(&f->run);
	free(f);
}

static int opt(struct cfix *f, const char *name, const char *v)
{
	const struct cli_opt *c = cli_find(name);

	assert_non_null(c);
	f->d.msg[0] = '\0';
	return cli_run_opt(&f->st, c, v, &f->d);
}

static void lookup(void **state)
{
	(void)state;
	assert_int_equal(cli_find("eta")->id, C_ETA);
	assert_int_equal(cli_find("eta")->arg, A_REQ);
	assert_int_equal(cli_find("v")->id, C_VERSION);
	assert_int_equal(cli_find("cmdhelp")->arg, A_OPT);
	assert_int_equal(cli_find("minimal")->arg, A_NONE);
	assert_null(cli_find("etaa"));
	assert_null(cli_find(""));
	/* every name did-you-mean lists is in the table */
	for (unsigned int i = 0; ib_cli_names[i]; i++)
		assert_non_null(cli_find(ib_cli_names[i]));
}

static void flags(void **state)
{
	struct cfix *f = cfix_new();

	(void)state;
	assert_int_equal(opt(f, "readonly", ""), 0);
	assert_int_equal(opt(f, "parse-only", ""), 0);
	assert_int_equal(opt(f, "showcmd", ""), 0);
	assert_int_equal(opt(f, "env", ""), 0);
	assert_int_equal(opt(f, "no-calibrate", ""), 0);
	assert_int_equal(opt(f, "hist", ""), 0);
	assert_int_equal(opt(f, "minimal", ""), 0);
	assert_true(f->run.readonly && f->run.parse_only && f->run.showcmd &&
		    f->run.show_env && f->run.no_calibrate && f->run.hist);
	assert_int_equal(f->run.output_format, IB_OUT_TERSE);
	cfix_free(f);
}

static void values(void **state)
{
	struct cfix *f = cfix_new();

	(void)state;
	assert_int_equal(opt(f, "eta", "never"), 0);
	assert_int_equal(f->run.eta, IB_ETA_NEVER);
	assert_int_equal(opt(f, "eta-interval", "2s"), 0);
	assert_int_equal(f->run.eta_interval_ms, 2000);
	assert_int_equal(opt(f, "terse-version", "4"), 0);
	assert_int_equal(f->run.terse_version, 4);
	assert_int_equal(opt(f, "repeat", "1000"), 0);
	assert_int_equal(f->run.repeat, 1000);
	assert_int_equal(opt(f, "output", "/tmp/x.out"), 0);
	assert_string_equal(f->run.output, "/tmp/x.out");
	cfix_free(f);
}

static void stops(void **state)
{
	struct cfix *f = cfix_new();
	char want[64];

	(void)state;
	assert_int_equal(opt(f, "version", ""), IB_CLI_DONE);
	fflush(f->st.out);
	snprintf(want, sizeof(want), "iobench-%s\n", IOBENCH_VERSION);
	assert_string_equal(f->out, want);
	assert_int_equal(opt(f, "help", ""), IB_CLI_HELP);
	cfix_free(f);
}

static void errors_named(void **state)
{
	struct cfix *f = cfix_new();

	(void)state;
	assert_int_equal(opt(f, "eta", "sometimes"), -EINVAL);
	assert_string_equal(f->d.msg, "--eta: invalid value 'sometimes' (valid: auto, always, never)");
	assert_int_equal(opt(f, "terse-version", "6"), -EINVAL);
	assert_string_equal(f->d.msg, "--terse-version: invalid value '6' (valid: 2, 3, 4, 5)");
	assert_int_equal(opt(f, "repeat", "0"), -EINVAL);
	assert_string_equal(f->d.msg, "--repeat: invalid value '0' (1..1000)");
	assert_int_equal(opt(f, "eta-interval", "100ms"), -ERANGE);
	assert_string_equal(f->d.msg, "--eta-interval: 100ms is below the minimum of 250ms");
	assert_int_equal(opt(f, "output-format", "xml"), -EINVAL);
	assert_non_null(strstr(f->d.msg, "--output-format: unknown format 'xml' (valid: "));
	assert_int_equal(opt(f, "max-jobs", "0"), -EINVAL);
	assert_string_equal(f->d.msg, "--max-jobs: invalid value '0' (a number of jobs, at least 1)");
	/* the values before an error are kept, the bad one set nothing */
	assert_int_equal(f->run.repeat, 0);
	cfix_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lookup),
		cmocka_unit_test(flags),
		cmocka_unit_test(values),
		cmocka_unit_test(stops),
		cmocka_unit_test(errors_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
