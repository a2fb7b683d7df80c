// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run-level command-line options (not job options): their table and
 * what each sets in struct ib_plan (--output, --eta, --plot, --repeat...).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "config.h"
#include "iobench/checks.h"
#include "iobench/cli.h"
#include "iobench/compiler.h"
#include "iobench/options.h"
#include "iobench/parse.h"
#include "iobench/report.h"
#include "iobench/help.h"
#include "cli_priv.h"

static const struct cli_opt cli_opts[] = {
	{ "output", C_OUTPUT, A_REQ },
	{ "output-format", C_OUTFMT, A_REQ },
	{ "json-output", C_JSONOUT, A_REQ },
	{ "terse-version", C_TERSEVER, A_REQ },
	{ "fio-version", C_FIOVER, A_REQ },
	{ "minimal", C_MINIMAL, A_NONE },
	{ "eta", C_ETA, A_REQ },
	{ "eta-newline", C_ETANL, A_REQ },
	{ "eta-interval", C_ETAINT, A_REQ },
	{ "readonly", C_READONLY, A_NONE },
	{ "parse-only", C_PARSEONLY, A_NONE },
	{ "showcmd", C_SHOWCMD, A_NONE },
	{ "section", C_SECTION, A_REQ },
	{ "version", C_VERSION, A_NONE },
	{ "v", C_VERSION, A_NONE },	/* fio's short forms */
	{ "help", C_HELP, A_NONE },
	{ "h", C_HELP, A_NONE },
	{ "cmdhelp", C_CMDHELP, A_OPT },
	{ "enghelp", C_ENGHELP, A_OPT },
	{ "max-jobs", C_MAXJOBS, A_REQ },
	{ "warnings", C_WARNINGS, A_REQ },	/* validity checks (checks.h) */
	{ "env", C_ENV, A_NONE },
	{ "no-calibrate", C_NOCALIB, A_NONE },
	{ "plot", C_PLOT, A_REQ },	/* charts of the run (plotcmd.h) */
	{ "report", C_REPORT, A_REQ },
	{ "hist", C_HIST, A_NONE },
	{ "repeat", C_REPEAT, A_REQ },
	{ "status-interval", C_STATINT, A_REQ },	/* live-statistics.md */
	{ "interval-json", C_IVJSON, A_REQ },
	{ "interval", C_IVAL, A_REQ },
};

const char *const ib_cli_names[] = {
	"output", "output-format", "json-output", "terse-version", "fio-version", "minimal",
	"eta", "eta-newline", "eta-interval", "readonly", "parse-only",
	"showcmd", "section", "version", "help", "cmdhelp", "enghelp",
	"max-jobs", "warnings", "env", "no-calibrate", "plot", "report", "hist",
	"repeat", "status-interval", "interval-json", "interval", NULL,
};

const struct cli_opt *cli_find(const char *name)
{
	size_t i;

	for (i = 0; i < IB_ARRAY_SIZE(cli_opts); i++)
		if (!strcmp(cli_opts[i].name, name))
			return &cli_opts[i];
	return NULL;
}

static int set_path(char *dst, size_t len, const char *opt, const char *v,
		    struct ib_diag *d)
{
	if (strlen(v) >= len)
		return ib_diag_set(d, ENAMETOOLONG, "--%s: path too long", opt);
	strcpy(dst, v);
	return 0;
}

static int set_formats(struct ib_plan *r, const char *v, struct ib_diag *d)
{
	char buf[128], *tok, *save = NULL, names[128];
	const struct ib_format *fmt;
	unsigned int bits = 0;

	if (strlen(v) >= sizeof(buf) || !*v)
		return ib_diag_set(d, EINVAL, "--output-format: invalid value '%s'", v);
	strcpy(buf, v);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		fmt = ib_format_find(tok);
		if (!fmt) {
			ib_format_names(names, sizeof(names));
			return ib_diag_set(d, EINVAL,
					   "--output-format: unknown format '%s' (valid: %s)",
					   tok, names);
		}
		bits |= fmt->bit;
	}
	r->output_format = bits;
	return 0;
}

static int set_time_ms(uint64_t *dst, const char *opt, const char *v,
		       uint64_t min_ms, struct ib_diag *d)
{
	uint64_t us;
	int rc = ib_parse_time_us(v, 1000000, &us, d);

	if (rc) {
		ib_diag_prefix(d, "--%s", opt);
		return rc;
	}
	if (us / 1000 < min_ms)
		return ib_diag_set(d, ERANGE, "--%s: %s is below the minimum of %llums",
				   opt, v, (unsigned long long)min_ms);
	*dst = us / 1000;
	return 0;
}

static int set_eta(struct ib_plan *r, const char *v, struct ib_diag *d)
{
	if (!strcmp(v, "auto"))
		r->eta = IB_ETA_AUTO;
	else if (!strcmp(v, "always"))
		r->eta = IB_ETA_ALWAYS;
	else if (!strcmp(v, "never"))
		r->eta = IB_ETA_NEVER;
	else
		return ib_diag_set(d, EINVAL, "--eta: invalid value '%s' (valid: auto, always, never)", v);
	return 0;
}

static int set_terse_version(struct ib_plan *r, const char *v, struct ib_diag *d)
{
	uint64_t x;

	if (ib_parse_uint(v, &x, d) || x < 2 || x > 5)
		return ib_diag_set(d, EINVAL, "--terse-version: invalid value '%s' (valid: 2, 3, 4, 5)", v);
	r->terse_version = (unsigned int)x;
	return 0;
}

