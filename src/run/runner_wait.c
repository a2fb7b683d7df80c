// SPDX-License-Identifier: GPL-2.0-only
/*
 * Waiting for a batch: reaping the jobs, exitall, the live status line,
 * the rate series, and what the signals asked for.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include "iobench/clock.h"
#include "iobench/evidence.h"
#include "runner_priv.h"

#define POLL_NS 10000000ull /* parent wakes every 10 ms */
#define KILL_GRACE_NS 2000000000ull /* after the second SIGINT: then _exit */
static void stop_slot(struct slot *s, int sig)
{
	s->held = false;	/* a waiting job never starts */
	if (!s->started || s->reaped)
		return;
	s->stop_sent = true;
	if (s->args.job->thread)
		s->stop = 1;
	else
		kill(s->pid, sig);
}

void runner_forward_stop(struct ib_runner *r, unsigned int first, unsigned int end,
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

/*
 * A job process that ended its I/O on a signal (SIGINT, SIGTERM, SIGHUP
 * sent to it, not by the runner): the job and the run are interrupted, as
 * when the parent gets it. One the runner sent (exitall, a stop forwarded)
 * is the runner's own decision.
 */
static void mark_signalled(struct ib_runner *r, struct slot *s, int sig)
{
	struct ib_job_stats *st = s->args.st;

	if (s->stop_sent)
		return;
	st->exit_signal = (unsigned int)sig;
	if (!st->error)
		st->error = EINTR;
	snprintf(st->error_where, sizeof(st->error_where),
		 "job process %d stopped by signal %d (%s)", (int)s->pid, sig,
		 strsignal(sig));
	r->job_signalled = true;
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
	} else if (WEXITSTATUS(status) > 128 && WEXITSTATUS(status) < 128 + NSIG) {
		mark_signalled(r, s, WEXITSTATUS(status) - 128);
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
		runner_exec_msg(r, s, true);
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
	if (!ib_eta_format(line, sizeof(line), run, r->res->stats, now, r->start_ns,
			   &r->eta))
		return;	/* no job started yet */
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
 * ramp_size with group_reporting: once the group's jobs together did
 * ramp_size bytes (ramp included), each of them ends its ramp at its next
 * once-a-second look (worker_time.c), as fio's helper thread ends a
 * group's ramps on the group's bytes.
 */
static void group_ramps(struct ib_runner *r, unsigned int first, unsigned int end)
{
	const struct ib_job *jobs = r->run->jobs;
	struct ib_job_stats *st = r->res->stats;
	unsigned int i, k, d;
	uint64_t sum;

	for (i = first; i < end; i = k) {
		sum = 0;
		for (k = i; k < end && jobs[k].groupid == jobs[i].groupid; k++)
			for (d = 0; d < IB_DDIR_RWT; d++)
				sum += __atomic_load_n(&st[k].live.io_bytes[d],
						       __ATOMIC_RELAXED);
		if (!jobs[i].ramp_size || !jobs[i].group_reporting ||
		    sum < jobs[i].ramp_size)
			continue;
		while (i < k)
			__atomic_store_n(&st[i++].live.group_ramp_over, 1,
					 __ATOMIC_RELAXED);
	}
}

/*
 * First SIGINT/SIGTERM: every job is asked to stop (SIGTERM); each drains
 * its in-flight I/O and the report covers what was done. Second SIGINT:
 * the job processes are killed (they are reported as killed) and the
 * report is still printed; should anything outlive that (a thread job, a
 * process stuck in the kernel), the run ends anyway after a short grace.
 */
void runner_wait_batch(struct ib_runner *r, unsigned int first, unsigned int end)
{
	struct timespec ts = { 0, (long)POLL_NS };
	bool forwarded = false;
	uint64_t killed_ns = 0;

	runner_waiting = 1;
	for (;;) {
		reap_children(r, first, end);
		runner_start_waiters(r, first, end);
		if (batch_done(r, first, end))
			break;
		if (runner_stop_requested && !forwarded) {
			runner_forward_stop(r, first, end, SIGTERM);
			forwarded = true;
		}
		if (runner_sigint_count > 1 && !killed_ns) {
			runner_forward_stop(r, first, end, SIGKILL);
			killed_ns = ib_now_ns();
		}
		if (killed_ns && ib_now_ns() - killed_ns > KILL_GRACE_NS)
			runner_die_now();
		runner_watch_poll(r, false);
		group_ramps(r, first, end);
		print_eta(r, ib_now_ns());
		sample_series(r, first, end, ib_now_ns());
		nanosleep(&ts, NULL);
	}
	runner_waiting = 0;
}
