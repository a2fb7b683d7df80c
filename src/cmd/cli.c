// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command line front end: fio's syntax in all four forms (--opt=value,
 * -opt=value, --opt value, -opt value) plus bare flags. Run-level options
 * fill struct ib_plan; job options go through the option table into job
 * sections (struct ib_jobset); non-option arguments are job files. At the
 * end ib_plan_build() (plan.c) turns the sections into the validated plan.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "config.h"
#include "iobench/checks.h"
#include "iobench/cli.h"
#include "iobench/compiler.h"
#include "iobench/jobfile.h"
#include "iobench/options.h"
#include "iobench/parse.h"
#include "iobench/report.h"
#include "iobench/help.h"
#include "cli_priv.h"

/* fio command-line options (not job options) iobench does not have. */
static const char *const cli_unsupported[] = {
	"client", "server", "daemonize", "remote-config", "bandwidth-log",
	"warnings-fatal", "debug", "crctest", "trigger-file",
	"trigger-timeout", "trigger", "trigger-remote", "inflate-log",
	"idle-prof", "append-terse", "alloc-size", "aux-path",
	"merge-blktrace-only", "latency-log", "cpuclock-test", "profile", NULL,
};

static bool is_value(const char *next)
{
	return next && next[0] != '-';
}

/*
 * May the word after a job option be its value? Any option that takes a
 * value takes the next word ("--write_lat_log /results/fio" names the
 * logs, never a job file; "--nice -5" is a number); a boolean takes it
 * only when it reads as one ("--direct 1").
 */
static bool takes_next(const struct ib_opt *o, const char *next)
{
	bool b;
	struct ib_diag scratch = { 0 };

	if (!next)
		return false;
	if (o->type == IB_OPT_BOOL)
		return ib_parse_bool_as(o->any_int, next, &b, &scratch) == 0 &&
		       *next;
	if (next[0] == '-')
		return o->type == IB_OPT_INT && isdigit((unsigned char)next[1]);
	return true;
}

static int unknown_option(const char *name, struct ib_diag *d)
{
	char sug[200];
	size_t i;
	int rc = ib_opt_refuse(name, true, d);

	if (rc)
		return rc;
	for (i = 0; cli_unsupported[i]; i++)
		if (!strcmp(cli_unsupported[i], name))
			return ib_diag_set(d, ENOTSUP, "--%s: fio option not supported by iobench",
					   name);
	if (ib_opt_suggest(name, ib_cli_names, true, sug, sizeof(sug)))
		return ib_diag_set(d, EINVAL, "unknown option '%s' (did you mean %s?)", name, sug);
	return ib_diag_set(d, EINVAL, "unknown option '%s'", name);
}

static bool is_global_name(const char *name)
{
	return !strncmp(name, "global", 6);
}

static int job_opt(struct cli_state *st, const char *name, const char *v,
		   struct ib_diag *d)
{
	const struct ib_opt *o = ib_opt_find(name);
	int rc;

	if (!strcmp(o->name, "name")) {
		if (!*v)
			return ib_diag_set(d, EINVAL, "name: needs a value");
		st->cur = ib_jobset_open(&st->set, v, is_global_name(v), 0, d);
		return st->cur ? 0 : -ENOMEM;
	}
	st->job_opts = true;
	/* $ncpus, $pagesize, $mb_memory work on the command line too */
	rc = ib_jobfile_subst(v, st->value, sizeof(st->value), &st->env, d);
	if (rc) {
		ib_diag_prefix(d, "%s", o->name);
		return rc;
	}
	rc = ib_jobset_set(&st->set, st->cur, name, st->value, IB_OPT_CTX_CLI, d);
	if (rc)
		ib_jobfile_note_unset(v, &st->env, d);
	return rc;
}

/*
 * One argv entry at argv[*i] that starts with '-'. May consume the next
 * entry as its value. Returns 0, an IB_CLI_* stop status or -errno.
 */
static int one_arg(struct cli_state *st, int argc, char **argv, int *i,
		   struct ib_diag *d)
{
	char name[128];
	const char *arg = argv[*i] + 1, *eq, *v = NULL, *next;
	const struct cli_opt *c;
	const struct ib_opt *o;
	size_t n;

	if (*arg == '-')
		arg++;
	eq = strchr(arg, '=');
	n = eq ? (size_t)(eq - arg) : strlen(arg);
	if (n == 0 || n >= sizeof(name))
		return ib_diag_set(d, EINVAL, "invalid argument '%s'", argv[*i]);
	memcpy(name, arg, n);
	name[n] = '\0';
	if (eq)
		v = eq + 1;
	next = *i + 1 < argc ? argv[*i + 1] : NULL;
	c = cli_find(name);
	if (c) {
		if (!v && c->arg == A_REQ && is_value(next)) {
			v = next;
			(*i)++;
		}
		if (!v && c->arg == A_REQ)
			return ib_diag_set(d, EINVAL, "--%s: needs a value", name);
		if (v && c->arg == A_NONE)
			return ib_diag_set(d, EINVAL, "--%s: takes no value", name);
		return cli_run_opt(st, c, v ? v : "", d);
	}
	o = ib_opt_find(name);
	if (!o)
		return unknown_option(name, d);
	if (!v && takes_next(o, next)) {
		v = next;
		(*i)++;
	}
	return job_opt(st, name, v ? v : "", d);
}

static int parse_args(struct cli_state *st, int argc, char **argv,
		      struct ib_diag *d)
{
	bool only_files = false;
	int i, rc;

