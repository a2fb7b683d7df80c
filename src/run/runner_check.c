// SPDX-License-Identifier: GPL-2.0-only
/*
 * Before any job starts: every job's engine and targets checked (nothing
 * written), then the files laid out in the parent (serially, so clones
 * sharing a file lay it out once; create_serialize=0 jobs at once).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "iosched.h"
#include "iobench/log.h"
#include "iobench/safety.h"
#include "runner_priv.h"

/*
 * One warning line on stderr: what the job runs with other than asked. A
 * job warns at most 3 lines (engine fallback, buffered fallback, time_based
 * dropped): one of the last 3 again is a clone's, not repeated. (A
 * synchronous engine at iodepth > 1 is the sync-depth check's, under the
 * job's report and in its JSON, as --warnings selects.)
 */
static void warn(struct ib_runner *r, const char *fmt, ...)
{
	char line[sizeof(r->warned[0])];
	unsigned int k;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	for (k = 0; k < 3; k++)
		if (!strcmp(line, r->warned[k]))
			return;
	memcpy(r->warned[r->nr_warned++ % 3], line, sizeof(line));
	if (r->warn)
		fprintf(r->warn, "iobench: warning: %s\n", line);
}

/* The engine the job runs with (iomode.h), recorded for the reports. */
static int resolve_engine(struct ib_runner *r, unsigned int i, struct ib_diag *d)
{
	const struct ib_job *job = &r->run->jobs[i];
	struct slot *s = &r->slots[i];
	struct ib_job_stats *st = s->args.st;
	int err;

	s->ops = ib_iomode_engine(job, &r->probes, st->ioengine_fallback,
				  sizeof(st->ioengine_fallback), &err, d);
	if (!s->ops)
		return err;
	s->args.ops = s->ops;
	snprintf(st->ioengine, sizeof(st->ioengine), "%s", s->ops->name);
	if (st->ioengine_fallback[0])
		warn(r, "job '%s': ioengine=%s, not the default io_uring (%s)",
		     job->name, s->ops->name, st->ioengine_fallback);
	return 0;
}

/* Whether the files are opened O_DIRECT (file.h), recorded for the reports. */
static void record_direct(struct ib_runner *r, unsigned int i)
{
	const struct ib_job *job = &r->run->jobs[i];
	const struct ib_files *fs = &r->slots[i].args.files;
	struct ib_job_stats *st = r->slots[i].args.st;

	st->direct_requested = job->direct;
	/* an engine that opens no files (null) does no direct I/O either */
	st->direct = fs->direct && !engine_has(&r->slots[i], IB_ENGINE_NOFILES);
	memcpy(st->direct_fallback, fs->direct_why, sizeof(st->direct_fallback));
	if (fs->direct_why[0])
		warn(r, "job '%s': buffered I/O, not the default direct=1 (%s)",
		     job->name, fs->direct_why);
}

/* Check one job's targets: paths, safety, sizes, alignment. Writes no file. */
static int check_targets(struct ib_runner *r, unsigned int i, struct ib_diag *d)
{
	const struct ib_job *job = &r->run->jobs[i];
	struct ib_files *fs = &r->slots[i].args.files;
	bool nofiles;
	int ret = resolve_engine(r, i, d);

	if (ret)
		return ret;
	nofiles = engine_has(&r->slots[i], IB_ENGINE_NOFILES);
	if (job->time_based_dropped)
		warn(r, "job '%s': time_based without a runtime, the job is size-based (as in fio)",
		     job->name);
	if (job->randommap_dropped)
		warn(r, "job '%s': blockalign= other than the smallest block size turns the random map off (as in fio)",
		     job->name);
	ret = ib_files_resolve(job, fs, d);
	if (!ret && !nofiles)
		ret = ib_safety_check(r->run, job, fs, job->clone && i >= job->clone ?
				      &r->slots[i - job->clone].args.files : NULL, d);
	for (unsigned int k = 0; !ret && !nofiles && job->proc.ioscheduler[0] && k < fs->nr; k++)
		ret = ib_iosched_check(fs->f[k].path, job->proc.ioscheduler, d);
	if (!ret)
		ret = nofiles ? ib_files_virtual(job, fs, d) :
				ib_files_prepare(job, fs, d);
	if (ret)
		return ret;
	record_direct(r, i);
	if (!nofiles && r->run->readonly && ib_files_need_layout(fs))
		ret = ib_diag_set(d, EROFS,
				  "job '%s': %s must be created or extended first, refused by --readonly",
				  job->name, fs->f[0].path);
	return ret;
}

