// SPDX-License-Identifier: GPL-2.0-only
/*
 * gen-docs: write the files that list iobench's options, from the option
 * table itself, so that they cannot drift from what the binary accepts.
 *
 *   gen-docs man TEMPLATE OUT   copy the man page TEMPLATE to OUT with the
 *                               lines between the GENERATED markers replaced
 *                               by the job options, grouped by category
 *   gen-docs bash OUT           the bash completion script
 *
 * Run at build time (meson custom_target); OUT "-" is stdout. Exit 0, or 1
 * with one line on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/compiler.h"
#include "iobench/engine.h"
#include "iobench/options.h"
#include "iobench/help.h"

#define MARK_BEGIN ".\\\" BEGIN GENERATED OPTIONS"
#define MARK_END ".\\\" END GENERATED OPTIONS"

/* ---- run-level (non-job) options ---------------------------------------- */

/* ARG_LIST: comma-separated words ("json,json+") */
enum arg_kind { ARG_NONE, ARG_FILE, ARG_WORDS, ARG_LIST, ARG_ANY, ARG_OPTIONS,
		ARG_ENGINES };

/*
 * What the completion offers after each command-line option. Every name in
 * ib_cli_names must be here (checked at generation time), so a new
 * command-line option breaks the build until it is described.
 */
struct run_opt {
	const char *name;
	enum arg_kind kind;
	const char *words;	/* ARG_WORDS: the values */
	bool optional;		/* value only as --opt=value */
};

static const struct run_opt run_opts[] = {
	{ "output", ARG_FILE, NULL, false },
	{ "output-format", ARG_LIST, "normal json json+ terse minimal", false },
	{ "json-output", ARG_FILE, NULL, false },
	{ "terse-version", ARG_WORDS, "2 3 4 5", false },
	{ "fio-version", ARG_WORDS, "3.42 3.33", false },
	{ "minimal", ARG_NONE, NULL, false },
	{ "eta", ARG_WORDS, "auto always never", false },
	{ "eta-newline", ARG_ANY, NULL, false },
	{ "eta-interval", ARG_ANY, NULL, false },
	{ "readonly", ARG_NONE, NULL, false },
	{ "parse-only", ARG_NONE, NULL, false },
	{ "showcmd", ARG_NONE, NULL, false },
	{ "section", ARG_ANY, NULL, false },
	{ "version", ARG_NONE, NULL, false },
	{ "help", ARG_NONE, NULL, false },
	{ "cmdhelp", ARG_OPTIONS, NULL, true },
	{ "enghelp", ARG_ENGINES, NULL, true },
	{ "max-jobs", ARG_ANY, NULL, false },
	{ "warnings", ARG_LIST, "all none page-cache buffered-device unwritten "
	  "compressible cpu-bound cpu-oversubscribed depth-low sync-depth "
	  "batch-unfilled hist-range short-run runtime-off write-cache governor "
	  "clock-cost tool-bound warm-up step trend", false },
	{ "env", ARG_NONE, NULL, false },
	{ "no-calibrate", ARG_NONE, NULL, false },
	{ "plot", ARG_FILE, NULL, false },
	{ "report", ARG_FILE, NULL, false },
	{ "hist", ARG_NONE, NULL, false },
	{ "repeat", ARG_ANY, NULL, false },
	{ "status-interval", ARG_ANY, NULL, false },
	{ "interval-json", ARG_FILE, NULL, false },
	{ "interval", ARG_ANY, NULL, false },
};

#define NR_RUN_OPTS IB_ARRAY_SIZE(run_opts)

static const struct run_opt *run_opt_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < NR_RUN_OPTS; i++)
		if (!strcmp(run_opts[i].name, name))
			return &run_opts[i];
	return NULL;
}

static int check_run_opts(void)
{
	const char *const *n;
	unsigned int nr = 0;

	for (n = ib_cli_names; *n; n++, nr++) {
		if (!run_opt_find(*n)) {
			fprintf(stderr, "gen-docs: command-line option --%s is not described in tools/gen-docs.c\n", *n);
			return -1;
		}
	}
	if (nr != NR_RUN_OPTS) {
		fprintf(stderr, "gen-docs: tools/gen-docs.c describes %u command-line options, iobench has %u\n",
			(unsigned int)NR_RUN_OPTS, nr);
		return -1;
	}
	return 0;
}

/* ---- roff ---------------------------------------------------------------- */

/* Text as roff: backslashes and minus signs escaped, no control character
 * at the start of a line. */
