// SPDX-License-Identifier: GPL-2.0-only
/*
 * The engine a job runs with: its own, or the first of iobench's default
 * chain the kernel lets this process use (iomode.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/job_setup.h"
#include "iomode.h"
#include "iobench/options.h"

static const char *const chain[] = { "io_uring", "libaio", "psync", NULL };

static int probe(struct ib_iomode_cache *c, const struct ib_engine_ops *e)
{
	unsigned int i;
	int rc;

	for (i = 0; i < c->nr; i++)
		if (c->ops[i] == e)
			return c->rc[i];
	rc = e->probe ? e->probe() : 0;
	if (c->nr < IB_IOMODE_PROBES) {
		c->ops[c->nr] = e;
		c->rc[c->nr++] = rc;
	}
	return rc;
}

/* The first engine option the job sets that engine `name` does not take. */
static const struct ib_opt *option_refused(const struct ib_job *j,
					   const struct ib_job *def,
					   const char *name)
{
	const struct ib_engine_opts *const *set;
	const struct ib_opt *o;

	for (set = ib_engine_opts_list(); *set; set++)
		for (o = (*set)->rows; o->name; o++)
			if (!ib_engine_has_option(name, o->name) &&
			    memcmp((const char *)j + o->off,
				   (const char *)def + o->off, o->size))
				return o;
	return NULL;
}

static void add_why(char *why, size_t len, const char *fmt, const char *a,
		    const char *b)
{
	size_t used = strlen(why);

	if (used + 3 >= len)
		return;
	if (used)
		used += (size_t)snprintf(why + used, len - used, "; ");
	snprintf(why + used, len - used, fmt, a, b);
}

/* Try the chain in order; why collects the reasons of the ones skipped. */
static const struct ib_engine_ops *walk(const struct ib_job *j,
					const struct ib_job *def,
					struct ib_iomode_cache *c, char *why,
					size_t len)
{
	const struct ib_engine_ops *e;
	const struct ib_opt *o;
	int rc;

	for (unsigned int i = 0; chain[i]; i++) {
		e = ib_engine_find(chain[i]);
		if (!e) {
			add_why(why, len, "%s is not built into this iobench%s",
				chain[i], "");
			continue;
		}
		o = option_refused(j, def, chain[i]);
		if (o) {
			add_why(why, len, "%s does not take %s", chain[i], o->name);
			continue;
		}
		rc = probe(c, e);
		if (!rc || !ib_engine_unavailable(rc))
			return e; /* other errors: the job reports them */
		add_why(why, len, "%s: %s", chain[i], strerror(-rc));
	}
	return NULL;
}

const struct ib_engine_ops *ib_iomode_engine(const struct ib_job *j,
					     struct ib_iomode_cache *c,
					     char *why, size_t len, int *err,
					     struct ib_diag *d)
{
	const struct ib_engine_ops *e;
	struct ib_job *def;

	why[0] = '\0';
	*err = 0;
	if (j->ioengine_given || j->defaults == IB_DEFAULTS_FIO ||
	    strcmp(j->ioengine, chain[0])) {
		e = ib_engine_find(j->ioengine); /* validated: it is built in */
		if (!e)
			*err = ib_diag_set(d, EINVAL, "ioengine=%s: unknown engine",
					   j->ioengine);
		return e;
	}
	def = malloc(sizeof(*def));
	if (!def) {
		*err = ib_diag_set(d, ENOMEM, "out of memory");
		return NULL;
	}
	ib_job_defaults(def);
	e = walk(j, def, c, why, len);
	free(def);
	if (!e)
		*err = ib_diag_set(d, ENOTSUP, "job '%s': no I/O engine can run it here: %s",
				   j->name, why);
	return e;
}