/*
 * Every job is checked before any file is laid out, so a bad job anywhere
 * on the command line leaves every target untouched.
 */
/* per_job_logs=0: one job per log file name (log.h). */
static int check_shared_logs(const struct ib_plan *run, struct ib_diag *d)
{
	unsigned int i, k;

	for (i = 0; i < run->nr_jobs; i++) {
		if (run->jobs[i].logs.per_job)
			continue;
		for (k = i + 1; k < run->nr_jobs; k++)
			if (ib_logs_shared(&run->jobs[i], &run->jobs[k]))
				return ib_diag_set(d, ENOTSUP,
						   "per_job_logs=0: jobs '%s' and '%s' would share a log file, not supported by iobench",
						   run->jobs[i].name, run->jobs[k].name);
	}
	return 0;
}

int runner_check_all(struct ib_runner *r, struct ib_diag *d)
{
	unsigned int i;
	int ret;

	for (i = 0; i < r->run->nr_jobs; i++) {
		ret = check_targets(r, i, d);
		if (ret)
			return ret;
	}
	return check_shared_logs(r->run, d);
}

/* A job whose files could not be laid out fails alone; the others run. */
void runner_fail_setup(struct ib_runner *r, struct slot *s, int err,
		       const struct ib_diag *d)
{
	struct ib_job_stats *st = s->args.st;

	s->failed_setup = true;
	st->error = err;
	snprintf(st->error_where, sizeof(st->error_where), "%.*s",
		 (int)sizeof(st->error_where) - 1, d->msg); /* may truncate */
	st->live.state = IB_ST_ERROR;
	st->start_time = time(NULL);
	r->res->failed_jobs++;
}

/* create_serialize=0 and no file shared with an earlier such job. */
static bool lays_out_parallel(const struct ib_runner *r, unsigned int i)
{
	unsigned int k;

	if (r->run->jobs[i].create_serialize)
		return false;
	for (k = 0; k < i; k++)
		if (!r->run->jobs[k].create_serialize &&
		    ib_files_share_path(&r->slots[k].args.files,
					&r->slots[i].args.files))
			return false;
	return true;
}

/* create_serialize=0 jobs at once (file.h), after the serialized ones. */
static void layout_parallel(struct ib_runner *r, bool *par)
{
	const struct ib_plan *run = r->run;
	struct ib_layout_task *t = calloc(run->nr_jobs, sizeof(*t));
	unsigned int i, n = 0;

	for (i = 0; t && i < run->nr_jobs; i++)
		if (par[i])
			t[n++] = (struct ib_layout_task){ .job = &run->jobs[i],
				.fs = &r->slots[i].args.files, .readonly = run->readonly,
				.msg = r->msg, .stop = &runner_stop_requested };
	if (t)
		ib_files_layout_parallel(t, n);
	for (i = 0, n = 0; i < run->nr_jobs; i++) {
		struct ib_diag d;
		int ret = 0;

		if (!par[i])
			continue;
		ret = t ? t[n].ret : ib_diag_set(&d, ENOMEM, "no memory for layout");
		if (t)
			d = t[n++].d;
		if (ret && !runner_stop_requested)
			runner_fail_setup(r, &r->slots[i], -ret, &d);
	}
	if (r->msg)
		fflush(r->msg);
	free(t);
}

void runner_layout_all(struct ib_runner *r)
{
	const struct ib_plan *run = r->run;
	bool *par = calloc(run->nr_jobs, sizeof(*par));
	struct ib_diag d;
	unsigned int i;
	int ret;

	for (i = 0; i < run->nr_jobs && !runner_stop_requested; i++) {
		if (engine_has(&r->slots[i], IB_ENGINE_NOFILES))
			continue;
		if (par && lays_out_parallel(r, i)) {
			par[i] = true;
			continue;
		}
		d.msg[0] = '\0';
		ret = ib_files_layout(&run->jobs[i], &r->slots[i].args.files,
				      run->readonly, r->msg, &runner_stop_requested, &d);
		if (r->msg)
			fflush(r->msg);
		if (ret && !runner_stop_requested)
			runner_fail_setup(r, &r->slots[i], -ret, &d);
	}
	if (par && !runner_stop_requested)
		layout_parallel(r, par);
	free(par);
}