/*
 * Help text as roff: escaped, and broken at a space once a line passes 72
 * columns (in filled text a newline is only a word break), so every
 * generated line stays within mandoc's 80-byte style limit.
 */
static void roff_text(FILE *f, const char *s, bool line_start)
{
	unsigned int col = 0;

	for (; *s; s++) {
		if (*s == ' ' && col >= 72) {
			fputc('\n', f);
			col = 0;
			line_start = true;
			continue;
		}
		if (line_start && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		line_start = false;
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
		col++;
	}
}

#define ROFF_WIDTH 78

/*
 * A sentence of help text as roff lines of at most ROFF_WIDTH bytes
 * (broken at spaces), escaped, capitalized if cap, ending in a period.
 */
static void roff_para(FILE *f, const char *s, bool cap)
{
	char buf[1024];
	size_t len = 0, col = 0, w;
	const char *p;
	FILE *m = fmemopen(buf, sizeof(buf) - 1, "w");

	if (!m)
		return;
	if (cap && *s >= 'a' && *s <= 'z') {
		fputc(*s - 'a' + 'A', m);
		s++;
	}
	roff_text(m, s, false);
	fputc('.', m);
	len = (size_t)ftell(m);
	fclose(m);
	buf[len] = '\0';
	for (p = buf; *p; p += w) {
		while (*p == ' ')
			p++;
		w = strcspn(p, " ");
		if (col && col + 1 + w > ROFF_WIDTH) {
			fputc('\n', f);
			col = 0;
		} else if (col) {
			fputc(' ', f);
			col++;
		}
		if (!col && (*p == '.' || *p == '\''))
			col += (size_t)fprintf(f, "\\&");
		fwrite(p, 1, w, f);
		col += w;
	}
	fputc('\n', f);
}

static const char *value_hint(const struct ib_opt *o)
{
	switch (o->type) {
	case IB_OPT_BOOL:		return "bool";
	case IB_OPT_UINT:
	case IB_OPT_INT:
	case IB_OPT_U64:		return "int";
	case IB_OPT_SIZE:		return "size";
	case IB_OPT_SIZE_PCT:		return "size|int%";
	case IB_OPT_SIZE_RANGE:		return "size[-size]";
	case IB_OPT_BS_LIST:		return "size[,size[,size]]";
	case IB_OPT_BSRANGE_LIST:	return "range[,range[,range]]";
	case IB_OPT_TIME:		return "time";
	case IB_OPT_STR:		return "str";
	case IB_OPT_ENUM:		return "str";
	case IB_OPT_PCT_LIST:		return "float[:float...]";
	case IB_OPT_ERR_LIST:		return "errs[,errs[,errs]]";
	default:			return "value";
	}
}

static const char *time_unit(uint64_t us)
{
	switch (us) {
	case 1:			return "microseconds";
	case 1000:		return "milliseconds";
	case 1000000:		return "seconds";
	default:		return NULL;
	}
}

/* The documented entry that value i is another name for, or NULL. */
static const struct ib_opt_val *val_alias_of(const struct ib_opt *o, unsigned int i)
{
	unsigned int k;

	for (k = 0; k < i; k++)
		if (o->vals[k].help && o->vals[k].val == o->vals[i].val)
			return &o->vals[k];
	return NULL;
}

/*
 * The values of an enum option. A value without help is documented as
 * another name of an earlier value with the same meaning; one that has
 * none is left out (accepted for fio's sake, refused when used).
 */
static void man_vals(FILE *f, const struct ib_opt *o)
{
	const struct ib_opt_val *same;
	unsigned int i;

	fputs(".RS\n", f);
	for (i = 0; o->vals[i].name; i++) {
		same = o->vals[i].help ? NULL : val_alias_of(o, i);
		if (!o->vals[i].help && !same)
			continue;
		fputs(".TP\n.B ", f);
		roff_text(f, o->vals[i].name, false);
		fputc('\n', f);
		if (same) {
			fputs("Same as \\fB", f);
			roff_text(f, same->name, false);
			fputs("\\fR.\n", f);
		} else {
			roff_para(f, o->vals[i].help, true);
		}
	}
	fputs(".RE\n", f);
}

static void man_range(FILE *f, const struct ib_opt *o)
{
	if (o->type != IB_OPT_UINT && o->type != IB_OPT_INT && o->type != IB_OPT_U64)
		return;
	if (o->max)
		fprintf(f, "Range: %s%lld to %lld.\n", o->min < 0 ? "\\-" : "",
			(long long)(o->min < 0 ? -o->min : o->min), (long long)o->max);
	else if (o->min)
		fprintf(f, "Minimum: %lld.\n", (long long)o->min);
}

/* "Only with io_uring, pvsync2." for an engine's option; nothing otherwise. */
static void man_engines(FILE *f, const struct ib_opt *o)
{
	const char *names[8];
	unsigned int n = ib_engine_opt_owners(o->name, names, 8), i;

	if (!n)
		return;
	fputs("Only with ", f);
	for (i = 0; i < n && i < 8; i++)
		fprintf(f, "%s%s", i ? ", " : "", names[i]);
	fputs(".\n", f);
}

static void man_option(FILE *f, const struct ib_opt *o)
{
	const char *unit = o->type == IB_OPT_TIME ? time_unit(o->unit_us) : NULL;
	unsigned int i;

	fputs(".TP\n\\fB", f);
	roff_text(f, o->name, false);
	fputs("\\fR=\\fI", f);
	roff_text(f, value_hint(o), false);
	fputs("\\fR\n", f);
	roff_para(f, o->help, false);
	for (i = 0; i < 2 && o->alias[i]; i++) {
		fputs(i ? "Also \\fB" : "Also called \\fB", f);
		roff_text(f, o->alias[i], false);
		fputs("\\fR.\n", f);
	}
	if (o->def) {
		fputs("Default: ", f);
		roff_text(f, o->def, false);
		fputs(".\n", f);
	}
	man_range(f, o);
	if (unit)
		fprintf(f, "A number without a unit is in %s.\n", unit);
	man_engines(f, o);
	if (o->vals)
		man_vals(f, o);
}

/*
 * Every job option (generic rows, then the engines' own) as one array, in
 * ib_opt_get()'s order.
 */
static const struct ib_opt *all_opts(unsigned int *nr)
{
	static struct ib_opt all[512];
	const struct ib_opt *o;
	unsigned int n = 0;

	while (n < IB_ARRAY_SIZE(all) && (o = ib_opt_get(n)))
		all[n++] = *o;
	*nr = n;
	return all;
}

static void man_options(FILE *f)
{
	unsigned int n, i, cat;
	const struct ib_opt *tab = all_opts(&n);

	for (cat = 0; cat < IB_CAT_NR; cat++) {
		fputs(".SS \"", f);
		roff_text(f, ib_opt_cat_name((enum ib_opt_cat)cat), false);
		fputs("\"\n", f);
		for (i = 0; i < n; i++)
			if (tab[i].cat == cat)
				man_option(f, &tab[i]);
	}
}

/* Copy template to out, the marked block replaced by the options. */
static int gen_man(FILE *in, FILE *out, const char *tname)
{
	char line[4096];
	int state = 0;	/* 0: before, 1: inside the markers, 2: after */

	while (fgets(line, sizeof(line), in)) {
		if (state == 0 && !strncmp(line, MARK_BEGIN, strlen(MARK_BEGIN))) {
			fputs(line, out);
			fputs(".\\\" (generated from the option table by tools/gen-docs.c:"
			      " do not edit by hand; run 'ninja -C build update-man')\n", out);
			man_options(out);
			state = 1;
			continue;
		}
		if (state == 1 && !strncmp(line, MARK_END, strlen(MARK_END)))
			state = 2;
		if (state != 1)
			fputs(line, out);
	}
	if (state != 2) {
		fprintf(stderr, "gen-docs: %s: no '%s' ... '%s' block\n", tname,
			MARK_BEGIN, MARK_END);
		return -1;
	}
	return 0;
}

/* ---- bash completion ----------------------------------------------------- */

static void words_engines(FILE *f)
{
	const struct ib_engine_ops *const *e;

	for (e = ib_engine_list(); *e; e++)
		fprintf(f, "%s%s", e == ib_engine_list() ? "" : " ", (*e)->name);
}

static void words_options(FILE *f, const struct ib_opt *tab, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", tab[i].name);
}

/* One "case" branch: the names of o (and its aliases) and the values. */
static void bash_job_case(FILE *f, const struct ib_opt *o)
{
	unsigned int i;

	fputs("\t", f);
	fputs(o->name, f);
	for (i = 0; i < 2 && o->alias[i]; i++)
		fprintf(f, "|%s", o->alias[i]);
	if (!strcmp(o->name, "ioengine")) {
		fputs(") _iobench_words \"", f);
		words_engines(f);
		fputs("\" ;;\n", f);
	} else if (!strcmp(o->name, "directory")) {
		fputs(") _iobench_dirs ;;\n", f);
	} else if (!strcmp(o->name, "filename") || !strncmp(o->name, "write_", 6)) {
		fputs(") _iobench_files ;;\n", f);
	} else if (o->type == IB_OPT_BOOL) {
		fputs(") _iobench_words \"0 1\" ;;\n", f);
	} else if (o->vals) {
		fputs(") _iobench_words \"", f);
		for (i = 0; o->vals[i].name; i++)
			if (o->vals[i].help || val_alias_of(o, i))
				fprintf(f, "%s%s", i ? " " : "", o->vals[i].name);
		fputs("\" ;;\n", f);
	} else {
		fputs(") ;;\n", f);
	}
}

static void bash_run_case(FILE *f, const struct run_opt *r,
			  const struct ib_opt *tab, unsigned int n)
{
	switch (r->kind) {
	case ARG_NONE:
	case ARG_ANY:
		fprintf(f, "\t%s) ;;\n", r->name);
		break;
	case ARG_FILE:
		fprintf(f, "\t%s) _iobench_files ;;\n", r->name);
		break;
	case ARG_WORDS:
		fprintf(f, "\t%s) _iobench_words \"%s\" ;;\n", r->name, r->words);
		break;
	case ARG_LIST:
		fprintf(f, "\t%s) _iobench_list \"%s\" ;;\n", r->name, r->words);
		break;
	case ARG_OPTIONS:
		fprintf(f, "\t%s) _iobench_words \"all ", r->name);
		words_options(f, tab, n);
		fputs("\" ;;\n", f);
		break;
	case ARG_ENGINES:
		fprintf(f, "\t%s) _iobench_words \"", r->name);
		words_engines(f);
		fputs("\" ;;\n", f);
		break;
	}
}

/* A row kept to refuse a fio option with its reason: never offered. */
static bool refused(const struct ib_opt *o)
{
	return o->help && !strncmp(o->help, "Refused", 7);
}

/* The option words offered after "-": "--flag" or "--opt=". */
static void bash_option_words(FILE *f, const struct ib_opt *tab, unsigned int n)
{
	unsigned int i, k;

	fputs("_iobench_opts=(", f);
	for (i = 0; i < NR_RUN_OPTS; i++)
		fprintf(f, "%s--%s%s", i ? " " : "", run_opts[i].name,
			run_opts[i].kind == ARG_NONE || run_opts[i].optional ? "" : "=");
	for (i = 0; i < n; i++) {
		if (refused(&tab[i]))
			continue;
		fprintf(f, " --%s%s", tab[i].name, tab[i].type == IB_OPT_BOOL ? "" : "=");
		for (k = 0; k < 2 && tab[i].alias[k]; k++)
			fprintf(f, " --%s%s", tab[i].alias[k],
				tab[i].type == IB_OPT_BOOL ? "" : "=");
	}
	fputs(")\n", f);
	/* options whose value may be the next word ("--bs 4k") */
	fputs("_iobench_takes_arg=\" ", f);
	for (i = 0; i < NR_RUN_OPTS; i++)
		if (run_opts[i].kind != ARG_NONE && !run_opts[i].optional)
			fprintf(f, "%s ", run_opts[i].name);
	for (i = 0; i < n; i++) {
		if (tab[i].type == IB_OPT_BOOL)
			continue;
		fprintf(f, "%s ", tab[i].name);
		for (k = 0; k < 2 && tab[i].alias[k]; k++)
			fprintf(f, "%s ", tab[i].alias[k]);
	}
	fputs("\"\n", f);
}

/*
 * The subcommands (main.c's table) and each one's own options (their
 * --help; the install test checks both against the binary).
 */
static const char bash_subcmds[] =
	"_iobench_cmds=\"run ping curve compare plot report suite help\"\n"
	"_iobench_curve_opts=(--steps= --slo=)\n"
	"_iobench_compare_opts=(--base --new --fail-if= --alpha= --floor= --plot= --help)\n"
	"_iobench_plot_opts=(-o --output= --avg-msec= --help)\n"
	"_iobench_report_opts=(-o --output= --help)\n"
	"_iobench_ping_opts=(--async --cached --direct --read-write --linear --nowait\n"
	"\t--hipri --write --sync --dsync --rapid --keep --warmup --burst --count\n"
	"\t--entropy --interval --size --work-size --work-offset --work-time\n"
	"\t--speed-limit --rate-limit --min-time --max-time --batch --time --json\n"
	"\t--print-count --print-interval --quiet --hist --json-output= --help\n"
	"\t--version)\n";

static const char bash_body[] =
	"\n"
	"_iobench_words() { COMPREPLY=($(compgen -W \"$1\" -- \"$_iobench_val\")); }\n"
	"# a comma-separated list: the words after the last comma\n"
	"_iobench_list()\n"
	"{\n"
	"\tlocal pre=\"\" last=\"$_iobench_val\"\n"
	"\tif [[ $last == *,* ]]; then pre=\"${last%,*},\"; last=\"${last##*,}\"; fi\n"
	"\tCOMPREPLY=($(compgen -P \"$pre\" -W \"$1\" -- \"$last\"))\n"
	"\tcompopt -o nospace 2>/dev/null\n"
	"}\n"
	"_iobench_files() { COMPREPLY=($(compgen -f -- \"$_iobench_val\")); compopt -o filenames 2>/dev/null; }\n"
	"_iobench_dirs() { COMPREPLY=($(compgen -d -- \"$_iobench_val\")); compopt -o filenames 2>/dev/null; }\n"
	"\n"
	"# the options of a subcommand that takes its own (compare, plot, report,\n"
	"# ping): $1 the words; files otherwise\n"
	"_iobench_sub()\n"
	"{\n"
	"\tif [[ $cur == -* && $cur != *=* ]]; then\n"
	"\t\tCOMPREPLY=($(compgen -W \"$1\" -- \"$cur\"))\n"
	"\t\t[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null\n"
	"\telse\n"
	"\t\t_iobench_val=\"${cur#*=}\"\n"
	"\t\t_iobench_files\n"
	"\t\tif [[ $cur == -*=* && $COMP_WORDBREAKS != *=* ]]; then\n"
	"\t\t\tlocal i\n"
	"\t\t\tfor i in \"${!COMPREPLY[@]}\"; do COMPREPLY[i]=\"${cur%%=*}=${COMPREPLY[i]}\"; done\n"
	"\t\tfi\n"
	"\tfi\n"
	"}\n"
	"\n"
	"_iobench()\n"
	"{\n"
	"\tlocal line=\"${COMP_LINE:0:COMP_POINT}\" cur prev opt _iobench_val sub=\"\" nw\n"
	"\tlocal -a words\n"
	"\tCOMPREPLY=()\n"
	"\t# the word being completed, '=' included whatever COMP_WORDBREAKS says\n"
	"\tcur=\"${line##*[[:space:]]}\"\n"
	"\tprev=\"${line%\"$cur\"}\"\n"
	"\tprev=\"${prev%\"${prev##*[![:space:]]}\"}\"\n"
	"\tprev=\"${prev##*[[:space:]]}\"\n"
	"\tread -r -a words <<< \"$line\"\n"
	"\tnw=${#words[@]}\n"
	"\t[[ -z $cur ]] && nw=$((nw + 1))\n"
	"\t# the first argument: a subcommand or, fio's syntax, a job file\n"
	"\tif (( nw == 2 )) && [[ $cur != -* ]]; then\n"
	"\t\t_iobench_val=\"$cur\"\n"
	"\t\t_iobench_files\n"
	"\t\tCOMPREPLY+=($(compgen -W \"$_iobench_cmds\" -- \"$cur\"))\n"
	"\t\treturn 0\n"
	"\tfi\n"
	"\t(( nw > 2 )) && [[ \" $_iobench_cmds \" == *\" ${words[1]} \"* ]] && sub=\"${words[1]}\"\n"
	"\tcase $sub in\n"
	"\thelp) (( nw == 3 )) && COMPREPLY=($(compgen -W \"$_iobench_cmds\" -- \"$cur\")); return 0 ;;\n"
	"\tcompare) _iobench_sub \"${_iobench_compare_opts[*]}\"; return 0 ;;\n"
	"\tplot) _iobench_sub \"${_iobench_plot_opts[*]}\"; return 0 ;;\n"
	"\treport) _iobench_sub \"${_iobench_report_opts[*]}\"; return 0 ;;\n"
	"\tping) _iobench_sub \"${_iobench_ping_opts[*]}\"; return 0 ;;\n"
	"\tesac\n"
	"\tif [[ $cur == -*=* ]]; then\n"
	"\t\topt=\"${cur%%=*}\"\n"
	"\t\topt=\"${opt#-}\"; opt=\"${opt#-}\"\n"
	"\t\t_iobench_val=\"${cur#*=}\"\n"
	"\t\t_iobench_values \"$opt\"\n"
	"\t\tif [[ $COMP_WORDBREAKS != *=* ]]; then\n"
	"\t\t\tlocal i\n"
	"\t\t\tfor i in \"${!COMPREPLY[@]}\"; do\n"
	"\t\t\t\tCOMPREPLY[i]=\"${cur%%=*}=${COMPREPLY[i]}\"\n"
	"\t\t\tdone\n"
	"\t\tfi\n"
	"\t\treturn 0\n"
	"\tfi\n"
	"\tif [[ $cur == -* ]]; then\n"
	"\t\tif [[ $sub == curve ]]; then\n"
	"\t\t\tCOMPREPLY=($(compgen -W \"${_iobench_curve_opts[*]} ${_iobench_opts[*]}\" -- \"$cur\"))\n"
	"\t\telse\n"
	"\t\t\tCOMPREPLY=($(compgen -W \"${_iobench_opts[*]}\" -- \"$cur\"))\n"
	"\t\tfi\n"
	"\t\t[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null\n"
	"\t\treturn 0\n"
	"\tfi\n"
	"\tif [[ $prev == -* && $prev != *=* ]]; then\n"
	"\t\topt=\"${prev#-}\"; opt=\"${opt#-}\"\n"
	"\t\tif [[ $_iobench_takes_arg == *\" $opt \"* ]]; then\n"
	"\t\t\t_iobench_val=\"$cur\"\n"
	"\t\t\t_iobench_values \"$opt\"\n"
	"\t\t\treturn 0\n"
	"\t\tfi\n"
	"\tfi\n"
	"\t# anything else is a job file\n"
	"\t_iobench_val=\"$cur\"\n"
	"\t_iobench_files\n"
	"\treturn 0\n"
	"}\n"
	"complete -F _iobench iobench\n";

static void gen_bash(FILE *f)
{
	unsigned int n, i;
	const struct ib_opt *tab = all_opts(&n);

	fputs("# bash completion for iobench                             -*- shell-script -*-\n"
	      "# SPDX-License-Identifier: GPL-2.0-only\n"
	      "# Generated from iobench's option table by tools/gen-docs.c: do not edit.\n\n", f);
	bash_option_words(f, tab, n);
	fputs(bash_subcmds, f);
	fputs("\n# _iobench_values OPTION: COMPREPLY = the values of OPTION matching $_iobench_val\n"
	      "_iobench_values()\n{\n\tcase \"$1\" in\n", f);
	for (i = 0; i < NR_RUN_OPTS; i++)
		bash_run_case(f, &run_opts[i], tab, n);
	for (i = 0; i < n; i++)
		bash_job_case(f, &tab[i]);
	fputs("\tesac\n}\n", f);
	fputs(bash_body, f);
}

/* ---- main ----------------------------------------------------------------- */

static FILE *open_out(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;

	if (!f)
		fprintf(stderr, "gen-docs: cannot write %s: %s\n", path, strerror(errno));
	return f;
}

static int close_out(FILE *f, const char *path)
{
	int bad = ferror(f);

	if (f != stdout)
		bad |= fclose(f);
	else
		bad |= fflush(f);
	if (bad) {
		fprintf(stderr, "gen-docs: error writing %s\n", path);
		return -1;
	}
	return 0;
}

static int run_man(const char *tpath, const char *opath)
{
	FILE *in = fopen(tpath, "r"), *out;
	int rc;

	if (!in) {
		fprintf(stderr, "gen-docs: cannot read %s: %s\n", tpath, strerror(errno));
		return -1;
	}
	out = open_out(opath);
	if (!out) {
		fclose(in);
		return -1;
	}
	rc = gen_man(in, out, tpath);
	fclose(in);
	if (close_out(out, opath))
		rc = -1;
	return rc;
}

static int run_bash(const char *opath)
{
	FILE *out;

	if (check_run_opts())
		return -1;
	out = open_out(opath);
	if (!out)
		return -1;
	gen_bash(out);
	return close_out(out, opath);
}

int main(int argc, char **argv)
{
	int rc;

	if (argc == 4 && !strcmp(argv[1], "man"))
		rc = run_man(argv[2], argv[3]);
	else if (argc == 3 && !strcmp(argv[1], "bash"))
		rc = run_bash(argv[2]);
	else {
		fputs("usage: gen-docs man TEMPLATE OUT | gen-docs bash OUT\n", stderr);
		return 2;
	}
	if (rc && strcmp(argv[argc - 1], "-"))
		remove(argv[argc - 1]);
	return rc ? 1 : 0;
}
