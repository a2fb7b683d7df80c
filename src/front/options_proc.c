// SPDX-License-Identifier: GPL-2.0-only
/*
 * Setters of the placement and priority options: cpus_allowed, cpumask,
 * numa_cpu_nodes (CPU and node lists into bitmaps), numa_mem_policy, prio
 * and prioclass.
 * procopts.c (src/io) applies them in the job.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/mempolicy.h>
#include "iobench/parse.h"
#include "options_priv.h"

/* "0-3,5" into bits (max bits); -EINVAL/-ERANGE with d set. */
static int parse_list(const struct ib_opt *o, const char *v, uint64_t *bits,
		      unsigned int max, struct ib_diag *d)
{
	const char *p = v;
	unsigned long lo, hi, i;
	char *end;

	memset(bits, 0, max / 8);
	do {
		if (!isdigit((unsigned char)*p))
			goto bad;
		lo = hi = strtoul(p, &end, 10);
		if (*end == '-') {
			p = end + 1;
			if (!isdigit((unsigned char)*p))
				goto bad;
			hi = strtoul(p, &end, 10);
		}
		if (lo > hi)
			goto bad;
		if (hi >= max)
			return ib_diag_set(d, ERANGE, "%s: %lu is out of range (0..%u)",
					   o->name, hi, max - 1);
		for (i = lo; i <= hi; i++)
			bits[i / 64] |= 1ull << (i % 64);
		p = end;
	} while (*p++ == ',');
	if (p[-1])
		goto bad;
	return 0;
bad:
	return ib_diag_set(d, EINVAL, "%s: invalid list '%s' (e.g. 0-3,6)", o->name, v);
}

int ib_opt_set_cpus(struct ib_job *j, const struct ib_opt *o, const char *v,
		    struct ib_diag *d)
{
	int rc = parse_list(o, v, j->proc.cpus, IB_MAX_CPUS, d);

	if (!rc)
		j->proc.cpus_set = true;
	return rc;
}

/* cpumask: an integer whose bit N allows CPU N (fio). */
int ib_opt_set_cpumask(struct ib_job *j, const struct ib_opt *o,
		       const char *v, struct ib_diag *d)
{
	uint64_t mask;
	int rc = ib_parse_uint(v, &mask, d);

	if (rc) {
		ib_diag_prefix(d, "%s", o->name);
		return rc;
	}
	if (!mask)
		return ib_diag_set(d, EINVAL, "%s: no CPU in mask '%s'", o->name, v);
	memset(j->proc.cpus, 0, sizeof(j->proc.cpus));
	j->proc.cpus[0] = mask;
	j->proc.cpus_set = true;
	return 0;
}

int ib_opt_set_numa_nodes(struct ib_job *j, const struct ib_opt *o,
			  const char *v, struct ib_diag *d)
{
	return parse_list(o, v, &j->proc.numa_nodes, 64, d);
}

/*
 * numa_mem_policy=MODE[:NODES] (fio's): default and local take no nodes,
 * prefer one, bind and interleave a list or "all" (the online nodes).
 */
int ib_opt_set_mem_policy(struct ib_job *j, const struct ib_opt *o,
			  const char *v, struct ib_diag *d)
{
	static const struct { const char *name; unsigned int mode; int nodes; } modes[] = {
		{ "default", MPOL_DEFAULT, 0 }, { "prefer", MPOL_PREFERRED, 1 },
		{ "bind", MPOL_BIND, 2 }, { "interleave", MPOL_INTERLEAVE, 2 },
		{ "local", MPOL_LOCAL, 0 },
	};
	size_t n = strcspn(v, ":"), i;
	const char *list = v[n] ? v + n + 1 : NULL;
	int rc;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strlen(modes[i].name) == n && !strncmp(v, modes[i].name, n))
			break;
	if (i == sizeof(modes) / sizeof(modes[0]))
		return ib_diag_set(d, EINVAL, "%s=%s: unknown policy (default, prefer, bind, interleave, local)",
				   o->name, v);
	j->proc.mem_mode = modes[i].mode + 1;
	j->proc.mem_nodes = 0;
	j->proc.mem_all = false;
	if (!modes[i].nodes) {
		if (list)
			return ib_diag_set(d, EINVAL, "%s=%s: %s takes no nodes", o->name, v,
					   modes[i].name);
		return 0;
	}
	if (!list || !*list)
		return ib_diag_set(d, EINVAL, "%s=%s: %s needs %s", o->name, v, modes[i].name,
				   modes[i].nodes == 1 ? "a node" : "nodes");
	if (modes[i].nodes == 2 && !strcmp(list, "all")) {
		j->proc.mem_all = true;
		return 0;
	}
	rc = parse_list(o, list, &j->proc.mem_nodes, 64, d);
	if (!rc && modes[i].nodes == 1 && __builtin_popcountll(j->proc.mem_nodes) != 1)
		return ib_diag_set(d, EINVAL, "%s=%s: prefer takes one node", o->name, v);
	return rc;
}

/* comm=NAME: fio refuses an empty name ("requires an argument"). */
int ib_opt_set_comm(struct ib_job *j, const struct ib_opt *o, const char *v,
		    struct ib_diag *d)
{
	if (!v || !*v)
		return ib_diag_set(d, EINVAL, "%s: needs a process name", o->name);
	if (strlen(v) >= IB_COMM_MAX)
		return ib_diag_set(d, EINVAL, "%s: longer than %d characters",
				   o->name, IB_COMM_MAX - 1);
	return ib_opt_set_str(j, o, v, d);
}

/* prio=, prioclass= or priohint=: remember that one was given (procopts.c). */
int ib_opt_set_ioprio(struct ib_job *j, const struct ib_opt *o, const char *v,
		      struct ib_diag *d)
{
	int64_t x;
	int rc = ib_opt_parse_int(o, v, &x, d);

	if (rc)
		return rc;
	if (!strcmp(o->name, "prio"))
		j->proc.ioprio = (unsigned int)x;
	else if (!strcmp(o->name, "priohint"))
		j->proc.ioprio_hint = (unsigned int)x;
	else
		j->proc.ioprio_class = (unsigned int)x;
	j->proc.ioprio_given = true;
	return 0;
}
