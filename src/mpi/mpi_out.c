// SPDX-License-Identifier: GPL-2.0-only
/*
 * Rank 0's report: the files opened before the run (a bad path is refused
 * before any I/O), each host's job header lines, then every selected format
 * (the table of formats.c) to --output or stdout, JSON to --json-output
 * when given, as the plain binary does; a file that could not be written
 * in full is removed. And the failures, one line each, named by host and
 * rank.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "iobench/ioerr.h"
#include "iobench/report.h"
#include "iobench/safe_open.h"
#include "mpi_priv.h"

/* Flush, close (not stdout); a short file is removed. 0 or -errno. */
static int close_out(FILE *f, const char *path, int ret, struct ib_diag *d)
{
	struct ib_out_id id;

	ib_safety_out_id(f, &id);
	if (fflush(f) || ferror(f))
		ret = ret ? ret : -EIO;
	if (f != stdout && fclose(f) && !ret)
		ret = -EIO;
	if (ret && f != stdout)
		ib_safety_remove_output(path, &id);
	if (ret && !d->msg[0])
		ib_diag_set(d, -ret, "cannot write report to %s: %s",
			    f != stdout ? path : "stdout", strerror(-ret));
	return ret;
}

/*
 * --interval-json=FILE on rank 0's host, or "-": stdout, when no report
 * goes there (as the plain binary).
 */
static int open_stream(const struct ib_plan *run, struct ib_mpi_out *o,
		       struct ib_diag *d)
{
	if (!run->interval_json[0])
		return 0;
	if (strcmp(run->interval_json, "-"))
		o->stream = ib_safety_open_output("--interval-json", run->interval_json, d);
	else if (o->main != stdout && o->json != stdout)
		o->stream = stdout;
	else
		ib_diag_set(d, EINVAL, "--interval-json=-: stdout already carries the report "
			    "(send it elsewhere with --output=FILE)");
	if (o->stream)
		return 0;
	if (o->json != o->main)
		close_out(o->json, run->json_output, 0, d);
	close_out(o->main, run->output, 0, d);
	o->main = o->json = NULL;
	return -1;
}

int ib_mpi_out_open(const struct ib_plan *run, struct ib_mpi_out *o,
		    struct ib_diag *d)
{
	memset(o, 0, sizeof(*o));
	o->formats = ib_formats_selected(run->output_format, run->json_output[0]);
	o->main = run->output[0] ?
		ib_safety_open_output("--output", run->output, d) : stdout;
	if (!o->main)
		return -1;
	o->json = o->main;
	if (run->json_output[0] &&
	    !(o->json = ib_safety_open_output("--json-output",
					       run->json_output, d))) {
		close_out(o->main, run->output, 0, d);
		o->main = NULL;
		return -1;
	}
	return open_stream(run, o, d);
}

void ib_mpi_out_header(struct ib_mpi_out *o, const char *label, const char *text)
{
	const char *nl;

	if (!o->main || !(o->formats & IB_OUT_NORMAL))
		return;
	for (; *text; text = nl + 1) {
		nl = strchrnul(text, '\n');
		fprintf(o->main, "%s%.*s\n", label, (int)(nl - text), text);
		if (!*nl)
			break;
	}
	fflush(o->main);
}

int ib_mpi_out_report(const struct ib_plan *run, struct ib_mpi_out *o,
		      const struct ib_results *res, struct ib_diag *d)
{
	unsigned int rank, i;
	int ret = 0, jret = 0, mret = 0, sret = 0;

	for (rank = 0; res && rank < ib_nr_formats; rank++)
		for (i = 0; i < ib_nr_formats; i++) {
			const struct ib_format *fm = &ib_formats[i];
			FILE *f = fm->own_file ? o->json : o->main;

			if (!fm->print || fm->rank != rank || !(o->formats & fm->bit))
				continue;
			ret = fm->print(f, res);
			if (ret)
				*(f == o->json && o->json != o->main ? &jret : &mret) = ret;
		}
	if (o->stream)
		sret = close_out(o->stream, run->interval_json, res ? 0 : -ECANCELED, d);
	o->stream = NULL;
	if (o->json && o->json != o->main)
		jret = close_out(o->json, run->json_output, jret, d);
	if (o->main)
		mret = close_out(o->main, run->output, mret, d);
	o->main = o->json = NULL;
	return jret ? jret : mret ? mret : res ? sret : 0;
}

/* One host's failed jobs. */
static unsigned int host_failures(FILE *f, const struct ib_results *res,
				  const struct ib_mpi_outcome *o, unsigned int h)
{
	unsigned int i, n = 0;

	for (i = 0; i < res->nr_jobs; i++) {
		const struct ib_job_stats *st = &res->stats[i];
		const char *why = st->error_where;
		char named[128];

		if (res->jobs[i].host != h || !st->error)
			continue;
		if (!why[0])
			why = ib_strerror_named(st->error, named, sizeof(named));
		fprintf(f, "iobench-mpi: host %s rank %d: job '%s'", o->host, o->rank,
			res->jobs[i].name);
		if (st->pid)
			fprintf(f, " (pid %d)", st->pid);
		fprintf(f, " failed: %s\n", why);
		n++;
	}
	return n;
}

unsigned int ib_mpi_name_failures(FILE *f, const struct ib_results *res,
				  const struct ib_mpi_outcome *out)
{
	unsigned int h, n = 0, jobs;

	for (h = 0; h < res->nr_hosts; h++) {
		const struct ib_mpi_outcome *o = &out[h];

		jobs = host_failures(f, res, o, h);
		if (o->ret && (!jobs || o->ret == -ECHILD))
			fprintf(f, "iobench-mpi: host %s rank %d: %s\n", o->host, o->rank,
				o->msg[0] ? o->msg : strerror(-o->ret));
		n += jobs || o->ret || o->failed_jobs;
	}
	return n;
}