static int add_section_filter(struct ib_plan *r, const char *v, struct ib_diag *d)
{
	if (r->nr_sections == IB_MAX_SECTION_FILTERS)
		return ib_diag_set(d, E2BIG, "--section: at most %d sections", IB_MAX_SECTION_FILTERS);
	if (strlen(v) >= IB_NAME_MAX)
		return ib_diag_set(d, ENAMETOOLONG, "--section: name too long");
	strcpy(r->sections[r->nr_sections++], v);
	return 0;
}

static int set_max_jobs(struct ib_plan *r, const char *v, struct ib_diag *d)
{
	uint64_t x;

	if (ib_parse_uint(v, &x, d) || x < 1 || x > UINT_MAX)
		return ib_diag_set(d, EINVAL, "--max-jobs: invalid value '%s' (a number of jobs, at least 1)", v);
	r->max_jobs = (unsigned int)x;
	return 0;
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a > b && !strcmp(s + a - b, suf);
}

/* --plot=FILE.svg|FILE.html, --report=FILE.html */
static int set_chart_path(struct ib_plan *r, const struct cli_opt *c,
			  const char *v, struct ib_diag *d)
{
	bool plot = c->id == C_PLOT;

	if (!has_suffix(v, ".html") && (!plot || !has_suffix(v, ".svg")))
		return ib_diag_set(d, EINVAL, "--%s: '%s' must end in %s", c->name, v,
				   plot ? ".svg or .html" : ".html");
	if (plot)
		return set_path(r->plot, sizeof(r->plot), c->name, v, d);
	return set_path(r->report, sizeof(r->report), c->name, v, d);
}

/* --repeat=N, 1..IB_REPEAT_MAX */
static int set_repeat(struct ib_plan *r, const char *v, struct ib_diag *d)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (!*v || *end || errno || *v == '-' || n < 1 || n > IB_REPEAT_MAX)
		return ib_diag_set(d, EINVAL, "--repeat: invalid value '%s' (1..%d)", v,
				   IB_REPEAT_MAX);
	r->repeat = (unsigned int)n;
	return 0;
}

static int help_done(int rc)
{
	return rc ? rc : IB_CLI_DONE;
}

/* The options without a value: set their flag. Whether id is one. */
static bool set_flag(struct ib_plan *r, enum cli_id id)
{
	switch (id) {
	case C_MINIMAL:
		r->output_format = IB_OUT_TERSE;
		return true;
	case C_READONLY:
		r->readonly = true;
		return true;
	case C_PARSEONLY:
		r->parse_only = true;
		return true;
	case C_SHOWCMD:
		r->showcmd = true;
		return true;
	case C_ENV:
		r->show_env = true;
		return true;
	case C_NOCALIB:
		r->no_calibrate = true;
		return true;
	case C_HIST:
		r->hist = true;
		return true;
	default:
		return false;
	}
}

/* Returns 0, IB_CLI_DONE/IB_CLI_HELP (stop) or -errno. */
int cli_run_opt(struct cli_state *st, const struct cli_opt *c, const char *v,
		   struct ib_diag *d)
{
	struct ib_plan *r = st->run;

	if (set_flag(r, c->id))
		return 0;
	switch (c->id) {
	case C_OUTPUT:
		return set_path(r->output, sizeof(r->output), c->name, v, d);
	case C_JSONOUT:
		return set_path(r->json_output, sizeof(r->json_output), c->name, v, d);
	case C_OUTFMT:
		return set_formats(r, v, d);
	case C_TERSEVER:
		return set_terse_version(r, v, d);
	case C_FIOVER:
		r->fio_version_cli = true;
		return ib_fio_version_parse(v, &r->fio_version, "--fio-version", d);
	case C_ETA:
		return set_eta(r, v, d);
	case C_ETANL:
		r->eta_asked = true;
		return set_time_ms(&r->eta_newline_ms, c->name, v, 0, d);
	case C_ETAINT:
		r->eta_asked = true;
		return set_time_ms(&r->eta_interval_ms, c->name, v, 250, d);
	case C_SECTION:
		return add_section_filter(r, v, d);
	case C_VERSION:
		fprintf(st->out, "iobench-%s\n", IOBENCH_VERSION);
		return IB_CLI_DONE;
	case C_HELP:
		return IB_CLI_HELP; /* the caller knows the subcommands to list */
	case C_CMDHELP:
		return help_done(ib_help_cmdhelp(st->out, v, d));
	case C_ENGHELP:
		return help_done(ib_help_enghelp(st->out, v, d));
	case C_MAXJOBS:
		return set_max_jobs(r, v, d);
	case C_WARNINGS:
		return ib_checks_parse(v, &r->checks_mask, d);
	case C_PLOT:
	case C_REPORT:
		return set_chart_path(r, c, v, d);
	case C_REPEAT:
		return set_repeat(r, v, d);
	case C_STATINT:
		return set_time_ms(&r->status_interval_ms, c->name, v, 1, d);
	case C_IVJSON:
		return set_path(r->interval_json, sizeof(r->interval_json), c->name, v, d);
	case C_IVAL:
		return set_time_ms(&r->interval_ms, c->name, v, 100, d);
	default:
		break;
	}
	return ib_diag_set(d, EINVAL, "internal error (cli option)");
}
