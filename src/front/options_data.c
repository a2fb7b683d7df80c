// SPDX-License-Identifier: GPL-2.0-only
/*
 * Setters of the block size and write data options: bssplit= and
 * buffer_pattern= (their meaning: bssplit.h, buf.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>
#include "iobench/bssplit.h"
#include "iobench/parse.h"
#include "iobench/randdist.h"
#include "iobench/verify.h"
#include "options_priv.h"

/*
 * iomem=/mem=: malloc, shm, mmap, mmap:FILE, mmapshared (buf.h); fio's
 * huge page kinds and cudamalloc are refused by name.
 */
int ib_opt_set_iomem(struct ib_job *j, const struct ib_opt *o, const char *v,
		     struct ib_diag *d)
{
	static const char *const kinds[] = { "malloc", "shm", "mmap", "mmapshared" };
	const char *file = NULL;

	j->iomem_file = "";
	if (!strncasecmp(v, "mmap:", 5) && v[5]) {
		file = v + 5;
		if (strlen(file) >= IB_NAME_MAX)
			return ib_diag_set(d, ENAMETOOLONG, "%s=%s: file name too long",
					   o->name, v);
		if (ib_opt_set_str(j, o, file, d))
			return -ENOMEM;
		j->iomem = IB_IOMEM_MMAP;
		return 0;
	}
	for (unsigned int k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (!strcasecmp(v, kinds[k])) {
			j->iomem = k;
			return 0;
		}
	if (!strcasecmp(v, "shmhuge") || !strncasecmp(v, "mmaphuge", 8))
		return ib_diag_set(d, ENOTSUP, "%s=%s: huge page buffers not supported by iobench (malloc, shm, mmap[:FILE], mmapshared are)",
				   o->name, v);
	if (!strcasecmp(v, "cudamalloc"))
		return ib_diag_set(d, ENOTSUP, "%s=%s: GPU memory buffers not supported by iobench (malloc, shm, mmap[:FILE], mmapshared are)",
				   o->name, v);
	return ib_diag_set(d, EINVAL, "%s=%s: not a buffer kind (malloc, shm, mmap[:FILE], mmapshared)",
			   o->name, v);
}

int ib_opt_set_bssplit(struct ib_job *j, const struct ib_opt *o, const char *v,
		       struct ib_diag *d)
{
	struct ib_bssplit *s = ib_job_tab_copy(j, j->bssplit,
					       sizeof(ib_job_no_bssplit));
	int rc;

