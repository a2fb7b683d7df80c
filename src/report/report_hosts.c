// SPDX-License-Identifier: GPL-2.0-only
/*
 * Results of several hosts (iobench-mpi) in fio's client-mode layout: each
 * host's report with its lines prefixed "<host> ", then every job of every
 * host merged as group_reporting does, one "All clients" entry per group.
 * The merge sums the slots (ib_stats_merge: counts, bytes, histograms
 * bucket by bucket), so its percentiles are those of all the I/Os.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report_common.h"

void ib_rep_host_view(const struct ib_results *in, unsigned int h,
		      struct ib_results *out)
{
	unsigned int first = 0, n = 0, dfirst = 0, dn = 0, i;

	for (i = 0; i < in->nr_jobs; i++) {
		if (in->jobs[i].host < h)
			first = i + 1;
		else if (in->jobs[i].host == h)
			n++;
	}
	for (i = 0; i < in->nr_disks; i++) {
		if (in->disks[i].host < h)
			dfirst = i + 1;
		else if (in->disks[i].host == h)
			dn++;
	}
	*out = *in;
	out->hosts = &in->hosts[h];
	out->nr_hosts = 1;
	out->jobs = in->jobs + first;
	out->stats = in->stats + first;
	out->own_stats = NULL;
	out->nr_jobs = n;
	out->disks = in->disks + dfirst;
	out->nr_disks = dn;
}

/* Jobs in groupid order (stable), so group_reporting merges each group. */
static void copy_by_group(const struct ib_results *in, struct ib_results *out)
{
	unsigned int i, k = 0, g, next, max = 0;

	for (i = 0; i < in->nr_jobs; i++)
		max = in->jobs[i].groupid > max ? in->jobs[i].groupid : max;
	for (g = 0; k < in->nr_jobs && g <= max; g = next) {
		next = max + 1;
		for (i = 0; i < in->nr_jobs; i++) {
			const struct ib_res_job *j = &in->jobs[i];

			if (j->groupid > g && j->groupid < next)
				next = j->groupid;
			if (j->groupid != g)
				continue;
			out->jobs[k] = *j;
			out->own_stats[k++] = in->stats[i];
		}
	}
}

int ib_rep_all_hosts(const struct ib_results *in, struct ib_results *out)
{
	unsigned int i;

	if (ib_results_alloc(out, 1, in->nr_jobs, 0) < 0)
		return -ENOMEM;
	copy_by_group(in, out);
	for (i = 0; i < in->nr_jobs; i++) {
		struct ib_res_job *j = &out->jobs[i];

		snprintf(j->name, sizeof(j->name), "All clients");
		j->group_reporting = true;
		j->host = 0;
	}
	snprintf(out->hosts[0].name, sizeof(out->hosts[0].name), "All clients");
	out->hosts[0].rank = -1;	/* no one rank */
	out->timestamp_ms = in->timestamp_ms;
	out->terse_version = in->terse_version;
	out->fio_version = in->fio_version;
	out->global_opts_len = in->global_opts_len;
	memcpy(out->global_opts_text, in->global_opts_text, sizeof(out->global_opts_text));
	return 0;
}

/* Copy text to f with every non-empty line prefixed. */
static void put_prefixed(FILE *f, const char *prefix, const char *text)
{
	const char *nl;

	while (*text) {
		nl = strchr(text, '\n');
		if (!nl)
			nl = text + strlen(text);
		if (nl > text)
			fprintf(f, "%s%.*s", prefix, (int)(nl - text), text);
		if (*nl)
			fputc('\n', f);
		text = *nl ? nl + 1 : nl;
	}
}

void ib_res_host_label(const struct ib_res_host *h, char *buf, size_t len)
{
	snprintf(buf, len, "<%s:%d> ", h->name, h->rank);
}

static int host_normal(FILE *f, const struct ib_results *res, unsigned int h)
{
	struct ib_results view;
	char *text = NULL, label[IB_HOSTNAME_MAX + 16];
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int ret;

	if (!mem)
		return -ENOMEM;
	ib_rep_host_view(res, h, &view);
	ret = ib_report_normal(mem, &view);
	if (fclose(mem) && !ret)
		ret = -ENOMEM;
	if (!ret) {
		ib_res_host_label(&res->hosts[h], label, sizeof(label));
		put_prefixed(f, label, text);
	}
	free(text);
	return ret;
}

/* Not in fio: each host's clock against host 0's, to align time series. */
static void host_clocks(FILE *f, const struct ib_results *res)
{
	char label[IB_HOSTNAME_MAX + 16];
	unsigned int h;

	fprintf(f, "\nHost clocks (offset from host 0's clock, ping round trip, start after host 0):\n");
	for (h = 0; h < res->nr_hosts; h++) {
		const struct ib_res_host *x = &res->hosts[h];

		ib_res_host_label(x, label, sizeof(label));
		fprintf(f, "  %soffset=%lld ns, rtt=%lld ns, start=%+.3f ms\n", label,
			(long long)x->clock_offset_ns, (long long)x->clock_rtt_ns,
			(double)(x->start_ns - res->hosts[0].start_ns) / 1e6);
	}
}

int ib_report_normal_hosts(FILE *f, const struct ib_results *res)
{
	struct ib_results all;
	unsigned int h;
	int ret = 0;

	for (h = 0; h < res->nr_hosts && !ret; h++)
		ret = host_normal(f, res, h);
	if (ret)
		return ret;
	ret = ib_rep_all_hosts(res, &all);
	if (ret)
		return ret;
	ret = ib_report_normal(f, &all);
	ib_results_free(&all);
	if (!ret)
		host_clocks(f, res);
	return ret ? ret : (ferror(f) ? -EIO : 0);
}
