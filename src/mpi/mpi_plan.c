// SPDX-License-Identifier: GPL-2.0-only
/*
 * One rank's plan (mpiplan.h): the agreement hash and per-rank file names.
 * No MPI here: the plain library carries it, iobench-mpi calls it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "iobench/mpiplan.h"

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* A job's bytes, its strings and tables by their content (their addresses
 * differ by rank). */
static uint64_t hash_job(uint64_t h, const struct ib_job *j)
{
	struct ib_job x;
	unsigned int i;

	memcpy(&x, j, sizeof(x));	/* padding too: jobs start zeroed */
	x.strs = NULL;
	for (i = 0; i < IB_JOB_NR_TABS; i++) {
		const void **t = ib_job_tab_at(&x, i);

		h = fnv1a(h, *t, ib_job_tabs[i].size);
		*t = NULL;
	}
	h = fnv1a(h, x.opts_text, x.opts_len);
	x.opts_text = NULL;
	for (i = 0; i < IB_JOB_NR_STRS; i++) {
		const char **s = ib_job_str_at(&x, i);

		h = fnv1a(h, *s, strlen(*s) + 1);
		*s = NULL;
	}
	return fnv1a(h, &x, sizeof(x));
}

uint64_t ib_mpi_plan_hash(const struct ib_plan *run)
{
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned int i;

	h = fnv1a(h, &run->nr_jobs, sizeof(run->nr_jobs));
	for (i = 0; i < run->nr_jobs; i++)
		h = hash_job(h, &run->jobs[i]);
	h = fnv1a(h, &run->global_opts_len, sizeof(run->global_opts_len));
	return fnv1a(h, run->global_opts_text, run->global_opts_len);
}

/* Append n bytes; false when out (cap bytes) is full. */
static bool put(char *out, size_t *o, size_t cap, const char *s, size_t n)
{
	if (*o + n >= cap)
		return false;
	memcpy(out + *o, s, n);
	*o += n;
	out[*o] = '\0';
	return true;
}

/* in with the rank variables replaced, into out (cap bytes). */
static bool expand(const char *in, char *out, size_t cap, int rank,
		   const char *host)
{
	static const char *const var[] = { "$clientuid", "$rank", "$hostname" };
	char num[16];
	size_t o = 0, k, n;

	snprintf(num, sizeof(num), "%d", rank);
	out[0] = '\0';
	while (*in) {
		for (k = 0; k < 3; k++)
			if (!strncmp(in, var[k], strlen(var[k])))
				break;
		if (k == 3) {
			n = 1;
			if (!put(out, &o, cap, in, 1))
				return false;
		} else {
			const char *val = k < 2 ? num : host;

			n = strlen(var[k]);
			if (!put(out, &o, cap, val, strlen(val)))
				return false;
		}
		in += n;
	}
	return true;
}

/* HOST.RANK.JOB.CLONE.FILE for each file, ':'-separated, ':' escaped. */
static bool generated_names(const struct ib_job *j, char *out, size_t cap,
			    int rank, const char *host)
{
	char name[IB_NAME_MAX + 128];
	size_t o = 0;
	unsigned int i;
	const char *p;

	out[0] = '\0';
	for (i = 0; i < j->nrfiles; i++) {
		snprintf(name, sizeof(name), "%s.%d.%s.%u.%u", host, rank, j->name,
			 j->clone, i);
		if (i && !put(out, &o, cap, ":", 1))
			return false;
		for (p = name; *p; p++)
			if ((*p == ':' && !put(out, &o, cap, "\\", 1)) ||
			    !put(out, &o, cap, p, 1))
				return false;
	}
	return true;
}

/* One PATH_MAX field, a new string; false if it does not fit (or no memory). */
static bool expand_field(struct ib_job *j, const char **field, int rank,
			 const char *host)
{
	char buf[PATH_MAX];

	if (!strchr(*field, '$'))
		return true;
	return expand(*field, buf, sizeof(buf), rank, host) &&
	       !ib_job_set_str(j, field, "%s", buf);
}

static bool job_for_rank(struct ib_job *j, int rank, const char *host)
{
	char buf[IB_PATHS_MAX];
	bool ok;

	ok = j->filename[0] ? expand(j->filename, buf, sizeof(buf), rank, host) :
			      generated_names(j, buf, sizeof(buf), rank, host);
	if (ok)
		ok = !ib_job_set_str(j, &j->filename, "%s", buf);
	return ok && expand_field(j, &j->directory, rank, host) &&
	       expand_field(j, &j->logs.iolog, rank, host) &&
	       expand_field(j, &j->logs.bw, rank, host) &&
	       expand_field(j, &j->logs.iops, rank, host) &&
	       expand_field(j, &j->logs.lat, rank, host);
}

int ib_mpi_plan_for_rank(struct ib_plan *run, int rank, const char *host,
			 struct ib_diag *d)
{
	unsigned int i;

	for (i = 0; i < run->nr_jobs; i++)
		if (!job_for_rank(&run->jobs[i], rank, host))
			return ib_diag_set(d, ENAMETOOLONG,
					   "job '%s': file name too long for rank %d",
					   run->jobs[i].name, rank);
	return 0;
}

unsigned int ib_mpi_local_max(bool split, int size, unsigned int nr_jobs)
{
	return split ? (nr_jobs + (unsigned int)size - 1) / (unsigned int)size : nr_jobs;
}

long ib_mpi_job_index(bool split, int rank, int size, unsigned int nr_jobs,
		      unsigned int j)
{
	unsigned long i = split ? (unsigned long)j * (unsigned long)size + (unsigned long)rank : j;

	return i < nr_jobs ? (long)i : -1;
}

unsigned int ib_mpi_plan_split(struct ib_job *jobs, unsigned int nr, int rank,
			       int size)
{
	unsigned int i, k = 0;

	for (i = (unsigned int)rank; i < nr; i += (unsigned int)size) {
		if (k != i)
			jobs[k] = jobs[i];
		jobs[k].stonewall = k > 0 && jobs[k].groupid != jobs[k - 1].groupid;
		k++;
	}
	return k;
}
