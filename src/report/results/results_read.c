// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading a JSON report (iobench's own, fio 3.33's json or json+) back into
 * the results document (results.h). What the file holds exactly comes back
 * exactly: counts, bytes, runtimes, latency min/max/mean/stddev/N, bw and
 * iops sample statistics, percentile lists, and from json+ "bins" every
 * histogram bucket (a bin's value is its bucket's representative value,
 * which ib_hist_index maps back to that bucket); from plain JSON a
 * histogram that gives the file's percentiles again. What the file only holds
 * as percentages (IO depths, submit/complete, the lat ns/us/ms tables, CPU
 * use) comes back as counts that print the same percentages. Client mode
 * (fio's and iobench-mpi's "client_stats"): one host per hostname and rank
 * (fio: port), the "All clients" entries left out (the report sums again).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iobench/checks.h"
#include "iobench/env.h"
#include "iobench/env_out.h"
#include "iobench/plan.h"
#include "results_priv.h"

#define READ_DISKS_MAX 64
/* iobench's top-level "environment" (env.h) */
static int env_into(struct ib_results *r, const struct ib_jv *o, struct ib_diag *d)
{
	if (!o || o->type != IB_JV_OBJ)
		return 0;
	r->own_env = calloc(1, sizeof(*r->own_env));
	if (!r->own_env)
		return ib_diag_set(d, ENOMEM, "out of memory");
	ib_env_from_json(r->own_env, o);
	return 0;
}

static void disk_stat_into(const struct ib_jv *o, char *name, size_t nlen, uint64_t *ios,
			   uint64_t *sectors, uint64_t *merges, uint64_t *ticks, uint64_t *in_queue, double *util)
{
	const char *n = ib_jv_str(ib_jv_get(o, "name"));

	snprintf(name, nlen, "%s", n ? n : "");
	ios[0] = get_u64(o, "read_ios");
	ios[1] = get_u64(o, "write_ios");
	sectors[0] = get_u64(o, "read_sectors");	/* fio 3.42 */
	sectors[1] = get_u64(o, "write_sectors");
	merges[0] = get_u64(o, "read_merges");
	merges[1] = get_u64(o, "write_merges");
	ticks[0] = get_u64(o, "read_ticks");
	ticks[1] = get_u64(o, "write_ticks");
	*in_queue = get_u64(o, "in_queue");
	*util = get_double(o, "util");
}

static void aggr_into(struct ib_disk_util *u, const struct ib_jv *o)
{
	u->aggr_ios[0] = get_u64(o, "aggr_read_ios");
	u->aggr_ios[1] = get_u64(o, "aggr_write_ios");
	u->aggr_merges[0] = get_u64(o, "aggr_read_merges");
	u->aggr_merges[1] = get_u64(o, "aggr_write_merge");	/* sic, as fio */
	u->aggr_ticks[0] = get_u64(o, "aggr_read_ticks");
	u->aggr_ticks[1] = get_u64(o, "aggr_write_ticks");
	u->aggr_in_queue = get_u64(o, "aggr_in_queue");
	u->aggr_util = get_double(o, "aggr_util");
}

/*
 * disk_util: a device with aggr_* fields is a dm/md device and the
 * entries after it without them are its slaves (JSON does not say how
 * many: up to IB_DISK_SLAVES_MAX are taken).
 */
/* Client mode: a disk entry's host (by hostname and rank), else host 0. */
static unsigned int disk_host(const struct ib_results *r, const struct ib_jv *e)
{
	const char *name = ib_jv_str(ib_jv_get(e, "hostname"));
	const struct ib_jv *rank = ib_jv_get(e, "rank");
	unsigned int h;

	for (h = 0; name && rank && h < r->nr_hosts; h++)
		if (r->hosts[h].rank == (int)rank->num && !strcmp(r->hosts[h].name, name))
			return h;
	return 0;
}

