// SPDX-License-Identifier: GPL-2.0-only
/*
 * The loop's submit/reap batching. Given (iodepth_batch_submit,
 * iodepth_batch_complete_max) or defaults=fio: fixed, as asked. Left to
 * iobench's defaults on an asynchronous engine at a depth above 1: chosen
 * by what the run measures, since the better way depends on where the
 * target completes its I/Os:
 *
 * - in the submitting call (a tmpfs file, zram, the null engine): every
 *   I/O of a batch is done by the time the one io_uring_enter returns, so
 *   one call per refill is pure gain (a third of the kernel time per I/O);
 * - on another CPU (a loop device's worker, a disk): a batch waits in the
 *   block layer's plug until the whole refill has been issued, and only
 *   then wakes the worker, which drains the queue while the job sleeps.
 *   Completions come in bursts of the whole depth and the device idles
 *   between them; one I/O per call hands each to the worker at once.
 *
 * Then, with the batching chosen, a second probe of the same shape asks
 * whether to spin: poll for completions for up to IB_SPIN_NS before a
 * blocking wait, instead of sleeping at once. Where the completions come
 * from our own io-wq worker (a tmpfs file), the job otherwise catches up
 * with the worker and sleeps every few I/Os, and each sleep and wake-up
 * costs more than the poll (alternated runs on the 2-vCPU VM: +21% to
 * +27% IOPS on a tmpfs file, +29% to +61% on zram, less CPU per I/O).
 * Where another kernel thread completes them (the loop device's worker)
 * the poll takes the CPU that thread needs (-10%): so measured, not
 * assumed.
 *
 * The policy measures rather than guesses: IB_BATCH_SLICES slices of
 * SLICE_NS, alternating the two ways (the order swapped at every probe, so
 * a drift of the machine lands on both), the completions of each counted;
 * one I/O per call (or the spin) is kept only when it completed more than
 * MARGIN more in all and more in every pair of slices (the batched way
 * costs less CPU). The pairs are the noise test: a job that shares its
 * CPUs with others (8 jobs on 2 vCPUs) completes in a slice what the
 * scheduler gave it, and one lucky slice made the sum's 2% before. With
 * the sum alone, 66-93 of ~280 probes of the 8-job randrw line on zram
 * chose one I/O per call and 84-86 the spin, where neither helps (the
 * I/Os complete in the submitting call); with every pair, 9-21 and 25-31
 * (16 alternated rounds of 2 s, twice; IOPS 0.98x and 1.04x, within the
 * VM's noise; a single job on zram and on the loop device: unchanged, and
 * the spin still chosen where it wins: doc/performance.md).
 *
 * A probe ends after the first pair of slices that way 1 did not win:
 * decide() can no longer keep it, and its other slices would only cost.
 * This ends every probe the earlier rule ended (the batched way more than
 * 20% ahead after a pair, which measured +4% on libaio on a tmpfs file,
 * +5% on the loop device, +1% on zram, where one I/O per call is 20-30%
 * behind), and, where the two ways are level, half the probes after one
 * pair: the costlier way runs one slice of the probe's six instead of
 * three. Probes repeat, the period doubling from FIRST_PERIOD_NS to
 * MAX_PERIOD_NS, so a change of the target's behaviour is followed. Each
 * probe's winner is counted in the job's statistics (the JSON's effective
 * options).
 */
#include "loop_priv.h"

#define SLICE_NS	20000000ull	/* 20 ms */
#define FIRST_PERIOD_NS	500000000ull	/* 0.5 s after the first probe */
#define MAX_PERIOD_NS	8000000000ull
#define MARGIN_PCT	2u

static void set_mode(struct ib_loop *l, unsigned int mode)
{
	struct ib_loop_batch *b = &l->batch;

	b->mode = (uint8_t)mode;
	b->submit = mode == IB_BATCH_ONE ? 1 : l->c.job->iodepth_batch_submit;
	b->complete_max = mode == IB_BATCH_ONE ? 1 :
			  l->c.job->iodepth_batch_complete_max;
}

