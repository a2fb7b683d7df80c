// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command lines of `iobench compare`, `plot` and `report` (plotcmd.h):
 * argv -> struct ib_cmd_args, no I/O.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/cli.h"
#include "iobench/cmd.h"
#include "iobench/plotcmd.h"

static int add_file(const char **list, unsigned int *n, const char *f,
		    struct ib_diag *d)
{
	if (*n == IB_CMD_MAX_FILES)
		return ib_diag_set(d, E2BIG, "at most %d files", IB_CMD_MAX_FILES);
	list[(*n)++] = f;
	return 0;
}

static int num_opt(const char *v, const char *name, double lo, double hi,
		   double *out, struct ib_diag *d)
{
	char *end;
	double x = strtod(v, &end);

	if (!*v || *end || !(x >= lo && x <= hi))
		return ib_diag_set(d, EINVAL, "%s: invalid value '%s'", name, v);
	*out = x;
	return 0;
}

/* One option of compare at argv[*i]; 1: not an option of compare. */
static int compare_opt(int argc, char **argv, int *i, struct ib_cmd_args *a,
		       int *side, struct ib_diag *d)
{
	const char *v;
	bool miss;

	if (!strcmp(argv[*i], "--base") || !strcmp(argv[*i], "--new")) {
		*side = argv[*i][2] == 'b' ? 1 : 2;
		return 0;
	}
	if ((v = ib_argv_value(argc, argv, i, "--fail-if", &miss))) {
		a->has_gate = true;
		return ib_gate_parse(&a->gate, v, d);
	}
	if (!miss && (v = ib_argv_value(argc, argv, i, "--alpha", &miss)))
		return num_opt(v, "--alpha", 1e-6, 0.5, &a->cmp.alpha, d);
	if (!miss && (v = ib_argv_value(argc, argv, i, "--floor", &miss)))
		return num_opt(v, "--floor", 0, 1e6, &a->cmp.floor_pct, d);
	if (!miss && (v = ib_argv_value(argc, argv, i, "--plot", &miss))) {
		a->output = v;
		return 0;
	}
	if (miss)
		return ib_diag_set(d, EINVAL, "%s: needs a value", argv[*i]);
	return 1;
}

static int compare_sides(struct ib_cmd_args *a, int side, struct ib_diag *d)
{
	unsigned int i;

	if (side == 0) {	/* positional: the first is the base */
		if (a->nfiles < 2)
			return ib_diag_set(d, EINVAL, "compare: needs two files (or --base ... --new ...)");
		a->base[a->nb++] = a->files[0];
		for (i = 1; i < a->nfiles; i++)
			a->nw[a->nn++] = a->files[i];
		a->pairwise = true;
	}
	if (!a->nb || !a->nn)
		return ib_diag_set(d, EINVAL, "compare: needs files on both sides");
	return 0;
}

int ib_compare_parse(int argc, char **argv, struct ib_cmd_args *a,
		     struct ib_diag *d)
{
	int i, side = 0, ret;

	memset(a, 0, sizeof(*a));
	a->cmp.floor_pct = -1.0;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			a->help = true;
			return 0;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			ret = compare_opt(argc, argv, &i, a, &side, d);
			if (ret == 1)
				return ib_diag_set(d, EINVAL, "compare: unknown option '%s'", argv[i]);
			if (ret)
				return ret;
			continue;
		}
		if (side == 1)
			ret = add_file(a->base, &a->nb, argv[i], d);
		else if (side == 2)
			ret = add_file(a->nw, &a->nn, argv[i], d);
		else
			ret = add_file(a->files, &a->nfiles, argv[i], d);
		if (ret)
			return ret;
	}
	if (side && a->nfiles)
		return ib_diag_set(d, EINVAL, "compare: a file before --base/--new: '%s'", a->files[0]);
	return compare_sides(a, side, d);
}

int ib_plot_parse(int argc, char **argv, struct ib_cmd_args *a,
		  struct ib_diag *d)
{
	const char *v;
	double ms = 0;
	bool miss;
	int i, ret;

	memset(a, 0, sizeof(*a));
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			a->help = true;
			return 0;
		}
		if ((v = ib_argv_value(argc, argv, &i, "-o", &miss)) ||
		    (!miss && (v = ib_argv_value(argc, argv, &i, "--output", &miss)))) {
			a->output = v;
			continue;
		}
		if (!miss && (v = ib_argv_value(argc, argv, &i, "--avg-msec", &miss))) {
			if ((ret = num_opt(v, "--avg-msec", 0, 3600000, &ms, d)))
				return ret;
			a->avg_ms = (unsigned int)ms;
			continue;
		}
		if (miss)
			return ib_diag_set(d, EINVAL, "%s: needs a value", argv[i]);
		if (argv[i][0] == '-' && argv[i][1])
			return ib_diag_set(d, EINVAL, "%s: unknown option '%s'", argv[0], argv[i]);
		if ((ret = add_file(a->files, &a->nfiles, argv[i], d)))
			return ret;
	}
	if (!a->nfiles)
		return ib_diag_set(d, EINVAL, "%s: needs at least one file", argv[0]);
	if (!a->output && strcmp(argv[0], "report"))
		return ib_diag_set(d, EINVAL, "%s: needs -o FILE.svg or FILE.html", argv[0]);
	return 0;
}

int ib_repeat_path(char *dst, size_t len, const char *path, unsigned int k)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
	int n;

	if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : path))
		n = snprintf(dst, len, "%s.%u", path, k);
	else
		n = snprintf(dst, len, "%.*s.%u%s", (int)(dot - path), path, k, dot);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
