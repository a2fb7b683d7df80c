// SPDX-License-Identifier: GPL-2.0-only
/*
 * `iobench ping`: argv (ioping 1.3's command line, ping.h) -> the target
 * made ready (ping_prep.c) -> the requests (ping_run.c) -> --hist and
 * --json-output. The exit statuses are ioping's: 0, 1 usage, 2
 * preparation, 3 a request failed, 4 a second SIGINT. The first SIGINT
 * ends the run after the current request, with the full statistics, 0.
 */
#include <errno.h>
#include <signal.h>
#include "iobench/sigcatch.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iobench/cmd.h"
#include "iobench/ping_out.h"
#include "iobench/ping_run.h"
#include "iobench/safe_open.h"

static volatile sig_atomic_t ping_stop;

static void on_sigint(int sig)
{
	(void)sig;
	if (ping_stop)
		_exit(IB_PING_EXIT_SIGINT);
	ping_stop = 1;
}


static int fail(int status, const struct ib_diag *d)
{
	fflush(stdout);
	fprintf(stderr, "iobench ping: %s\n", d->msg);
	return status;
}

/* 0 to run, else the exit status (help, version, bad usage) */
static int parse(struct ib_ping_opts *o, int argc, char **argv, struct ib_diag *d)
{
	bool big = false;

	ib_ping_opts_init(o);
	if (ib_ping_parse(o, argc, argv, d) < 0)
		return fail(IB_PING_EXIT_USAGE, d);
	if (o->action == IB_PING_HELP) {
		ib_ping_usage(stdout);
		return -1;
	}
	if (o->action == IB_PING_VERSION) {
		puts("iobench ping (ioping 1.3 compatible)");
		return -1;
	}
	if (ib_ping_resolve(o, &big, d) < 0)
		return fail(IB_PING_EXIT_USAGE, d);
	if (big)
		fprintf(stderr, "iobench ping: this platform supports requests %lld bytes at most\n",
			IB_PING_MAX_RW);
	if (o->nowait && !o->cached && !o->direct)
		fputs("iobench ping: nowait without cached or direct I/O is supposed to fail\n",
		      stderr);
	return 0;
}

static FILE *open_json(const struct ib_ping_opts *o, struct ib_diag *d)
{
	FILE *f;

	if (!o->json_output)
		return NULL;
	f = ib_safety_open_output("--json-output", o->json_output, d);
	return f;
}

static void out_begin(void *arg)
{
	struct ib_ping_printer *pr = arg;

	ib_ping_print_begin(stdout, pr);
}

static void out_request(void *arg, const struct ib_ping_req *q)
{
	ib_ping_print_request(stdout, arg, q);
}

static void out_period(void *arg, const struct ib_ping_stats *s, int64_t realtime_ns)
{
	ib_ping_print_period(stdout, arg, s, realtime_ns);
}

static void out_final(void *arg, const struct ib_ping_stats *s, int64_t realtime_ns)
{
	ib_ping_print_final(stdout, arg, s, realtime_ns);
}

static void out_flush(void *arg)
{
	(void)arg;
	fflush(stdout);
}

/* ioping's printer on stdout, as the request loop's sink. */
static struct ib_ping_printer printer(const struct ib_ping_opts *o,
				      const struct ib_ping_prep *p)
{
	return (struct ib_ping_printer){ .target = &p->tgt, .quiet = o->quiet,
		.batch = o->batch, .json = o->json, .time_info = o->time_info,
		.read_write = o->read_write, .write = o->write > 0,
		.periodic = o->print_count || o->print_interval_ns,
		.time_fmt = o->time_fmt };
}

/* Prepared target -> requests -> extras; returns the exit status. */
static int run(const struct ib_ping_opts *o, struct ib_ping_prep *p, FILE *json,
	       struct ib_diag *d)
{
	struct ib_ping_printer pr = printer(o, p);
	const struct ib_ping_sink out = { .arg = &pr, .begin = out_begin,
		.request = out_request, .period = out_period, .final = out_final,
		.flush = out_flush };
	struct ib_ping_outcome res;
	int ret;

	ret = ib_ping_run(o, p, &out, &ping_stop, &res, stderr, d);
	if (ret < 0) {
		free(res.hist);
		return fail(res.started ? IB_PING_EXIT_RUNTIME : IB_PING_EXIT_PREPARE, d);
	}
	if (o->hist && !o->json && !o->batch)
		ib_ping_print_hist(stdout, res.hist, res.hist_n);
	fflush(stdout);
	if (json)
		ib_ping_write_json(json, o, p, &res);
	free(res.hist);
	return 0;
}

int ib_ping_main(int argc, char **argv)
{
	struct ib_diag d = { { 0 } };
	struct ib_ping_opts o;
	struct ib_ping_prep p;
	FILE *json = NULL;
	int status;

	setvbuf(stdout, NULL, _IOFBF, 0);	/* ioping's: flushed per request */
	status = parse(&o, argc, argv, &d);
	if (status)
		return status < 0 ? 0 : status;
	if (o.json_output && !(json = open_json(&o, &d)))
		return fail(IB_PING_EXIT_PREPARE, &d);
	ib_sig_catch(SIGINT, on_sigint);
	if (ib_ping_prepare(&o, &p, stderr, &d) < 0)
		status = fail(IB_PING_EXIT_PREPARE, &d);
	else
		status = run(&o, &p, json, &d);
	ib_ping_release(&p);
	if (json && fclose(json) && !status) {
		ib_diag_set(&d, errno, "cannot write %s: %s", o.json_output, strerror(errno));
		status = fail(IB_PING_EXIT_RUNTIME, &d);
	}
	return status;
}
