// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench [run]`: fio's syntax -> validated jobs -> runner -> reports, and
 * the run's exit status:
 *   0    every job finished without error
 *   1    bad input, or a job failed (named on stderr)
 *   130  interrupted by SIGINT/SIGTERM (the partial report is still printed)
 * A report that cannot be written in full (disk full, /dev/full, a closed
 * pipe) is one line on stderr naming the file and the reason, and status 1
 * (130 stays 130); a report file left incomplete is removed.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "iobench/cli.h"
#include "iobench/cmd.h"
#include "iobench/ioerr.h"
#include "iobench/plotcmd.h"
#include "iobench/report.h"
#include "iobench/results.h"
#include "iobench/plan.h"
#include "iobench/runner.h"
#include "iobench/safe_open.h"
#include "iobench/liveview.h"
#include "iobench/stream.h"

struct outputs {
	FILE *main;	/* --output or stdout: every format not sent elsewhere */
	FILE *json;	/* --json-output, or main */
	FILE *msg;	/* job messages (layout): never inside JSON; or NULL */
	FILE *hist;	/* --hist's text */
	FILE *tty;	/* live status line, or NULL */
	FILE *stream;	/* --interval-json: the per-interval stream, or NULL */
	unsigned int formats;	/* ib_formats_selected() */
	int main_err, json_err;	/* first write error (-errno) of each file */
};

static bool normal_on_main(const struct outputs *o)
{
	return (o->formats & IB_OUT_NORMAL) != 0;
}

/*
 * --interval-json=FILE, or "-": stdout, when no report goes there (job
 * messages then go to stderr).
 */
static int open_stream(const struct ib_plan *run, struct outputs *o,
		       struct ib_diag *d)
{
	o->stream = NULL;
	if (!run->interval_json[0])
		return 0;
	if (strcmp(run->interval_json, "-")) {
		o->stream = ib_safety_open_output("--interval-json", run->interval_json, d);
		return o->stream ? 0 : -1;
	}
	if (o->main == stdout || o->json == stdout) {
		ib_diag_set(d, EINVAL, "--interval-json=-: stdout already carries the report "
			    "(send it elsewhere with --output=FILE)");
		return -1;
	}
	o->stream = stdout;
	if (o->msg == stdout)
		o->msg = stderr;
	if (o->hist == stdout)
		o->hist = stderr;
	return 0;
}

static int open_outputs(const struct ib_plan *run, struct outputs *o,
			struct ib_diag *d)
{
	bool machine_main;

	o->formats = ib_formats_selected(run->output_format, run->json_output[0]);
	machine_main = ib_formats_machine_on_main(o->formats, run->json_output[0]);
	o->main = run->output[0] ?
		ib_safety_open_output("--output", run->output, d) : stdout;
	if (!o->main)
		return -1;
	o->json = run->json_output[0] ?
		ib_safety_open_output("--json-output", run->json_output, d) :
		o->main;
	if (!o->json)
		return -1;
	/*
	 * Messages fio prints on stdout ("Laying out IO file") go where the
	 * human report goes: stdout, or with --output=FILE that file (fio's
	 * place for them, nothing on stdout), and with --output=FILE and
	 * only JSON or terse there, nowhere, as fio. Without --output, to
	 * stderr when stdout carries JSON or terse (a program reading them
	 * wants an empty stderr on success). --hist's text goes to stdout.
	 */
	o->hist = run->output[0] || (normal_on_main(o) && !machine_main) ?
		  stdout : stderr;
	if (run->output[0])
		o->msg = normal_on_main(o) && !machine_main ? o->main : NULL;
	else
		o->msg = o->hist;
	if (open_stream(run, o, d) < 0)
		return -1;
	o->tty = NULL;
	if (run->eta == IB_ETA_NEVER)
		return 0;
	if (!run->output[0] && normal_on_main(o) && !machine_main)
		o->tty = (run->eta == IB_ETA_ALWAYS || isatty(STDOUT_FILENO)) ? stdout : NULL;
	else if (run->eta == IB_ETA_ALWAYS || isatty(STDERR_FILENO))
		o->tty = stderr; /* machine output on stdout stays clean */
	if (o->tty == stdout && o->stream == stdout)
		o->tty = NULL;
	return 0;
}