	for (i = 1; i < argc; i++) {
		if (!only_files && !strcmp(argv[i], "--")) {
			only_files = true; /* the rest are job files */
			continue;
		}
		if (only_files || argv[i][0] != '-' || !argv[i][1]) {
			if (st->nr_files == MAX_JOBFILES)
				return ib_diag_set(d, E2BIG, "too many job files (at most %d)",
						   MAX_JOBFILES);
			st->files[st->nr_files++] = argv[i];
			continue;
		}
		rc = one_arg(st, argc, argv, &i, d);
		if (rc)
			return rc;
	}
	return 0;
}

static unsigned int nr_job_sections(const struct ib_jobset *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < s->nr; i++)
		n += !s->secs[i].is_global;
	return n;
}

/*
 * Job options but no --name and no job file: one job named "job" made of
 * those options (fio refuses such a command line; iobench runs it).
 */
static int implicit_job(struct cli_state *st, struct ib_diag *d)
{
	struct ib_jobset *s = &st->set;
	struct ib_section *sec = ib_jobset_open(s, "job", false, 0, d);

	if (!sec)
		return -ENOMEM;
	sec->job.opts_text = s->global.opts_text;
	sec->job.opts_len = s->global.opts_len;
	s->global.opts_text = "";
	s->global.opts_len = 0;
	s->secs[0].job.opts_len = 0; /* the implicit global section is now empty */
	s->secs[0].job.opts_text = "";
	return 0;
}

/* Read a whole file ("-": stdin) into a malloc'd buffer. */
static int read_all(const char *path, char **buf, size_t *len, struct ib_diag *d)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	size_t cap = 0, n = 0, got;
	char *b = NULL, *nb;
	int rc = 0;

	if (!f)
		return ib_diag_set(d, errno, "%s: %s", path, strerror(errno));
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			nb = cap <= (64u << 20) ? realloc(b, cap) : NULL;
			if (!nb) {
				rc = ib_diag_set(d, EFBIG, "%s: too large for a job file", path);
				break;
			}
			b = nb;
		}
		got = fread(b + n, 1, cap - n, f);
		n += got;
		if (got == 0) {
			if (ferror(f))
				rc = ib_diag_set(d, EIO, "%s: read error", path);
			break;
		}
	}
	if (f != stdin)
		fclose(f);
	if (rc) {
		free(b);
		return rc;
	}
	*buf = b;
	*len = n;
	return 0;
}

/*
 * include FILE: as given if it exists, else relative to the directory of
 * the including file (fio's order).
 */
static int read_include(void *arg, const char *from, const char *path,
			char **buf, size_t *len, char *name, size_t namelen,
			struct ib_diag *d)
{
	const char *slash = strrchr(from, '/');
	int n;

	(void)arg;
	if (path[0] == '/' || !slash || access(path, R_OK) == 0)
		n = snprintf(name, namelen, "%s", path);
	else
		n = snprintf(name, namelen, "%.*s/%s", (int)(slash - from), from, path);
	if (n < 0 || (size_t)n >= namelen)
		return ib_diag_set(d, ENAMETOOLONG, "include %s: path too long", path);
	return read_all(name, buf, len, d);
}

static const char *env_get(const char *name)
{
	return getenv(name);
}

static void jobfile_env(struct ib_jobfile_env *env)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long page = sysconf(_SC_PAGESIZE);
	long pages = sysconf(_SC_PHYS_PAGES);

	memset(env, 0, sizeof(*env));
	env->read = read_include;
	env->getenv = env_get;
	env->ncpus = cpus > 0 ? (unsigned long)cpus : 1;
	env->pagesize = page > 0 ? (unsigned long)page : 4096;
	env->mb_memory = pages > 0 ? (unsigned long)pages * env->pagesize >> 20 : 0;
}

static int load_jobfiles(struct cli_state *st, struct ib_diag *d)
{
	unsigned int i;
	char *buf;
	size_t len;
	int rc;

	for (i = 0; i < st->nr_files; i++) {
		rc = read_all(st->files[i], &buf, &len, d);
		if (rc)
			return rc;
		rc = ib_jobfile_parse(&st->set, buf, len, st->files[i], i + 1, &st->env, d);
		free(buf);
		if (rc)
			return rc;
	}
	return 0;
}

static int finish(struct cli_state *st, struct ib_diag *d)
{
	struct ib_plan *r = st->run;
	int rc = load_jobfiles(st, d);

	if (rc)
		return rc;
	if (!nr_job_sections(&st->set)) {
		if (st->nr_files)
			return ib_diag_set(d, EINVAL, "no jobs defined in the job file%s",
					   st->nr_files > 1 ? "s" : "");
		if (!st->job_opts) {
			ib_diag_set(d, EINVAL, "no job given (job options or a job file)");
			return IB_CLI_NO_JOB;
		}
		rc = implicit_job(st, d);
		if (rc)
			return rc;
	}
	if (r->showcmd) {
		ib_help_showcmd(st->out, &st->set);
		return IB_CLI_DONE;
	}
	rc = ib_plan_build(r, &st->set, d);
	if (rc)
		return rc;
	return r->parse_only ? IB_CLI_DONE : IB_CLI_RUN;
}

int ib_cli_parse(int argc, char **argv, struct ib_plan *run, FILE *out,
		 struct ib_diag *d)
{
	struct cli_state *st = calloc(1, sizeof(*st));
	int rc;

	if (!st)
		return ib_diag_set(d, ENOMEM, "out of memory");
	st->run = run;
	st->out = out;
	jobfile_env(&st->env);
	ib_jobset_init(&st->set);
	/* options before the first --name: an unnamed global section */
	st->cur = ib_jobset_open(&st->set, "", true, 0, d);
	rc = st->cur ? parse_args(st, argc, argv, d) : -ENOMEM;
	if (!rc)
		rc = finish(st, d);
	ib_jobset_free(&st->set);
	free(st);
	return rc;
}
