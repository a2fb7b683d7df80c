// SPDX-License-Identifier: GPL-2.0-only
/*
 * The runner's parts (runner.c and runner_*.c): the slots, the runner's
 * state and what one part calls in another. Private to src/run/.
 */
#ifndef IOBENCH_RUNNER_PRIV_H
#define IOBENCH_RUNNER_PRIV_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "iobench/disk.h"
#include "eta.h"
#include "iomode.h"
#include "iobench/runner.h"
#include "iobench/worker.h"

/*
 * The threads of a batch set up, then wait here until all have, as fio's
 * do: a thread that started its I/O at once would take the CPUs from the
 * creation and set-up of the next ones (numjobs=2048 --thread on 2 CPUs).
 */
struct start_gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;	/* the parent's: one more thread is ready */
	unsigned int ready;	/* threads set up (ib_worker_args.ready) */
	/*
	 * The threads wait on this word (a futex) until the parent sets it:
	 * one wake-up each, no lock to take again. A condition variable's
	 * broadcast woke them all to queue on its mutex, one handover at a
	 * time, and under load each waited for a CPU in turn, the last ones
	 * starting seconds late (numjobs=1024 --thread 2 s: jobs ran for 22 s).
	 */
	int open;
};

struct slot {
	struct ib_worker_args args;
	const struct ib_engine_ops *ops;	/* the job's engine (validated) */
	pid_t pid;
	pthread_t tid;
	bool started;
	bool reaped;
	bool failed_setup;	/* layout failed: the job is reported, not run */
	bool held;		/* wait_for: started when its waitee ends */
	bool stop_sent;		/* the runner itself signalled it to stop */
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
	bool job_signalled;	/* a job process was stopped by a signal of its own */
	struct start_gate gate;	/* the batch's threads (start_batch) */
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
	/* the watcher (runner_watch.c) */
	struct ib_run_watch watch;
	struct ib_iv_ring *rings;	/* --interval-json: one per job (shared) */
	size_t rings_len;
	bool *view_flags;		/* the view's started[] and reaped[] */
	uint64_t last_status_ns;	/* --status-interval's last report */
	struct ib_status_slot *status;	/* the jobs' copies for it (shared) */
	uint32_t status_no;		/* the latest report's request */
};

static inline bool engine_has(const struct slot *s, unsigned int flags)
{
	return s->ops && (s->ops->flags & flags);
}

/*
 * runner_signal.c: the one piece of process-wide mutable state, set from
 * signal handlers (see there), and the handlers.
 */
extern volatile sig_atomic_t runner_stop_requested;
extern volatile sig_atomic_t runner_child_signal;
extern volatile sig_atomic_t runner_sigint_count;
extern volatile sig_atomic_t runner_waiting;
extern volatile sig_atomic_t runner_usr1;
/* _exit after restoring the schedulers (async-signal-safe) */
void runner_die_now(void);
/* SIGINT and SIGTERM to fn */
void runner_set_handlers(void (*fn)(int));
/* the parent's handlers: a second SIGINT kills (runner_signal.c) */
void runner_install_handlers(void);
/* a job process's: any stop signal ends its I/O loop */
void runner_on_child_signal(int sig);

/* runner.c: zeroed memory the job processes do not inherit (MADV_DONTFORK) */
void *runner_parent_calloc(size_t n, size_t size);
void runner_parent_free(void *p, size_t n, size_t size);

/* runner_check.c: check every job's targets (no file written), or -errno */
int runner_check_all(struct ib_runner *r, struct ib_diag *d);
/* a job whose files could not be laid out: reported, not run */
void runner_fail_setup(struct ib_runner *r, struct slot *s, int err,
		       const struct ib_diag *d);
/* lay out every job's files (create_serialize=0 ones at once) */
void runner_layout_all(struct ib_runner *r);

/* runner_start.c: erase the live status line on the terminal */
void runner_clear_eta_line(struct ib_runner *r);
/* fio's "Saving output of prerun/postrun" line on msg (exec.h) */
void runner_exec_msg(struct ib_runner *r, const struct slot *s, bool post);
/* start slots first..end-1 together (wait_for ones held), or -errno */
int runner_start_batch(struct ib_runner *r, unsigned int first, unsigned int end,
		       struct ib_diag *d);
/* wait_for: start the held jobs whose waitees ended */
void runner_start_waiters(struct ib_runner *r, unsigned int first, unsigned int end);

/* runner_wait.c: signal sig to the running jobs of first..end-1 */
void runner_forward_stop(struct ib_runner *r, unsigned int first, unsigned int end,
			 int sig);
/* wait until every job of first..end-1 ended: reap, live line, signals */
void runner_wait_batch(struct ib_runner *r, unsigned int first, unsigned int end);

/* runner_evidence.c: the batch's evidence before and after it runs */
void runner_evidence_before(struct ib_runner *r, unsigned int first, unsigned int end,
			    unsigned int batch);
void runner_evidence_after(struct ib_runner *r, unsigned int first, unsigned int end);
/* the tool's own cost per job section (checks.h) */
void runner_calibrate(struct ib_runner *r, const struct ib_clock *clock);
/* the environment and each job's static evidence */
void runner_gather_evidence(struct ib_runner *r, const char *const *paths,
			    unsigned int npaths);
/* randrepeat=0 without a seed: the slot's own job with a drawn seed */
int runner_own_seed(struct slot *s, struct ib_diag *d);

int runner_watch_setup(struct ib_runner *r);
void runner_watch_free(struct ib_runner *r);
/* Call the watcher, if any (final: after the last batch). */
void runner_watch_poll(struct ib_runner *r, bool final);

#endif