static const char *out_name(const struct ib_plan *run, const struct outputs *o, FILE *f)
{
	if (f == o->json && run->json_output[0])
		return run->json_output;
	if (f == o->main && run->output[0])
		return run->output;
	return "stdout";
}

/*
 * Flush f and keep its first write error (-errno) in *err. A stream whose
 * error flag is set without a failing flush reports -EIO.
 */
static void out_flush(FILE *f, int *err)
{
	errno = 0;
	if ((fflush(f) == 0 && !ferror(f)) || *err)
		return;
	*err = errno ? -errno : -EIO;
}

static void out_check(struct outputs *o, FILE *f)
{
	out_flush(f, f == o->json ? &o->json_err : &o->main_err);
	if (o->json == o->main)
		o->main_err = o->json_err = o->main_err ? o->main_err : o->json_err;
}

/* Flush and close one report file; 0 or its first write error (-errno). */
static int close_one(FILE *f, int *err)
{
	out_flush(f, err);
	if (f != stdout && fclose(f) && !*err)
		*err = errno ? -errno : -EIO;
	return *err;
}

/*
 * Close the report files; a file that could not be written in full is
 * removed (never left looking complete). Returns 0 or -errno, d naming the
 * first stream that failed (unless d already holds an error).
 */
static int close_outputs(const struct ib_plan *run, struct outputs *o,
			 struct ib_diag *d)
{
	FILE *f[2] = { o->json != o->main ? o->json : NULL, o->main };
	int *err[2] = { &o->json_err, &o->main_err }, ret = 0;
	const char *name[2], *failed = NULL;
	unsigned int i;

	struct ib_out_id id;

	for (i = 0; i < 2; i++) {
		if (!f[i])
			continue;
		name[i] = out_name(run, o, f[i]);
		ib_safety_out_id(f[i], &id);
		if (!close_one(f[i], err[i]))
			continue;
		ib_safety_remove_output(name[i], &id);
		if (!ret) {
			ret = *err[i];
			failed = name[i];
		}
	}
	o->main = o->json = NULL;
	if (ret && !d->msg[0])
		ib_diag_set(d, -ret, "cannot write report to %s: %s", failed, strerror(-ret));
	return ret;
}

static int64_t now_epoch_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

/* Every selected format, in rank order, each to its stream. */
static void report(const struct ib_results *res, struct outputs *o)
{
	unsigned int rank, i;

	for (rank = 0; rank < ib_nr_formats; rank++)
		for (i = 0; i < ib_nr_formats; i++) {
			const struct ib_format *fm = &ib_formats[i];
			FILE *f = fm->own_file ? o->json : o->main;

			if (!fm->print || fm->rank != rank || !(o->formats & fm->bit))
				continue;
			fm->print(f, res);
			out_check(o, f);
		}
}

/* error_dump=1: each non-fatal I/O error the job noted (stats.h) */
static void print_error_dump(const char *name, const struct ib_job_stats *st)
{
	const char *p = st->error_dump, *nl;

	char raw[512], esc[2048];

	for (; *p && (nl = strchr(p, '\n')); p = nl + 1) {
		snprintf(raw, sizeof(raw), "%.*s", (int)(nl - p), p);
		ib_diag_escape(esc, sizeof(esc), raw);
		fprintf(stderr, "iobench: %s\n", esc);
	}
	ib_diag_escape(esc, sizeof(esc), name);
	if (st->error_dump_lost)
		fprintf(stderr, "iobench: job '%s': %llu more I/O errors not shown (error_dump)\n",
			esc, (unsigned long long)st->error_dump_lost);
}

static void name_failures(const struct ib_plan *run, const struct ib_result *res)
{
	unsigned int i;

	for (i = 0; i < run->nr_jobs; i++) {
		const struct ib_job_stats *st = &res->stats[i];
		char named[128], en[1024], ew[2048];
		const char *why = st->error_where;

		if (st->verify_msg[0]) /* fio's lines for the first mismatch */
			fputs(st->verify_msg, stderr);
		print_error_dump(run->jobs[i].name, st);
		if (!st->error)
			continue;
		if (!why[0])
			why = ib_strerror_named(st->error, named, sizeof(named));
		/* one line each, whatever the name and the paths hold */
		ib_diag_escape(en, sizeof(en), run->jobs[i].name);
		ib_diag_escape(ew, sizeof(ew), why);
		if (st->pid)
			fprintf(stderr, "iobench: job '%s' (pid %d) failed: %s\n",
				en, st->pid, ew);
		else /* never started: its files could not be laid out */
			fprintf(stderr, "iobench: job '%s' failed: %s\n", en, ew);
	}
}