static void disks_into(struct ib_results *r, const struct ib_jv *arr)
{
	const struct ib_jv *e;
	struct ib_disk_util *u, *m = NULL;	/* m: the device whose slaves follow */

	for (e = arr && arr->type == IB_JV_ARR ? arr->child : NULL; e; e = e->next) {
		bool master = ib_jv_get(e, "aggr_util") != NULL;

		if (m && !master) {
			struct ib_disk_slave_util *sl = &m->slave[m->nr_slaves];

			if (m->nr_slaves == IB_DISK_SLAVES_MAX)
				continue;
			m->nr_slaves++;
			disk_stat_into(e, sl->name, sizeof(sl->name), sl->ios, sl->sectors, sl->merges,
				       sl->ticks, &sl->in_queue, &sl->util);
			continue;
		}
		if (r->nr_disks == READ_DISKS_MAX)
			break;
		r->disks[r->nr_disks].host = disk_host(r, e);
		u = &r->disks[r->nr_disks++].util;
		disk_stat_into(e, u->name, sizeof(u->name), u->ios, u->sectors, u->merges, u->ticks,
			       &u->in_queue, &u->util);
		m = master ? u : NULL;
		if (master)
			aggr_into(u, e);
	}
}

static int64_t get_i64(const struct ib_jv *o, const char *key)
{
	const struct ib_jv *v = ib_jv_get(o, key);

	if (!v || v->type != IB_JV_NUM)
		return 0;
	return v->is_u64 ? (int64_t)v->u64 : (int64_t)v->num;
}

/* Client mode: the "All clients" entries are sums, made again when printed. */
static bool is_all_clients(const struct ib_jv *o, bool client)
{
	const char *h = ib_jv_str(ib_jv_get(o, "hostname"));

	return client && h && !strcmp(h, "All clients");
}

/*
 * Client mode (fio's client_stats, iobench-mpi's): the job's host, by
 * hostname and rank (fio: port), added on first sight; clock fields from
 * iobench's "hosts" section.
 */
static void host_into(struct ib_results *r, unsigned int i, const struct ib_jv *o,
		      const struct ib_jv *hosts)
{
	const char *name = ib_jv_str(ib_jv_get(o, "hostname"));
	const struct ib_jv *key = ib_jv_get(o, "rank") ? ib_jv_get(o, "rank") : ib_jv_get(o, "port");
	int rank = key ? (int)key->num : 0;
	const struct ib_jv *e;
	unsigned int h;

	for (h = 0; h < r->nr_hosts; h++)
		if (r->hosts[h].rank == rank && !strcmp(r->hosts[h].name, name ? name : ""))
			break;
	r->jobs[i].host = h;
	if (h < r->nr_hosts)
		return;
	r->nr_hosts++;
	snprintf(r->hosts[h].name, sizeof(r->hosts[h].name), "%s", name ? name : "");
	r->hosts[h].rank = rank;
	for (e = hosts ? hosts->child : NULL; e; e = e->next)
		if (get_i64(e, "rank") == rank) {
			r->hosts[h].clock_offset_ns = get_i64(e, "clock_offset_ns");
			r->hosts[h].clock_rtt_ns = get_i64(e, "clock_rtt_ns");
			r->hosts[h].start_ns = get_i64(e, "start_ns");
		}
}

/*
 * results.h wants the jobs ordered by host; fio's client_stats come in the
 * order the hosts finished. A stable reorder (copies: slots are big, and
 * this runs once per file).
 */
static int order_by_host(struct ib_results *r)
{
	struct ib_res_job *jobs = malloc((size_t)r->nr_jobs * sizeof(*jobs) + 1);
	struct ib_job_stats *st = malloc((size_t)r->nr_jobs * sizeof(*st) + 1);
	unsigned int h, i, k = 0;

	if (!jobs || !st) {
		free(jobs);
		free(st);
		return -ENOMEM;
	}
	for (h = 0; h < r->nr_hosts; h++)
		for (i = 0; i < r->nr_jobs; i++)
			if (r->jobs[i].host == h) {
				jobs[k] = r->jobs[i];
				st[k++] = r->own_stats[i];
			}
	memcpy(r->jobs, jobs, (size_t)r->nr_jobs * sizeof(*jobs));
	memcpy(r->own_stats, st, (size_t)r->nr_jobs * sizeof(*st));
	free(jobs);
	free(st);
	return 0;
}

