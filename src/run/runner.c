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
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "iobench/clock.h"
#include "iobench/evidence.h"
#include "iosched.h"
#include "iobench/shm.h"
#include "iobench/grouplog.h"
#include "runner_priv.h"

/*
 * Zeroed memory the parent alone uses (slots, evidence), kept out of the
 * job processes: fork copies the page table entries of every private page
 * the parent has written, so with numjobs=4096 a few MiB of them cost
 * seconds of forking (4096 forks x ~0.3 ms per 9 MiB). MADV_DONTFORK
 * leaves them out; a child gets its own slot as a copy on the stack.
 */
void *runner_parent_calloc(size_t n, size_t size)
{
	size_t len = (n ? n : 1) * size;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	(void)madvise(p, len, MADV_DONTFORK); /* an optimisation only */
	return p;
}

void runner_parent_free(void *p, size_t n, size_t size)
{
	if (p)
		munmap(p, (n ? n : 1) * size);
}

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

	while (first < run->nr_jobs && !runner_stop_requested && !r->exit_run) {
		end = first + 1;
		while (end < run->nr_jobs && !run->jobs[end].stonewall)
			end++;
		runner_evidence_before(r, first, end, batch++);
		ret = set_schedulers(r, first, end, d);
		if (!ret)
			ret = runner_start_batch(r, first, end, d);
		if (ret) {
			runner_stop_requested = 1;
			runner_forward_stop(r, first, end, SIGTERM);
			runner_wait_batch(r, first, end);
			return ret;
		}
		runner_wait_batch(r, first, end);
		runner_evidence_after(r, first, end);
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
	r->slots = runner_parent_calloc(run->nr_jobs, sizeof(*r->slots));
	if (!r->res->stats || !r->slots)
		return ib_diag_set(d, ENOMEM, "no memory for %u job slots",
				   run->nr_jobs);
	for (i = 0; i < run->nr_jobs; i++) {
		r->slots[i].args.job = &run->jobs[i];
		r->slots[i].ops = ib_engine_find(run->jobs[i].ioengine);
		r->slots[i].args.st = &r->res->stats[i];
		r->slots[i].args.readonly = run->readonly;
		r->slots[i].args.nr_jobs = run->nr_jobs;
		/* a process has its own copy of runner_stop_requested; a thread its flag */
		r->slots[i].args.stop = run->jobs[i].thread ? &r->slots[i].stop
							    : &runner_stop_requested;
		r->res->stats[i].live.state = IB_ST_NOT_STARTED;
		if (runner_own_seed(&r->slots[i], d) < 0)
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
	runner_parent_free(r->slots, r->run->nr_jobs, sizeof(*r->slots));
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
	pthread_mutex_init(&r->gate.mu, NULL);
	pthread_cond_init(&r->gate.cv, NULL);
	runner_install_handlers();
	ret = setup_slots(r, d);
	if (!ret)
		ret = runner_check_all(r, d);
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
		runner_gather_evidence(r, paths, npaths);
	free(paths);
	return ret;
}

void ib_runner_layout(struct ib_runner *r, FILE *msg)
{
	r->msg = msg;
	runner_layout_all(r);
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
		runner_layout_all(r);
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
			runner_calibrate(r, &clock);
		ib_disk_start(res->diskset);
		r->start_ns = ib_now_ns();
		ret = runner_watch_setup(r);
		if (ret)
			ret = ib_diag_set(d, ENOMEM, "no memory for the status copies and interval rings");
		else
			ret = run_batches(r, d);
		if (!ret)
			ret = ib_grouplogs_write(run, d);
		ib_iosched_restore();
		ib_disk_stop(res->diskset);
		res->disks = res->diskset->util;
		res->nr_disks = res->diskset->nr;
		runner_clear_eta_line(r);
		runner_watch_poll(r, true);
	}
	runner_watch_free(r);
	res->interrupted = runner_stop_requested != 0 || r->job_signalled;
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

void ib_runner_abort(struct ib_runner *r)
{
	if (!r)
		return;
	free_slots(r);
	free(r);
}

void ib_result_free(const struct ib_plan *run, struct ib_result *res)
{
	if (res->stats)
		ib_shm_free(res->stats, run->nr_jobs * sizeof(struct ib_job_stats));
	free(res->diskset);
	runner_parent_free(res->evidence, run->nr_jobs, sizeof(*res->evidence));
	free(res->env);
	res->diskset = NULL;
	res->evidence = NULL;
	res->env = NULL;
	res->stats = NULL;
	res->disks = NULL;
}
