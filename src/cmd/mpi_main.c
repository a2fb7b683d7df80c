// SPDX-License-Identifier: GPL-2.0-only
/*
 * iobench-mpi: `mpirun -np N iobench-mpi [--mpi-split] [fio options] [job
 * files]` runs the same jobs on every rank (with --mpi-split: the jobs
 * dealt out across the ranks), started together, and rank 0 prints one
 * report: every host's jobs, then "All clients" (fio's client-mode
 * layout). The order of things, and why:
 *   1. parse (every rank, the same arguments), hash the plan;
 *   2. fork the helper that will run the jobs (mpi_helper.c): before
 *      MPI_Init, because a process that called MPI_Init must not fork;
 *   3. MPI_Init; agree: any rank that could not parse, or whose plan hash
 *      differs from rank 0's, is named and nobody does any I/O;
 *   4. each helper checks its targets (this rank's file names), agree;
 *      lays its files out, agree;
 *   5. clock offsets measured (ping-pong), barrier, go;
 *   6. wait together: a rank that fails or is interrupted stops all;
 *   7. outcomes and slots gathered to rank 0, which reports.
 * Exit status, the same on every rank: 0 all jobs fine, 1 bad input or a
 * failure on any rank (named by host and rank on rank 0's stderr), 130
 * interrupted by SIGINT/SIGTERM/SIGUSR1 (to any rank: all stop, drain and
 * report; mpirun itself forwards SIGUSR1, and kills on SIGINT).
 */
#include <mpi.h>
#include <signal.h>
#include "iobench/sigcatch.h"
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "iobench/cli.h"
#include "iobench/mpiplan.h"
#include "iobench/report.h"
#include "iobench/runner.h"
#include "src/mpi/mpi_priv.h"

static volatile sig_atomic_t got_signal;

/* folded into the plan hash: every rank must agree on --mpi-split too */
#define SPLIT_HASH 0x9e3779b97f4a7c15ull
#define SPLIT_OPT "--mpi-split"

/* Take iobench-mpi's own option out of argv (before the fio parser). */
static bool take_split(int *argc, char **argv)
{
	bool found = false;
	int i, k = 1;

	for (i = 1; i < *argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], SPLIT_OPT))
			found = true;
		else
			argv[k++] = argv[i];
	}
	for (; i < *argc; i++)
		argv[k++] = argv[i];
	argv[k] = NULL;
	*argc = k;
	return found;
}

static void on_signal(int sig)
{
	(void)sig;
	got_signal = 1;
}

/* Rank 0: each host's job header lines, prefixed as its report will be. */
static void print_headers(const struct ib_mpi_ctx *c, const struct ib_mpi_helper *h,
			  struct ib_mpi_out *o)
{
	struct ib_mpi_head *all = ib_mpi_gather_headers(c, h);
	struct ib_res_host x;
	char label[IB_HOSTNAME_MAX + 16];
	int r;

	for (r = 0; all && r < c->size; r++) {
		memset(&x, 0, sizeof(x));
		memcpy(x.name, all[r].host, sizeof(x.name));
		x.rank = r;
		ib_res_host_label(&x, label, sizeof(label));
		ib_mpi_out_header(o, c->size > 1 ? label : "", all[r].text);
	}
	free(all);
}

/*
 * Rank 0: the live view (doc/live-statistics.md), a line per host and the
 * total, when the human report goes to a terminal and nothing asked for
 * fio's status line. A terminal with a size: Open MPI gives its ranks a
 * pseudo-terminal for stdout even when mpirun's goes to a file, one
 * without rows and columns unless mpirun's own is a terminal.
 */
static bool want_view(const struct ib_plan *run, const struct ib_mpi_out *o)
{
	struct winsize ws = { 0 };

	if (run->eta != IB_ETA_AUTO || run->eta_asked || o->main != stdout ||
	    !(o->formats & IB_OUT_NORMAL) ||
	    ib_formats_machine_on_main(o->formats, run->json_output[0]))
		return false;
	return isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
	       ws.ws_row > 0 && ws.ws_col > 0;
}