/* What the runner's watcher (runner.h) needs: status reports, the stream. */
struct watcher {
	const struct ib_plan *run;
	struct outputs *o;
	const struct ib_result *res;
	struct ib_job_stats *snap;	/* a status report's copy of the slots */
	struct ib_stream *stream;	/* the NDJSON lines and/or the live view */
	struct ib_liveview *lv;
};

/*
 * The live view replaces fio's status line on a terminal (stdout, with
 * the human report) unless fio's line was asked for: --eta=always,
 * --eta-newline, --eta-interval. Returns the tty left for the line.
 */
static FILE *start_watch(struct watcher *w, struct outputs *o)
{
	const struct ib_plan *run = w->run;
	FILE *tty = o->tty;

	if (tty == stdout && run->eta == IB_ETA_AUTO && !run->eta_asked &&
	    isatty(STDOUT_FILENO) && ib_liveview_new(&w->lv, run, stdout) == 0)
		tty = NULL;
	if ((o->stream || w->lv) && ib_stream_new(&w->stream, run, o->stream, w->lv) < 0)
		o->main_err = -ENOMEM;
	return tty;
}

/*
 * --status-interval, SIGUSR1: a full report of the run so far in every
 * selected format (fio's), without the disks' numbers and the checks,
 * which only the end has.
 */
static void print_status(struct watcher *w, const struct ib_run_view *v)
{
	struct ib_result now = *w->res;
	struct ib_results rs = { 0 };

	if (!w->snap)
		w->snap = calloc(w->run->nr_jobs, sizeof(*w->snap));
	if (!w->snap)
		return;
	ib_run_view_snapshot(v, w->snap);
	now.stats = w->snap;
	now.disks = NULL;
	now.nr_disks = 0;
	now.evidence = NULL;
	now.env = NULL;
	if (ib_results_from_run(&rs, w->run, &now, now_epoch_ms()) == 0 &&
	    ib_results_drop_nostats(&rs, w->run) == 0)
		report(&rs, w->o);
	ib_results_free(&rs);
}

static void on_poll(void *arg, const struct ib_run_view *v)
{
	struct watcher *w = arg;

	if (v->status && w->lv)
		ib_liveview_erase(w->lv);
	if (v->status)
		print_status(w, v);
	if (w->stream)
		ib_stream_poll(w->stream, v);
}

static int close_stream(const struct ib_plan *run, struct outputs *o,
			struct ib_diag *d)
{
	int err = 0;

	if (!o->stream)
		return 0;
	out_flush(o->stream, &err);
	if (o->stream != stdout && fclose(o->stream) && !err)
		err = errno ? -errno : -EIO;
	o->stream = NULL;
	if (err && !d->msg[0])
		ib_diag_set(d, -err, "cannot write --interval-json to %s: %s",
			    run->interval_json, strerror(-err));
	return err;
}

/* The jobs run, watched: status reports, the stream, the live view. */
static int go_watched(const struct ib_plan *run, struct ib_runner *r,
		      struct outputs *o, struct ib_result *res, struct ib_diag *d)
{
	struct watcher w = { 0 };
	FILE *tty;
	int rc;

	w.run = run;
	w.o = o;
	w.res = res;
	tty = start_watch(&w, o);
	ib_runner_watch(r, &(struct ib_run_watch){ on_poll, &w, w.stream != NULL });
	rc = ib_runner_go(r, o->msg, tty, d);
	ib_stream_free(w.stream);
	ib_liveview_free(w.lv);
	free(w.snap);
	return rc;
}

