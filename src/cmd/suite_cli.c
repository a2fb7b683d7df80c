// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command line of `iobench suite` (cmd.h): argv -> struct
 * ib_suite_args, no I/O. Suite options take "--opt=V" or "--opt V"; any
 * other "--key=value" is a job option for every test ([global]).
 */
#include <errno.h>
#include <string.h>
#include "iobench/cli.h"
#include "iobench/cmd.h"
#include "iobench/parse.h"
#include "iobench/pts_ss.h"

static int size_opt(const char *v, const char *name, uint64_t *out, struct ib_diag *d)
{
	if (ib_parse_size(v, 1024, out, d) < 0 || !*out)
		return ib_diag_set(d, EINVAL, "%s=%s: a size above 0 (64m, 1g)", name, v);
	return 0;
}

static int time_opt(const char *v, const char *name, uint64_t *out, bool *set,
		    struct ib_diag *d)
{
	if (ib_parse_time_us(v, 1000000, out, d) < 0)
		return ib_diag_set(d, EINVAL, "%s=%s: a time (60s, 500ms, 0)", name, v);
	*set = true;
	return 0;
}

static int count_opt(const char *v, const char *name, unsigned int max,
		     unsigned int *out, struct ib_diag *d)
{
	uint64_t x;

	if (ib_parse_uint(v, &x, d) < 0 || !x || x > max)
		return ib_diag_set(d, EINVAL, "%s=%s: a number from 1 to %u", name, v, max);
	*out = (unsigned int)x;
	return 0;
}

static int add_str(const char **list, unsigned int *n, const char *v,
		   const char *what, struct ib_diag *d)
{
	if (*n == IB_SUITE_MAX_EXTRA)
		return ib_diag_set(d, E2BIG, "%s: at most %d", what, IB_SUITE_MAX_EXTRA);
	list[(*n)++] = v;
	return 0;
}

/* The suite's own options that take a value; 1: not one of them. */
static int value_opt(int argc, char **argv, int *i, struct ib_suite_args *a,
		     bool *miss, struct ib_diag *d)
{
	struct ib_suite_opts *o = &a->o;
	const char *v;

	if ((v = ib_argv_value(argc, argv, i, "--size", miss)))
		return size_opt(v, "--size", &o->size, d);
	if ((v = ib_argv_value(argc, argv, i, "--io-size", miss)))
		return size_opt(v, "--io-size", &o->io_size, d);
	if ((v = ib_argv_value(argc, argv, i, "--capacity", miss)))
		return size_opt(v, "--capacity", &o->capacity, d);
	if ((v = ib_argv_value(argc, argv, i, "--runtime", miss)))
		return time_opt(v, "--runtime", &o->runtime_us, &o->runtime_set, d);
	if ((v = ib_argv_value(argc, argv, i, "--ramp", miss)))
		return time_opt(v, "--ramp", &o->ramp_us, &o->ramp_set, d);
	if ((v = ib_argv_value(argc, argv, i, "--pause", miss)))
		return time_opt(v, "--pause", &o->pause_us, &o->pause_set, d);
	if ((v = ib_argv_value(argc, argv, i, "--iodepth", miss)))
		return count_opt(v, "--iodepth", 65536, &o->iodepth, d);
	if ((v = ib_argv_value(argc, argv, i, "--numjobs", miss)))
		return count_opt(v, "--numjobs", 256, &o->numjobs, d);
	if ((v = ib_argv_value(argc, argv, i, "--rounds", miss)))
		return count_opt(v, "--rounds", IB_PTS_MAX_ROUNDS, &a->max_rounds, d);
	if ((v = ib_argv_value(argc, argv, i, "--expect", miss)))
		return ib_suite_parse_expect(v, &o->expect, d);
	if ((v = ib_argv_value(argc, argv, i, "--only", miss))) {
		o->only = v;
		return 0;
	}
	if ((v = ib_argv_value(argc, argv, i, "--set", miss)))
		return add_str(o->set, &o->nr_set, v, "--set", d);
	return 1;
}

/* Where the results go: --output-format, --json-output, --report. */
static int output_opt(int argc, char **argv, int *i, struct ib_suite_args *a,
		      bool *miss, struct ib_diag *d)
{
	const char *v;

	if ((v = ib_argv_value(argc, argv, i, "--output-format", miss))) {
		if (strcmp(v, "normal") && strcmp(v, "json"))
			return ib_diag_set(d, EINVAL, "--output-format=%s: normal or json", v);
		a->json = !strcmp(v, "json");
		return 0;
	}
	if ((v = ib_argv_value(argc, argv, i, "--json-output", miss))) {
		a->json_output = v;
		return 0;
	}
	if ((v = ib_argv_value(argc, argv, i, "--report", miss))) {
		a->report = v;
		return 0;
	}
	return 1;
}

static int flag_opt(const char *s, struct ib_suite_args *a)
{
	if (!strcmp(s, "--list"))
		a->list = true;
	else if (!strcmp(s, "--print-jobs"))
		a->print_jobs = true;
	else if (!strcmp(s, "--readonly"))
		a->o.readonly = true;
	else if (!strcmp(s, "--no-calibrate"))
		a->no_calibrate = true;
	else if (!strcmp(s, "--help") || !strcmp(s, "-h"))
		a->help = true;
	else
		return 1;
	return 0;
}

static int one_arg(int argc, char **argv, int *i, struct ib_suite_args *a,
		   struct ib_diag *d)
{
	const char *s = argv[*i];
	bool miss = false;
	int rc;

	if (!flag_opt(s, a))
		return 0;
	rc = value_opt(argc, argv, i, a, &miss, d);
	if (rc == 1 && !miss)
		rc = output_opt(argc, argv, i, a, &miss, d);
	if (miss)
		return ib_diag_set(d, EINVAL, "%s: needs a value", s);
	if (rc != 1)
		return rc;
	if (!strncmp(s, "--", 2) && strchr(s, '=') && s[2] != '=')
		return add_str(a->o.extra, &a->o.nr_extra, s + 2, "job options", d);
	if (s[0] == '-')
		return ib_diag_set(d, EINVAL, "%s: unknown option (iobench suite --help)", s);
	if (!a->name)
		a->name = s;
	else if (!a->target)
		a->target = s;
	else
		return ib_diag_set(d, EINVAL, "%s: one suite and one target only", s);
	return 0;
}

int ib_suite_parse(int argc, char **argv, struct ib_suite_args *a,
		   struct ib_diag *d)
{
	int i;

	memset(a, 0, sizeof(*a));
	for (i = 1; i < argc; i++)
		if (one_arg(argc, argv, &i, a, d) < 0)
			return -EINVAL;
	if (a->list || a->help)
		return 0;
	if (!a->name)
		return ib_diag_set(d, EINVAL, "suite: which suite? (iobench suite --list)");
	a->suite = ib_suite_find(a->name);
	if (!a->suite)
		return ib_diag_set(d, EINVAL, "suite %s: no such suite (iobench suite --list)", a->name);
	if (!a->target)
		return ib_diag_set(d, EINVAL, "suite %s: which target? (a device or a file)", a->name);
	if (!a->max_rounds)
		a->max_rounds = IB_PTS_MAX_ROUNDS;
	a->o.target = a->target;
	ib_suite_opts_defaults(a->suite, &a->o);
	return 0;
}