/* Steps 4 and 5: checked and laid out everywhere, clocks, go. */
static bool prepare(const struct ib_mpi_ctx *c, const struct ib_plan *run,
		    struct ib_mpi_helper *h, struct ib_mpi_out *o, int64_t *offset,
		    int64_t *rtt, int *live)
{
	int ret = ib_mpi_helper_check(h, c->rank, c->size, c->split, c->host,
				      c->rank == 0);

	if (!ib_mpi_agree(c, ret == 0, 0, false, h->out->msg))
		return false;
	print_headers(c, h, o);
	ret = ib_mpi_helper_layout(h);
	if (!ib_mpi_agree(c, ret == 0, 0, false, h->out->msg))
		return false;
	ib_mpi_clock(c, offset, rtt);
	*live = c->rank == 0 && want_view(run, o);
	MPI_Bcast(live, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Barrier(MPI_COMM_WORLD);
	ib_mpi_helper_go(h, *live);
	return true;
}

/* Rank 0: the report, the failures, the exit status. */
static int conclude(const struct ib_plan *run, struct ib_mpi_out *o,
		    const struct ib_results *res, const struct ib_mpi_outcome *outs)
{
	struct ib_diag d = { { 0 } };
	unsigned int failed;
	bool interrupted = false;
	int rc, h;

	signal(SIGPIPE, SIG_IGN);
	rc = ib_mpi_out_report(run, o, res, &d) ? 1 : 0;
	if (d.msg[0])
		fprintf(stderr, "iobench-mpi: %s\n", d.msg);
	failed = ib_mpi_name_failures(stderr, res, outs);
	for (h = 0; h < (int)res->nr_hosts; h++)
		interrupted |= outs[h].interrupted;
	if (failed) {
		if (interrupted)
			fprintf(stderr, "iobench-mpi: %u of %u ranks failed; the others were stopped\n",
				failed, res->nr_hosts);
		return 1;
	}
	if (interrupted) {
		fprintf(stderr, "iobench-mpi: interrupted: the report covers the I/O done until then\n");
		return IB_EXIT_INTERRUPTED;
	}
	return rc;
}

/* Step 6, watched: the live view's hosts' table on rank 0 (with live). */
static void run_loop(const struct ib_mpi_ctx *c, struct ib_mpi_helper *h, bool live)
{
	struct ib_mpi_view view = { 0 };

	if (live && c->rank == 0) {
		view.tty = stdout;
		view.all = calloc((size_t)c->size, sizeof(*view.all));
		if (!view.all)
			MPI_Abort(MPI_COMM_WORLD, 1);
	}
	ib_mpi_run_loop(c, h, &got_signal, live ? &view : NULL);
	free(view.all);
}

/* Steps 6 and 7; every rank returns rank 0's verdict. */
static int run_and_report(const struct ib_mpi_ctx *c, const struct ib_plan *run,
			  struct ib_mpi_helper *h, struct ib_mpi_out *o,
			  const int64_t *offset, const int64_t *rtt, bool live)
{
	struct ib_results res = { 0 };
	struct ib_mpi_outcome *outs = NULL;
	int rc = 0, stream;

	run_loop(c, h, live);
	ib_mpi_gather(c, run, h, offset, rtt, &res, &outs);
	stream = c->rank == 0 && o->stream;
	MPI_Bcast(&stream, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (stream)
		ib_mpi_stream_gather(c, h, o->stream);
	if (c->rank == 0)
		rc = conclude(run, o, &res, outs);
	MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
	ib_results_free(&res);
	free(outs);
	return rc;
}

/* Rank 0 opens the report files first: a bad path is refused before I/O. */
static bool open_outputs(const struct ib_mpi_ctx *c, const struct ib_plan *run,
			 struct ib_mpi_out *o, struct ib_diag *d)
{
	return c->rank != 0 || ib_mpi_out_open(run, o, d) == 0;
}

static int mpi_run(struct ib_mpi_ctx *c, const struct ib_plan *run,
		   struct ib_mpi_helper *h, bool ok, const char *why)
{
	int64_t *offset = calloc((size_t)c->size, sizeof(int64_t));
	int64_t *rtt = calloc((size_t)c->size, sizeof(int64_t));
	uint64_t hash = ok ? ib_mpi_plan_hash(run) ^ (c->split ? SPLIT_HASH : 0) : 0;
	struct ib_mpi_out out = { 0 };
	struct ib_diag od = { { 0 } };
	char msg[160];
	int rc = 1, live = 0;

	if (!offset || !rtt)
		MPI_Abort(MPI_COMM_WORLD, 1);
	if (ok && c->split && run->nr_jobs < (unsigned int)c->size) {
		snprintf(msg, sizeof(msg), "--mpi-split: %u jobs for %d ranks: give every rank one (numjobs=)",
			 run->nr_jobs, c->size);
		ok = c->rank != 0; /* said once, by rank 0 */
		why = msg;
	}
	if (ok && run->status_interval_ms) {
		snprintf(msg, sizeof(msg), "--status-interval: not supported under iobench-mpi "
			 "(the report comes at the end; --interval-json has each interval)");
		ok = c->rank != 0; /* said once, by rank 0 */
		why = msg;
	}
	if (ok && !open_outputs(c, run, &out, &od)) {
		ok = false;
		why = od.msg;
	}
	if (ib_mpi_agree(c, ok, hash, true, why) &&
	    prepare(c, run, h, &out, offset, rtt, &live))
		rc = run_and_report(c, run, h, &out, offset, rtt, live);
	else if (out.main)
		ib_mpi_out_report(run, &out, NULL, &od); /* refused: close them */
	free(offset);
	free(rtt);
	return rc;
}

static void handle_signals(void)
{
	ib_sig_catch(SIGINT, on_signal);
	ib_sig_catch(SIGTERM, on_signal);
	/* Open MPI's mpirun forwards SIGUSR1 to every rank (not SIGINT) */
	ib_sig_catch(SIGUSR1, on_signal);
}

/* Help, version, --parse-only: as the plain binary, without MPI. */
static int no_run(int prc, const struct ib_diag *d)
{
	if (prc == IB_CLI_DONE)
		return 0;
	if (prc == IB_CLI_HELP) {
		ib_cli_usage(stdout, NULL);
		return 0;
	}
	if (prc == IB_CLI_NO_JOB) /* no job at all: the usage, as iobench's */
		ib_cli_usage(stderr, NULL);
	fprintf(stderr, "iobench-mpi: %s\n", d->msg);
	return 1;
}

int main(int argc, char **argv)
{
	struct ib_diag d = { { 0 } };
	struct ib_mpi_helper h = { .pid = -1, .cmd_fd = -1, .rep_fd = -1 };
	struct ib_mpi_ctx c = { 0 };
	struct ib_plan run;
	int prc, rc;
	bool ok;

	ib_plan_init(&run);
	c.split = take_split(&argc, argv);
	prc = ib_cli_parse(argc, argv, &run, stdout, &d);
	if (prc > 0) {
		rc = no_run(prc, &d);
		ib_plan_free(&run);
		return rc;
	}
	ok = prc == IB_CLI_RUN && ib_mpi_helper_start(&h, &run, &d) == 0;
	MPI_Init(NULL, NULL);
	MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &c.size);
	if (gethostname(c.host, sizeof(c.host) - 1) < 0)
		snprintf(c.host, sizeof(c.host), "rank%d", c.rank);
	handle_signals();
	rc = mpi_run(&c, &run, &h, ok, d.msg);
	ib_mpi_helper_end(&h);
	MPI_Finalize();
	ib_plan_free(&run);
	return rc;
}
