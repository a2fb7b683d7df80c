// SPDX-License-Identifier: GPL-2.0-only
/*
 * Runs the jobs: targets are prepared in the parent (serially, so clones
 * sharing a file lay it out once; create_serialize=0 jobs at once, in
 * threads), the statistics live in one shared mapping
 * made before fork, every job of a stonewall batch is started together
 * (children wait on a pipe the parent closes), and the parent waits, prints
 * the live status line and forwards signals.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "iobench/exec.h"
#include "iosched.h"
#include "iobench/clock.h"
#include "iobench/disk.h"
#include "iobench/log.h"
#include "eta.h"
#include "iobench/evidence.h"
#include "iomode.h"
#include "iobench/runner.h"
#include "iobench/safety.h"
#include "iobench/shm.h"
#include "iobench/worker.h"

#define POLL_NS 10000000ull /* parent wakes every 10 ms */

/*
 * The one piece of process-wide mutable state: set from signal handlers.
 * `waiting` tells the handler the parent is in its wait loop, where a
 * second SIGINT is acted on (children killed, report printed); anywhere
 * else (laying out files, printing) a second SIGINT ends the run at once.
 */
static volatile sig_atomic_t stop_requested;
static volatile sig_atomic_t sigint_count;
static volatile sig_atomic_t waiting;

struct slot {
	struct ib_worker_args args;
	const struct ib_engine_ops *ops;	/* the job's engine (validated) */
	pid_t pid;
	pthread_t tid;
	bool started;
	bool reaped;
	bool failed_setup;	/* layout failed: the job is reported, not run */
	bool held;		/* wait_for: started when its waitee ends */
	volatile sig_atomic_t stop;	/* a thread job's stop flag */
	struct ib_job *own_job;	/* randrepeat=0: the job with its drawn randseed */
	struct ib_disk_stat dev_start;	/* evidence: device counters at batch start */
	uint64_t fork_ns;		/* evidence: the job process's life */
};

struct ib_runner {
	const struct ib_plan *run;
	struct ib_result *res;
	struct slot *slots;
	FILE *warn;	/* ib_runner_check's warnings, or NULL */
	FILE *msg;
	FILE *tty;
	uint64_t start_ns;
	bool exit_run;		/* exit_what=all fired: start no more batches */
	uint64_t last_eta_ns;
	uint64_t last_newline_ns;
	struct ib_eta_state eta;
	size_t shm_len;
	struct ib_iomode_cache probes;	/* engines probed for default jobs */
	char warned[3][640];		/* clones warn once, not N times */
	unsigned int nr_warned;
	bool laid_out;			/* ib_runner_layout() ran */
	/*
	 * Every slot's heap blocks (its file array, its own job copy), in
	 * memory a fork copies: a job process does not inherit r->slots
	 * (MADV_DONTFORK), and without this the other jobs' blocks would be
	 * unreachable there (memcheck: definitely lost).
	 */
	const void **heap_seen;
};

#define KILL_GRACE_NS 2000000000ull /* after the second SIGINT: then _exit */

/* _exit, not exit: called from the signal handler (async-signal-safe only). */
static void die_now(void)
{
	static const char msg[] = "\niobench: interrupted twice: exiting at once\n";
	ssize_t n;

	ib_iosched_restore();
	n = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)n;
	_exit(IB_EXIT_INTERRUPTED);
}

static void on_signal(int sig)
{
	stop_requested = 1;
	if (sig != SIGINT)
		return;
	sigint_count++;
	if (sigint_count > 2 || (sigint_count > 1 && !waiting))
		die_now();
}

