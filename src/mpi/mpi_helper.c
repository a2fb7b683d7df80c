// SPDX-License-Identifier: GPL-2.0-only
/*
 * The helper process of one rank (mpi_priv.h). Why a helper: the runner
 * forks one process per job, and a process that called MPI_Init must not
 * fork (Open MPI warns; RDMA transports break on copy-on-write of
 * registered memory). But the rank is only known after MPI_Init, and the
 * ranks must agree on the plan before any I/O. So the rank forks this
 * helper right after parsing, before MPI_Init; the helper never talks MPI,
 * waits for orders on a pipe (its rank and host, then "go") and runs the
 * jobs with the ordinary runner, which may fork as it always does. The
 * stats come back through a MAP_SHARED mapping made before the fork.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "iobench/mpiplan.h"
#include "iobench/report.h"
#include "iobench/runner.h"
#include "iobench/stream.h"
#include "iobench/shm.h"
#include "mpi_priv.h"

enum { CMD_CHECK = 1, CMD_LAYOUT, CMD_GO };

struct cmd {
	int op;
	int rank;
	int size;
	bool warn;
	bool split;
	bool live;		/* CMD_GO: keep this host's live view line */
	char host[IB_HOSTNAME_MAX];
};

static int64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static bool read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

static void reply(int fd)
{
	char c = 1;

	while (write(fd, &c, 1) < 0 && errno == EINTR)
		;
}

/* The first failed job's reason, for the one-line summary. */
static void first_failure(struct ib_mpi_outcome *o, const struct ib_plan *run,
			  const struct ib_job_stats *st)
{
	unsigned int i;

	for (i = 0; i < run->nr_jobs && !o->msg[0]; i++)
		if (st[i].error)
			snprintf(o->msg, sizeof(o->msg), "job '%.64s': %.255s",
				 run->jobs[i].name,
				 st[i].error_where[0] ? st[i].error_where : strerror(st[i].error));
}

/* After the run: the slots and disks into the shared mapping. */
static void publish(struct ib_mpi_helper *h, const struct ib_plan *run,
		    const struct ib_result *res)
{
	struct ib_mpi_outcome *o = h->out;
	unsigned int i;

	memcpy(h->stats, res->stats, (size_t)run->nr_jobs * sizeof(*h->stats));
	o->failed_jobs = res->failed_jobs;
	o->interrupted = res->interrupted;
	o->nr_disks = res->nr_disks < IB_MPI_DISKS_MAX ? res->nr_disks : IB_MPI_DISKS_MAX;
	for (i = 0; i < o->nr_disks; i++)
		o->disks[i] = res->disks[i];
	first_failure(o, run, res->stats);
}

/*
 * The helper's own copy of the jobs (the plan's array is a mapping shared
 * with the rank, which reads it for the report), cut down to this rank's
 * with --mpi-split. A new shared mapping, as plan.c makes it: fork does not
 * copy its page tables into every job process.
 */
static int own_jobs(struct ib_plan *run, const struct cmd *c, struct ib_diag *d)
{
	struct ib_job *mine = ib_shm_alloc((size_t)run->nr_jobs * sizeof(*mine));

	if (!mine)
		return ib_diag_set(d, ENOMEM, "no memory for %u jobs", run->nr_jobs);
	memcpy(mine, run->jobs, (size_t)run->nr_jobs * sizeof(*mine));
	run->jobs = mine; /* never freed: the helper ends with _exit */
	run->jobs_cap = 0;
	if (c->split)
		run->nr_jobs = ib_mpi_plan_split(mine, run->nr_jobs, c->rank, c->size);
	return 0;
}

/* The job header lines, as the plain binary prints them before a run. */
static void render_header(struct ib_mpi_outcome *o, const struct ib_plan *run,
			  const struct ib_result *res)
{
	struct ib_results rs;
	char *text = NULL, *cut;
	size_t len = 0;
	FILE *mem;

	if (ib_results_from_run(&rs, run, res, 0) < 0)
		return;
	mem = open_memstream(&text, &len);
	if (mem) {
		ib_report_header(mem, &rs);
		fclose(mem);
	}
	if (text) {
		snprintf(o->header, sizeof(o->header), "%s", text);
		cut = len >= sizeof(o->header) ? strrchr(o->header, '\n') : NULL;
		if (cut)
			cut[1] = '\0'; /* whole lines only */
	}
	free(text);
	ib_results_free(&rs);
}

/* Rank and host known: this rank's names, then every target checked. */
static int check(struct ib_mpi_helper *h, struct ib_plan *run, const struct cmd *c,
		 struct ib_result *res, struct ib_runner **r)
{
	struct ib_mpi_outcome *o = h->out;
	struct ib_diag d = { { 0 } };
	int ret;

