// SPDX-License-Identifier: GPL-2.0-only
/*
 * Job sections (shared by the command line and job files) and the job file
 * parser.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/job_setup.h"
#include "iobench/jobfile.h"
#include "iobench/options.h"
#include "iobench/strtab.h"

void ib_jobset_init(struct ib_jobset *s)
{
	memset(s, 0, sizeof(*s));
	ib_job_defaults(&s->global);
	s->global.strs = &s->strs;
}

void ib_jobset_free(struct ib_jobset *s)
{
	free(s->secs);
	s->secs = NULL;
	s->nr = s->cap = 0;
	ib_strtab_free(&s->strs);
}

struct ib_section *ib_jobset_open(struct ib_jobset *s, const char *name,
				  bool is_global, unsigned int file_idx,
				  struct ib_diag *d)
{
	struct ib_section *sec;
	unsigned int cap;

	if (s->nr == s->cap) {
		cap = s->cap ? s->cap * 2 : 8;
		sec = realloc(s->secs, cap * sizeof(*sec));
		if (!sec) {
			ib_diag_set(d, ENOMEM, "out of memory");
			return NULL;
		}
		s->secs = sec;
		s->cap = cap;
	}
	sec = &s->secs[s->nr++];
	sec->is_global = is_global;
	sec->file_idx = file_idx;
	if (is_global) {
		ib_job_defaults(&sec->job);
		sec->job.strs = &s->strs;
	} else {
		sec->job = s->global;
	}
	sec->job.opts_text = "";
	sec->job.opts_len = 0;
	if (is_global) {
		if (!ib_job_set_str(&sec->job, &sec->job.name, "%.*s",
				    IB_NAME_MAX - 1, name))
			return sec;
		s->nr--;
		ib_diag_set(d, ENOMEM, "[%s]: no memory", name);
		return NULL;
	}
	if (ib_opt_set(&sec->job, "name", name, d)) {
		s->nr--;
		return NULL;
	}
	if (ib_job_set_str(&sec->job, &sec->job.section, "%s", sec->job.name)) {
		s->nr--;
		ib_diag_set(d, ENOMEM, "[%s]: no memory", name);
		return NULL;
	}
	return sec;
}

/*
 * kb_base changes what "1m" means for the whole section, wherever it is
 * written (fio parses it before the section's other options): re-apply
 * the section's earlier options under the new base, in their order.
 */
static int replay(struct ib_job *target, const struct ib_section *sec, int ctx,
		  struct ib_diag *d)
{
	/* immutable: setting the options records them in a new text */
	const char *text = sec->job.opts_text, *k, *v;
	unsigned int pos = 0, len = sec->job.opts_len;
	int rc = 0;

	while (!rc && pos < len) {
		k = text + pos;
		v = k + strlen(k) + 1;
		pos = (unsigned int)(v + strlen(v) + 1 - text);
		/* strings hold no sizes; filename= would add its files twice */
		if (strcmp(k, "kb_base") && strcmp(k, "name") &&
		    ib_opt_find(k)->type != IB_OPT_STR)
			rc = ib_opt_set_ctx(target, k, v, (enum ib_opt_ctx)ctx, d);
	}
	return rc;
}

/*
 * fio-version= (the report format, fio_version.h): one value for the whole
 * run, so only in [global]; not a job option, and not recorded in the
 * report's options (fio has no such option).
 */
static int set_fio_version(struct ib_jobset *s, const struct ib_section *sec,
			   const char *name, const char *value, struct ib_diag *d)
{
	if (sec && !sec->is_global)
		return ib_diag_set(d, EINVAL, "%s: only in [global] (the report format of the whole run)",
				   name);
	return ib_fio_version_parse(value ? value : "", &s->fio_version, name, d);
}

int ib_jobset_set(struct ib_jobset *s, struct ib_section *sec,
		  const char *name, const char *value, int ctx,
		  struct ib_diag *d)
{
	struct ib_job *target = sec->is_global ? &s->global : &sec->job;
	const struct ib_opt *o;
	int rc;

