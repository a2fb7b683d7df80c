// SPDX-License-Identifier: GPL-2.0-only
/*
 * Starting a batch's jobs: every job of a stonewall batch together (the
 * children wait on a pipe the parent closes), threads after processes;
 * wait_for jobs held until their waitees end.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "iobench/clock.h"
#include "iobench/exec.h"
#include "runner_priv.h"

void runner_clear_eta_line(struct ib_runner *r)
{
	if (r->tty && r->last_eta_ns)
		fprintf(r->tty, "\r%*s\r", 100, "");
}

/*
 * fio's "Saving output of prerun/postrun" line (exec.h) on msg: the
 * prerun's when the job starts, the postrun's when it ended having run it.
 */
void runner_exec_msg(struct ib_runner *r, const struct slot *s, bool post)
{
	const struct ib_job *job = s->args.job;
	const char *mode = post ? "postrun" : "prerun";

	if (!r->msg || !(post ? s->args.st->postrun_ran : job->proc.exec_prerun[0]))
		return;
	if (r->msg == r->tty)
		runner_clear_eta_line(r);
	fprintf(r->msg, IB_EXEC_MSG_FMT, job->name, mode, job->name, mode);
	fflush(r->msg);
}

static void gate_wait(int *word)
{
	while (!__atomic_load_n(word, __ATOMIC_ACQUIRE))
		syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
}

static void thread_ready(void *arg)
{
	struct start_gate *g = arg;

	pthread_mutex_lock(&g->mu);
	g->ready++;
	/* only the parent waits on cv: a broadcast there woke every thread
	 * already waiting, n^2/2 wake-ups for n threads (numjobs=256: 12.6 s
	 * instead of 3) */
	pthread_cond_signal(&g->cv);
	pthread_mutex_unlock(&g->mu);
	gate_wait(&g->open);
}

static void *thread_main(void *arg)
{
	struct slot *s = arg;

	ib_worker_run(&s->args);
	return NULL;
}

static void gate_close(struct start_gate *g)
{
	pthread_mutex_lock(&g->mu);
	__atomic_store_n(&g->open, 0, __ATOMIC_RELEASE);
	g->ready = 0;
	pthread_mutex_unlock(&g->mu);
}

/* Once n threads are set up (or a stop is asked for): all go. */
static void gate_open(struct start_gate *g, unsigned int n)
{
	struct timespec ts;

	pthread_mutex_lock(&g->mu);
	while (g->ready < n && !runner_stop_requested) {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&g->cv, &g->mu, &ts);
	}
	pthread_mutex_unlock(&g->mu);
	__atomic_store_n(&g->open, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &g->open, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

static void child_main(struct slot *s, pid_t parent, int start_fd)
{
	char c;
	int ret;

	runner_set_handlers(runner_on_child_signal);
	/* the parent killed outright (SIGKILL, OOM): take the job down too */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	while (read(start_fd, &c, 1) < 0 && errno == EINTR)
		;
	close(start_fd);
	ret = runner_stop_requested ? 0 : ib_worker_run(&s->args);
	/* stopped by a signal: the parent marks the job (and the run) interrupted */
	_exit(runner_child_signal ? 128 + runner_child_signal : ret ? 1 : 0);
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

int runner_start_batch(struct ib_runner *r, unsigned int first, unsigned int end,
		       struct ib_diag *d)
{
	int pipefd[2], ret = 0;
	unsigned int i, n = 0;

	for (i = first; i < end; i++) {
		r->slots[i].held = !r->slots[i].failed_setup && waits_in_batch(r, first, i);
		if (!r->slots[i].held && !r->slots[i].failed_setup)
			runner_exec_msg(r, &r->slots[i], false);
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
	gate_close(&r->gate);
	for (i = first; i < end && !ret; i++) {
		struct slot *s = &r->slots[i];

		if (!s->args.job->thread || s->failed_setup || s->held)
			continue;
		s->args.ready = thread_ready;
		s->args.ready_arg = &r->gate;
		ret = start_thread(s, d);
		n += !ret;
	}
	gate_open(&r->gate, n); /* go: every thread of the batch */
	return ret;
}

/* A held job whose waitees have all ended: start it on its own. */
static int start_late(struct ib_runner *r, struct slot *s, struct ib_diag *d)
{
	int pipefd[2], ret;

	s->held = false;
	runner_exec_msg(r, s, false);
	s->args.ready = NULL;
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
void runner_start_waiters(struct ib_runner *r, unsigned int first, unsigned int end)
{
	struct ib_diag d;

	for (unsigned int i = first; i < end && !runner_stop_requested; i++) {
		struct slot *s = &r->slots[i];

		if (!s->held || !waitees_done(r, first, i))
			continue;
		int ret = start_late(r, s, &d);

		if (ret < 0)
			runner_fail_setup(r, s, -ret, &d);
	}
}