static int run_jobs(const struct ib_plan *run, struct ib_diag *d)
{
	struct outputs o = { 0 };
	struct ib_results rs = { 0 };
	struct ib_result res;
	struct ib_runner *r;
	bool extras_failed = false;
	int rc = 1;

	/*
	 * A reader that goes away (| head -1), before, during or after the
	 * jobs, gives EPIPE and the one error line of close_outputs, exit 1,
	 * not a silent death by SIGPIPE (141).
	 */
	signal(SIGPIPE, SIG_IGN);
	/* the charts are written after the run: their paths checked now */
	if (ib_safety_probe_output("--plot", run->plot, d) < 0 ||
	    ib_safety_probe_output("--report", run->report, d) < 0)
		goto out;
	if (open_outputs(run, &o, d) < 0)
		goto out;
	if (ib_runner_check(run, stderr, &res, &r, d) < 0) {
		ib_result_free(run, &res);
		goto out;
	}
	if (normal_on_main(&o) && ib_results_from_run(&rs, run, &res, 0) == 0)
		ib_report_header(o.main, &rs);
	ib_results_free(&rs);
	out_check(&o, o.main);
	rc = go_watched(run, r, &o, &res, d);
	if (rc < 0) {
		rc = 1;
		ib_result_free(run, &res);
		goto out;
	}
	rc = 1;
	if (ib_results_from_run(&rs, run, &res, now_epoch_ms()) < 0 ||
	    ib_results_drop_nostats(&rs, run) < 0)
		o.main_err = -ENOMEM;	/* named by close_outputs */
	else
		report(&rs, &o);
	/* --plot, --report, --hist: the run's charts (plotcmd.h) */
	if (rs.stats && ib_page_run(&rs, run, o.hist, d) < 0)
		extras_failed = true;
	ib_results_free(&rs);
	name_failures(run, &res);
	if (res.interrupted) {
		fprintf(stderr, "iobench: interrupted: the report covers the I/O done until then\n");
		rc = IB_EXIT_INTERRUPTED;
	} else {
		rc = res.failed_jobs || extras_failed ? 1 : 0;
	}
	ib_result_free(run, &res);
out:
	if (close_stream(run, &o, d) < 0 && rc == 0)
		rc = 1;
	if (o.main && close_outputs(run, &o, d) < 0 && rc == 0)
		rc = 1;
	return rc;
}

/*
 * --repeat=N: the plan N times, run k's report files named FILE.k.EXT
 * (ib_repeat_path), so that `iobench compare --base a.*.json` sees every
 * run. Stops at the first run that does not exit 0.
 */
static int run_repeated(struct ib_plan *run, struct ib_diag *d)
{
	char *const paths[] = { run->output, run->json_output, run->plot, run->report };
	char saved[4][PATH_MAX];	/* 16 KiB: main's stack */
	unsigned int k, i;
	int rc = 0;

	if (run->repeat < 2)
		return run_jobs(run, d);
	for (i = 0; i < 4; i++)
		memcpy(saved[i], paths[i], PATH_MAX);
	for (k = 1; k <= run->repeat && !rc; k++) {
		for (i = 0; i < 4 && !rc; i++)
			if (saved[i][0] && ib_repeat_path(paths[i], PATH_MAX, saved[i], k)) {
				ib_diag_set(d, ENAMETOOLONG, "--repeat: %s: path too long", saved[i]);
				rc = 1;
			}
		if (!rc)
			rc = run_jobs(run, d);
	}
	for (i = 0; i < 4; i++)
		memcpy(paths[i], saved[i], PATH_MAX);
	return rc;
}

/* What the parser's status means for the exit status; prints what it asks. */
static int parse_done(int rc, const struct ib_diag *d,
		      const struct ib_subcmd *commands)
{
	if (rc == IB_CLI_DONE)
		return 0;
	if (rc == IB_CLI_HELP) {
		ib_cli_usage(stdout, commands);
		return 0;
	}
	if (rc == IB_CLI_NO_JOB)
		ib_cli_usage(stderr, commands);
	fprintf(stderr, "iobench: %s\n", d->msg);
	return 1;
}

int ib_cmd_run(int argc, char **argv, const struct ib_subcmd *commands)
{
	struct ib_diag d = { { 0 } };
	struct ib_plan run;
	int rc;

	ib_plan_init(&run);
	rc = ib_cli_parse(argc, argv, &run, stdout, &d);
	if (rc == IB_CLI_RUN && ib_plan_replays(&run, &d) < 0) {
		fprintf(stderr, "iobench: %s\n", d.msg);
		rc = 1;
	} else if (rc == IB_CLI_RUN) {
		d.msg[0] = '\0';
		rc = run_repeated(&run, &d);
		if (d.msg[0])
			fprintf(stderr, "iobench: %s\n", d.msg);
	} else {
		rc = parse_done(rc, &d, commands);
	}
	ib_plan_free(&run);
	return rc;
}