	o->rank = c->rank;
	memcpy(o->host, c->host, sizeof(o->host));
	ret = own_jobs(run, c, &d);
	if (!ret)
		ret = ib_mpi_plan_for_rank(run, c->rank, c->host, &d);
	if (!ret)
		ret = ib_runner_check(run, c->warn ? stderr : NULL, res, r, &d);
	if (ret)
		snprintf(o->msg, sizeof(o->msg), "%s", d.msg);
	else
		render_header(o, run, res);
	return o->ret = ret;
}

/* Files laid out; one that could not be is this rank's failure: no run. */
static int layout(struct ib_mpi_helper *h, const struct ib_plan *run,
		  struct ib_result *res, struct ib_runner *r)
{
	ib_runner_layout(r, NULL);
	if (!res->failed_jobs)
		return 0;
	first_failure(h->out, run, res->stats);
	return h->out->ret = -EIO;
}

/* The next order, or _exit when it is not `op` (EOF: the run was called off). */
static void expect(struct ib_mpi_helper *h, int op, struct cmd *c)
{
	if (!read_full(h->cmd_fd, c, sizeof(*c)) || c->op != op)
		_exit(0);
}

static void on_poll(void *arg, const struct ib_run_view *v)
{
	ib_stream_poll(arg, v);
}

/*
 * The per-interval stream: its lines into h->ivl (--interval-json) and/or
 * the live view's host line (liveview.h), into a view that draws nothing
 * and writes h->out->live. Without memory for the view the run goes on
 * without the line; without memory for the stream, 0 or -ENOMEM.
 */
static int watch(struct ib_mpi_helper *h, const struct ib_plan *run,
		 struct ib_runner *r, bool live, struct ib_liveview **lv,
		 struct ib_stream **st)
{
	if (live && ib_liveview_new_host(lv, run, &h->out->live))
		*lv = NULL;
	if (!*lv && !h->ivl)
		return 0;
	if (ib_stream_new(st, run, h->ivl, *lv)) {
		ib_liveview_free(*lv);
		*lv = NULL;
		return h->ivl ? -ENOMEM : 0;
	}
	ib_runner_watch(r, &(struct ib_run_watch){ on_poll, *st, true });
	return 0;
}

static void run_jobs(struct ib_mpi_helper *h, const struct ib_plan *run,
		     struct ib_result *res, struct ib_runner *r, bool live)
{
	struct ib_diag d = { { 0 } };
	struct ib_liveview *lv = NULL;
	struct ib_stream *st = NULL;
	int ret;

	ret = watch(h, run, r, live, &lv, &st);
	h->out->start_ns = realtime_ns();
	if (!ret)
		ret = ib_runner_go(r, NULL, NULL, &d);
	else
		ib_diag_set(&d, -ret, "--interval-json: no memory for the stream");
	ib_stream_free(st);
	ib_liveview_free(lv);
	if (h->ivl && fflush(h->ivl) && !ret)
		ret = ib_diag_set(&d, errno, "--interval-json: this rank's lines: %s",
				  strerror(errno));
	publish(h, run, res);
	if (ret) {
		h->out->ret = ret;
		snprintf(h->out->msg, sizeof(h->out->msg), "%s", d.msg);
	}
	ib_result_free(run, res);
}

static void helper_main(struct ib_mpi_helper *h, struct ib_plan *run, pid_t parent)
{
	struct ib_runner *r = NULL;
	struct ib_result res;
	struct cmd c;

	prctl(PR_SET_PDEATHSIG, SIGKILL); /* the rank died: so do we */
	if (getppid() != parent)
		_exit(1);
	signal(SIGUSR1, SIG_IGN); /* the rank's "stop" (mpirun forwards it) */
	if (!read_full(h->cmd_fd, &c, sizeof(c)) || c.op != CMD_CHECK)
		_exit(0);
	if (check(h, run, &c, &res, &r)) {
		reply(h->rep_fd);
		_exit(0);
	}
	reply(h->rep_fd);
	expect(h, CMD_LAYOUT, &c);
	if (layout(h, run, &res, r)) {
		reply(h->rep_fd);
		_exit(0);
	}
	reply(h->rep_fd);
	expect(h, CMD_GO, &c);
	run_jobs(h, run, &res, r, c.live);
	reply(h->rep_fd);
	_exit(0);
}

static int map_shared(struct ib_mpi_helper *h, unsigned int nr_jobs)
{
	size_t head = (sizeof(*h->out) + 4095) & ~(size_t)4095;
	char *p;

	h->map_len = head + (size_t)nr_jobs * sizeof(*h->stats);
	p = ib_shm_alloc(h->map_len);
	if (!p)
		return -ENOMEM;
	h->out = (struct ib_mpi_outcome *)p;
	h->stats = (struct ib_job_stats *)(p + head);
	return 0;
}

