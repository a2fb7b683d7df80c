// SPDX-License-Identifier: GPL-2.0-only
/*
 * Printers for the command-line front end: usage, --cmdhelp, --enghelp (the
 * only one: engine list and each engine's own option rows) and --showcmd.
 * All read the option rows; they print to the FILE* given.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "iobench/cli.h"
#include "iobench/engine.h"
#include "iobench/options.h"
#include "iobench/help.h"

static void print_subcmds(FILE *f, const struct ib_subcmd *tab)
{
	if (!tab || !tab->name)
		return;
	fputs("Commands (the first argument only; a job file named like one is\n"
	      "./NAME or -- NAME):\n", f);
	for (; tab->name; tab++)
		fprintf(f, "  %-22s %s\n", tab->name, tab->help);
	fputc('\n', f);
}

void ib_cli_usage(FILE *f, const struct ib_subcmd *tab)
{
	fputs("usage: iobench [options] [job options] [jobfile ...]\n", f);
	if (tab && tab->name)
		fputs("       iobench COMMAND [arguments]\n", f);
	fputs("\n"
	      "Job options are fio's (--bs=4k --rw=randread --iodepth=32 ...), in any of\n"
	      "the forms --opt=value, -opt=value, --opt value, -opt value, or a bare\n"
	      "--flag. --name=NAME starts a new job; options before the first --name\n"
	      "apply to every job. Without --name the options make one job named 'job'.\n"
	      "\n", f);
	print_subcmds(f, tab);
	fputs("Options:\n"
	      "  --output=FILE          write the report to FILE\n"
	      "  --output-format=LIST   normal, json, json+, terse (comma separated)\n"
	      "  --json-output=FILE     also write the JSON report to FILE\n"
	      "  --terse-version=N      terse format version (2..5, default 3)\n"
	      "  --fio-version=V        report format (and random offsets) of fio V: 3.42 (default) or 3.33\n"
	      "  --minimal              terse output\n"
	      "  --plot=FILE.svg|.html  latency charts of the run (CDF; .html: all)\n"
	      "  --report=FILE.html     a self-contained HTML report of the run\n"
	      "  --hist                 text latency histograms and CDFs after the report\n"
	      "  --repeat=N             run the jobs N times; report files FILE.1.json...\n"
	      "  --eta=auto|always|never  live status line\n"
	      "  --eta-newline=TIME     start a new status line every TIME\n"
	      "  --eta-interval=TIME    status line update interval (>= 250ms)\n"
	      "  --status-interval=TIME  a report of the run so far every TIME (and on SIGUSR1)\n"
	      "  --interval-json=FILE   per-interval statistics, one JSON line each (-: stdout)\n"
	      "  --interval=TIME        --interval-json's interval (default 1s, >= 100ms)\n"
	      "  --readonly             refuse any job that writes\n"
	      "  --parse-only           check the jobs, do not run them\n"
	      "  --showcmd              print the command line equivalent to the job files\n"
	      "  --section=NAME         run only job section NAME (repeatable)\n"
	      "  --max-jobs=N           refuse to run more than N jobs\n"
	      "  --warnings=all|none|ID,...  validity checks to report (default all)\n"
	      "  --env                  print the environment and random seeds\n"
	      "  --no-calibrate         skip measuring the tool's own overhead\n"
	      "  --cmdhelp[=OPT|all]    describe job options\n"
	      "  --enghelp[=ENGINE]     list I/O engines, or an engine's options\n"
	      "  --version, -v          print the version\n"
	      "  --help, -h             this text\n"
	      "  --                     the arguments after it are job files\n", f);
}

static void print_vals(FILE *f, const struct ib_opt *o)
{
	unsigned int i;

	for (i = 0; o->vals[i].name; i++) {
		if (o->vals[i].help)
			fprintf(f, "    %-12s %s\n", o->vals[i].name, o->vals[i].help);
		else
			fprintf(f, "    %-12s (same as %s)\n", o->vals[i].name,
				i ? o->vals[i - 1].name : "?");
	}
}

static void print_range(FILE *f, const struct ib_opt *o)
{
	if (o->type != IB_OPT_UINT && o->type != IB_OPT_INT && o->type != IB_OPT_U64)
		return;
	if (o->max)
		fprintf(f, "  range: %lld..%lld\n", (long long)o->min, (long long)o->max);
	else if (o->min)
		fprintf(f, "  range: at least %lld\n", (long long)o->min);
}

/* "  engines: io_uring, pvsync2" for an engine option; nothing otherwise. */
static void print_engines(FILE *f, const struct ib_opt *o)
{
	const char *names[8];
	unsigned int n = ib_engine_opt_owners(o->name, names, 8), i;

	if (!n)
		return;
	fputs("  engines: ", f);
	for (i = 0; i < n && i < 8; i++)
		fprintf(f, "%s%s", i ? ", " : "", names[i]);
	fputc('\n', f);
}

