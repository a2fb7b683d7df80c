// SPDX-License-Identifier: GPL-2.0-only
/*
 * One job clone's worker (worker.c and worker_*.c): its state, the small
 * helpers every part uses and what one part calls in another. Private to
 * src/io/.
 */
#ifndef IOBENCH_WORKER_PRIV_H
#define IOBENCH_WORKER_PRIV_H

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/resource.h>
#include "iobench/buf.h"
#include "iobench/clock.h"
#include "iobench/iogen.h"
#include "iobench/iolog.h"
#include "src/io/gen/latsearch.h"
#include "iobench/log.h"
#include "iobench/loop.h"
#include "iobench/replay.h"
#include "iobench/sampler.h"
#include "src/io/source/source_files.h"
#include "iobench/source_paced.h"
#include "src/io/verify/vrun.h"
#include "iobench/worker.h"

struct worker {
	const struct ib_job *job;
	struct ib_job_stats *st;
	struct ib_files *fs;
	const struct ib_engine_ops *ops;
	struct ib_engine_ctx ctx;
	struct ib_iogen gen;
	struct ib_replay replay;	/* read_iolog= jobs: the source */
	struct ib_bufs bufs;
	struct ib_iolog iolog;
	struct ib_logs logs;
	struct ib_sampler smp;
	struct ib_iv_pub ivp;		/* interval snapshots (off: no ring) */
	struct ib_loop loop;
	struct ib_paced paced;		/* a rate or think time (pace.h) */
	struct ib_files_src fsrc;	/* openfiles=N (source_files.h) */
	bool limited;
	bool paced_on;
	bool rate_min;			/* rate_min or rate_iops_min: checked */
	bool colat;			/* open loop with a rate: from due_ns */
	struct ib_latsearch ls;		/* latency_target */
	uint64_t ls_end_ns, ls_ios, ls_over;
	bool ls_on;
	bool limits;			/* worker_done_hook checks rate_min/max_latency/target */
	/* fsync=/fdatasync=/sync_file_range= N: per file, the range written
	 * since its last sync ([lo, hi), lo >= hi: none) and its last
	 * write's offset (the sync's iolog line); NULL without them */
	struct worker_wrange { uint64_t lo, hi, last; } *written;
	struct ib_vrun vr;		/* verify= (vrun.h) */
	bool verify;
	uint64_t phase_ns[2];		/* verify: time in write, verify phases */
	const volatile sig_atomic_t *stop;
	struct ib_status_slot *status;	/* status reports' copies (status.h) */
	struct ib_clock clock;
	bool lat_on;
	bool readonly;
	bool exec_to_stderr;	/* exec_*run: the commands' output to stderr */
	bool measured;		/* I/O ran: a restart zeroes the stats */

	void *lockmem;
	uint64_t start_ns;		/* measured period start (after ramp) */
	uint64_t job_start_ns;
	uint64_t ramp_end_ns;		/* 0: no ramp (or over) */
	uint64_t end_ns;		/* 0: no runtime limit */
	bool ss_on;			/* steady state: sampling (steadystate.h) */
	uint64_t ss_next_ns, ss_prev_ns, ss_prev_ios, ss_prev_bytes;
	double ss_prev_lat_sum;		/* clat mean * count at the last sample */
	uint64_t ss_prev_lat_n;
	struct rusage ru0;
	uint64_t cpu0_ns;	/* thread CPU time at the measure's start */
	struct ib_diag diag;
};

static inline void set_state(struct worker *w, uint32_t state)
{
	__atomic_store_n(&w->st->live.state, state, __ATOMIC_RELAXED);
}

static inline uint32_t run_letter(const struct ib_job *job)
{
	bool rnd = ib_job_random(job);

	if ((job->rw & IB_RW_READ) && (job->rw & IB_RW_WRITE) &&
	    job->rwmixread != 0 && job->rwmixread != 100)
		return rnd ? 'm' : 'M';
	if ((job->rw & IB_RW_READ) && job->rwmixread != 0)
		return rnd ? 'r' : 'R';
	return rnd ? 'w' : 'W';
}

/* Bounded formatting into a fixed field; truncation is fine there. */
static inline void ib_printf_fmt(3, 4) fmt_into(char *dst, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst, len, fmt, ap);
	va_end(ap);
}

/* worker_sync.c: fsync/fdatasync every open file (at_end: end_fsync) */
void worker_do_sync(struct worker *w, bool at_end);
/* fsync=/fdatasync=/sync_file_range= N: the written ranges
 * (worker_sync.c); 0 or -ENOMEM */
int worker_written_init(struct worker *w);
void worker_written(struct worker *w, const struct ib_io *io);
void worker_do_syncfs(struct worker *w);
/* the loop's sync hooks: fsync=/fdatasync= N, a trace's sync of one file */
void worker_sync_hook(void *arg, struct ib_loop *l);
void worker_file_sync_hook(void *arg, struct ib_loop *l,
			   const struct ib_io_desc *d);

/* worker_time.c: the loop's next tick (ramp end, runtime end, steady state) */
void worker_set_wake(struct worker *w);
/* the steady state's first sample at now */
void worker_ss_start(struct worker *w, uint64_t now);
/* the calling thread's CPU time */
uint64_t worker_thread_cpu_ns(void);
/* zero the statistics: the measured period starts at now */
void worker_restart_measure(struct worker *w, uint64_t now);
/* the ramp is over at now */
void worker_end_ramp(struct worker *w, uint64_t now);
/* the loop's tick hook */
void worker_tick_hook(void *arg, struct ib_loop *l, uint64_t now);

/* worker_limits.c: latency_target's search, started at depth */
void worker_lat_setup(struct worker *w, unsigned int depth);
/* the loop's prep and done hooks (verify, rate_min, max_latency, target) */
void worker_prep_hook(void *arg, struct ib_io *io);
void worker_done_hook(void *arg, const struct ib_io *io);

/* worker_setup.c: startdelay, then everything the loop needs, or -errno */
void worker_wait_startdelay(struct worker *w);
int worker_setup(struct worker *w, struct ib_worker_args *a, struct ib_diag *d);
/* the I/O starts: clocks, pacing, ramp */
void worker_start_clock(struct worker *w);
/* a replay's timing into the stats; a failed trace fails the job */
void worker_replay_finish(struct worker *w);
/* verify_state_save: the state file at the job's end */
void worker_save_vstate(struct worker *w);
/* the job's final numbers (runtime, rusage, lateness, samples) */
void worker_finish_stats(struct worker *w);
/* close and free what worker_setup() made (also after it failed) */
void worker_teardown(struct worker *w);

#endif