int ib_mpi_helper_start(struct ib_mpi_helper *h, struct ib_plan *run,
			struct ib_diag *d)
{
	int cmd[2], rep[2];
	pid_t parent = getpid();

	memset(h, 0, sizeof(*h));
	h->pid = -1;
	if (map_shared(h, run->nr_jobs) < 0)
		return ib_diag_set(d, ENOMEM, "no memory for %u job slots", run->nr_jobs);
	/* this rank's lines, read back by the rank (ib_mpi_stream_gather) */
	if (run->interval_json[0] && !(h->ivl = tmpfile()))
		return ib_diag_set(d, errno, "--interval-json: a temporary file: %s",
				   strerror(errno));
	if (pipe2(cmd, O_CLOEXEC) < 0 || pipe2(rep, O_CLOEXEC) < 0)
		return ib_diag_set(d, errno, "pipe: %s", strerror(errno));
	fflush(NULL);
	h->pid = fork();
	if (h->pid < 0)
		return ib_diag_set(d, errno, "fork: %s", strerror(errno));
	if (h->pid == 0) {
		close(cmd[1]);
		close(rep[0]);
		h->cmd_fd = cmd[0];
		h->rep_fd = rep[1];
		helper_main(h, run, parent);
	}
	close(cmd[0]);
	close(rep[1]);
	h->cmd_fd = cmd[1];
	h->rep_fd = rep[0];
	return 0;
}

static int send_cmd(struct ib_mpi_helper *h, const struct cmd *c)
{
	ssize_t n;

	do
		n = write(h->cmd_fd, c, sizeof(*c));
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(*c) ? 0 : -EPIPE;
}

/* The helper is gone without a reply: say how. */
static void helper_died(struct ib_mpi_helper *h)
{
	int status = 0;

	h->done = true;
	if (waitpid(h->pid, &status, 0) == h->pid)
		h->pid = -1;
	h->out->ret = -ECHILD;
	if (WIFSIGNALED(status))
		snprintf(h->out->msg, sizeof(h->out->msg),
			 "job runner process killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(h->out->msg, sizeof(h->out->msg),
			 "job runner process exited with status %d", WEXITSTATUS(status));
}

bool ib_mpi_helper_poll(struct ib_mpi_helper *h, int ms)
{
	struct pollfd p = { .fd = h->rep_fd, .events = POLLIN };
	char c;
	ssize_t n;

	if (h->done)
		return true;
	if (poll(&p, 1, ms) <= 0)
		return false;
	n = read(h->rep_fd, &c, 1);
	if (n < 0 && errno == EINTR)
		return false;
	if (n == 1)
		h->done = true;
	else
		helper_died(h);
	return true;
}

/* One order and its reply. */
static int order(struct ib_mpi_helper *h, const struct cmd *c)
{
	if (send_cmd(h, c) < 0) {
		helper_died(h);
		return h->out->ret;
	}
	while (!ib_mpi_helper_poll(h, -1))
		;
	if (!h->out->ret)
		h->done = false; /* a step's reply: the run is still ahead */
	return h->out->ret;
}

int ib_mpi_helper_check(struct ib_mpi_helper *h, int rank, int size, bool split,
			const char *host, bool warn)
{
	struct cmd c = { .op = CMD_CHECK, .rank = rank, .size = size, .warn = warn,
			 .split = split };

	snprintf(c.host, sizeof(c.host), "%s", host);
	return order(h, &c);
}

int ib_mpi_helper_layout(struct ib_mpi_helper *h)
{
	struct cmd c = { .op = CMD_LAYOUT };

	return order(h, &c);
}

int ib_mpi_helper_go(struct ib_mpi_helper *h, bool live)
{
	struct cmd c = { .op = CMD_GO, .live = live };

	if (send_cmd(h, &c) < 0) {
		helper_died(h);
		return h->out->ret;
	}
	return 0;
}

void ib_mpi_helper_stop(struct ib_mpi_helper *h)
{
	if (h->pid > 0 && !h->done && !h->stopped)
		kill(h->pid, SIGTERM);
	h->stopped = true;
}

void ib_mpi_helper_end(struct ib_mpi_helper *h)
{
	if (h->cmd_fd > 0)
		close(h->cmd_fd); /* an idle helper reads EOF and quits */
	if (h->rep_fd > 0)
		close(h->rep_fd);
	h->cmd_fd = h->rep_fd = -1;
	if (h->pid > 0)
		waitpid(h->pid, NULL, 0);
	h->pid = -1;
	if (h->ivl)
		fclose(h->ivl);
	h->ivl = NULL;
	if (h->out)
		ib_shm_free(h->out, h->map_len);
	h->out = NULL;
	h->stats = NULL;
}