	if (!s)
		return ib_diag_set(d, ENOMEM, "%s: no memory", o->name);
	rc = ib_bssplit_parse(v, j->kb_base, s, d);
	if (!rc)
		j->bssplit = s;
	return rc;
}

/*
 * fio's pattern syntax as verify_pattern has it, without %o (a buffer has
 * no offset) and without 'file' (not supported by iobench).
 */
int ib_opt_set_buffer_pattern(struct ib_job *j, const struct ib_opt *o,
			      const char *v, struct ib_diag *d)
{
	struct ib_vpattern p;

	if (strlen(v) >= IB_PATTERN_TEXT_MAX)
		return ib_diag_set(d, ENAMETOOLONG, "%s: value too long", o->name);
	if (strchr(v, '\''))
		return ib_diag_set(d, ENOTSUP,
				   "%s='file': a pattern read from a file is not supported by iobench",
				   o->name);
	if (ib_vpattern_parse(v, &p, d))
		return ib_diag_set(d, EINVAL, "%s: invalid pattern '%s'", o->name, v);
	if (p.noffs)
		return ib_diag_set(d, EINVAL, "%s: %%o has no meaning in a buffer pattern",
				   o->name);
	/* fio: a pattern is written as it is, neither stamped nor zeroed
	 * (unless one of them is given after it) */
	j->scramble_buffers = false;
	j->zero_buffers = false;
	return ib_opt_set_str(j, o, v, d);
}

/* A boolean option that also remembers it was given. */
static int set_bool_given(const struct ib_opt *o, const char *v, bool *val,
			  bool *given, struct ib_diag *d)
{
	int rc = ib_parse_bool_as(o->any_int, v, val, d);

	if (rc) {
		ib_diag_prefix(d, "%s", o->name);
		return rc;
	}
	*given = true;
	return 0;
}

/* scramble_buffers: given, it holds over zero_buffers=1 (buf.c). */
int ib_opt_set_scramble(struct ib_job *j, const struct ib_opt *o,
			const char *v, struct ib_diag *d)
{
	return set_bool_given(o, v, &j->scramble_buffers, &j->scramble_given, d);
}

int ib_opt_set_random_distribution(struct ib_job *j, const struct ib_opt *o,
				   const char *v, struct ib_diag *d)
{
	(void)o;
	return ib_randdist_parse(v, j->kb_base, j, d);
}

static const struct {
	const char *name;
	enum ib_file_service type;
	double def;		/* a distribution's default value (fio's) */
} fs_names[] = {
	{ "roundrobin", IB_FS_ROUNDROBIN, 0 }, { "sequential", IB_FS_SEQUENTIAL, 0 },
	{ "random", IB_FS_RANDOM, 0 }, { "zipf", IB_FS_ZIPF, 1.1 },
	{ "pareto", IB_FS_PARETO, 0.2 }, { "normal", IB_FS_NORMAL, 0 },
	{ "gauss", IB_FS_NORMAL, 0 },
};

/* "name[:N]" (roundrobin, sequential, random) or "dist[:value]". */
int ib_opt_set_file_service(struct ib_job *j, const struct ib_opt *o,
			    const char *v, struct ib_diag *d)
{
	size_t n = strcspn(v, ":"), i;
	const char *arg = v[n] ? v + n + 1 : NULL;
	char *end;
	double x;

	for (i = 0; i < sizeof(fs_names) / sizeof(fs_names[0]); i++)
		if (strlen(fs_names[i].name) == n && !strncasecmp(v, fs_names[i].name, n))
			break;
	if (i == sizeof(fs_names) / sizeof(fs_names[0]))
		return ib_diag_set(d, EINVAL, "%s=%s: unknown type (roundrobin, sequential, random, zipf, pareto, normal, gauss)",
				   o->name, v);
	j->file_service = fs_names[i].type;
	j->file_service_nr = 1;
	j->file_service_param = fs_names[i].def;
	if (!arg)
		return 0;
	x = strtod(arg, &end);
	if (end == arg || *end || x < 0)
		return ib_diag_set(d, EINVAL, "%s=%s: invalid value '%s'", o->name, v, arg);
	if (j->file_service < IB_FS_ZIPF) {
		if (x < 1 || x > 1000000 || x != (double)(unsigned int)x)
			return ib_diag_set(d, EINVAL, "%s=%s: the I/O count must be a whole number >= 1",
					   o->name, v);
		j->file_service_nr = (unsigned int)x;
	} else if ((j->file_service == IB_FS_ZIPF && (x <= 0 || x == 1.0)) ||
		   (j->file_service == IB_FS_PARETO && (x <= 0 || x >= 1)) ||
		   (j->file_service == IB_FS_NORMAL && x > 100)) {
		return ib_diag_set(d, EINVAL, "%s=%s: value out of range", o->name, v);
	} else {
		j->file_service_param = x;
	}
	return 0;
}

/*
 * sync_file_range=FLAG[,FLAG...][:N], FLAG one of wait_before, write,
 * wait_after (SYNC_FILE_RANGE_*); N writes between syncs, 1 if left out.
 */
int ib_opt_set_sync_file_range(struct ib_job *j, const struct ib_opt *o,
			       const char *v, struct ib_diag *d)
{
	static const struct { const char *name; unsigned int flag; } flags[] = {
		{ "wait_before", SYNC_FILE_RANGE_WAIT_BEFORE },
		{ "write", SYNC_FILE_RANGE_WRITE },
		{ "wait_after", SYNC_FILE_RANGE_WAIT_AFTER },
	};
	const char *p = v, *colon = strchr(v, ':');
	size_t n, i;
	char *end;
	unsigned long nr = 1;

	j->sfr_flags = 0;
	while (p < (colon ? colon : v + strlen(v))) {
		n = strcspn(p, ",:");
		for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
			if (strlen(flags[i].name) == n && !strncasecmp(p, flags[i].name, n))
				break;
		if (i == sizeof(flags) / sizeof(flags[0]))
			return ib_diag_set(d, EINVAL, "%s=%s: unknown flag '%.*s' (wait_before, write, wait_after)",
					   o->name, v, (int)n, p);
		j->sfr_flags |= flags[i].flag;
		p += n + (p[n] == ',');
	}
	if (!j->sfr_flags)
		return ib_diag_set(d, EINVAL, "%s=%s: needs a flag (wait_before, write, wait_after)",
				   o->name, v);
	if (colon) {
		errno = 0;
		nr = strtoul(colon + 1, &end, 10);
		if (end == colon + 1 || *end || errno || !nr || nr > UINT32_MAX)
			return ib_diag_set(d, EINVAL, "%s=%s: the write count must be a whole number >= 1",
					   o->name, v);
	}
	j->sfr_every = (unsigned int)nr;
	return 0;
}

/* percentage_random=r[,w[,t]]: an omitted direction takes the last given. */
int ib_opt_set_pct_random(struct ib_job *j, const struct ib_opt *o,
			  const char *v, struct ib_diag *d)
{
	const char *p = v;
	unsigned int i = 0, val = 100;
	char *end;
	unsigned long x;

	while (i < IB_DDIR_RWT) {
		x = strtoul(p, &end, 10);
		if (end == p || x > 100 || (*end && *end != ','))
			return ib_diag_set(d, EINVAL, "%s=%s: each value must be 0..100",
					   o->name, v);
		val = (unsigned int)x;
		j->pct_random[i++] = val;
		if (!*end)
			break;
		p = end + 1;
	}
	if (i == IB_DDIR_RWT && *p && strchr(p, ','))
		return ib_diag_set(d, EINVAL, "%s=%s: more than read,write,trim values",
				   o->name, v);
	for (; i < IB_DDIR_RWT; i++)
		j->pct_random[i] = val;
	return 0;
}

/* tausworthe, tausworthe64 and lfsr: which offset generator (iogen.h). */
int ib_opt_set_random_generator(struct ib_job *j, const struct ib_opt *o,
				const char *v, struct ib_diag *d)
{
	if (!strcasecmp(v, "tausworthe"))
		j->rand_gen = IB_RANDGEN_TAUS;
	else if (!strcasecmp(v, "tausworthe64"))
		j->rand_gen = IB_RANDGEN_TAUS64;
	else if (!strcasecmp(v, "lfsr"))
		j->rand_gen = IB_RANDGEN_LFSR;
	else
		return ib_diag_set(d, EINVAL, "%s=%s: unknown generator (tausworthe, lfsr, tausworthe64)",
				   o->name, v);
	return 0;
}

/* norandommap: also remembers it was given (sprandom refuses =0). */
int ib_opt_set_norandommap(struct ib_job *j, const struct ib_opt *o,
			   const char *v, struct ib_diag *d)
{
	return set_bool_given(o, v, &j->norandommap, &j->norandommap_given, d);
}

/* spr_op: the over-provisioning ratio, strictly between 0 and 1. */
int ib_opt_set_spr_op(struct ib_job *j, const struct ib_opt *o,
		      const char *v, struct ib_diag *d)
{
	char *end;
	double x = strtod(v, &end);

	if (end == v || *end || !(x > 0.0 && x < 1.0))
		return ib_diag_set(d, EINVAL,
				   "%s=%s: the over-provisioning ratio must be a number between 0 and 1 (exclusive)",
				   o->name, v);
	j->spr_op = x;
	return 0;
}

/*
 * rw_sequencer: sequential (the default) or identical, which makes the
 * I/Os of a random type's rw=TYPE:N run repeat the offset (iogen.h). fio
 * 3.33 ends a sequential type's job early with identical: refused there
 * (validate.c).
 */
int ib_opt_set_rw_sequencer(struct ib_job *j, const struct ib_opt *o,
			    const char *v, struct ib_diag *d)
{
	if (strcasecmp(v, "sequential") && strcasecmp(v, "identical"))
		return ib_diag_set(d, EINVAL, "%s=%s: invalid value (sequential, identical)",
				   o->name, v);
	j->rw_seq_identical = !strcasecmp(v, "identical");
	return 0;
}