void ib_loop_batch_init(struct ib_loop *l)
{
	const struct ib_job *job = l->c.job;
	struct ib_loop_batch *b = &l->batch;

	b->on = !(l->c.ops->flags & IB_ENGINE_SYNC) && job->iodepth > 1 &&
		job->defaults == IB_DEFAULTS_IOBENCH && !job->batch_submit_given &&
		!job->batch_complete_max_given;
	b->slice = IB_BATCH_SLICES;
	b->next_ns = 0;			/* the first reap starts a probe */
	b->period_ns = FIRST_PERIOD_NS;
	b->dim = 0;
	b->spin = false;
	l->c.st->batch_adaptive = b->on;
	set_mode(l, IB_BATCH_ALL);
}

static uint64_t completed(const struct ib_loop *l)
{
	return l->cum_ios[0] + l->cum_ios[1] + l->cum_ios[2];
}

/* The way being probed now: the batching (dim 0) or the spin (dim 1). */
static unsigned int way(const struct ib_loop_batch *b)
{
	return b->dim ? b->spin : b->mode;
}

static void set_way(struct ib_loop *l, unsigned int w)
{
	if (l->batch.dim)
		l->batch.spin = w;
	else
		set_mode(l, w);
}

/*
 * A probe's last slice ended: keep the way that completed more; way 1 (one
 * I/O per call, spinning) must complete MARGIN more, as it costs more CPU,
 * and more in every pair of slices: a lead that a pair contradicts is the
 * noise of the slices, not the way's (see the comment at the top).
 * The batching's probe is followed by the spin's; after that, settled.
 */
static void decide(struct ib_loop *l, uint64_t now)
{
	struct ib_loop_batch *b = &l->batch;
	unsigned int won = b->pairs_won == IB_BATCH_SLICES / 2 &&
			   b->got[1] * 100 > b->got[0] * (100 + MARGIN_PCT);

	set_way(l, won);
	if (b->dim)
		l->c.st->batch_spin_won[won]++;
	else
		l->c.st->batch_won[won]++;
	b->slice = IB_BATCH_SLICES;
	if (!b->dim && (l->c.ops->flags & IB_ENGINE_SPIN)) {
		b->dim = 1;		/* the spin's probe next */
		return;
	}
	b->dim = 0;
	b->next_ns = now + b->period_ns;
	if (b->period_ns < MAX_PERIOD_NS)
		b->period_ns *= 2;
}

/*
 * The spin, when the policy keeps it: look for completions without
 * blocking until IB_SPIN_NS have passed; what came, 0 or -errno.
 */
int ib_loop_spin_reap(struct ib_loop *l, unsigned int max)
{
	uint64_t end = ib_clock_ns(l->c.clock) + IB_SPIN_NS;
	int n;

	do {
		n = l->c.ops->reap(l->c.ctx, 0, max, l->done, 0);
		if (n)
			return n;
	} while (ib_clock_ns(l->c.clock) < end && !*l->c.stop);
	return 0;
}

/*
 * After a whole pair of slices that way 1 (one I/O per call, the spin: the
 * costlier one) did not win: it can no longer be kept (decide()), so the
 * rest of the probe would only cost. A lead of way 1 never ends a probe:
 * it has to win every pair, and MARGIN_PCT in all.
 */
static bool pair_lost(const struct ib_loop_batch *b)
{
	return !(b->slice & 1) && b->pairs_won < b->slice / 2;
}

void ib_loop_batch_step(struct ib_loop *l, uint64_t now)
{
	struct ib_loop_batch *b = &l->batch;
	unsigned int first;

	if (b->slice != IB_BATCH_SLICES) {
		uint64_t n = completed(l) - b->mark;

		b->got[way(b)] += n;
		if (!(b->slice & 1))
			b->pair_first = n;
		else	/* the pair's second slice ran the other way */
			b->pairs_won += way(b) ? n > b->pair_first :
						 b->pair_first > n;
		if (++b->slice == IB_BATCH_SLICES || pair_lost(b)) {
			decide(l, now);
			if (!b->dim)
				return;		/* settled until next_ns */
		}
	}
	if (b->slice == IB_BATCH_SLICES) {	/* a new probe */
		b->got[0] = b->got[1] = 0;
		b->pairs_won = 0;
		b->slice = 0;
	}
	/* which way goes first alternates from one probe to the next */
	first = (unsigned int)(l->c.st->batch_won[0] + l->c.st->batch_won[1] +
			       b->dim) & 1;
	set_way(l, (b->slice & 1) ^ first);
	b->mark = completed(l);
	b->next_ns = now + SLICE_NS;
}