/* A job process: any stop signal just ends its I/O loop (it then drains). */
static void on_child_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void set_handlers(void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void install_handlers(void)
{
	set_handlers(on_signal);
}

static bool engine_has(const struct slot *s, unsigned int flags)
{
	return s->ops && (s->ops->flags & flags);
}

/*
 * One warning line on stderr. A job warns at most 3 lines (engine fallback,
 * synchronous depth, buffered fallback): one of the last 3 again is a
 * clone's, not repeated.
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
	if ((s->ops->flags & IB_ENGINE_SYNC) && job->iodepth > 1)
		warn(r, "job '%s': ioengine=%s is synchronous, iodepth=%u is effectively 1",
		     job->name, s->ops->name, job->iodepth);
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
	ret = ib_files_resolve(job, fs, d);
	if (!ret && !nofiles)
		ret = ib_safety_check(r->run, job, fs, d);
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

static int check_all(struct ib_runner *r, struct ib_diag *d)
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
static void fail_setup(struct ib_runner *r, struct slot *s, int err,
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
				.msg = r->msg, .stop = &stop_requested };
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
		if (ret && !stop_requested)
			fail_setup(r, &r->slots[i], -ret, &d);
	}
	if (r->msg)
		fflush(r->msg);
	free(t);
}

static void layout_all(struct ib_runner *r)
{
	const struct ib_plan *run = r->run;
	bool *par = calloc(run->nr_jobs, sizeof(*par));
	struct ib_diag d;
	unsigned int i;
	int ret;

	for (i = 0; i < run->nr_jobs && !stop_requested; i++) {
		if (engine_has(&r->slots[i], IB_ENGINE_NOFILES))
			continue;
		if (par && lays_out_parallel(r, i)) {
			par[i] = true;
			continue;
		}
		d.msg[0] = '\0';
		ret = ib_files_layout(&run->jobs[i], &r->slots[i].args.files,
				      run->readonly, r->msg, &stop_requested, &d);
		if (r->msg)
			fflush(r->msg);
		if (ret && !stop_requested)
			fail_setup(r, &r->slots[i], -ret, &d);
	}
	if (par && !stop_requested)
		layout_parallel(r, par);
	free(par);
}

/*
 * Zeroed memory the parent alone uses (slots, evidence), kept out of the
 * job processes: fork copies the page table entries of every private page
 * the parent has written, so with numjobs=4096 a few MiB of them cost
 * seconds of forking (4096 forks x ~0.3 ms per 9 MiB). MADV_DONTFORK
 * leaves them out; a child gets its own slot as a copy on the stack.
 */
static void *parent_calloc(size_t n, size_t size)
{
	size_t len = (n ? n : 1) * size;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	(void)madvise(p, len, MADV_DONTFORK); /* an optimisation only */
	return p;
}

static void parent_free(void *p, size_t n, size_t size)
{
	if (p)
		munmap(p, (n ? n : 1) * size);
}

/* --- starting jobs ------------------------------------------------------ */

static void clear_eta_line(struct ib_runner *r)
{
	if (r->tty && r->last_eta_ns)
		fprintf(r->tty, "\r%*s\r", 100, "");
}

/*
 * fio's "Saving output of prerun/postrun" line (exec.h) on msg: the
 * prerun's when the job starts, the postrun's when it ended having run it.
 */
static void exec_msg(struct ib_runner *r, const struct slot *s, bool post)
{
	const struct ib_job *job = s->args.job;
	const char *mode = post ? "postrun" : "prerun";

	if (!r->msg || !(post ? s->args.st->postrun_ran : job->proc.exec_prerun[0]))
		return;
	if (r->msg == r->tty)
		clear_eta_line(r);
	fprintf(r->msg, IB_EXEC_MSG_FMT, job->name, mode, job->name, mode);
	fflush(r->msg);
}

static void *thread_main(void *arg)
{
	struct slot *s = arg;

	ib_worker_run(&s->args);
	return NULL;
}

static void child_main(struct slot *s, pid_t parent, int start_fd)
{
	char c;
	int ret;

	set_handlers(on_child_signal);
	/* the parent killed outright (SIGKILL, OOM): take the job down too */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	while (read(start_fd, &c, 1) < 0 && errno == EINTR)
		;
	close(start_fd);
	ret = stop_requested ? 0 : ib_worker_run(&s->args);
	_exit(ret ? 1 : 0);
}

static void heap_seen_update(struct ib_runner *r)
{
	unsigned int i;

	if (!r->heap_seen)
		r->heap_seen = calloc(2 * (size_t)(r->run->nr_jobs ? r->run->nr_jobs : 1),
				      sizeof(*r->heap_seen));
	for (i = 0; r->heap_seen && i < r->run->nr_jobs; i++) {
		r->heap_seen[2 * i] = r->slots[i].args.files.f;
		r->heap_seen[2 * i + 1] = r->slots[i].own_job;
	}
}

static int start_process(struct ib_runner *r, struct slot *s, int pipefd[2],
			 struct ib_diag *d)
{
	pid_t pid, parent = getpid();
	struct slot mine = *s;	/* the child's: it does not inherit r->slots */

	pid = fork();
	if (pid < 0)
		return ib_diag_set(d, errno, "job '%s': fork: %s", s->args.job->name,
				   strerror(errno));
	if (pid == 0) {
		close(pipefd[1]);
		child_main(&mine, parent, pipefd[0]);
	}
	(void)r;
	s->fork_ns = ib_now_ns();
	s->pid = pid;
	s->started = true;
	return 0;
}

static int start_thread(struct slot *s, struct ib_diag *d)
{
	int ret = pthread_create(&s->tid, NULL, thread_main, s);

	if (ret)
		return ib_diag_set(d, ret, "job '%s': pthread_create: %s",
				   s->args.job->name, strerror(ret));
	s->started = true;
	return 0;
}

/* wait_for: is an earlier job of the batch (slot first..i-1) its waitee? */
static bool waits_in_batch(const struct ib_runner *r, unsigned int first,
			   unsigned int i)
{
	const char *name = r->slots[i].args.job->wait_for;

	for (unsigned int k = first; name[0] && k < i; k++)
		if (!strcmp(r->slots[k].args.job->name, name))
			return true;
	return false;
}

static int start_batch(struct ib_runner *r, unsigned int first, unsigned int end,
		       struct ib_diag *d)
{
	int pipefd[2], ret = 0;
	unsigned int i;

	for (i = first; i < end; i++) {
		r->slots[i].held = !r->slots[i].failed_setup && waits_in_batch(r, first, i);
		if (!r->slots[i].held && !r->slots[i].failed_setup)
			exec_msg(r, &r->slots[i], false);
	}
	if (pipe(pipefd) < 0)
		return ib_diag_set(d, errno, "pipe: %s", strerror(errno));
	heap_seen_update(r);
	/*
	 * Once for all the forks (nothing is printed between them): a child
	 * must not inherit buffered output, and fflush(NULL) locks every
	 * stream, a copy-on-write fault on their pages after each fork.
	 */
	fflush(NULL);
	for (i = first; i < end && !ret; i++) {
		struct slot *s = &r->slots[i];

		if (s->args.job->thread || s->failed_setup || s->held)
			continue;
		ret = start_process(r, s, pipefd, d);
	}
	close(pipefd[0]);
	close(pipefd[1]); /* go: every child's read() returns */
	for (i = first; i < end && !ret; i++) {
		struct slot *s = &r->slots[i];

		if (s->args.job->thread && !s->failed_setup && !s->held)
			ret = start_thread(s, d);
	}
	return ret;
}

/* A held job whose waitees have all ended: start it on its own. */
static int start_late(struct ib_runner *r, struct slot *s, struct ib_diag *d)
{
	int pipefd[2], ret;

	s->held = false;
	exec_msg(r, s, false);
	if (s->args.job->thread)
		return start_thread(s, d);
	if (pipe(pipefd) < 0)
		return ib_diag_set(d, errno, "pipe: %s", strerror(errno));
	heap_seen_update(r);
	fflush(NULL);
	ret = start_process(r, s, pipefd, d);
	close(pipefd[0]);
	close(pipefd[1]);
	return ret;
}

/* Has every job of the batch before slot i named like its waitee ended? */
static bool waitees_done(const struct ib_runner *r, unsigned int first, unsigned int i)
{
	const char *name = r->slots[i].args.job->wait_for;

	for (unsigned int k = first; k < i; k++) {
		const struct slot *w = &r->slots[k];

		if (strcmp(w->args.job->name, name))
			continue;
		if (w->held || (w->started && !w->reaped))
			return false;
	}
	return true;
}

/* wait_for: start the held jobs whose waitees ended (fio's run order). */
static void start_waiters(struct ib_runner *r, unsigned int first, unsigned int end)
{
	struct ib_diag d;

	for (unsigned int i = first; i < end && !stop_requested; i++) {
		struct slot *s = &r->slots[i];

		if (!s->held || !waitees_done(r, first, i))
			continue;
		int ret = start_late(r, s, &d);

		if (ret < 0)
			fail_setup(r, s, -ret, &d);
	}
}

/* --- waiting ------------------------------------------------------------ */

static void stop_slot(struct slot *s, int sig)
{
	s->held = false;	/* a waiting job never starts */
	if (!s->started || s->reaped)
		return;
	if (s->args.job->thread)
		s->stop = 1;
	else
		kill(s->pid, sig);
}

static void forward_stop(struct ib_runner *r, unsigned int first, unsigned int end,
			 int sig)
{
	unsigned int i;

	for (i = first; i < end; i++)
		stop_slot(&r->slots[i], sig);
}

/*
 * exitall / exitall_on_error of a job that just ended: end the running
 * jobs of its group (exit_what=group), or all running ones (stonewall,
 * all; all also starts no later batch).
 */
static void exit_rules(struct ib_runner *r, const struct slot *done,
		       unsigned int first, unsigned int end)
{
	const struct ib_job *j = done->args.job;
	unsigned int i;

	if (!j->proc.exitall && !(j->proc.exitall_on_error && done->args.st->error))
		return;
	for (i = first; i < end; i++)
		if (j->proc.exit_what != IB_EXIT_GROUP ||
		    r->slots[i].args.job->groupid == j->groupid)
			stop_slot(&r->slots[i], SIGTERM);
	if (j->proc.exit_what == IB_EXIT_ALL)
		r->exit_run = true;
}

static void mark_exit(struct ib_runner *r, struct slot *s, int status)
{
	struct ib_job_stats *st = s->args.st;

	s->reaped = true;
	if (WIFSIGNALED(status)) {
		st->exit_signal = (unsigned int)WTERMSIG(status);
		if (!st->error)
			st->error = EINTR;
		snprintf(st->error_where, sizeof(st->error_where),
			 "job process %d killed by signal %d (%s)", (int)s->pid,
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
		st->live.state = IB_ST_KILLED;
	} else if (WEXITSTATUS(status) != 0 && !st->error) {
		st->error = EIO;
		snprintf(st->error_where, sizeof(st->error_where),
			 "job process %d exited with status %d", (int)s->pid,
			 WEXITSTATUS(status));
	}
	if (st->error)
		r->res->failed_jobs++;
}

/* Has the job process exited? It stays unreaped (its /proc entry with it). */
static bool exited(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
	       si.si_pid == pid;
}

static void reap_children(struct ib_runner *r, unsigned int first, unsigned int end)
{
	unsigned int i;
	int status;

	for (i = first; i < end; i++) {
		struct slot *s = &r->slots[i];

		if (!s->started || s->reaped)
			continue;
		if (s->args.job->thread) {
			if (!__atomic_load_n(&s->args.st->finished, __ATOMIC_ACQUIRE))
				continue;
			pthread_join(s->tid, NULL);
			mark_exit(r, s, 0);
		} else {
			if (r->res->evidence && exited(s->pid))
				ib_evidence_sched(&r->res->evidence[i], s->pid, s->fork_ns);
			if (waitpid(s->pid, &status, WNOHANG) != s->pid)
				continue;
			mark_exit(r, s, status);
		}
		exec_msg(r, s, true);
		exit_rules(r, s, first, end);
	}
}

static bool batch_done(const struct ib_runner *r, unsigned int first, unsigned int end)
{
	unsigned int i;

	for (i = first; i < end; i++)
		if (r->slots[i].held ||
		    (r->slots[i].started && !r->slots[i].reaped))
			return false;
	return true;
}

static void print_eta(struct ib_runner *r, uint64_t now)
{
	const struct ib_plan *run = r->run;
	char line[512];
	bool newline;

	if (!r->tty || now - r->last_eta_ns < run->eta_interval_ms * 1000000ull)
		return;
	r->last_eta_ns = now;
	ib_eta_format(line, sizeof(line), run, r->res->stats, now, r->start_ns,
		      &r->eta);
	newline = run->eta_newline_ms &&
		  now - r->last_newline_ns >= run->eta_newline_ms * 1000000ull;
	if (newline)
		r->last_newline_ns = now;
	fprintf(r->tty, "%s%s", line, newline ? "\n" : "\r");
	fflush(r->tty);
}

/* The jobs' rate series (evidence), from their live counters. */
static void sample_series(struct ib_runner *r, unsigned int first, unsigned int end,
			  uint64_t now)
{
	unsigned int i, k;

	for (i = first; r->res->evidence && i < end; i++) {
		const struct ib_live *l = &r->res->stats[i].live;
		uint64_t ios = 0;

		if (!r->slots[i].started || r->slots[i].reaped)
			continue;
		for (k = 0; k < IB_DDIR_RWT; k++)
			ios += __atomic_load_n(&l->ios[k], __ATOMIC_RELAXED);
		ib_evidence_series_sample(&r->res->evidence[i], now, ios);
	}
}

/*
 * First SIGINT/SIGTERM: every job is asked to stop (SIGTERM); each drains
 * its in-flight I/O and the report covers what was done. Second SIGINT:
 * the job processes are killed (they are reported as killed) and the
 * report is still printed; should anything outlive that (a thread job, a
 * process stuck in the kernel), the run ends anyway after a short grace.
 */
static void wait_batch(struct ib_runner *r, unsigned int first, unsigned int end)
{
	struct timespec ts = { 0, (long)POLL_NS };
	bool forwarded = false;
	uint64_t killed_ns = 0;

	waiting = 1;
	for (;;) {
		reap_children(r, first, end);
		start_waiters(r, first, end);
		if (batch_done(r, first, end))
			break;
		if (stop_requested && !forwarded) {
			forward_stop(r, first, end, SIGTERM);
			forwarded = true;
		}
		if (sigint_count > 1 && !killed_ns) {
			forward_stop(r, first, end, SIGKILL);
			killed_ns = ib_now_ns();
		}
		if (killed_ns && ib_now_ns() - killed_ns > KILL_GRACE_NS)
			die_now();
		print_eta(r, ib_now_ns());
		sample_series(r, first, end, ib_now_ns());
		nanosleep(&ts, NULL);
	}
	waiting = 0;
}

/* --- evidence for the validity checks (checks.h) ----------------------- */

/* Does job i's first file region (and its target) equal job k's? */
static bool same_region(const struct ib_runner *r, unsigned int i, unsigned int k)
{
	const struct ib_files *a = &r->slots[i].args.files, *b = &r->slots[k].args.files;
	const struct ib_evidence *x = &r->res->evidence[i], *y = &r->res->evidence[k];

	return a->nr && b->nr && x->valid && y->valid &&
	       a->f[0].io_offset == b->f[0].io_offset &&
	       a->f[0].io_size == b->f[0].io_size &&
	       x->target_kind == y->target_kind && x->zram == y->zram &&
	       x->loop == y->loop && !strcmp(x->disk, y->disk) &&
	       !strcmp(a->f[0].path, b->f[0].path);
}

static void evidence_before(struct ib_runner *r, unsigned int first, unsigned int end,
			    unsigned int batch)
{
	unsigned int i, n = 0, probed = end;

	if (!r->res->evidence)
		return;
	for (i = first; i < end; i++)
		n += !r->slots[i].failed_setup;
	for (i = first; i < end; i++) {
		struct ib_evidence *ev = &r->res->evidence[i];

		ev->batch = batch;
		ev->batch_jobs = n;
		if (probed < end && same_region(r, i, probed)) {
			ib_evidence_before_as(ev, &r->res->evidence[probed]);
			r->slots[i].dev_start = r->slots[probed].dev_start;
			continue;
		}
		ib_evidence_before(ev, &r->slots[i].args.files, &r->slots[i].dev_start);
		probed = i;
	}
	for (i = first; i < end; i++)
		ib_evidence_series_start(&r->res->evidence[i], ib_now_ns());
}

static void evidence_after(struct ib_runner *r, unsigned int first, unsigned int end)
{
	unsigned int i;

	if (!r->res->evidence)
		return;
	for (i = first; i < end; i++)
		ib_evidence_after(&r->res->evidence[i], &r->slots[i].dev_start);
}

#define CALIB_BUDGET_US 50000ull	/* the whole calibration, about */
#define CALIB_MIN_US 10000ull		/* per job section */

/*
 * To the picosecond: JSON keeps 6 decimals, so a report read back derives
 * the same ceiling from it.
 */
static double ps_round(double ns)
{
	return round(ns * 1000.0) / 1000.0;
}

/* The tool's own cost, per job section (clones share their first's). */
static void calibrate(struct ib_runner *r, const struct ib_clock *clock)
{
	const struct ib_plan *run = r->run;
	struct ib_evidence *ev = r->res->evidence, *from = NULL;
	unsigned int i, sections = 0;
	uint64_t budget;
	double clock_ns = ps_round(ib_calib_clock_ns(clock)), ns;
	struct ib_diag d;

	for (i = 0; i < run->nr_jobs; i++)
		sections += run->jobs[i].clone == 0;
	budget = sections ? CALIB_BUDGET_US / sections : CALIB_BUDGET_US;
	if (budget < CALIB_MIN_US)
		budget = CALIB_MIN_US;
	for (i = 0; i < run->nr_jobs && !stop_requested; i++) {
		if (run->jobs[i].clone == 0) {
			from = NULL;
			if (i && budget * i > 5 * CALIB_BUDGET_US)
				continue; /* many sections: the first ones only */
			if (ib_calib_tool(r->slots[i].args.job, clock, budget, &ns, &d) < 0)
				continue;
			from = &ev[i];
			ev[i].tool_ns_per_io = ps_round(ns);
		} else if (from) {
			ev[i].tool_ns_per_io = from->tool_ns_per_io;
		} else {
			continue;
		}
		ev[i].calibrated = true;
		ev[i].clock_ns = clock_ns;
	}
}

/* The environment and each job's static evidence, once the files exist. */
static void gather_evidence(struct ib_runner *r, const char *const *paths,
			    unsigned int npaths)
{
	struct ib_result *res = r->res;
	unsigned int i;

	res->env = calloc(1, sizeof(*res->env));
	res->evidence = parent_calloc(r->run->nr_jobs, sizeof(*res->evidence));
	if (!res->env || !res->evidence) {
		free(res->env);
		parent_free(res->evidence, r->run->nr_jobs, sizeof(*res->evidence));
		res->env = NULL;
		res->evidence = NULL;
		return;
	}
	ib_env_collect(res->env, paths, npaths, NULL);
	for (i = 0; i < r->run->nr_jobs; i++) {
		struct slot *s = &r->slots[i];

		ib_evidence_job(&res->evidence[i], s->args.job, &s->args.files, s->ops,
				res->env);
		if (s->own_job)
			res->evidence[i].seed_source = IB_SEED_DRAWN;
	}
}

/*
 * randrepeat=0 without randseed= (and without allrandrepeat=1, which keeps
 * every stream on the job's fixed seeds): the seed is drawn here, not in
 * the job, so the report can say it and randseed=N replays the job exactly.
 */
static int own_seed(struct slot *s, struct ib_diag *d)
{
	const struct ib_job *job = s->args.job;

	if (job->randrepeat || job->randseed_set || job->allrandrepeat)
		return 0;
	s->own_job = malloc(sizeof(*s->own_job));
	if (!s->own_job)
		return ib_diag_set(d, ENOMEM, "job '%s': no memory", job->name);
	*s->own_job = *job;
	s->own_job->randseed = ib_evidence_draw_seed();
	s->own_job->randseed_set = true;
	s->args.job = s->own_job;
	return 0;
}

/* --- entry -------------------------------------------------------------- */

/* ioscheduler= of the batch's jobs, just before they start (as fio). */
static int set_schedulers(struct ib_runner *r, unsigned int first,
			  unsigned int end, struct ib_diag *d)
{
	unsigned int i, k;
	int ret;

	for (i = first; i < end; i++) {
		const struct slot *s = &r->slots[i];

		if (!s->args.job->proc.ioscheduler[0] || engine_has(s, IB_ENGINE_NOFILES))
			continue;
		for (k = 0; k < s->args.files.nr; k++) {
			ret = ib_iosched_set(s->args.files.f[k].path,
					     s->args.job->proc.ioscheduler, d);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int run_batches(struct ib_runner *r, struct ib_diag *d)
{
	const struct ib_plan *run = r->run;
	unsigned int first = 0, end, batch = 0;
	int ret;

	while (first < run->nr_jobs && !stop_requested && !r->exit_run) {
		end = first + 1;
		while (end < run->nr_jobs && !run->jobs[end].stonewall)
			end++;
		evidence_before(r, first, end, batch++);
		ret = set_schedulers(r, first, end, d);
		if (!ret)
			ret = start_batch(r, first, end, d);
		if (ret) {
			stop_requested = 1;
			forward_stop(r, first, end, SIGTERM);
			wait_batch(r, first, end);
			return ret;
		}
		wait_batch(r, first, end);
		evidence_after(r, first, end);
		first = end;
	}
	return 0;
}

static int setup_slots(struct ib_runner *r, struct ib_diag *d)
{
	const struct ib_plan *run = r->run;
	unsigned int i;

	r->shm_len = run->nr_jobs * sizeof(struct ib_job_stats);
	r->res->stats = ib_shm_alloc(r->shm_len);
	r->slots = parent_calloc(run->nr_jobs, sizeof(*r->slots));
	if (!r->res->stats || !r->slots)
		return ib_diag_set(d, ENOMEM, "no memory for %u job slots",
				   run->nr_jobs);
	for (i = 0; i < run->nr_jobs; i++) {
		r->slots[i].args.job = &run->jobs[i];
		r->slots[i].ops = ib_engine_find(run->jobs[i].ioengine);
		r->slots[i].args.st = &r->res->stats[i];
		r->slots[i].args.readonly = run->readonly;
		r->slots[i].args.nr_jobs = run->nr_jobs;
		/* a process has its own copy of stop_requested; a thread its flag */
		r->slots[i].args.stop = run->jobs[i].thread ? &r->slots[i].stop
							    : &stop_requested;
		r->res->stats[i].live.state = IB_ST_NOT_STARTED;
		if (own_seed(&r->slots[i], d) < 0)
			return -ENOMEM;
	}
	return 0;
}

static void free_slots(struct ib_runner *r)
{
	unsigned int i;

	for (i = 0; r->slots && i < r->run->nr_jobs; i++) {
		ib_files_free(&r->slots[i].args.files);
		free(r->slots[i].own_job);
	}
	parent_free(r->slots, r->run->nr_jobs, sizeof(*r->slots));
	r->slots = NULL;
	free(r->heap_seen);
	r->heap_seen = NULL;
}

static int collect_paths(struct ib_runner *r, const char ***paths, unsigned int *n)
{
	unsigned int i, j, k = 0, total = 0;

	for (i = 0; i < r->run->nr_jobs; i++)
		total += r->slots[i].args.files.nr;
	*paths = calloc(total ? total : 1, sizeof(char *));
	if (!*paths)
		return -ENOMEM;
	for (i = 0; i < r->run->nr_jobs; i++) {
		if (engine_has(&r->slots[i], IB_ENGINE_NOIO | IB_ENGINE_NOFILES))
			continue; /* touches no disk: no Disk stats for it */
		if (!r->slots[i].args.job->disk_util)
			continue;
		for (j = 0; j < r->slots[i].args.files.nr; j++)
			(*paths)[k++] = r->slots[i].args.files.f[j].path;
	}
	*n = k;
	return 0;
}

int ib_runner_check(const struct ib_plan *run, FILE *warn,
		    struct ib_result *res, struct ib_runner **out,
		    struct ib_diag *d)
{
	struct ib_runner *r = calloc(1, sizeof(*r));
	int ret;

	*out = NULL;
	memset(res, 0, sizeof(*res));
	if (!r)
		return ib_diag_set(d, ENOMEM, "no memory for the runner");
	r->run = run;
	r->res = res;
	r->warn = warn;
	install_handlers();
	ret = setup_slots(r, d);
	if (!ret)
		ret = check_all(r, d);
	if (ret) {
		free_slots(r);
		free(r);
		return ret;
	}
	*out = r;
	return 0;
}

static int setup_disks(struct ib_runner *r, struct ib_diag *d)
{
	struct ib_result *res = r->res;
	const char **paths = NULL;
	unsigned int npaths = 0;
	int ret;

	ret = collect_paths(r, &paths, &npaths);
	if (!ret) {
		res->diskset = calloc(1, sizeof(*res->diskset));
		ret = res->diskset ? ib_disk_setup(res->diskset, paths, npaths, d) :
				     ib_diag_set(d, ENOMEM, "no memory for disk stats");
	}
	if (!ret)
		gather_evidence(r, paths, npaths);
	free(paths);
	return ret;
}

void ib_runner_layout(struct ib_runner *r, FILE *msg)
{
	r->msg = msg;
	layout_all(r);
	r->laid_out = true;
}

int ib_runner_go(struct ib_runner *r, FILE *msg, FILE *tty, struct ib_diag *d)
{
	const struct ib_plan *run = r->run;
	struct ib_result *res = r->res;
	int ret;

	r->msg = msg;
	r->tty = tty;
	if (!r->laid_out)
		layout_all(r);
	ret = setup_disks(r, d);
	if (!ret) {
		struct ib_clock clock;
		unsigned int i;
		bool tsc = true;

		for (i = 0; i < run->nr_jobs; i++)
			tsc &= run->jobs[i].clocksource == IB_CLK_CPU;
		ib_clock_init(&clock, tsc);
		for (i = 0; i < run->nr_jobs; i++) {
			r->slots[i].args.clock = clock;
			r->slots[i].args.exec_to_stderr = msg == stderr;
			snprintf(r->slots[i].args.st->clocksource,
				 sizeof(r->slots[i].args.st->clocksource), "%s",
				 clock.tsc ? "cpu" : "clock_gettime");
		}
		if (res->evidence && !run->no_calibrate)
			calibrate(r, &clock);
		ib_disk_start(res->diskset);
		r->start_ns = ib_now_ns();
		ret = run_batches(r, d);
		ib_iosched_restore();
		ib_disk_stop(res->diskset);
		res->disks = res->diskset->util;
		res->nr_disks = res->diskset->nr;
		clear_eta_line(r);
	}
	res->interrupted = stop_requested != 0;
	res->end_ms = (int64_t)time(NULL) * 1000;
	free_slots(r);
	free(r);
	return ret;
}

int ib_runner_run(const struct ib_plan *run, FILE *msg, FILE *tty,
		  struct ib_result *res, struct ib_diag *d)
{
	struct ib_runner *r;
	int ret = ib_runner_check(run, msg, res, &r, d);

	return ret ? ret : ib_runner_go(r, msg, tty, d);
}

void ib_result_free(const struct ib_plan *run, struct ib_result *res)
{
	if (res->stats)
		ib_shm_free(res->stats, run->nr_jobs * sizeof(struct ib_job_stats));
	free(res->diskset);
	parent_free(res->evidence, run->nr_jobs, sizeof(*res->evidence));
	free(res->env);
	res->diskset = NULL;
	res->evidence = NULL;
	res->env = NULL;
	res->stats = NULL;
	res->disks = NULL;
}