	if (!strcmp(name, "fio-version") || !strcmp(name, "fio_version"))
		return set_fio_version(s, sec, name, value, d);
	rc = ib_opt_set_ctx(target, name, value, (enum ib_opt_ctx)ctx, d);
	if (rc)
		return rc;
	o = ib_opt_find(name);
	rc = sec->is_global ? ib_job_record_opt(&sec->job, o, value ? value : "") : 0;
	if (rc == -ENOSPC)
		return ib_diag_set(d, ENOSPC, "%s: too many options in one section", o->name);
	if (rc)
		return ib_diag_set(d, -rc, "%s: no memory", o->name);
	if (!strcmp(o->name, "kb_base"))
		return replay(target, sec, ctx, d);
	return 0;
}

/* ---- job file parser ---------------------------------------------------- */

#define LINE_LEN 8192
#define MAX_INCLUDE_DEPTH 16

struct pctx {
	struct ib_jobset *s;
	const struct ib_jobfile_env *env;
	struct ib_section *cur;
	unsigned int file_idx;
	bool stonewall_pending;	/* next job section: first of file 2+ */
	bool prefixed;		/* d already names a file and line */
	int depth;
};

static int parse_buf(struct pctx *p, const char *buf, size_t len,
		     const char *name, bool included, struct ib_diag *d);

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int put(char *out, size_t *o, size_t cap, const char *s, size_t n)
{
	if (*o + n >= cap)
		return -1;
	memcpy(out + *o, s, n);
	*o += n;
	return 0;
}

/* $ncpus, $pagesize, $mb_memory at s; returns the name length or 0. */
static size_t sysvar(const char *s, const struct ib_jobfile_env *env,
		     unsigned long *val)
{
	static const char *const names[] = { "$ncpus", "$pagesize", "$mb_memory" };
	unsigned long vals[] = { env->ncpus, env->pagesize, env->mb_memory };
	size_t i, n;

	for (i = 0; i < 3; i++) {
		n = strlen(names[i]);
		if (!strncmp(s, names[i], n) && !isalnum((unsigned char)s[n]) && s[n] != '_') {
			*val = vals[i];
			return n;
		}
	}
	return 0;
}

int ib_jobfile_subst(const char *in, char *out, size_t cap,
		     const struct ib_jobfile_env *env, struct ib_diag *d)
{
	char var[256], num[32];
	const char *end, *val;
	unsigned long v;
	size_t o = 0, n;

	while (*in) {
		if (in[0] == '$' && in[1] == '{') {
			end = strchr(in, '}');
			if (!end || (size_t)(end - in - 2) >= sizeof(var))
				return ib_diag_set(d, EINVAL, "invalid variable reference '%s'", in);
			memcpy(var, in + 2, (size_t)(end - in - 2));
			var[end - in - 2] = '\0';
			val = env->getenv ? env->getenv(var) : NULL;
			if (val && put(out, &o, cap, val, strlen(val)))
				goto too_long;
			in = end + 1;
		} else if (in[0] == '$' && (n = sysvar(in, env, &v))) {
			snprintf(num, sizeof(num), "%lu", v);
			if (put(out, &o, cap, num, strlen(num)))
				goto too_long;
			in += n;
		} else {
			if (put(out, &o, cap, in, 1))
				goto too_long;
			in++;
		}
	}
	out[o] = '\0';
	return 0;
too_long:
	return ib_diag_set(d, E2BIG, "line too long after substitution");
}

void ib_jobfile_note_unset(const char *in, const struct ib_jobfile_env *env,
			   struct ib_diag *d)
{
	const char *end;
	size_t n, len;
	char var[256];

	for (; (in = strstr(in, "${")); in = end + 1) {
		end = strchr(in, '}');
		if (!end)
			return;
		n = (size_t)(end - in - 2);
		if (n >= sizeof(var))
			continue;
		memcpy(var, in + 2, n);
		var[n] = '\0';
		if (env->getenv && env->getenv(var))
			continue;
		len = strlen(d->msg);
		snprintf(d->msg + len, sizeof(d->msg) - len,
			 " (${%s} is not set in the environment)", var);
		return;
	}
}

static int section_line(struct pctx *p, char *line, bool included,
			struct ib_diag *d)
{
	char *end = strrchr(line, ']'), *name;
	bool is_global;