static void print_one(FILE *f, const struct ib_opt *o)
{
	fprintf(f, "%s: %s\n", o->name, o->help);
	if (o->alias[0])
		fprintf(f, "  alias: %s%s%s\n", o->alias[0], o->alias[1] ? ", " : "",
			o->alias[1] ? o->alias[1] : "");
	fprintf(f, "  type: %s\n", ib_opt_type_name(o->type));
	if (o->def)
		fprintf(f, "  default: %s\n", o->def);
	print_range(f, o);
	print_engines(f, o);
	if (o->vals) {
		fputs("  values:\n", f);
		print_vals(f, o);
	}
}

static void print_all(FILE *f)
{
	const struct ib_opt *o;
	unsigned int i, cat;

	for (cat = 0; cat < IB_CAT_NR; cat++) {
		fprintf(f, "%s:\n", ib_opt_cat_name((enum ib_opt_cat)cat));
		for (i = 0; (o = ib_opt_get(i)); i++)
			if (o->cat == cat)
				fprintf(f, "  %-28s %s\n", o->name, o->help);
	}
}

int ib_help_cmdhelp(FILE *f, const char *name, struct ib_diag *d)
{
	const struct ib_opt *o;
	char sug[200];

	if (!name || !*name || !strcmp(name, "all")) {
		print_all(f);
		return 0;
	}
	o = ib_opt_find(name);
	if (o) {
		print_one(f, o);
		return 0;
	}
	if (ib_opt_unsupported(name))
		return ib_diag_set(d, ENOTSUP, "--cmdhelp: %s is a fio option not supported by iobench", name);
	if (ib_opt_suggest(name, NULL, false, sug, sizeof(sug)))
		return ib_diag_set(d, EINVAL, "--cmdhelp: unknown option '%s' (did you mean %s?)",
				   name, sug);
	return ib_diag_set(d, EINVAL, "--cmdhelp: unknown option '%s'", name);
}

int ib_help_enghelp(FILE *f, const char *engine, struct ib_diag *d)
{
	const struct ib_engine_ops *const *e = ib_engine_list();
	const struct ib_engine_opts *set;
	const struct ib_opt *o;

	if (!engine || !*engine) {
		fputs("Available I/O engines:\n", f);
		for (; *e; e++)
			fprintf(f, "  %-10s %s\n", (*e)->name, (*e)->help ? (*e)->help : "");
		return 0;
	}
	if (!ib_engine_find(engine) && ib_engine_known_unbuilt(engine))
		return ib_diag_set(d, ENOTSUP, "--enghelp: engine '%s' is not built into this iobench",
				   engine);
	if (!ib_engine_find(engine))
		return ib_diag_set(d, EINVAL, "--enghelp: unknown engine '%s'", engine);
	fprintf(f, "%s options:\n", engine);
	set = ib_engine_opts_find(engine);
	for (o = set ? set->rows : NULL; o && o->name; o++)
		fprintf(f, "  %-20s %s\n", o->name, o->help);
	return 0;
}

/* Print " --key=value", shell-quoted when the value needs it. */
static void print_opt(FILE *f, const char *key, const char *val)
{
	const char *p;

	fprintf(f, " --%s", key);
	if (!*val)
		return;
	fputc('=', f);
	if (strspn(val, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"0123456789_./:,%+=@-") == strlen(val)) {
		fputs(val, f);
		return;
	}
	fputc('\'', f);
	for (p = val; *p; p++) {
		if (*p == '\'')
			fputs("'\\''", f);
		else
			fputc(*p, f);
	}
	fputc('\'', f);
}

static void print_text(FILE *f, const struct ib_job *j)
{
	unsigned int pos = 0;
	const char *k, *v;

	while (pos < j->opts_len) {
		k = j->opts_text + pos;
		v = k + strlen(k) + 1;
		if (strcmp(k, "name"))
			print_opt(f, k, v);
		pos = (unsigned int)(v + strlen(v) + 1 - j->opts_text);
	}
}

/*
 * The sections in order: globals before the first job as plain options
 * (that is what options before the first --name are), later globals as
 * --name=global, jobs as --name=NAME. "name" keys are left out: a
 * section's name is its job name. The first job of the 2nd and later job
 * files gets the implicit --stonewall.
 */
void ib_help_showcmd(FILE *f, const struct ib_jobset *s)
{
	const struct ib_section *sec;
	unsigned int i, last_file = 0;
	bool any_job = false;

	fputs("iobench", f);
	for (i = 0; i < s->nr; i++) {
		sec = &s->secs[i];
		if (!sec->is_global || any_job)
			print_opt(f, "name", sec->is_global ? "global" : sec->job.name);
		if (!sec->is_global && sec->file_idx >= 2 && sec->file_idx != last_file &&
		    !ib_opts_text_get(sec->job.opts_text, sec->job.opts_len, "stonewall"))
			print_opt(f, "stonewall", "");
		print_text(f, &sec->job);
		if (!sec->is_global) {
			last_file = sec->file_idx;
			any_job = true;
		}
	}
	fputc('\n', f);
}