/* The format the document was written in: 3.33's when it says so. */
static enum ib_fio_version version_of(const struct ib_jv *root)
{
	const struct ib_jv *v = ib_jv_get(root, "fio version");
	enum ib_fio_version out = IB_FIO_VERSION_DEFAULT;

	if (v && v->type == IB_JV_STR)
		(void)ib_fio_version_parse(v->str, &out, "fio version", NULL);
	return out;
}

static int doc_into(struct ib_results *r, const struct ib_jv *root, struct ib_diag *d)
{
	const struct ib_jv *jobs = ib_jv_get(root, "jobs"), *e;
	const struct ib_jv *disks = ib_jv_get(root, "disk_util");
	bool client = !jobs && ib_jv_get(root, "client_stats");
	unsigned int i = 0;
	int ret;

	if (client)
		jobs = ib_jv_get(root, "client_stats");
	if (!jobs || jobs->type != IB_JV_ARR)
		return ib_diag_set(d, EINVAL, "not a fio or iobench JSON report: no \"jobs\" array");
	if (jobs->nr > IB_MAX_JOBS)
		return ib_diag_set(d, E2BIG, "%u jobs, more than %u", jobs->nr, IB_MAX_JOBS);
	ret = ib_results_alloc(r, client ? jobs->nr : 1, jobs->nr, READ_DISKS_MAX);
	if (ret)
		return ib_diag_set(d, -ret, "out of memory");
	r->nr_disks = 0;
	r->nr_hosts = client ? 0 : 1;
	r->timestamp_ms = (int64_t)get_u64(root, "timestamp_ms");
	r->fio_version = version_of(root);
	r->global_opts_len = results_opts_from(r->global_opts_text, sizeof(r->global_opts_text),
				       ib_jv_get(root, "global options"));
	for (e = jobs->child; e; e = e->next) {
		if (is_all_clients(e, client))
			continue;
		ret = results_job_into(r, i, e, d);
		if (ret) {
			ib_results_free(r);
			return ret;
		}
		if (client)
			host_into(r, i, e, ib_jv_get(root, "hosts"));
		i++;
	}
	r->nr_jobs = i;
	if (client && order_by_host(r) < 0) {
		ib_results_free(r);
		return ib_diag_set(d, ENOMEM, "out of memory");
	}
	if (disks)
		disks_into(r, disks);
	ret = env_into(r, ib_jv_get(root, "environment"), d);
	if (ret) {
		ib_results_free(r);
		return ret;
	}
	r->evidence = r->own_evidence;
	r->env = r->own_env;
	r->checks_mask = IB_CHECKS_ALL;
	return 0;
}

int ib_results_read_json(struct ib_results *r, const char *text, size_t len,
			 struct ib_diag *d)
{
	struct ib_jdoc doc;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = ib_json_parse(&doc, text, len, d);
	if (ret)
		return ret;
	ret = doc_into(r, doc.root, d);
	ib_jdoc_free(&doc);
	return ret;
}

/*
 * A file that does not start with a JSON object or array (after white
 * space) is no JSON report at all: most often the human report saved.
 */
static bool not_json(const char *path)
{
	FILE *f = fopen(path, "re");
	int c;

	if (!f)
		return false;
	do
		c = fgetc(f);
	while (c == ' ' || c == '\t' || c == '\n' || c == '\r');
	fclose(f);
	return c != EOF && c != '{' && c != '[';
}

int ib_results_load(struct ib_results *r, const char *path, struct ib_diag *d)
{
	struct ib_jdoc doc;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = ib_json_load(&doc, path, d);	/* its errors name the path */
	if (ret == -EINVAL && not_json(path))
		return ib_diag_set(d, EINVAL,
				   "%s: not a JSON report (a text report? save one with --output-format=json or --json-output=FILE)",
				   path);
	if (ret)
		return ret;
	ret = doc_into(r, doc.root, d);
	if (ret)
		ib_diag_prefix(d, "%s", path);
	ib_jdoc_free(&doc);
	return ret;
}