	if (included)
		return ib_diag_set(d, EINVAL, "an included file may not contain sections ('%s')", line);
	if (!end || end[1])
		return ib_diag_set(d, EINVAL, "invalid section header '%s'", line);
	*end = '\0';
	name = trim(line + 1);
	if (!*name)
		return ib_diag_set(d, EINVAL, "empty section name");
	is_global = !strncmp(name, "global", 6);
	p->cur = ib_jobset_open(p->s, name, is_global, p->file_idx, d);
	if (!p->cur)
		return -ENOMEM;
	if (!is_global && p->stonewall_pending) {
		p->cur->job.stonewall = true;
		p->stonewall_pending = false;
	}
	return 0;
}

static int include_line(struct pctx *p, const char *from, const char *path,
			struct ib_diag *d)
{
	char name[PATH_MAX];
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if (!*path)
		return ib_diag_set(d, EINVAL, "include: needs a file name");
	if (!p->env->read)
		return ib_diag_set(d, ENOTSUP, "include %s: includes are not available here", path);
	if (p->depth >= MAX_INCLUDE_DEPTH)
		return ib_diag_set(d, ELOOP, "include %s: nested more than %d deep",
				   path, MAX_INCLUDE_DEPTH);
	rc = p->env->read(p->env->arg, from, path, &buf, &len, name, sizeof(name), d);
	if (rc)
		return rc;
	p->depth++;
	rc = parse_buf(p, buf, len, name, true, d);
	p->depth--;
	free(buf);
	return rc;
}

static int option_line(struct pctx *p, char *line, struct ib_diag *d)
{
	char *eq = strchr(line, '='), *key = line, *val = (char *)"";

	if (eq) {
		*eq = '\0';
		val = trim(eq + 1);
	}
	key = trim(key);
	if (!*key)
		return ib_diag_set(d, EINVAL, "missing option name before '='");
	if (!p->cur)
		return ib_diag_set(d, EINVAL, "option '%s' outside of a [section]", key);
	return ib_jobset_set(p->s, p->cur, key, val, IB_OPT_CTX_FILE, d);
}

static int parse_line(struct pctx *p, char *raw, const char *name,
		      bool included, struct ib_diag *d)
{
	char line[LINE_LEN], *l;
	int rc;

	raw[strcspn(raw, ";#")] = '\0';	/* comments, also inline */
	l = trim(raw);
	if (!*l)
		return 0;
	if (*l == '[')
		return section_line(p, l, included, d);
	rc = ib_jobfile_subst(l, line, sizeof(line), p->env, d);
	if (rc)
		return rc;
	if (!strncmp(line, "include", 7) && isspace((unsigned char)line[7]))
		return include_line(p, name, trim(line + 8), d);
	rc = option_line(p, line, d);
	if (rc)
		ib_jobfile_note_unset(l, p->env, d);
	return rc;
}

static int parse_buf(struct pctx *p, const char *buf, size_t len,
		     const char *name, bool included, struct ib_diag *d)
{
	char line[LINE_LEN];
	unsigned int lineno = 0;
	const char *nl;
	size_t n;
	int rc;

	while (len) {
		nl = memchr(buf, '\n', len);
		n = nl ? (size_t)(nl - buf) : len;
		lineno++;
		if (n >= sizeof(line))
			return ib_diag_set(d, E2BIG, "%s:%u: line too long", name, lineno);
		memcpy(line, buf, n);
		line[n] = '\0';
		if (memchr(line, '\0', n))
			return ib_diag_set(d, EINVAL, "%s:%u: NUL byte in line", name, lineno);
		rc = parse_line(p, line, name, included, d);
		if (rc) {
			if (!p->prefixed)
				ib_diag_prefix(d, "%s:%u", name, lineno);
			p->prefixed = true;
			return rc;
		}
		buf += n + (nl ? 1 : 0);
		len -= n + (nl ? 1 : 0);
	}
	return 0;
}

int ib_jobfile_parse(struct ib_jobset *s, const char *buf, size_t len,
		     const char *filename, unsigned int file_idx,
		     const struct ib_jobfile_env *env, struct ib_diag *d)
{
	static const struct ib_jobfile_env none;
	struct pctx p = {
		.s = s, .env = env ? env : &none, .file_idx = file_idx,
		.stonewall_pending = file_idx >= 2,
	};

	return parse_buf(&p, buf, len, filename, false, d);
}
